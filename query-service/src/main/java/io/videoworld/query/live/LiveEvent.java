package io.videoworld.query.live;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Names;
import io.videoworld.query.api.Decimals;
import java.util.ArrayList;
import java.util.List;

/**
 * One thing the ingest job indexed, as a live event and an alert's payload: a shot boundary, a new or
 * merged episode, a track seen or ended, a stretch of speech recognised (or failed). Times are seconds of the stream's presentation time, as
 * the tools answer them; fields that do not apply to a type are left out.
 *
 * @param type {@code shot}, {@code episode}, {@code track} or {@code speech}
 * @param change shot: {@code new}; episode: {@code new} (revision 1) or {@code merged}; track:
 *     {@code seen} while alive, {@code ended} once it is not; speech: {@code said}, or {@code failed} when
 *     the recogniser failed on it
 * @param id the document's id (segment, event or track id)
 * @param summary episode summary
 * @param details episode details
 * @param labels episode labels, or a track's category
 * @param category track category
 * @param samples track samples matched
 * @param revision episode revision
 * @param transition how the shot began (cut, dissolve, fade, ...)
 * @param epochMs the push the document belongs to
 * @param text speech: what was said (redacted as the job stores it), null when recognition failed
 * @param recognizer speech: the recogniser that made (or failed to make) the text
 */
public record LiveEvent(String type, String change, String streamId, String id, double startTime, double endTime, String summary,
        String details, List<String> labels, String category, Integer samples, Long revision, String transition, long epochMs,
        String text, String recognizer) {

    /** The event a document of vw-shots, vw-episodes, vw-tracks or vw-transcripts stands for; null for anything else (scenes). */
    public static LiveEvent of(String index, String id, JsonNode d) {
        String stream = d.path("stream_id").asText();
        long epoch = d.path("epoch_ms").asLong();
        switch (index) {
            case Names.SHOTS_INDEX -> {
                if (!"shot".equals(d.path("kind").asText())) {
                    return null;
                }
                return new LiveEvent("shot", "new", stream, id, sec(d.path("start_pts_ms")), sec(d.path("end_pts_ms")), null, null, null,
                        null, null, null, d.path("transition_in").asText(null), epoch, null, null);
            }
            case Names.EPISODES_INDEX -> {
                long revision = d.path("revision").asLong(1);
                List<String> labels = new ArrayList<>();
                d.path("labels").forEach(l -> labels.add(l.asText()));
                return new LiveEvent("episode", revision <= 1 ? "new" : "merged", stream, id, sec(d.path("start_pts_ms")),
                        sec(d.path("end_pts_ms")), d.path("summary").asText(null), d.path("details").asText(null), labels, null, null,
                        revision, null, epoch, null, null);
            }
            case Names.TRACKS_INDEX -> {
                String category = d.path("category").asText();
                return new LiveEvent("track", d.path("alive").asBoolean(false) ? "seen" : "ended", stream, id,
                        sec(d.path("first_seen_ms")), sec(d.path("last_seen_ms")), null, null, List.of(category), category,
                        d.path("samples").asInt(), null, null, epoch, null, null);
            }
            case Names.TRANSCRIPTS_INDEX -> {
                boolean ok = "ok".equals(d.path("status").asText());
                return new LiveEvent("speech", ok ? "said" : "failed", stream, id, sec(d.path("start_ms")), sec(d.path("end_ms")), null, null,
                        null, null, null, null, null, epoch, ok ? d.path("text").asText(null) : null, d.path("recognizer").asText(null));
            }
            default -> {
                return null;
            }
        }
    }

    private static double sec(JsonNode ms) {
        return Decimals.round(ms.asLong() / 1000.0, 3);
    }
}
