package io.videoworld.query.perception;

import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.clients.llm.ChatMessage;
import io.videoworld.clients.llm.LlmClient;
import io.videoworld.clients.llm.LlmException;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.Args;
import io.videoworld.query.api.TimeRange;
import io.videoworld.query.perception.PerceptionResponses.Description;
import io.videoworld.query.video.FrameAccess;
import io.videoworld.query.video.Videos;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Seed 000 API-5 {@code describe_visual} (seed 001 {@code describe_segment}) through the
 * configured vision-language model: frames of the range (1, 3 or 8 by detail level, or exactly the
 * given frame ids) go to the model as images, its words come back as {@code description} (and
 * {@code caption}, seed 001's name). Registered only when a vision model is configured; the
 * model gives no calibrated confidence, so the seed's {@code confidence} is left out rather than invented.
 */
public final class DescribeTools {
    private static final String PROMPT = "Describe what happens in these frames of one video clip, in order, in two to four "
            + "factual sentences: who or what is visible, what they do, any readable text. Do not guess beyond the frames.";

    private final VideoRepository videos;
    private final FrameAccess frames;
    private final LlmClient vlm;

    public DescribeTools(VideoRepository videos, FrameAccess frames, LlmClient vlm) {
        this.videos = videos;
        this.frames = frames;
        this.vlm = vlm;
    }

    /** Seed 000 API-5. */
    public Description describeVisual(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        double[] span = args.requiredSpan(Videos.durationSeconds(v));
        double start = span[0];
        double end = span[1];
        String detail = args.optionalChoice("detail_level", Set.of("brief", "standard", "medium", "detailed"), "standard");
        String focus = args.optionalChoice("focus", Set.of("people", "actions", "objects", "scene"), null);
        List<FrameAccess.Image> images = new ArrayList<>();
        if (args.has("frame_source")) {
            for (String id : args.stringList("frame_source")) {
                if (!id.startsWith(v.streamId() + ":f:")) {
                    throw ApiException.badField("frame_source", "frame '" + id + "' is not a frame of '" + v.streamId() + "'");
                }
                images.add(frames.byId(id, v));
            }
        } else {
            int n = switch (detail) {
                case "brief" -> 1;
                case "detailed" -> 8;
                default -> 3;
            };
            List<Double> times = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                times.add(start + (end - start) * (i + 0.5) / n);
            }
            images.addAll(frames.at(v, times));
        }
        String text;
        try {
            ChatMessage reply = vlm.chat(List.of(ChatMessage.system(PROMPT + (focus == null ? "" : " Focus on the " + focus + ".")),
                    ChatMessage.userWithImages("Frames from " + start + " s to " + end + " s.",
                            images.stream().map(FrameAccess.Image::jpeg).toList())), List.of(), false);
            text = reply.content().trim();
        } catch (LlmException e) {
            throw new ApiException(502, "model_unavailable", null, "the vision model failed: " + e.getMessage());
        }
        return new Description(text, text, new TimeRange(start, end), images.stream().map(FrameAccess.Image::frameId).toList(), images.size(),
                vlm.config().model());
    }
}
