package io.videoworld.query;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.esread.FrameRepository;
import io.videoworld.connectors.esread.MemoryRepository;
import io.videoworld.connectors.esread.ObjectRepository;
import io.videoworld.connectors.esread.PerceptionRepository;
import io.videoworld.connectors.esread.SegmentRepository;
import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.connectors.framestore.FrameStore;
import io.videoworld.media.video.VideoSeeker;
import io.videoworld.query.agent.AskService;
import io.videoworld.query.agent.FrameCaptioner;
import io.videoworld.query.api.ToolCatalog;
import io.videoworld.query.api.ToolDispatcher;
import io.videoworld.query.alerts.Alerts;
import io.videoworld.query.entity.EntityLooks;
import io.videoworld.query.entity.EntityTools;
import io.videoworld.query.live.LiveEvents;
import io.videoworld.query.metrics.ServiceMetrics;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import java.util.Map;
import java.util.function.Function;
import io.videoworld.query.entity.SpatialRelations;
import io.videoworld.query.entity.TrajectoryTools;
import io.videoworld.query.memory.MemoryTools;
import io.videoworld.query.perception.ActivityTools;
import io.videoworld.query.perception.AudioTools;
import io.videoworld.query.perception.DescribeTools;
import io.videoworld.query.perception.ObjectFinder;
import io.videoworld.query.perception.ObjectTools;
import io.videoworld.query.perception.SceneTools;
import io.videoworld.connectors.esread.StreamIndex;
import io.videoworld.query.perception.VisualFacts;
import io.videoworld.query.retrieval.EvidenceSearch;
import io.videoworld.query.timeline.TimelineLanes;
import io.videoworld.query.streams.Retention;
import io.videoworld.query.streams.StreamsService;
import java.time.Clock;
import io.videoworld.query.retrieval.RetrievalTools;
import io.videoworld.query.retrieval.SimilarityTools;
import io.videoworld.query.video.CropTools;
import io.videoworld.query.video.FrameAccess;
import io.videoworld.query.video.FrameRenderer;
import io.videoworld.query.video.FrameTools;
import io.videoworld.query.video.VideoTools;

/**
 * The one place the query service is put together from a {@link QueryConfig}: the Elasticsearch
 * client and read side, frame access, every tool of the catalog registered with the dispatcher by
 * family, the agent and the health report. It owns what has to be closed: the Elasticsearch
 * transport and the video decoder's open files.
 */
final class QueryWiring implements AutoCloseable {
    /** Reads of stream and shot documents are reused this long; the index itself refreshes once a second. */
    static final long READ_CACHE_MS = 500;
    /** Live events poll this often; writes count as final after the settle time (twice the indices' 1 s refresh). */
    static final long LIVE_POLL_MS = 500;
    static final long LIVE_SETTLE_MS = 2_000;
    static final long ALERT_POLL_MS = 1_000;

    private final RestClientTransport transport;
    private final VideoSeeker seeker;
    private final ToolDispatcher dispatcher;
    private final AskService ask;
    private final FrameRenderer frames;
    private final ServiceHealth health;
    private final LiveEvents live;
    private final Alerts alerts;
    private final TimelineLanes timeline;
    private final StreamsService streams;
    private final io.videoworld.query.streams.StreamExclusions exclusions;
    private final io.videoworld.query.entity.People people;
    private final io.videoworld.query.entity.PeopleService peopleService;
    private final Retention retention;
    private final io.videoworld.query.streams.StorageBudgets budgets;

