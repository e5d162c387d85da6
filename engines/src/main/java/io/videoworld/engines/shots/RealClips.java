package io.videoworld.engines.shots;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Json;
import io.videoworld.engines.shots.BoundaryEvaluation.Detection;
import io.videoworld.engines.shots.BoundaryEvaluation.Truth;
import io.videoworld.perception.ModelDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The real-footage shot-boundary set: hand-checked truth in {@code bench/shots/truth/*.json}
 * (see its README), clips fetched by {@code deploy/samples.sh --shots}. Times are stream
 * presentation times, as {@link VideoShots} reports them.
 */
public final class RealClips {
    /** The splits: tune on the first, report the others; {@code heldout-new} was added after the first held-out half had been looked at. */
    public static final String TUNE = "tune";
    public static final String HELD_OUT = "heldout";
    public static final String HELD_OUT_NEW = "heldout-new";
    /** A third held-out set from packages no earlier set used, truth written before any detector ran on it. */
    public static final String HELD_OUT_3 = "heldout-3";
    /** A fourth held-out set (npm packages), truth committed before any detector ran on it. */
    public static final String HELD_OUT_4 = "heldout-4";
    public static final List<String> SPLITS = List.of(TUNE, HELD_OUT, HELD_OUT_NEW, HELD_OUT_3, HELD_OUT_4);
    /** A true boundary; {@code kind} is cut, dissolve, wipe or fade. */
    public record Boundary(String kind, double time, double start, double end) {
        public boolean gradual() {
            return !"cut".equals(kind);
        }
    }

    /** A stretch where detections are neither hits nor false positives. */
    public record Range(double start, double end) {}

    /** One clip and its truth. */
    public record Clip(String file, String split, String kind, double durationSec, double fps, long frames, List<Boundary> boundaries,
            List<Range> ignore) {
        /** In the held-out half of the first set (exposed: it has been looked at while tuning). */
        public boolean heldOut() {
            return HELD_OUT.equals(split);
        }

        /** In the tuning half. */
        public boolean tune() {
            return TUNE.equals(split);
        }

        public boolean singleTake() {
            return "single_take".equals(kind);
        }

        public List<Truth> truths() {
            return boundaries.stream().map(b -> new Truth(b.gradual(), b.start(), b.end())).toList();
        }

        /** The detections that count: those outside the ignored stretches. */
        public List<Detection> scored(List<Detection> detections) {
            return detections.stream().filter(d -> ignore.stream().noneMatch(r -> d.time() >= r.start() && d.time() <= r.end())).toList();
        }
    }

    private RealClips() {}

    /** The truth folder: {@code bench/shots/truth} in the nearest directory above the working one that has it. */
    public static Path truthDir() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("bench/shots/truth"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("no bench/shots/truth above " + Path.of("").toAbsolutePath());
        }
        return p.resolve("bench/shots/truth");
    }

    /** Where {@code deploy/samples.sh --shots} puts the clips. */
    public static Path clipDir() {
        return ModelDirectory.samples().resolve("shots");
    }

    /** Every clip of the set, tuning half first, then the held-out halves, then by file name. */
    public static List<Clip> load(Path truthDir) throws IOException {
        List<Clip> clips = new ArrayList<>();
        try (Stream<Path> files = Files.list(truthDir)) {
            for (Path f : files.filter(x -> x.toString().endsWith(".json")).sorted().toList()) {
                JsonNode j = Json.MAPPER.readTree(f.toFile());
                List<Boundary> bounds = new ArrayList<>();
                for (JsonNode b : j.get("boundaries")) {
                    bounds.add(new Boundary(b.get("kind").asText(), b.get("time_s").asDouble(), b.get("start_s").asDouble(),
                            b.get("end_s").asDouble()));
                }
                List<Range> ignore = new ArrayList<>();
                for (JsonNode r : j.path("ignore")) {
                    ignore.add(new Range(r.get("start_s").asDouble(), r.get("end_s").asDouble()));
                }
                clips.add(new Clip(j.get("file").asText(), j.get("split").asText(), j.get("kind").asText(), j.get("duration_s").asDouble(),
                        j.get("fps").asDouble(), j.get("frames").asLong(), List.copyOf(bounds), List.copyOf(ignore)));
            }
        }
        clips.sort(Comparator.comparing((Clip c) -> SPLITS.indexOf(c.split())).thenComparing(c -> c.file().toLowerCase()));
        return clips;
    }
}
