package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.esread.TranscriptRepository;
import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.connectors.kafka.KafkaTopics;
import io.videoworld.producer.AudioPusher;
import io.videoworld.connectors.kafka.KafkaProducers;
import io.videoworld.media.video.SourceLocator;
import io.videoworld.core.AudioChunk;
import io.videoworld.core.AudioChunkCodec;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.FrameBatchCodec;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import io.videoworld.core.SourceKind;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.query.api.Args;
import io.videoworld.query.perception.AudioTools;
import io.videoworld.query.perception.PerceptionResponses;
import io.videoworld.testkit.MalformedRecords;
import io.videoworld.testkit.TestInfra;
import java.awt.Color;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A recorded voice through the whole job: a stream's frame and its audio (Debian alsa-utils'
 * "front center", with silence around it) on Kafka, the job with audio on, the stretch of speech
 * indexed in vw-transcripts with the recogniser's name, and get_transcript and
 * detect_audio_events answering from the index; a corrupt audio record in the dead-letter topic.
 */
class SpeechEndToEndTest {
    private static final String STREAM = "spoken-words";
    private static final long EPOCH = System.currentTimeMillis();

    @RegisterExtension
    static final MiniClusterExtension FLINK = IngestRun.miniCluster();

    @Test
    void aSpokenWordBecomesAnIndexedTranscriptThatGetTranscriptReturns() throws Exception {
        TestInfra infra = TestInfra.get();
        KafkaTopics.ensure(infra.kafkaBootstrap(), 2, "speech.audio", "speech.frames", "speech.dlq");
        List<AudioChunk> chunks = new ArrayList<>();
        AudioPusher.chunks(ModelDirectory.samples().resolve("speech").resolve("Front_Center.wav").toString(), STREAM, EPOCH, chunks::add);
        byte[] key = STREAM.getBytes(StandardCharsets.UTF_8);
        try (KafkaProducer<byte[], byte[]> p = KafkaProducers.create(infra.kafkaBootstrap())) {
            p.send(new ProducerRecord<>("speech.frames", key, FrameBatchCodec.encode(new FrameBatch(STREAM, SourceKind.VIDEO, null, 0, EPOCH, null,
                    List.of(new Frame(0, 0, null, 64, 36, MalformedRecords.jpeg(64, 36, Color.GRAY))))))).get();
            // One second of silence, the recording (shifted by that second), then three of silence.
            float[] silence = new float[AudioChunk.RATE];
            p.send(new ProducerRecord<>("speech.audio", key, AudioChunkCodec.encode(AudioChunk.s16(STREAM, 0, EPOCH, 0, silence, 0, silence.length)))).get();
            for (AudioChunk c : chunks) {
                AudioChunk shifted = new AudioChunk(STREAM, c.seq() + 1, EPOCH, c.ptsMs() + 1000, c.sampleRate(), c.channels(), c.format(), c.samples(), c.pcm());
                p.send(new ProducerRecord<>("speech.audio", key, AudioChunkCodec.encode(shifted))).get();
            }
            long next = 1000 + chunks.get(chunks.size() - 1).ptsMs() + chunks.get(chunks.size() - 1).durationMs();
            for (int i = 0; i < 3; i++) {
                p.send(new ProducerRecord<>("speech.audio", key, AudioChunkCodec.encode(
                        AudioChunk.s16(STREAM, chunks.size() + 1 + i, EPOCH, next + i * 1000L, silence, 0, silence.length)))).get();
            }
            p.send(new ProducerRecord<>("speech.audio", key, new byte[] {'V', 'A', 1, 0x13})).get();
        }
        Path store = Files.createTempDirectory("speech-frames");
        JobClient job = IngestRun.start(infra, "speech", store, conf -> {
            conf.set(DetectOptions.ENABLED, false);
            conf.set(PerceptionOptions.ENABLED, false);
            conf.set(MemoryOptions.ENABLED, false);
            conf.set(AudioOptions.ENABLED, true);
            conf.set(AudioOptions.TOPIC, "speech.audio");
        });
        try (RestClientTransport transport = EsClients.transport(infra.elasticsearchUrl())) {
            ElasticsearchClient es = EsClients.sync(transport);
            Query mine = Query.of(q -> q.bool(b -> b.filter(IngestRun.term("stream_id", STREAM)).filter(IngestRun.term("epoch_ms", String.valueOf(EPOCH)))));
            IngestRun.await("the spoken words indexed", 240, () -> IngestRun.count(es, Names.TRANSCRIPTS_INDEX, mine) >= 1
                    && IngestRun.count(es, Names.VIDEOS_INDEX, Query.of(q -> q.term(t -> t.field("stream_id").value(STREAM)))) >= 1);
            JsonNode doc = es.search(s -> s.index(Names.TRANSCRIPTS_INDEX).query(mine), JsonNode.class).hits().hits().get(0).source();
            System.out.println("indexed: " + doc);
            assertThat(doc.path("recognizer").asText()).isEqualTo("sphinx4:en-us");
            assertThat(doc.path("status").asText()).isEqualTo("ok");
            // The spoken words are searchable as text.
            assertThat(IngestRun.count(es, Names.TRANSCRIPTS_INDEX, Query.of(q -> q.bool(b -> b.filter(mine)
                    .must(m -> m.match(t -> t.field("text").query("center"))))))).isEqualTo(1);

            AudioTools tools = new AudioTools(new VideoRepository(es), new TranscriptRepository(es), null, SourceLocator.direct());
            PerceptionResponses.Transcript t = tools.getTranscript(Args.of(Json.MAPPER.readTree("{\"video_id\":\"" + STREAM + "\"}")));
            System.out.println("get_transcript: " + t);
            assertThat(t.source()).isEqualTo("transcripts:sphinx4:en-us");
            assertThat(t.transcript()).singleElement().satisfies(l -> {
                assertThat(l.text()).contains("center");
                assertThat(l.startTime()).isBetween(0.8, 1.6);
            });
            assertThat(tools.getTranscript(Args.of(Json.MAPPER.readTree(
                    "{\"video_id\":\"" + STREAM + "\",\"time_range\":{\"start_time\":4,\"end_time\":6}}"))).transcript()).isEmpty();
            PerceptionResponses.AudioEvents events = tools.detectAudioEvents(Args.of(Json.MAPPER.readTree("{\"video_id\":\"" + STREAM + "\"}")));
            assertThat(events.audioEvents()).singleElement().satisfies(e -> {
                assertThat(e.eventType()).isEqualTo("speech");
                assertThat(e.confidence()).isGreaterThan(0.5);
            });
            assertThat(events.source()).contains("silero-vad-v5");

            var dead = IngestRun.read(infra, "speech.dlq", 1, true);
            assertThat(dead).singleElement().satisfies(r -> assertThat(new String(r.headers().lastHeader(Names.DLQ_REASON_HEADER).value(),
                    StandardCharsets.UTF_8)).contains("CBOR"));
        } finally {
            job.cancel().get();
        }
    }
}
