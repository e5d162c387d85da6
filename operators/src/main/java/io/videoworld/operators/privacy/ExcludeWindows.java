package io.videoworld.operators.privacy;

import io.videoworld.connectors.es.EsDocuments;
import io.videoworld.connectors.es.EsWrite;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.SourceKind;
import io.videoworld.core.WindowExcluded;
import io.videoworld.core.ExclusionRules;
import io.videoworld.engines.privacy.ExclusionMark;
import io.videoworld.engines.privacy.WindowExclusion;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.StreamRulesStore;
import io.videoworld.core.StreamRules;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import io.videoworld.operators.deadletters.GuardedProcessFunction;
import io.videoworld.perception.OcrEngine;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * The first stage after the Kafka edge when exclusion rules are set: each screen frame's chrome (the top
 * band only) is read and matched ({@link WindowExclusion}); an excluded frame goes on as a flat grey
 * picture of its size, thumbnail dropped, so shots, the frame store, OCR, detection and memory never
 * see its window, and the fact (time, rule) leaves as a {@code vw-exclusions} document on {@link #EXCLUDED}.
 * The rules are the job's and, when an Elasticsearch URL is given, the stream's own ({@code vw-rules},
 * set over REST): the version whose {@code since} is the latest at or before the frame's event time.
 * A stream's rules are read again before a frame whose event time is later than the last read
 * (a version set after that read can only apply from a later time), so what is excluded depends on
 * the frames' event times and the versions, not on when the rules were read. A frame the producer
 * already excluded ({@link ExclusionMark}) is recorded without being read.
 */
public final class ExcludeWindows extends GuardedProcessFunction<FrameBatch, FrameBatch> {
    /** The stage named in dead letters. */
    public static final String STAGE = "exclude-windows";
    /** The exclusion documents. */
    public static final OutputTag<EsWrite> EXCLUDED = new OutputTag<>("window-exclusions", TypeInformation.of(EsWrite.class));

    /** How many streams' rules are kept in memory; the least recently used are read again when needed. */
    static final int STREAMS_KEPT = 1024;

    private final String models;
    private final ExclusionRules rules;
    private final String esUrl;
    private transient OcrEngine ocr;
    private transient WindowExclusion exclusion;
    private transient RestClientTransport transport;
    private transient StreamRulesStore store;
    private transient Map<String, Known> known;

    /** A stream's rules as last read: when (wall clock, ms), and each version's rules parsed. */
    private record Known(StreamRules rules, long readAtMs, Map<Long, ExclusionRules> parsed) {}

    /** Reads chrome with the OCR model under {@code models}, against the job's rules only. */
    public ExcludeWindows(String models, ExclusionRules rules) {
        this(models, rules, null);
    }

    /** Reads chrome with the OCR model under {@code models}; the job's rules, and each stream's in {@code esUrl} unless it is null. */
    public ExcludeWindows(String models, ExclusionRules rules, String esUrl) {
        super(STAGE);
        this.models = models;
        this.rules = rules;
        this.esUrl = esUrl;
    }

    @Override
    public void open(OpenContext context) throws Exception {
        known = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Known> eldest) {
                return size() > STREAMS_KEPT;
            }
        };
        if (esUrl != null) {
            transport = EsClients.transport(esUrl);
            store = new StreamRulesStore(EsClients.sync(transport));
        }
    }

    /** The OCR model, loaded when a frame first has rules to match. */
    private WindowExclusion exclusion() throws IOException {
        if (exclusion == null) {
            ocr = OcrEngine.load(Path.of(models));
            exclusion = new WindowExclusion(ocr, rules);
        }
        return exclusion;
    }

    @Override
    public void close() throws Exception {
        if (ocr != null) {
            ocr.close();
        }
        if (transport != null) {
            transport.close();
        }
    }

    /** The stream's rules known to cover event times up to {@code eventTimeMs}, read again when they may not. */
    private Known streamRules(String streamId, long eventTimeMs) throws IOException {
        Known k = known.get(streamId);
        if (k == null || eventTimeMs > k.readAtMs()) {
            long readAt = System.currentTimeMillis(); // only decides when to read: the versions choose by event time
            k = new Known(store.read(streamId), readAt, new HashMap<>());
            known.put(streamId, k);
        }
        return k;
    }

    /** The job's rules and the stream's version at this event time. */
    private ExclusionRules rulesAt(Known k, long eventTimeMs) {
        if (k == null) {
            return rules;
        }
        StreamRules.Version v = k.rules().at(eventTimeMs);
        return v == null ? rules : rules.and(k.parsed().computeIfAbsent(v.version(), n -> ExclusionRules.parse(v.rules())));
    }

    @Override
    protected void process(FrameBatch in, Context ctx, Collector<FrameBatch> out) throws IOException {
        if (in.sourceKind() != SourceKind.SCREEN) {
            out.collect(in); // windows are a screen's: a camera's frames are not read for chrome
            return;
        }
        long latest = Long.MIN_VALUE;
        for (Frame f : in.frames()) {
            latest = Math.max(latest, in.eventTimeMs(f));
        }
        Known k = store == null ? null : streamRules(in.streamId(), latest);
        List<Frame> frames = null;
        for (int i = 0; i < in.frames().size(); i++) {
            Frame f = in.frames().get(i);
            String marked = ExclusionMark.ruleOf(f.jpeg());
            if (marked != null) { // excluded where it was captured: already grey, recorded here
                ctx.output(EXCLUDED, EsDocuments.exclusion(new WindowExcluded(in.streamId(), in.epochMs(), f.index(), f.ptsMs(), in.eventTimeMs(f), marked)));
                if (frames != null) {
                    frames.add(f);
                }
                continue;
            }
            ExclusionRules now = rulesAt(k, in.eventTimeMs(f));
            String rule = now.isEmpty() ? null : exclusion().excludedBy(f.jpeg(), now);
            if (rule == null) {
                if (frames != null) {
                    frames.add(f);
                }
                continue;
            }
            if (frames == null) {
                frames = new ArrayList<>(in.frames().subList(0, i));
            }
            frames.add(new Frame(f.index(), f.ptsMs(), f.captureTimeMs(), f.width(), f.height(), WindowExclusion.blank(f.width(), f.height()), null));
            ctx.output(EXCLUDED, EsDocuments.exclusion(new WindowExcluded(in.streamId(), in.epochMs(), f.index(), f.ptsMs(), in.eventTimeMs(f), rule)));
        }
        out.collect(frames == null ? in : new FrameBatch(in.streamId(), in.sourceKind(), in.sourceUri(), in.seq(), in.epochMs(), in.source(),
                frames, in.last()));
    }
}
