package io.videoworld.perception.audio;

import edu.cmu.sphinx.api.Configuration;
import edu.cmu.sphinx.api.Context;
import edu.cmu.sphinx.recognizer.Recognizer;
import edu.cmu.sphinx.result.Result;
import edu.cmu.sphinx.result.WordResult;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The embedded offline recogniser: CMU Sphinx4 with its US English acoustic model, dictionary and
 * trigram language model, all from Maven Central ({@code net.sf.phat:sphinx4-data}), in process.
 * The models are loaded once (seconds, a few hundred megabytes); each call decodes one stretch.
 * Not thread-safe: one instance per thread.
 */
public final class SphinxRecognizer implements SpeechRecognizer {
    public static final String NAME = "sphinx4:en-us";
    private static final String MODELS = "resource:/edu/cmu/sphinx/models/en-us/";

    private final Context context;
    private final Recognizer recognizer;

    /** The recogniser with Sphinx4's own search settings. */
    public SphinxRecognizer() throws IOException {
        this(Map.of());
    }

    /**
     * The recogniser with some of Sphinx4's global search settings replaced (names as in its
     * {@code default.config.xml}: {@code absoluteBeamWidth}, {@code relativeBeamWidth},
     * {@code absoluteWordBeamWidth}, {@code relativeWordBeamWidth}, {@code languageWeight},
     * {@code wordInsertionProbability}, ...); a name with {@code ->} sets one component's property
     * instead ({@code speechClassifier->threshold}).
     */
    public SphinxRecognizer(Map<String, String> settings) throws IOException {
        // Sphinx4 logs every configuration step through java.util.logging at INFO.
        Logger.getLogger("edu.cmu.sphinx").setLevel(Level.WARNING);
        Logger.getLogger("default.config").setLevel(Level.WARNING);
        Configuration conf = new Configuration();
        conf.setAcousticModelPath(MODELS + "en-us");
        conf.setDictionaryPath(MODELS + "cmudict-en-us.dict");
        conf.setLanguageModelPath(MODELS + "en-us.lm.bin");
        conf.setSampleRate(16_000);
        context = new Context(conf);
        settings.forEach((k, v) -> {
            if (k.contains("->")) {
                context.setLocalProperty(k, v);
            } else {
                context.setGlobalProperty(k, v);
            }
        });
        recognizer = context.getInstance(Recognizer.class);
        recognizer.allocate();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Recognition recognize(float[] samples) {
        ByteBuffer pcm = ByteBuffer.allocate(samples.length * 2).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : samples) {
            pcm.putShort((short) Math.max(-32768, Math.min(32767, Math.round(v * 32767))));
        }
        context.setSpeechSource(new ByteArrayInputStream(pcm.array()));
        List<Recognition.Word> words = new ArrayList<>();
        Result r;
        while ((r = recognizer.recognize()) != null) {
            // The best path's words with their frames; the lattice SpeechResult.getWords reads can miss a node and throw.
            for (WordResult w : r.getTimedBestResult(false)) {
                if (!w.isFiller() && !w.getWord().isSentenceEndWord() && !w.getWord().isSentenceStartWord()) {
                    words.add(new Recognition.Word(w.getWord().getSpelling(), w.getTimeFrame().getStart(), w.getTimeFrame().getEnd()));
                }
            }
        }
        StringBuilder text = new StringBuilder();
        for (Recognition.Word w : words) {
            text.append(text.length() == 0 ? "" : " ").append(w.word());
        }
        return new Recognition(text.toString(), words);
    }

    @Override
    public void close() {
        recognizer.deallocate();
    }
}
