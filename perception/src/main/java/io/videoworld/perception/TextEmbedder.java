package io.videoworld.perception;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import ai.djl.MalformedModelException;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.inference.Predictor;
import ai.djl.repository.zoo.Criteria;
import ai.djl.repository.zoo.ModelNotFoundException;
import ai.djl.repository.zoo.ZooModel;
import ai.djl.translate.TranslateException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * 384-dimension sentence embeddings with all-MiniLM-L6-v2 (int8 ONNX) on DJL's OnnxRuntime
 * engine, from the directory {@code deploy/models.sh} fills. One instance holds one predictor:
 * create it in an operator's {@code open()} and close it in {@code close()}; calls from several
 * threads take turns.
 */
public final class TextEmbedder implements AutoCloseable {
    public static final int DIMENSIONS = 384;
    public static final String MODEL_DIR = "all-minilm-l6-v2-q";

    private final HuggingFaceTokenizer tokenizer;
    private final ZooModel<String, float[]> model;
    private final Predictor<String, float[]> predictor;
    /**
     * Recent texts' embeddings: agents ask the same questions again and screens show the same text
     * frame after frame, while one embedding costs milliseconds of CPU and calls take turns.
     */
    private final Cache<String, float[]> recent = Caffeine.newBuilder().maximumSize(RECENT).recordStats().build();
    private static final int RECENT = 2048;

    private TextEmbedder(HuggingFaceTokenizer tokenizer, ZooModel<String, float[]> model) {
        this.tokenizer = tokenizer;
        this.model = model;
        this.predictor = model.newPredictor();
    }

    /** Loads the model from {@code <models>/all-minilm-l6-v2-q}; a clear error if it was never provisioned. */
    public static TextEmbedder load(Path models) throws IOException {
        Path dir = models.resolve(MODEL_DIR);
        if (!Files.isRegularFile(dir.resolve("model.onnx")) || !Files.isRegularFile(dir.resolve("tokenizer.json"))) {
            throw new IOException("no text embedding model in " + dir + "; run deploy/models.sh");
        }
        HuggingFaceTokenizer tokenizer = HuggingFaceTokenizer.newInstance(dir.resolve("tokenizer.json"),
                Map.of("maxLength", "256", "truncation", "true", "padding", "false"));
        try {
            ZooModel<String, float[]> model = OrtSessions.tuned(Criteria.builder().setTypes(String.class, float[].class)
                    .optModelPath(dir.resolve("model.onnx")).optEngine("OnnxRuntime")
                    .optTranslator(new MiniLmTranslator(tokenizer))).build().loadModel();
            return new TextEmbedder(tokenizer, model);
        } catch (ModelNotFoundException | MalformedModelException e) {
            tokenizer.close();
            throw new IOException("cannot load " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * The unit-length embedding of a text (a copy the caller may change). A text seen recently is
     * answered from memory; otherwise the model runs, serialised: a DJL predictor must not run on
     * two threads at once.
     */
    public float[] embed(String text) {
        float[] known = text.length() <= 4096 ? recent.getIfPresent(text) : null;
        if (known != null) {
            return known.clone();
        }
        float[] v;
        synchronized (this) {
            try {
                v = predictor.predict(text);
            } catch (TranslateException e) {
                throw new IllegalStateException("embedding failed", e);
            }
        }
        if (text.length() <= 4096) {
            recent.put(text, v.clone());
        }
        return v;
    }

    /** Hits and misses of the recent texts' embeddings, for metrics. */
    public CacheStats cacheStats() {
        return recent.stats();
    }

    @Override
    public void close() {
        predictor.close();
        model.close();
        tokenizer.close();
    }
}
