package io.videoworld.query.perception;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import io.videoworld.media.audio.AudioTrack;
import io.videoworld.core.Cue;
import io.videoworld.media.audio.Subtitles;
import io.videoworld.clients.asr.Transcriber;
import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.media.video.SourceLocator;
import io.videoworld.connectors.esread.TranscriptRepository;
import io.videoworld.core.TranscriptDoc;
import io.videoworld.core.SourceKind;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.api.Args;
import io.videoworld.query.perception.PerceptionResponses.AudioEvent;
import io.videoworld.query.perception.PerceptionResponses.AudioEvents;
import io.videoworld.query.perception.PerceptionResponses.Transcript;
import io.videoworld.query.perception.PerceptionResponses.TranscriptLine;
import io.videoworld.query.video.Videos;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Seed 000 API-9 {@code get_transcript} and API-10 {@code detect_audio_events}. A transcript comes
 * from, in order: the stretches of speech the ingest job indexed in {@code vw-transcripts} (the
 * source names the recogniser; stretches whose recognition failed are counted in the reason, never
 * returned as empty lines), a subtitle file beside the source ({@code .srt}/{@code .vtt}), or the
 * configured OpenAI-compatible transcription endpoint run on the audio track; the response names
 * the source, or says why there is none. Audio events are measured on the track itself (see
 * {@link AudioTrack}). Subtitle streams inside the container are not read (FFmpeg through javacv
 * gives no subtitle packets); sidecar files are. Results are kept per push, since a source file
 * does not change under a push.
 */
public final class AudioTools {
    /** A transcription and where it came from, or why it is empty. */
    private record Transcription(List<Cue> cues, String source, String reason) {}

    private final VideoRepository videos;
    private final TranscriptRepository indexed;
    private final Transcriber transcriber;
    private final SourceLocator sources;
    private final Cache<String, Transcription> transcripts = Caffeine.newBuilder().maximumSize(64).recordStats().build();
    private final Cache<String, List<AudioTrack.Event>> events = Caffeine.newBuilder().maximumSize(64).recordStats().build();

    /**
     * @param transcriber the transcription endpoint, or null
     * @param sources where the recorded source URIs are opened here
     */
    public AudioTools(VideoRepository videos, Transcriber transcriber, SourceLocator sources) {
        this(videos, null, transcriber, sources);
    }

    /**
     * @param indexed the transcripts the ingest job indexed, or null to read only subtitle files and the endpoint
     * @param transcriber the transcription endpoint, or null
     * @param sources where the recorded source URIs are opened here
     */
    public AudioTools(VideoRepository videos, TranscriptRepository indexed, Transcriber transcriber, SourceLocator sources) {
        this.videos = videos;
        this.indexed = indexed;
        this.transcriber = transcriber;
        this.sources = sources;
    }

    private static String key(VideoDoc v) {
        return v.streamId() + "@" + v.epochMs();
    }

    /** Why a video's audio cannot be read here, or null when it can. */
    private String noAudio(VideoDoc v) {
        if (v.sourceKind() == SourceKind.SCREEN) {
            return "screenshot streams have no audio";
        }
        if (sources.locate(v.sourceUri()).isEmpty()) {
            return "the source '" + v.sourceUri() + "' is not reachable from the query service";
        }
        if (v.source() != null && !v.source().hasAudio()) {
            return "the video has no audio track";
        }
        return null;
    }

    /** The video's transcript cues (empty when it has none). */
    public List<Cue> cues(VideoDoc v) throws IOException {
        return transcript(v).cues();
    }

    /** The transcript and audio-event caches' hits and misses, for the service's metrics. */
    public Map<String, CacheStats> cacheStats() {
        return Map.of("transcripts", transcripts.stats(), "audio_events", events.stats());
    }

