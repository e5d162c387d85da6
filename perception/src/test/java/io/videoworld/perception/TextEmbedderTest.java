package io.videoworld.perception;

import io.videoworld.core.Vectors;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The real all-MiniLM-L6-v2 weights that deploy/models.sh provisions, on DJL's OnnxRuntime engine. */
class TextEmbedderTest {
    private static TextEmbedder embedder;


    @BeforeAll
    static void load() throws Exception {
        embedder = TextEmbedder.load(ModelDirectory.locate());
    }

    @AfterAll
    static void close() {
        embedder.close();
    }

    @Test
    void sentencesThatMeanTheSameAreCloserThanUnrelatedOnes() {
        float[] bike = embedder.embed("A man is riding a bicycle down the street.");
        float[] cyclist = embedder.embed("Someone cycles along the road.");
        float[] markets = embedder.embed("Quarterly earnings fell short of analyst expectations.");
        assertThat(bike).hasSize(TextEmbedder.DIMENSIONS);
        double norm = Vectors.cosine(bike, bike);
        assertThat(norm).isCloseTo(1.0, within(1e-4));
        assertThat(Vectors.cosine(bike, cyclist)).isGreaterThan(Vectors.cosine(bike, markets) + 0.3);
    }

    @Test
    void screenTextFindsItsApplication() {
        float[] query = embedder.embed("spreadsheet with quarterly sales figures");
        float[] sheet = embedder.embed("Sales Q3 | Revenue | Total | =SUM(B2:B9)");
        float[] chat = embedder.embed("hey are we still on for lunch tomorrow?");
        assertThat(Vectors.cosine(query, sheet)).isGreaterThan(Vectors.cosine(query, chat));
    }

    @Test
    void poolingIgnoresPaddingAndNormalises() {
        float[] hidden = {1, 2, 3, 4, 100, 100};
        float[] pooled = MiniLmTranslator.meanPool(hidden, new long[] {1, 1, 0}, 2);
        assertThat(pooled).containsExactly(2f, 3f);
        float[] unit = Vectors.normaliseInPlace(new float[] {3, 4});
        assertThat(unit).containsExactly(0.6f, 0.8f);
    }
}