    QueryWiring(QueryConfig c, ServiceMetrics metrics) {
        this.transport = EsClients.transport(c.esUrl(), metrics.elasticsearch());
        ElasticsearchClient es = EsClients.sync(transport);
        this.seeker = new VideoSeeker();
        this.dispatcher = new ToolDispatcher(ToolCatalog.load(), c.limits());
        VideoRepository videos = new VideoRepository(es, READ_CACHE_MS);
        SegmentRepository segments = new SegmentRepository(es, READ_CACHE_MS);
        FrameRepository frameDocs = new FrameRepository(es, READ_CACHE_MS);
        PerceptionRepository perception = new PerceptionRepository(es, READ_CACHE_MS);
        MemoryRepository memory = new MemoryRepository(es, READ_CACHE_MS);
        ObjectRepository objects = new ObjectRepository(es, READ_CACHE_MS);
        FrameStore store = FrameStore.open(c.frameStore());
        FrameAccess access = new FrameAccess(frameDocs, segments, store, seeker, c.sources());
        EntityLooks looks = new EntityLooks(EntityLooks.DEFAULT_MAX_BYTES);
        this.streams = new StreamsService(new StreamIndex(es), store, id -> {
            objects.forgetStream(id);
            looks.forgetStream(id);
            memory.forgetStream(id);
        });
        this.exclusions = new io.videoworld.query.streams.StreamExclusions(new io.videoworld.connectors.es.StreamRulesStore(es), Clock.systemUTC());
        this.retention = c.retention() == null ? null : new Retention(c.retention(), streams, Clock.systemUTC());
        this.budgets = c.budget() == null ? null : new io.videoworld.query.streams.StorageBudgets(c.budget(), streams);
        this.frames = new FrameRenderer(videos, access, c.limits());

        VideoTools video = new VideoTools(videos, segments);
        dispatcher.register("get_video_info", video::getVideoInfo)
                .register("get_temporal_structure", video::getTemporalStructure)
                .register("get_segment", video::getSegment)
                .register("sample_frames", new FrameTools(videos, segments, frameDocs, access, c.limits())::sampleFrames)
                .register("crop_region", new CropTools(videos, access, c.limits())::cropRegion);

        ObjectFinder finder = new ObjectFinder(objects, access, c.detector());
        io.videoworld.connectors.esread.TranscriptRepository transcripts = new io.videoworld.connectors.esread.TranscriptRepository(es);
        AudioTools audio = new AudioTools(videos, transcripts, c.transcriber(), c.sources());
        SceneTools scene = new SceneTools(videos, finder);
        dispatcher.register("detect_objects", new ObjectTools(videos, finder, c.embedder())::detectObjects)
                .register("recognize_activity", new ActivityTools(videos, objects, new io.videoworld.connectors.esread.ActivityRepository(es))::recognizeActivity)
                .register("get_scene_attributes", scene::getSceneAttributes)
                .register("get_transcript", audio::getTranscript)
                .register("detect_audio_events", audio::detectAudioEvents);
        // Without a vision model describe_visual composes its description from what was perceived (c.vision() null).
        dispatcher.register("describe_visual", new DescribeTools(videos, access, c.vision(),
                new VisualFacts(finder, objects, perception, memory, scene, audio))::describeVisual);

        var activities = new io.videoworld.connectors.esread.ActivityRepository(es);
        var personHistory = new io.videoworld.connectors.esread.PersonHistory(es);
        this.people = new io.videoworld.query.entity.People(personHistory, activities);
        this.peopleService = new io.videoworld.query.entity.PeopleService(people, personHistory, objects, new StreamIndex(es), store, id -> {
            looks.forgetStream(id);
            memory.forgetStream(id);
        });
        EntityTools entities = new EntityTools(videos, objects, finder, c.embedder(), people);
        TrajectoryTools trajectories = new TrajectoryTools(videos, segments, perception, entities, finder, access, c.vision(), looks, activities);
        dispatcher.register("register_entity", entities::registerEntity)
                .register("list_entities", entities::listEntities)
                .register("track_entity", trajectories::trackEntity)
                .register("query_entity_state", trajectories::queryEntityState)
                .register("spatial_relation", new SpatialRelations(videos, finder, entities)::spatialRelation);

        EvidenceSearch evidence = new EvidenceSearch(videos, segments, perception, memory, c.embedder(), transcripts);
        RetrievalTools retrieval = new RetrievalTools(videos, evidence, memory, c.embedder(), audio);
        dispatcher.register("temporal_search", retrieval::temporalSearch)
                .register("search_segments_by_semantics", retrieval::searchSegmentsBySemantics)
                .register("find_similar_segments", new SimilarityTools(videos, segments, perception, objects)::findSimilarSegments);

        MemoryTools memoryTools = new MemoryTools(videos, memory, perception, segments, c.embedder(), c.llm());
        dispatcher.register("write_memory", memoryTools::writeMemory)
                .register("read_memory", memoryTools::readMemory)
                .register("merge_events", memoryTools::mergeEvents);

        this.ask = new AskService(c.llm(), evidence, new io.videoworld.query.retrieval.GraphSearch(new io.videoworld.connectors.esread.GraphRepository(es),
                videos, segments), videos, (v, times) -> access.at(v, times).stream()
                .map(i -> new FrameCaptioner.Shot(i.frameId(), i.ptsMs() / 1000.0, i.jpeg())).toList(), dispatcher);
        this.health = new ServiceHealth(es, c.ingest(), c.auth(), c.llm());
        this.live = new LiveEvents(es, LIVE_POLL_MS, LIVE_SETTLE_MS);
        this.alerts = new Alerts(es, ALERT_POLL_MS, LIVE_SETTLE_MS, c.webhooks(), metrics::alertDelivery);
        this.timeline = new TimelineLanes(es, videos, objects);

        // Each owner is held by the tools that read through it: the meters read it weakly, as Micrometer's do.
        caches(metrics, "videos", videos, VideoRepository::cacheStats);
        caches(metrics, "segments", segments, SegmentRepository::cacheStats);
        caches(metrics, "frames", frameDocs, FrameRepository::cacheStats);
        caches(metrics, "perception", perception, PerceptionRepository::cacheStats);
        caches(metrics, "memory", memory, MemoryRepository::cacheStats);
        caches(metrics, "objects", objects, ObjectRepository::cacheStats);
        caches(metrics, "audio", audio, AudioTools::cacheStats);
        caches(metrics, "evidence", evidence, EvidenceSearch::cacheStats);
        caches(metrics, "video", seeker, s -> Map.of("seeker", s.cacheStats()));
        if (c.embedder() != null) {
            caches(metrics, "text", c.embedder(), e -> Map.of("embeddings", e.cacheStats()));
        }
    }