    private Transcription transcript(VideoDoc v) throws IOException {
        Transcription known = transcripts.getIfPresent(key(v));
        if (known != null) {
            return known;
        }
        Transcription t;
        var sidecar = v.sourceKind() == SourceKind.SCREEN ? java.util.Optional.<Path>empty()
                : sources.localFile(v.sourceUri()).flatMap(f -> Subtitles.sidecar(f.toString()));
        if (sidecar.isPresent()) {
            t = new Transcription(Subtitles.read(sidecar.get()), "subtitles:" + sidecar.get().getFileName(), null);
        } else if (noAudio(v) != null) {
            t = new Transcription(List.of(), "none", noAudio(v));
        } else if (transcriber == null) {
            t = new Transcription(List.of(), "none", "no subtitle file beside the source and no transcription endpoint is configured "
                    + "(start the query service with --asr-url)");
        } else {
            float[] samples = AudioTrack.read(sources.locate(v.sourceUri()).orElseThrow());
            List<Cue> cues = new ArrayList<>();
            int chunk = AudioTrack.RATE * 300;
            try {
                for (int from = 0; from < samples.length; from += chunk) {
                    cues.addAll(transcriber.transcribe(AudioTrack.wav(samples, from, Math.min(samples.length, from + chunk)),
                            (double) from / AudioTrack.RATE));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while transcribing", e);
            }
            t = new Transcription(cues, "transcription:" + transcriber.model(), cues.isEmpty() ? "the endpoint heard no speech" : null);
        }
        transcripts.put(key(v), t);
        return t;
    }

    /** The push's indexed stretches overlapping a range in seconds; empty without an index. */
    private List<TranscriptDoc> indexed(VideoDoc v, double[] range) throws IOException {
        if (indexed == null) {
            return List.of();
        }
        long to = Double.isInfinite(range[1]) || range[1] > 9e12 ? Long.MAX_VALUE / 2 : (long) Math.ceil(range[1] * 1000);
        return indexed.overlapping(v.streamId(), v.epochMs(), (long) Math.floor(range[0] * 1000), to);
    }

    /** Seed 000 API-9. */
    public Transcript getTranscript(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        double[] range = args.optionalTimeRange("time_range");
        boolean speakers = args.optionalBoolean("include_speaker_info").orElse(false);
        List<TranscriptDoc> stretches = indexed(v, range);
        if (!stretches.isEmpty()) {
            List<TranscriptLine> lines = new ArrayList<>();
            java.util.Set<String> engines = new java.util.TreeSet<>();
            int failed = 0;
            for (TranscriptDoc d : stretches) {
                engines.add(d.recognizer());
                if (!TranscriptDoc.OK.equals(d.status())) {
                    failed++;
                } else if (d.text() != null && !d.text().isBlank()) {
                    lines.add(new TranscriptLine(d.startMs() / 1000.0, d.endMs() / 1000.0, d.text(), null, d.speechProbability()));
                }
            }
            String reason = failed > 0 ? failed + " of " + stretches.size() + " stretches of speech in the range could not be recognised"
                    : lines.isEmpty() ? "speech was heard but the recogniser made no words of it" : null;
            return new Transcript(lines, "transcripts:" + String.join(",", engines), reason);
        }
        Transcription t = transcript(v);
        List<TranscriptLine> out = new ArrayList<>();
        for (Cue c : t.cues()) {
            if (c.end() >= range[0] && c.start() <= range[1]) {
                out.add(new TranscriptLine(c.start(), c.end(), c.text(), speakers ? c.speaker() : null, c.confidence()));
            }
        }
        return new Transcript(out, t.source(), t.reason());
    }

    /** Seed 000 API-10. */
    public AudioEvents detectAudioEvents(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        double[] range = args.optionalTimeRange("time_range");
        List<String> types = args.has("event_types") ? args.stringList("event_types") : List.of();
        List<TranscriptDoc> stretches = indexed(v, range);
        if (!stretches.isEmpty() || !indexed(v, new double[] {0, Double.POSITIVE_INFINITY}).isEmpty()) {
            // The job heard this push: speech is what its voice-activity model found, nothing is decoded here.
            List<AudioEvent> speech = new ArrayList<>();
            if (types.isEmpty() || types.contains("speech")) {
                for (TranscriptDoc d : stretches) {
                    speech.add(new AudioEvent("speech", d.startMs() / 1000.0, d.endMs() / 1000.0, d.speechProbability(), d.loudnessDb()));
                }
            }
            return new AudioEvents(speech, "indexed voice activity: " + (stretches.isEmpty() ? "silero" : stretches.get(0).vad()),
                    !speech.isEmpty() ? null : types.isEmpty() || types.contains("speech") ? "no speech in the range"
                            : "only speech is indexed for this stream; no other sound type is classified");
        }
        String why = noAudio(v);
        if (why != null) {
            return new AudioEvents(List.of(), "none", why);
        }
        List<AudioTrack.Event> all = events.getIfPresent(key(v));
        if (all == null) {
            all = AudioTrack.events(AudioTrack.read(sources.locate(v.sourceUri()).orElseThrow()));
            events.put(key(v), all);
        }
        List<AudioEvent> out = new ArrayList<>();
        for (AudioTrack.Event e : all) {
            if (e.end() >= range[0] && e.start() <= range[1] && (types.isEmpty() || types.contains(e.type()))) {
                out.add(new AudioEvent(e.type(), e.start(), e.end(), e.confidence(), e.loudnessDb()));
            }
        }
        return new AudioEvents(out, "audio track analysis: loudness per 100 ms, zero crossings, syllable-rate modulation (not a sound classifier)",
                !out.isEmpty() ? null : all.isEmpty() ? "the audio track is empty" : "no event of the asked types in the range");
    }
}
