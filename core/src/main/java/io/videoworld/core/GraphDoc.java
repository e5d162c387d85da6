package io.videoworld.core;

import java.util.List;

/**
 * One node or edge of the memory graph, one document in {@code vw-graph}, or the deletion of one
 * ({@code deleted}) when the record it was derived from is deleted. Its id follows from that
 * record's id and the relation, so a replay rewrites the same document.
 *
 * @param id document id
 * @param streamId the stream
 * @param epochMs the push
 * @param type {@link #NODE} or {@link #EDGE}
 * @param kind a node's kind (person, object, app, document, site, episode, utterance, speaker, user, camera)
 *     or an edge's relation (appears_in, does, says, uses, opens, visits, returns_to)
 * @param level an edge's tier in the search: {@link #HIGH} (entities and their relations), {@link #LOW}
 *     (events with clip ids) or {@link #UTTERANCE}; a node's is {@link #NODE}
 * @param sourceId the edge's source node id (the node's own id for a node)
 * @param sourceLabel the source's name
 * @param targetId the edge's target node id, null for a node
 * @param targetLabel the target's name, null for a node
 * @param text one sentence saying the node or edge, what a search matches
 * @param startMs presentation time it starts
 * @param endMs presentation time it ends
 * @param frameIds evidence frame ids (empty where its record names none)
 * @param clipId the record it was derived from: an event, track, activity or transcript id
 * @param progress how far its record had got (its revision or samples): orders its versions
 * @param deleted this write removes the document
 */
public record GraphDoc(String id, String streamId, long epochMs, String type, String kind, String level, String sourceId, String sourceLabel,
        String targetId, String targetLabel, String text, long startMs, long endMs, List<String> frameIds, String clipId, long progress,
        boolean deleted) {
    public static final String NODE = "node";
    public static final String EDGE = "edge";
    public static final String HIGH = "high";
    public static final String LOW = "low";
    public static final String UTTERANCE = "utterance";

    /** The same document as a deletion. */
    public GraphDoc asDeletion() {
        return new GraphDoc(id, streamId, epochMs, type, kind, level, sourceId, sourceLabel, targetId, targetLabel, text, startMs, endMs, frameIds,
                clipId, progress, true);
    }
}