    /** Each of an owner's caches as {@code cache_gets_total{cache="<owner>.<name>"}}, read from its statistics at each scrape. */
    private static <T> void caches(ServiceMetrics metrics, String owner, T holder, Function<T, Map<String, CacheStats>> stats) {
        for (String name : stats.apply(holder).keySet()) {
            metrics.bindCache(owner + "." + name, holder, h -> stats.apply(h).get(name).hitCount(), h -> stats.apply(h).get(name).missCount());
        }
    }

    ToolDispatcher dispatcher() {
        return dispatcher;
    }

    AskService ask() {
        return ask;
    }

    FrameRenderer frames() {
        return frames;
    }

    TimelineLanes timeline() {
        return timeline;
    }

    Alerts alerts() {
        return alerts;
    }

    LiveEvents live() {
        return live;
    }

    ServiceHealth health() {
        return health;
    }

    StreamsService streams() {
        return streams;
    }

    io.videoworld.query.streams.StreamExclusions exclusions() {
        return exclusions;
    }

    io.videoworld.query.entity.PeopleService people() {
        return peopleService;
    }

    @Override
    public void close() throws Exception {
        if (budgets != null) {
            budgets.close();
        }
        if (retention != null) {
            retention.close();
        }
        try {
            alerts.close();
            transport.close();
        } finally {
            seeker.close();
        }
    }
}
