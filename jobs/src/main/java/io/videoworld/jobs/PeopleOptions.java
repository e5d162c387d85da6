package io.videoworld.jobs;

import java.time.Duration;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/** Settings of the person operator: body pose of tracked people and their activities. */
public final class PeopleOptions {
    public static final ConfigOption<Boolean> ENABLED = ConfigOptions.key("vw.people.enabled").booleanType()
            .defaultValue(false).withDescription("Pose tracked people (MoveNet from deploy/models.sh) and write their activities "
                    + "to vw-activities; needs detection. Off by default: each posed sample costs a pose inference on the job's cores.");
    public static final ConfigOption<Duration> INTERVAL = ConfigOptions.key("vw.people.interval").durationType()
            .defaultValue(Duration.ofMillis(500)).withDescription("Presentation time between two posed samples of one person, at least.");
    public static final ConfigOption<Integer> MAX_FRAMES = ConfigOptions.key("vw.people.max-frames").intType()
            .defaultValue(16).withDescription("Sampled frames per stream held for the track documents that name them; "
                    + "a sample older than these is not posed.");

    private PeopleOptions() {}
}
