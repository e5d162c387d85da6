package io.videoworld.operators.privacy;

import io.videoworld.connectors.es.EsDocuments;
import io.videoworld.connectors.es.EsWrite;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.SourceKind;
import io.videoworld.core.WindowExcluded;
import io.videoworld.engines.privacy.ExclusionRules;
import io.videoworld.engines.privacy.WindowExclusion;
import io.videoworld.operators.deadletters.GuardedProcessFunction;
import io.videoworld.perception.OcrEngine;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * The first stage after the Kafka edge when exclusion rules are set: each screen frame's chrome (the top
 * band only) is read and matched ({@link WindowExclusion}); an excluded frame goes on as a flat grey
 * picture of its size, thumbnail dropped, so shots, the frame store, OCR, detection and memory never
 * see its window, and the fact (time, rule) leaves as a {@code vw-exclusions} document on {@link #EXCLUDED}.
 */
public final class ExcludeWindows extends GuardedProcessFunction<FrameBatch, FrameBatch> {
    /** The stage named in dead letters. */
    public static final String STAGE = "exclude-windows";
    /** The exclusion documents. */
    public static final OutputTag<EsWrite> EXCLUDED = new OutputTag<>("window-exclusions", TypeInformation.of(EsWrite.class));

    private final String models;
    private final ExclusionRules rules;
    private transient OcrEngine ocr;
    private transient WindowExclusion exclusion;

    /** Reads chrome with the OCR model under {@code models}. */
    public ExcludeWindows(String models, ExclusionRules rules) {
        super(STAGE);
        this.models = models;
        this.rules = rules;
    }

    @Override
    public void open(OpenContext context) throws Exception {
        ocr = OcrEngine.load(Path.of(models));
        exclusion = new WindowExclusion(ocr, rules);
    }

    @Override
    public void close() throws Exception {
        if (ocr != null) {
            ocr.close();
        }
    }

    @Override
    protected void process(FrameBatch in, Context ctx, Collector<FrameBatch> out) {
        if (in.sourceKind() != SourceKind.SCREEN) {
            out.collect(in); // windows are a screen's: a camera's frames are not read for chrome
            return;
        }
        List<Frame> frames = null;
        for (int i = 0; i < in.frames().size(); i++) {
            Frame f = in.frames().get(i);
            String rule = exclusion.excludedBy(f.jpeg());
            if (rule == null) {
                if (frames != null) {
                    frames.add(f);
                }
                continue;
            }
            if (frames == null) {
                frames = new ArrayList<>(in.frames().subList(0, i));
            }
            frames.add(new Frame(f.index(), f.ptsMs(), f.captureTimeMs(), f.width(), f.height(), WindowExclusion.blank(f.width(), f.height()), null));
            ctx.output(EXCLUDED, EsDocuments.exclusion(new WindowExcluded(in.streamId(), in.epochMs(), f.index(), f.ptsMs(), in.eventTimeMs(f), rule)));
        }
        out.collect(frames == null ? in : new FrameBatch(in.streamId(), in.sourceKind(), in.sourceUri(), in.seq(), in.epochMs(), in.source(),
                frames, in.last()));
    }
}
