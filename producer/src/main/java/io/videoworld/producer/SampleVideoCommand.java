package io.videoworld.producer;

import io.videoworld.media.video.SampleVideo;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code videoworld sample-video}: writes the generated demo video. */
@Command(name = "sample-video", mixinStandardHelpOptions = true,
        description = "Write a generated 640x360 video with hard cuts at known times (the demo's input).")
public final class SampleVideoCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "OUT", description = "output .mp4 file")
    Path out;

    @Option(names = "--seconds", defaultValue = "60", description = "length (default: ${DEFAULT-VALUE})")
    double seconds;

    @Override
    public Integer call() throws Exception {
        List<Double> cuts = SampleVideo.DEMO_CUTS.stream().filter(c -> c < seconds).toList();
        SampleVideo.write(out, 640, 360, 25, seconds, cuts);
        System.out.println("wrote " + out + " (" + seconds + " s, cuts at " + cuts + " s)");
        return 0;
    }
}
