package io.videoworld.engines.shots;

import io.videoworld.core.FrameFeatures;
import java.util.ArrayList;
import java.util.List;

/**
 * The recent frames of one stream by position, with what the detectors read of each: its content
 * score against the frame before, its BGR picture and the same at half size.
 *
 * <p>Pictures are rebuilt from the HSV images on restore, so only frames and scores are state.
 */
final class FrameWindow implements BlendModel.Frames {
    private long firstPosition;
    private final ArrayList<FrameFeatures> frames;
    private final ArrayList<Double> contents;
    private final ArrayList<byte[]> pictures;
    private final ArrayList<byte[]> halves;
    /** The pictures and halves widened to ints for the blend fits, made when first read (heap only, never state). */
    private final ArrayList<int[]> pictureInts;
    private final ArrayList<int[]> halfInts;

    FrameWindow(long firstPosition, List<FrameFeatures> frames, List<Double> contents) {
        this.firstPosition = firstPosition;
        this.frames = new ArrayList<>(frames);
        this.contents = new ArrayList<>(contents);
        this.pictures = new ArrayList<>(frames.size());
        this.halves = new ArrayList<>(frames.size());
        this.pictureInts = new ArrayList<>(frames.size());
        this.halfInts = new ArrayList<>(frames.size());
        for (FrameFeatures f : frames) {
            addPicture(f, null);
        }
    }

    /** Appends a frame ({@code bgr}: its decoded picture, or null to rebuild it from the HSV image). */
    void add(FrameFeatures f, byte[] bgr) {
        FrameFeatures prev = last();
        frames.add(f);
        addPicture(f, bgr);
        contents.add(prev == null ? 0.0 : FrameDistance.content(prev, f));
    }

    private void addPicture(FrameFeatures f, byte[] decoded) {
        byte[] bgr = decoded != null && decoded.length == f.hsv().length ? decoded : BlendModel.bgr(f);
        pictures.add(bgr);
        halves.add(BlendModel.half(bgr, f.featureWidth()));
        pictureInts.add(null);
        halfInts.add(null);
    }

    long firstPosition() {
        return firstPosition;
    }

    long lastPosition() {
        return firstPosition + frames.size() - 1;
    }

    boolean isEmpty() {
        return frames.isEmpty();
    }

    /** The newest frame, null before any. */
    FrameFeatures last() {
        return frames.isEmpty() ? null : frames.get(frames.size() - 1);
    }

    @Override
    public boolean has(long position) {
        return position >= firstPosition && position <= lastPosition();
    }

    FrameFeatures at(long position) {
        return frames.get(index(position));
    }

    double contentAt(long position) {
        return contents.get(index(position));
    }

    @Override
    public byte[] bgr(long position) {
        return pictures.get(index(position));
    }

    @Override
    public byte[] small(long position) {
        return halves.get(index(position));
    }

    @Override
    public int[] ints(long position) {
        return widened(pictureInts, pictures, index(position));
    }

    @Override
    public int[] smallInts(long position) {
        return widened(halfInts, halves, index(position));
    }

    private static int[] widened(ArrayList<int[]> cache, ArrayList<byte[]> from, int i) {
        int[] v = cache.get(i);
        if (v == null) {
            v = MixFit.widen(from.get(i));
            cache.set(i, v);
        }
        return v;
    }

    @Override
    public int width() {
        return frames.isEmpty() ? 1 : frames.get(0).featureWidth();
    }

    private int index(long position) {
        return (int) (position - firstPosition);
    }

    /** Drops frames before {@code keepFrom} (always keeping one) and the JPEGs of frames before {@code noJpegBefore}. */
    void trim(long keepFrom, long noJpegBefore) {
        int drop = (int) Math.max(0, Math.min(keepFrom - firstPosition, frames.size() - 1));
        if (drop > 0) {
            frames.subList(0, drop).clear();
            contents.subList(0, drop).clear();
            pictures.subList(0, drop).clear();
            halves.subList(0, drop).clear();
            pictureInts.subList(0, drop).clear();
            halfInts.subList(0, drop).clear();
            firstPosition += drop;
        }
        for (long k = firstPosition; k < noJpegBefore && has(k); k++) {
            FrameFeatures f = at(k);
            if (f.jpeg() != null && f.jpeg().length > 0) {
                frames.set(index(k), stripJpeg(f));
            }
        }
    }

    private static FrameFeatures stripJpeg(FrameFeatures f) {
        return new FrameFeatures(f.streamId(), f.sourceKind(), f.sourceUri(), f.epochMs(), f.frameIndex(), f.ptsMs(),
                f.eventTimeMs(), f.batchSeq(), f.width(), f.height(), f.featureWidth(), f.featureHeight(), f.hsv(), f.hist(), f.luma(),
                f.dhash(), new byte[0]);
    }

    List<FrameFeatures> frames() {
        return List.copyOf(frames);
    }

    List<Double> contents() {
        return List.copyOf(contents);
    }
}
