package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.videoworld.clients.llm.ChatMessage;
import io.videoworld.clients.llm.LlmClient;
import io.videoworld.clients.llm.LlmConfig;
import io.videoworld.clients.llm.LlmException;
import io.videoworld.core.Json;
import io.videoworld.testkit.ScriptedLlm.Reply;
import io.videoworld.testkit.ScriptedLlm;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LlmClientTest {
    private ScriptedLlm llm;
    private LlmClient client;

    @BeforeEach
    void start() throws Exception {
        llm = ScriptedLlm.start();
        client = new LlmClient(new LlmConfig(llm.baseUrl(), "scripted-model", "secret-key", Duration.ofMillis(800), 2, true));
    }

    @AfterEach
    void stop() {
        llm.close();
    }

    @Test
    void aToolCallComesBackWithItsArgumentsAndTheCostIsCounted() throws Exception {
        llm.script(Reply.toolCall("sample_frames", "{\"video_id\":\"harbour\",\"num_frames\":4}"));
        ChatMessage answer = client.chat(List.of(ChatMessage.system("You watch videos."), ChatMessage.user("What is at the harbour?")),
                List.of(new LlmClient.ToolSpec("sample_frames", "Sample frames.", Json.MAPPER.readTree("{\"type\":\"object\"}"))), false);
        assertThat(answer.toolCalls()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("sample_frames");
            assertThat(Json.MAPPER.readTree(c.arguments()).get("num_frames").asInt()).isEqualTo(4);
        });
        var sent = llm.requests().get(0);
        assertThat(sent.get("model").asText()).isEqualTo("scripted-model");
        assertThat(sent.get("tools").get(0).get("function").get("name").asText()).isEqualTo("sample_frames");
        assertThat(client.usage().calls()).isEqualTo(1);
        assertThat(client.usage().promptTokens()).isPositive();
    }

    @Test
    void imagesTravelAsDataUrlsAndJsonModeIsAskedFor() throws Exception {
        llm.script(Reply.text("{\"seen\": true}"));
        client.chat(List.of(ChatMessage.userWithImages("Describe.", List.of(new byte[] {1, 2, 3}))), List.of(), true);
        var sent = llm.requests().get(0);
        assertThat(sent.get("response_format").get("type").asText()).isEqualTo("json_object");
        assertThat(sent.get("messages").get(0).get("content").get(1).get("image_url").get("url").asText())
                .isEqualTo("data:image/jpeg;base64,AQID");
    }

    @Test
    void overloadAndServerErrorsAreRetried() throws Exception {
        llm.script(Reply.error(429), Reply.error(503), Reply.text("third time lucky"));
        assertThat(client.chat(List.of(ChatMessage.user("hi")), List.of(), false).content()).isEqualTo("third time lucky");
        assertThat(llm.requests()).hasSize(3);
    }

    @Test
    void aSlowModelTimesOutAndFailsAfterTheRetries() {
        llm.respondWith(r -> Reply.text("too late").after(2_000));
        assertThatThrownBy(() -> client.chat(List.of(ChatMessage.user("hi")), List.of(), false))
                .isInstanceOf(LlmException.class).hasMessageContaining("after 3 attempts");
        assertThat(client.usage().failures()).isEqualTo(1);
    }

    @Test
    void aClientErrorIsNotRetried() {
        llm.script(Reply.error(400), Reply.text("never asked"));
        assertThatThrownBy(() -> client.chat(List.of(ChatMessage.user("hi")), List.of(), false)).hasMessageContaining("HTTP 400");
        assertThat(llm.requests()).hasSize(1);
    }
}
