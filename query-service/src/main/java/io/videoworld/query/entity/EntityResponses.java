package io.videoworld.query.entity;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;

/**
 * The entity family's answers in the seeds' shape: records Jackson writes in snake_case with
 * their fields in this order, leaving out fields that are null (unknown, or not asked for).
 */
public final class EntityResponses {
    private EntityResponses() {}

    /**
     * register_entity; {@code note} when no track passes under the box and the entity holds the box
     * only; {@code name} when a person was named (the id is then the person's in every stream).
     */
    public record Registered(String entityId, double[] matchedBbox, double confidence, String visualSignature, List<String> associatedTracks,
            String category, double frameTimestamp, String note, String name) {}

    /** list_entities. */
    public record Entities(List<Listed> entities, int totalCount) {}

    /**
     * One entity and when it is on screen: a registered one ({@code kind} "entity"), a named person
     * ("person", with its {@code name}) or a tracked object no registered entity claims
     * ("track", its track id as {@code entity_id}).
     */
    public record Listed(String entityId, String kind, String hint, double firstSeen, double lastSeen, double totalDuration, String category,
            List<String> tracks, String name) {}

    /** track_entity (seed 001: get_entity_trajectory): one piece per track and scene. */
    public record Trajectory(String entityId, List<Piece> trajectory, double totalAppearanceDuration, Double firstAppearance,
            Double lastAppearance, int sceneTransitions) {}

    /** The entity on one track within one scene; {@code stream_id} when the track is of another stream (a person named there too). */
    public record Piece(double startTime, double endTime, String sceneId, String trackId, List<BoxAt> bboxes, String pathSummary,
            double avgSpeed, double occlusionRatio, String streamId) {}

    /** Where the entity was at one time. */
    public record BoxAt(double time, double[] bbox, double confidence) {}

    /** query_entity_state; {@code vlm_error} when the vision model failed and the structured answer stands. */
    public record State(String vlmError, String answer, String answerSource, double confidence, String supportingEvidence, double[] bbox,
            double frameTimestamp, List<String> labels, List<String> ocrText, Picture crop, String note) {}

    /** A picture in the answer. */
    public record Picture(String format, String data) {}

    /** spatial_relation: with an object, its {@link Pair} inline (and whether the asked relation holds); without, every pair. */
    public record Spatial(double timestamp, double frameTimestamp, Named subject, @JsonUnwrapped Pair pair, String relation, Boolean holds,
            List<Pair> pairs, String method) {}

    /** A subject or object: its id or description and its box. */
    public record Named(String id, double[] bbox) {}

    /** How the subject relates to one object. */
    public record Pair(Named object, List<String> relations, Distance distance) {}

    /** Distances between subject and object, in the image plane. */
    public record Distance(double centreNormalized, double edgeNormalized, long centrePixels) {}
}
