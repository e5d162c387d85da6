package io.videoworld.bench;

import io.videoworld.media.video.JpegEncoder;
import io.videoworld.media.video.SmallFrameDecoder;
import io.videoworld.media.video.SourceFrame;
import io.videoworld.media.video.VideoFrameSource;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.FrameFeatures;
import io.videoworld.core.SourceKind;
import io.videoworld.engines.shots.FeatureExtractor;
import io.videoworld.engines.shots.ShotParams;
import io.videoworld.engines.shots.ShotTracker;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where the time of the from-the-file shot path goes, stage by stage, each stage alone on one
 * thread after a warm-up pass: FFmpeg decode and scale ({@link SmallFrameDecoder}), features
 * from the decoded pixels, the shot tracker; and, for comparison, what the ingest path pays for the
 * same frames: the pusher's full decode with a 640-px JPEG and an 80-px JPEG thumbnail per frame,
 * and the job's features from that thumbnail. {@code bin/videoworld bench shot-stages FILE...}.
 */
public final class ShotStages {
    private ShotStages() {}

    public static void main(String[] args) throws Exception {
        BenchRecord.start("shot-stages", args);
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        System.out.println("| file | frames | decode ms/frame (wall, cpu) | features ms/frame | tracker ms/frame "
                + "| ingest path: push ms/frame | ingest path: features from thumbnail ms/frame |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|");
        for (int pass = 0; pass < 2; pass++) {
            for (String file : args) {
                List<SmallFrameDecoder.Picture> pics = new ArrayList<>();
                long c0 = os.getProcessCpuTime();
                long t0 = System.nanoTime();
                int sw;
                int sh;
                double fps;
                try (SmallFrameDecoder d = new SmallFrameDecoder(file, FeatureExtractor.WIDTH, 0, true)) {
                    SmallFrameDecoder.Picture p;
                    while ((p = d.next()) != null) {
                        pics.add(p);
                    }
                    sw = d.sourceWidth();
                    sh = d.sourceHeight();
                    fps = d.fps();
                }
                double decWall = (System.nanoTime() - t0) / 1e6;
                double decCpu = (os.getProcessCpuTime() - c0) / 1e6;
                long t1 = System.nanoTime();
                List<FrameFeatures> feats = new ArrayList<>(pics.size());
                for (SmallFrameDecoder.Picture p : pics) {
                    feats.add(FeatureExtractor.fromBgr("s", SourceKind.VIDEO, file, p.index(), p.ptsMs(), sw, sh, p.bgr(), p.width(), p.height()));
                }
                double featMs = (System.nanoTime() - t1) / 1e6;
                long t2 = System.nanoTime();
                ShotTracker tracker = ShotTracker.start(ShotParams.defaults(), fps);
                ShotTracker.Output out = ShotTracker.Output.shots(s -> { });
                for (int i = 0; i < feats.size(); i++) {
                    tracker.accept(feats.get(i), pics.get(i).bgr(), out);
                }
                tracker.finish(out);
                double trackMs = (System.nanoTime() - t2) / 1e6;
                long t3 = System.nanoTime();
                List<FrameBatch> pushed = new ArrayList<>();
                try (VideoFrameSource src = new VideoFrameSource(file, 0, new JpegEncoder(640, 85))) {
                    SourceFrame f;
                    long i = 0;
                    while ((f = src.next()) != null) {
                        pushed.add(new FrameBatch("s", SourceKind.VIDEO, file, 0, 0, src.info(),
                                List.of(new Frame(i++, f.ptsMs(), null, f.width(), f.height(), f.jpeg(), f.thumb()))));
                    }
                }
                double pushMs = (System.nanoTime() - t3) / 1e6;
                long t4 = System.nanoTime();
                for (FrameBatch b : pushed) {
                    FeatureExtractor.extract(b, b.frames().get(0));
                }
                double thumbMs = (System.nanoTime() - t4) / 1e6;
                if (pass == 1) {
                    int n = pics.size();
                    System.out.printf(Locale.ROOT, "| %s | %d | %.3f, %.3f | %.3f | %.3f | %.3f | %.3f |%n", file.substring(file.lastIndexOf('/') + 1), n,
                            decWall / n, decCpu / n, featMs / n, trackMs / n, pushMs / pushed.size(), thumbMs / pushed.size());
                }
            }
        }
        System.exit(0);
    }
}
