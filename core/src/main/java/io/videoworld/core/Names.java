package io.videoworld.core;

/** Default topic and index names, shared by the producer, the job and the query service. */
public final class Names {
    public static final String FRAMES_TOPIC = "vw.frames";
    public static final String DLQ_TOPIC = "vw.dlq";
    /** Audio chunks ({@link AudioChunk}), keyed by stream id. */
    public static final String AUDIO_TOPIC = "vw.audio";
    /** Stretches of speech and their transcripts ({@link TranscriptDoc}). */
    public static final String TRANSCRIPTS_INDEX = "vw-transcripts";
    /** The ingest job's speech operator's name; {@code /health} looks for it among the job's vertices. */
    public static final String SPEECH_STAGE = "speech: voice activity, recognition";
    public static final String VIDEOS_INDEX = "vw-videos";
    public static final String FRAMES_INDEX = "vw-frames";
    public static final String SHOTS_INDEX = "vw-shots";
    public static final String PERCEPTION_INDEX = "vw-perception";
    public static final String DETECTIONS_INDEX = "vw-detections";
    public static final String TRACKS_INDEX = "vw-tracks";
    public static final String ACTIVITIES_INDEX = "vw-activities";
    public static final String ENTITIES_INDEX = "vw-entities";
    /** Each person's append-only history: named, linked to a track, seen doing something. */
    public static final String PEOPLE_INDEX = "vw-people";
    public static final String EPISODES_INDEX = "vw-episodes";
    public static final String EPISODE_DECISIONS_INDEX = "vw-episode-decisions";
    public static final String MEMORIES_INDEX = "vw-memories";
    /** The memory graph ({@link GraphDoc}): nodes and edges derived from episodes, tracks, activities and transcripts. */
    public static final String GRAPH_INDEX = "vw-graph";
    /** Documents Elasticsearch refused for their content, with index, id and reason. */
    public static final String DEAD_LETTERS_INDEX = "vw-dead-letters";
    /** Frames whose window an exclusion rule kept from perception and storage: when, and which rule; never what they showed. */
    public static final String EXCLUSIONS_INDEX = "vw-exclusions";
    /** Exclusion rules set per stream over REST, every version kept (read by the ingest job). */
    public static final String RULES_INDEX = "vw-rules";
    /** Standing queries with webhooks (the query service's alerts) and the engine's read position. */
    public static final String ALERTS_INDEX = "vw-alerts";
    /** Each alert firing and its webhook attempts. */
    public static final String ALERT_DELIVERIES_INDEX = "vw-alert-deliveries";

    /** Kafka headers on dead letters. */
    public static final String DLQ_REASON_HEADER = "vw.reason";
    public static final String DLQ_SOURCE_HEADER = "vw.source";
    public static final String DLQ_STAGE_HEADER = "vw.stage";

    private Names() {}
}
