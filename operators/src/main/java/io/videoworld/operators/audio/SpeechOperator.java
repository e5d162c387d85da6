package io.videoworld.operators.audio;

import io.videoworld.core.AudioChunk;
import io.videoworld.core.TranscriptDoc;
import io.videoworld.operators.deadletters.GuardedKeyedProcessFunction;
import io.videoworld.operators.timers.IdleTimer;
import io.videoworld.perception.audio.Recognition;
import io.videoworld.perception.audio.SileroVad;
import io.videoworld.engines.audio.Speech;
import io.videoworld.perception.audio.SpeechRecognizer;
import io.videoworld.engines.audio.SpeechSegmenter;
import io.videoworld.engines.audio.SpeechState;
import io.videoworld.operators.deadletters.Failures;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.util.Collector;

/**
 * Speech in a stream's audio, keyed by stream: each chunk goes through {@link SpeechSegmenter}
 * (Silero VAD), each stretch it closes to the recogniser, and out as a {@link TranscriptDoc},
 * a failed recognition as {@link TranscriptDoc#FAILED} with its reason. State: the stream's
 * {@link SpeechState} and its idle timer; the timer, {@code idleMs} of event time after the
 * stream's last audio, or the end-of-audio mark a producer sends after a push, closes what is
 * open and clears both. Recognition runs on the task thread.
 */
public final class SpeechOperator extends GuardedKeyedProcessFunction<String, AudioChunk, TranscriptDoc> {
    public static final String STAGE = "speech";

    private final String models;
    private final RecognizerSettings recognizer;
    private final SpeechSegmenter.Params params;
    private final long idleMs;
    private io.videoworld.engines.privacy.Redactor redactor = io.videoworld.engines.privacy.Redactor.NONE;

    private transient SileroVad vad;
    private transient SpeechSegmenter segmenter;
    private transient SpeechRecognizer asr;
    private transient ValueState<SpeechState> state;
    private transient ValueState<Long> timer;

    public SpeechOperator(String models, RecognizerSettings recognizer, SpeechSegmenter.Params params, long idleMs) {
        super(STAGE);
        this.models = models;
        this.recognizer = recognizer;
        this.params = params;
        this.idleMs = idleMs;
    }

    /** Secrets and personal data in what was said are redacted before the transcript leaves the operator. */
    public SpeechOperator redacting(io.videoworld.engines.privacy.Redactor r) {
        this.redactor = r == null ? io.videoworld.engines.privacy.Redactor.NONE : r;
        return this;
    }

    @Override
    public void open(OpenContext ctx) throws Exception {
        vad = new SileroVad(Path.of(models));
        segmenter = new SpeechSegmenter(vad, params);
        asr = recognizer.create();
        state = getRuntimeContext().getState(new ValueStateDescriptor<>("speech", TypeInformation.of(SpeechState.class)));
        timer = getRuntimeContext().getState(new ValueStateDescriptor<>("speech-idle-timer", Types.LONG));
    }

    @Override
    public void close() throws Exception {
        if (asr != null) {
            asr.close();
        }
        if (vad != null) {
            vad.close();
        }
    }

    @Override
    protected void process(AudioChunk chunk, Context ctx, Collector<TranscriptDoc> out) throws Exception {
        if (chunk.isEnd()) {
            // The push's sound is over: what is open is closed and recognised now, and the stream's state goes.
            SpeechState s = state.value();
            List<Speech> closed = s == null ? List.of() : segmenter.flush(s);
            state.clear();
            IdleTimer.cancel(timer, ctx.timerService());
            for (Speech speech : closed) {
                out.collect(transcribe(chunk.streamId(), speech));
            }
            return;
        }
        SpeechState s = state.value();
        if (s == null) {
            s = SpeechSegmenter.start(chunk);
        }
        List<Speech> closed = segmenter.accept(s, chunk);
        state.update(s);
        IdleTimer.rearm(timer, ctx.timerService(), s.lastEventMs, idleMs);
        for (Speech speech : closed) {
            out.collect(transcribe(chunk.streamId(), speech));
        }
    }

    @Override
    protected void timer(long timestamp, OnTimerContext ctx, Collector<TranscriptDoc> out) throws Exception {
        SpeechState s = state.value();
        List<Speech> closed = s == null ? List.of() : segmenter.flush(s);
        state.clear();
        timer.clear();
        for (Speech speech : closed) {
            out.collect(transcribe(ctx.getCurrentKey(), speech));
        }
    }

    @Override
    protected void forget(OnTimerContext ctx) throws Exception {
        state.clear();
        IdleTimer.cancel(timer, ctx.timerService());
    }

    /** RMS level in dBFS, -100 for digital silence. */
    static double loudnessDb(float[] samples) {
        double sum = 0;
        for (float v : samples) {
            sum += v * v;
        }
        double rms = Math.sqrt(sum / Math.max(1, samples.length));
        return rms < 1e-5 ? -100 : 20 * Math.log10(rms);
    }

    /** What the recogniser made of a stretch, or its failure. */
    TranscriptDoc transcribe(String streamId, Speech s) {
        double p = Math.round(s.meanProbability() * 1000) / 1000.0;
        double db = Math.round(loudnessDb(s.samples()) * 10) / 10.0;
        try {
            Recognition r = asr.recognize(s.samples());
            List<TranscriptDoc.Word> words = new ArrayList<>();
            for (Recognition.Word w : r.words()) {
                words.add(new TranscriptDoc.Word(w.word(), s.startMs() + w.startMs(), s.startMs() + w.endMs()));
            }
            String text = r.text();
            io.videoworld.engines.privacy.Redactor.Redacted red = text == null ? null : redactor.redact(text);
            if (red != null && !red.kinds().isEmpty()) {
                // A secret read out in several words (a card number in groups) shows only in the whole text: the words go with it.
                text = red.text();
                words = List.of();
            }
            return new TranscriptDoc(streamId, s.epochMs(), s.startMs(), s.endMs(), p, db, SileroVad.NAME, asr.name(), TranscriptDoc.OK, text,
                    words, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while recognising speech", e);
        } catch (Exception e) {
            return new TranscriptDoc(streamId, s.epochMs(), s.startMs(), s.endMs(), p, db, SileroVad.NAME, asr.name(), TranscriptDoc.FAILED, null,
                    List.of(), Failures.describe(e));
        }
    }
}
