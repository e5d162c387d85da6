package io.videoworld.query.agent;

import io.videoworld.connectors.es.SegmentRepository;
import io.videoworld.connectors.es.VideoRepository;
import io.videoworld.core.Ids;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.Segment;
import io.videoworld.core.VideoDoc;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The memory the agent searches. What is indexed so far is the streams' shot structure, so
 * evidence is the shots of the named streams inside the time range, in time order; episodes,
 * tracks and transcripts join this search (BM25 + embeddings) as they land, without changing the
 * agent. Each clip's text line says only what is known about it, nothing invented.
 */
public final class EvidenceSearch {
    static final int MAX_CLIPS = 40;

    private final VideoRepository videos;
    private final SegmentRepository segments;

    public EvidenceSearch(VideoRepository videos, SegmentRepository segments) {
        this.videos = videos;
        this.segments = segments;
    }

    public List<Evidence> search(List<String> streams, double from, double to) throws IOException {
        List<Evidence> out = new ArrayList<>();
        for (String stream : streams) {
            VideoDoc v = videos.find(stream).orElse(null);
            if (v == null) {
                continue;
            }
            for (Segment s : segments.list(stream, v.epochMs(), Segment.SHOT)) {
                double a = s.startPtsMs() / 1000.0;
                double b = s.endPtsMs() / 1000.0;
                if (b <= from || a >= to || out.size() >= MAX_CLIPS) {
                    continue;
                }
                List<String> ids = s.keyframes().stream().map(k -> Ids.frame(stream, k.frameIndex())).toList();
                int clip = out.size() + 1;
                String text = String.format(Locale.ROOT, "[clip %d] stream %s, %.1f-%.1f s: a shot that begins with a %s; keyframes at %s s",
                        clip, stream, a, b, "start".equals(s.transitionIn()) ? "the start of the stream" : s.transitionIn(),
                        String.join(", ", s.keyframes().stream().map(KeyframeRef::ptsMs)
                                .map(ms -> String.format(Locale.ROOT, "%.1f", ms / 1000.0)).toList()));
                out.add(new Evidence(clip, stream, s.id(), a, b, ids, ids.stream().map(id -> "/v1/frames/" + id + "?width=160").toList(),
                        List.of(), text));
            }
        }
        return out;
    }
}
