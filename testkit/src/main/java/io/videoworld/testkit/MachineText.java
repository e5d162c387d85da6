package io.videoworld.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * Real text from the machine, read at run time (never committed): manual pages from
 * /usr/share/man/man1, licences from /usr/share/common-licenses, Debian changelogs and copyright
 * files from /usr/share/doc. The same seed picks the same files on the same machine; a machine
 * without manual pages (minimal images drop them) still has licences and copyright files.
 */
public final class MachineText {
    /** A document: a name to show (a command, a file) and its lines, wrapped for a screen. */
    public record Doc(String name, List<String> lines) {}

    private static final int WRAP = 96;
    private static MachineText shared;
    private final List<Path> man;
    private final List<Path> prose;

    private MachineText(List<Path> man, List<Path> prose) {
        this.man = man;
        this.prose = prose;
    }

    /** The files of this machine, listed once. */
    public static synchronized MachineText load() {
        if (shared == null) {
            List<Path> man = list(Path.of("/usr/share/man/man1"), "", ".1.gz");
            List<Path> prose = new ArrayList<>(list(Path.of("/usr/share/common-licenses"), "", ""));
            try (Stream<Path> docs = Files.list(Path.of("/usr/share/doc"))) {
                docs.sorted().forEach(d -> {
                    Path log = d.resolve("changelog.Debian.gz");
                    prose.add(Files.isRegularFile(log) ? log : d.resolve("copyright"));
                });
            } catch (IOException e) {
                // No /usr/share/doc: the licences are enough.
            }
            prose.removeIf(p -> !Files.isReadable(p));
            if (prose.isEmpty()) {
                throw new IllegalStateException("no text on this machine: /usr/share/common-licenses and /usr/share/doc are empty");
            }
            shared = new MachineText(man, prose);
        }
        return shared;
    }

    private static List<Path> list(Path dir, String prefix, String suffix) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith(prefix) && p.getFileName().toString().endsWith(suffix))
                    .filter(Files::isRegularFile).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** A manual page rendered roughly as man shows it (name, sections, text); a licence where the machine has none. */
    public Doc manPage(Random rnd) {
        for (int tries = 0; tries < 20 && !man.isEmpty(); tries++) {
            Path p = man.get(rnd.nextInt(man.size()));
            String name = p.getFileName().toString().replace(".1.gz", "");
            List<String> lines = wrap(roff(read(p)));
            if (lines.size() >= 30 && name.matches("[a-z][a-z0-9.-]{1,20}")) {
                return new Doc(name, lines);
            }
        }
        return prose(rnd);
    }

    /** A licence, changelog or copyright file with at least 30 lines. */
    public Doc prose(Random rnd) {
        Doc best = null;
        for (int tries = 0; tries < 20; tries++) {
            Path p = prose.get(rnd.nextInt(prose.size()));
            String name = p.getParent().getFileName() + "/" + p.getFileName().toString().replace(".gz", "");
            if (p.getParent().getFileName().toString().equals("common-licenses")) {
                name = p.getFileName().toString();
            }
            List<String> lines = wrap(read(p));
            best = new Doc(name, lines);
            if (lines.size() >= 30) {
                return best;
            }
        }
        return best;
    }

    /** Names of files under /usr/share/doc, for a file manager's listing. */
    public List<String> fileNames(Random rnd, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Path p = prose.get(rnd.nextInt(prose.size()));
            out.add(p.getParent().getFileName().toString());
        }
        return out;
    }

    private static String read(Path p) {
        try (InputStream in = Files.newInputStream(p)) {
            InputStream body = p.toString().endsWith(".gz") ? new GZIPInputStream(in) : in;
            byte[] bytes = body.readNBytes(200_000);
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + p + ": " + e.getMessage(), e);
        }
    }

    /** roff to text: section headings as lines, requests dropped, font escapes removed. */
    static String roff(String src) {
        StringBuilder out = new StringBuilder();
        for (String line : src.split("\n")) {
            if (line.startsWith(".SH") || line.startsWith(".SS")) {
                out.append('\n').append(clean(line.substring(3)).toUpperCase()).append('\n');
            } else if (line.startsWith(".") || line.startsWith("'")) {
                if (line.startsWith(".B ") || line.startsWith(".I ") || line.startsWith(".BR ") || line.startsWith(".IR ")) {
                    out.append(clean(line.substring(line.indexOf(' ') + 1))).append(' ');
                } else if (line.startsWith(".PP") || line.startsWith(".TP") || line.startsWith(".IP")) {
                    out.append('\n');
                }
            } else {
                out.append(clean(line)).append(' ');
            }
        }
        return out.toString();
    }

    private static String clean(String s) {
        return s.replaceAll("\\\\f[BIRP]|\\\\f\\(..|\\\\\\(..|\\\\[&|^]", "").replace("\\-", "-").replace("\\e", "\\").replace("\"", "").trim();
    }

    /** Lines of at most {@value #WRAP} characters, blank lines kept once. */
    static List<String> wrap(String text) {
        List<String> out = new ArrayList<>();
        for (String para : text.replace("\t", "    ").split("\n")) {
            String p = para.strip();
            if (p.isEmpty()) {
                if (!out.isEmpty() && !out.get(out.size() - 1).isEmpty()) {
                    out.add("");
                }
                continue;
            }
            StringBuilder line = new StringBuilder();
            for (String word : p.split(" +")) {
                if (line.length() + word.length() + 1 > WRAP && line.length() > 0) {
                    out.add(line.toString());
                    line.setLength(0);
                }
                line.append(line.length() > 0 ? " " : "").append(word.length() > WRAP ? word.substring(0, WRAP) : word);
            }
            out.add(line.toString());
        }
        return out;
    }
}
