package io.videoworld.jobs;

import java.time.Duration;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/** Settings of the person operator: body pose of tracked people, their activities and, opt-in, their faces. */
public final class PeopleOptions {
    public static final ConfigOption<Boolean> ENABLED = ConfigOptions.key("vw.people.enabled").booleanType()
            .defaultValue(false).withDescription("Pose tracked people (MoveNet from deploy/models.sh) and write their activities "
                    + "to vw-activities; needs detection. Off by default: each posed sample costs a pose inference on the job's cores.");
    public static final ConfigOption<Duration> INTERVAL = ConfigOptions.key("vw.people.interval").durationType()
            .defaultValue(Duration.ofMillis(500)).withDescription("Presentation time between two posed samples of one person, at least.");
    public static final ConfigOption<Integer> MAX_FRAMES = ConfigOptions.key("vw.people.max-frames").intType()
            .defaultValue(16).withDescription("Sampled frames per stream held for the track documents that name them; "
                    + "a sample older than these is not posed.");

    public static final ConfigOption<Boolean> FACES = ConfigOptions.key("vw.people.faces").booleanType()
            .defaultValue(false).withDescription("Look for the faces of posed people (BlazeFace and faceres from deploy/models.sh), "
                    + "describe them, and link each track's face to a person across streams: a face event per track in vw-people. "
                    + "Needs vw.people.enabled. Off by default: face recognition is opt-in, and each face costs two inferences.");
    public static final ConfigOption<Integer> FACES_PER_TRACK = ConfigOptions.key("vw.people.faces-per-track").intType()
            .defaultValue(3).withDescription("Faces averaged into one track's face descriptor; no face is looked for in the track after these.");
    public static final ConfigOption<Double> FACE_THRESHOLD = ConfigOptions.key("vw.people.face-threshold").doubleType()
            .defaultValue(io.videoworld.engines.people.FaceLinks.THRESHOLD).withDescription("Mean cosine similarity of a track's face "
                    + "to a person's tracks' faces from which the track is that person.");
    public static final ConfigOption<Duration> FACE_MEMORY = ConfigOptions.key("vw.people.face-memory").durationType()
            .defaultValue(Duration.ofDays(7)).withDescription("Event time without any face after which the people known by face are "
                    + "forgotten by the job (their vw-people events stay).");
    public static final ConfigOption<Integer> FACE_PEOPLE = ConfigOptions.key("vw.people.face-people").intType()
            .defaultValue(10_000).withDescription("People known by face kept by the job, at most; the one seen longest ago goes first.");

    private PeopleOptions() {}
}
