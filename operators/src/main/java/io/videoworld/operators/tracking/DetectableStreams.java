package io.videoworld.operators.tracking;

import io.videoworld.core.FrameBatch;
import io.videoworld.core.SourceKind;
import org.apache.flink.api.common.functions.FilterFunction;

/**
 * Which batches the detection branch samples: every video's, and a screen stream's only when
 * {@code screens}. A desktop rarely shows what a COCO detector finds, and its 1280x800 frames cost
 * the detector (and their decode) the CPU that OCR needs to keep up with live screens; a screen's
 * keyframes are still detected by perception, so its perception documents keep their objects.
 */
public final class DetectableStreams implements FilterFunction<FrameBatch> {
    private final boolean screens;

    public DetectableStreams(boolean screens) {
        this.screens = screens;
    }

    @Override
    public boolean filter(FrameBatch batch) {
        return screens || batch.sourceKind() != SourceKind.SCREEN;
    }
}
