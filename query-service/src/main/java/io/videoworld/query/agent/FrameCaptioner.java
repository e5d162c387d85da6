package io.videoworld.query.agent;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.clients.llm.ChatMessage;
import io.videoworld.clients.llm.LlmClient;
import io.videoworld.clients.llm.LlmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Words for frames. With a vision model, one call describes a batch of frames; otherwise (or if
 * that call fails) each frame is described by what is known of it — its id, time and where the
 * picture came from — and the text says that no model looked at it.
 */
public final class FrameCaptioner {
    /** A frame to describe. */
    public record Shot(String frameId, double time, byte[] jpeg) {}

    private final LlmClient llm;

    FrameCaptioner(LlmClient llm) {
        this.llm = llm;
    }

    List<String> captions(List<Shot> frames) {
        if (llm != null && llm.config().vision() && !frames.isEmpty()) {
            try {
                ChatMessage reply = llm.chat(List.of(ChatMessage.system(Prompts.CAPTION),
                        ChatMessage.userWithImages("Describe these " + frames.size() + " frames.",
                                frames.stream().map(Shot::jpeg).toList())), List.of(), true);
                JsonNode list = JsonBlocks.lastObject(reply.content()).map(j -> j.path("captions")).orElse(null);
                if (list != null && list.isArray() && list.size() == frames.size()) {
                    List<String> out = new ArrayList<>();
                    for (int i = 0; i < frames.size(); i++) {
                        out.add(label(frames.get(i)) + ": " + list.get(i).asText());
                    }
                    return out;
                }
            } catch (LlmException e) {
                // fall through to what is known without a model
            }
        }
        return frames.stream().map(f -> label(f) + ": (not described: no vision model is configured)").toList();
    }

    static String label(Shot f) {
        return String.format(Locale.ROOT, "Frame %s at %.1f s", f.frameId(), f.time());
    }
}
