package io.videoworld.query.agent;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.clients.llm.ChatMessage;
import io.videoworld.clients.llm.LlmClient;
import io.videoworld.clients.llm.LlmException;
import java.util.List;
import java.util.Map;

/**
 * Seed 002's Checker: a fresh call with no history for every answer. An unreadable verdict or a
 * failed call scores 1, so nothing unchecked is ever accepted.
 */
final class Checker {
    /** A score 1-5 and what to fix. */
    record Verdict(int score, String feedback) {}

    private final LlmClient llm;
    private final Trace trace;

    Checker(LlmClient llm, Trace trace) {
        this.llm = llm;
        this.trace = trace;
    }

    Verdict judge(String question, Solver.Answer answer, List<String> citedFrames) {
        String prompt = "Question: " + question + "\n\nContext (the frames the answer cites, re-sampled):\n"
                + String.join("\n", citedFrames) + "\n\nAnswer: " + answer.finalAnswer() + "\nExplanation: " + answer.explanation();
        Verdict v;
        try {
            ChatMessage reply = llm.chat(List.of(ChatMessage.system(Prompts.CHECKER), ChatMessage.user(prompt)), List.of(), true);
            JsonNode j = JsonBlocks.lastObject(reply.content()).orElse(null);
            int score = j == null ? 0 : j.path("confidence_score").asInt(0);
            v = score >= 1 && score <= 5 ? new Verdict(score, j.path("feedback").asText(""))
                    : new Verdict(1, "the checker's verdict was not valid JSON with a 1-5 confidence_score");
        } catch (LlmException e) {
            v = new Verdict(1, "the checker could not be reached: " + e.getMessage());
        }
        trace.add("checker", Map.of("confidence_score", v.score(), "feedback", v.feedback(), "cited_frames", citedFrames.size()));
        return v;
    }
}
