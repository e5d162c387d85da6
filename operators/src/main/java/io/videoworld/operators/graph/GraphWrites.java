package io.videoworld.operators.graph;

import io.videoworld.connectors.es.EsDocuments;
import io.videoworld.connectors.es.EsWrite;
import io.videoworld.core.ActivityDoc;
import io.videoworld.core.EpisodeDoc;
import io.videoworld.core.GraphDoc;
import io.videoworld.core.TrackDoc;
import io.videoworld.core.TranscriptDoc;
import io.videoworld.engines.graph.MemoryGraph;
import io.videoworld.operators.deadletters.GuardedProcessFunction;
import io.videoworld.operators.deadletters.Stages;
import java.util.List;
import org.apache.flink.util.Collector;

/**
 * The memory graph's writes, derived from the job's events, tracks, activities and transcripts
 * as they are written ({@link MemoryGraph}); stateless guarded stages, one per source.
 */
public final class GraphWrites {
    private GraphWrites() {}

    /** Nodes and edges of each episodic event (deletions when it is deleted). */
    public static GuardedProcessFunction<EpisodeDoc, EsWrite> fromEpisodes() {
        return Stages.flatMap("graph-from-episodes", (EpisodeDoc e, Collector<EsWrite> out) -> emit(MemoryGraph.fromEpisode(e), out));
    }

    /** Each track's node and its edge into the stream. */
    public static GuardedProcessFunction<TrackDoc, EsWrite> fromTracks() {
        return Stages.flatMap("graph-from-tracks", (TrackDoc t, Collector<EsWrite> out) -> emit(MemoryGraph.fromTrack(t), out));
    }

    /** What each tracked person does. */
    public static GuardedProcessFunction<ActivityDoc, EsWrite> fromActivities() {
        return Stages.flatMap("graph-from-activities", (ActivityDoc a, Collector<EsWrite> out) -> emit(MemoryGraph.fromActivity(a), out));
    }

    /** Each recognised utterance. */
    public static GuardedProcessFunction<TranscriptDoc, EsWrite> fromTranscripts() {
        return Stages.flatMap("graph-from-transcripts", (TranscriptDoc t, Collector<EsWrite> out) -> emit(MemoryGraph.fromTranscript(t), out));
    }

    private static void emit(List<GraphDoc> docs, Collector<EsWrite> out) {
        docs.forEach(g -> out.collect(EsDocuments.graph(g)));
    }
}
