package io.videoworld.media.audio;

import io.videoworld.core.Cue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Subtitle files beside a video (SubRip {@code .srt} and WebVTT {@code .vtt}): found by the
 * video's base name ({@code talk.mp4} -> {@code talk.srt}, {@code talk.en.vtt}) and parsed into
 * cues. Markup tags are dropped; a WebVTT voice tag ({@code <v Dana>}) becomes the speaker.
 */
public final class Subtitles {
    private static final Pattern TIMING = Pattern.compile(
            "(?:(\\d+):)?(\\d{1,2}):(\\d{2})[.,](\\d{1,3})\\s*-->\\s*(?:(\\d+):)?(\\d{1,2}):(\\d{2})[.,](\\d{1,3})");
    private static final Pattern VOICE = Pattern.compile("<v(?:\\.[^ >]*)?\\s+([^>]+)>");

    private Subtitles() {}

    /** The subtitle file beside a local video, if there is one. */
    public static Optional<Path> sidecar(String videoUri) {
        if (videoUri == null || videoUri.contains("://")) {
            return Optional.empty();
        }
        Path video = Path.of(videoUri);
        Path dir = video.toAbsolutePath().getParent();
        String name = video.getFileName().toString();
        String base = name.contains(".") ? name.substring(0, name.lastIndexOf('.')) : name;
        if (dir == null || !Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (var files = Files.list(dir)) {
            return files.filter(p -> {
                String f = p.getFileName().toString();
                return f.startsWith(base + ".") && (f.endsWith(".srt") || f.endsWith(".vtt"));
            }).sorted().findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    public static List<Cue> read(Path file) throws IOException {
        return parse(new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
    }

    /** Cues of an SRT or WebVTT text, in file order. */
    public static List<Cue> parse(String text) {
        List<Cue> out = new ArrayList<>();
        String[] blocks = text.replace("\r", "").replace("\uFEFF", "").split("\n\\s*\n");
        for (String block : blocks) {
            String[] lines = block.strip().split("\n");
            for (int i = 0; i < lines.length; i++) {
                Matcher m = TIMING.matcher(lines[i]);
                if (!m.find()) {
                    continue;
                }
                double start = seconds(m.group(1), m.group(2), m.group(3), m.group(4));
                double end = seconds(m.group(5), m.group(6), m.group(7), m.group(8));
                StringBuilder sb = new StringBuilder();
                String speaker = null;
                for (int j = i + 1; j < lines.length; j++) {
                    Matcher v = VOICE.matcher(lines[j]);
                    if (v.find()) {
                        speaker = v.group(1).trim();
                    }
                    String clean = lines[j].replaceAll("<[^>]*>", "").replaceAll("\\{[^}]*}", "").trim();
                    if (!clean.isEmpty()) {
                        sb.append(sb.length() == 0 ? "" : " ").append(clean);
                    }
                }
                if (sb.length() > 0 && end > start) {
                    out.add(new Cue(start, end, sb.toString(), speaker, 1.0));
                }
                break;
            }
        }
        return out;
    }

    private static double seconds(String h, String m, String s, String frac) {
        double f = Double.parseDouble("0." + frac);
        return (h == null ? 0 : Integer.parseInt(h) * 3600) + Integer.parseInt(m) * 60 + Integer.parseInt(s) + f;
    }
}
