package io.videoworld.perception;

import io.videoworld.core.Vectors;
import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.translate.NoBatchifyTranslator;
import ai.djl.translate.TranslatorContext;
import java.nio.LongBuffer;

/**
 * Sentence embeddings from all-MiniLM-L6-v2: word pieces in, the mean of the token vectors
 * (padding masked out) normalised to length 1 out, as sentence-transformers computes it. The
 * pooling runs on plain arrays, so the OnnxRuntime engine needs no PyTorch for NDArray math.
 */
public final class MiniLmTranslator implements NoBatchifyTranslator<String, float[]> {
    private final HuggingFaceTokenizer tokenizer;
    private long[] mask;

    public MiniLmTranslator(HuggingFaceTokenizer tokenizer) {
        this.tokenizer = tokenizer;
    }

    @Override
    public NDList processInput(TranslatorContext ctx, String text) {
        Encoding enc = tokenizer.encode(text == null ? "" : text);
        mask = enc.getAttentionMask();
        NDManager m = ctx.getNDManager();
        Shape shape = new Shape(1, enc.getIds().length);
        NDArray ids = m.create(LongBuffer.wrap(enc.getIds()), shape, DataType.INT64);
        ids.setName("input_ids");
        NDArray attention = m.create(LongBuffer.wrap(enc.getAttentionMask()), shape, DataType.INT64);
        attention.setName("attention_mask");
        NDArray types = m.create(LongBuffer.wrap(enc.getTypeIds()), shape, DataType.INT64);
        types.setName("token_type_ids");
        return new NDList(ids, attention, types);
    }

    @Override
    public float[] processOutput(TranslatorContext ctx, NDList list) {
        NDArray hidden = list.get(0);
        long[] shape = hidden.getShape().getShape();
        return Vectors.normaliseInPlace(meanPool(hidden.toFloatArray(), mask, (int) shape[shape.length - 1]));
    }

    /** Mean of the token vectors whose mask is 1; {@code hidden} is tokens x dim, row-major. */
    static float[] meanPool(float[] hidden, long[] mask, int dim) {
        float[] out = new float[dim];
        int count = 0;
        for (int t = 0; t < mask.length; t++) {
            if (mask[t] == 0) {
                continue;
            }
            count++;
            for (int d = 0; d < dim; d++) {
                out[d] += hidden[t * dim + d];
            }
        }
        for (int d = 0; d < dim; d++) {
            out[d] /= Math.max(1, count);
        }
        return out;
    }
}
