package io.videoworld.testkit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * One task of a generated desktop session (a site in the browser, a shell or a manual page in the
 * terminal, a file in the editor, a PDF, a chat channel, a folder) with its state, which a return
 * finds as it was left, and what one second of use does to it (scroll, type, page, new lines).
 */
final class DesktopTask {
    static final List<String> KINDS = List.of("browser", "terminal", "editor", "pdf", "chat", "files");
    private static final List<String> HOSTS = List.of("sources.debian.org/src", "wiki.debian.org", "www.gnu.org/licenses",
            "manpages.debian.org/bookworm", "tracker.debian.org/pkg", "docs.example.org/guide");
    private static final List<String> PEOPLE = List.of("alice", "bob", "carol", "dave", "erin");
    private static final List<String> COMMANDS = List.of("ls -l", "git status", "make test", "df -h", "cat notes.txt", "grep -rn TODO src");

    final String id;
    final String kind;
    /** The application's name as its window shows it; the terminal shows none. */
    final String app;
    final String doc;
    final String title;
    final boolean man;
    final List<String> lines;
    int first;
    int page;
    String typed = "";

    private DesktopTask(String id, String kind, String app, String doc, String title, boolean man, List<String> lines) {
        this.id = id;
        this.kind = kind;
        this.app = app;
        this.doc = doc;
        this.title = title;
        this.man = man;
        this.lines = lines;
    }

    /** A new task of {@code kind}; {@code apps} names the session's application of each kind. */
    static DesktopTask create(String id, String kind, Map<String, String> apps, MachineText text, Random rnd, boolean shellTaken) {
        String app = apps.get(kind);
        switch (kind) {
            case "browser" -> {
                MachineText.Doc d = text.prose(rnd);
                String page = d.name().replace('/', ' ') + " | " + HOSTS.get(rnd.nextInt(HOSTS.size())).split("[./]")[0];
                List<String> lines = new ArrayList<>();
                lines.add(d.name().toUpperCase());
                lines.add("");
                lines.addAll(d.lines());
                return new DesktopTask(id, kind, app, page, page + " - " + app, false, lines);
            }
            case "terminal" -> {
                boolean man = shellTaken || rnd.nextBoolean();
                if (man) {
                    MachineText.Doc d = text.manPage(rnd);
                    List<String> lines = new ArrayList<>();
                    String head = d.name().toUpperCase() + "(1)";
                    lines.add(head + " ".repeat(30) + "User Commands" + " ".repeat(30) + head);
                    lines.add("");
                    lines.addAll(d.lines());
                    return new DesktopTask(id, kind, app, "man " + d.name(), "user@debian: ~/work", true, lines);
                }
                List<String> lines = new ArrayList<>();
                lines.add("user@debian:~/work$ cd project");
                return new DesktopTask(id, kind, app, "shell", "user@debian: ~/work", false, lines);
            }
            case "editor" -> {
                MachineText.Doc d = text.prose(rnd);
                String file = d.name().replaceAll(".*/", "").replaceAll("[^A-Za-z0-9.-]", "") + List.of(".txt", ".md", "").get(rnd.nextInt(3));
                return new DesktopTask(id, kind, app, file, file + " - " + app, false, new ArrayList<>(d.lines()));
            }
            case "pdf" -> {
                MachineText.Doc d = text.prose(rnd);
                String file = d.name().replaceAll(".*/", "").replaceAll("[^A-Za-z0-9.-]", "") + ".pdf";
                return new DesktopTask(id, kind, app, file, file + " \u2014 " + app, false, new ArrayList<>(d.lines()));
            }
            case "chat" -> {
                String channel = "#" + List.of("release", "infra", "random", "design", "support").get(rnd.nextInt(5));
                List<String> lines = new ArrayList<>();
                MachineText.Doc d = text.prose(rnd);
                for (int i = 0; i < 6; i++) {
                    lines.add(PEOPLE.get(rnd.nextInt(PEOPLE.size())) + ": " + d.lines().get(rnd.nextInt(d.lines().size())));
                }
                DesktopTask t = new DesktopTask(id, kind, app, channel, channel + " - " + app, false, lines);
                t.pool = d.lines();
                return t;
            }
            default -> {
                String dir = List.of("Documents", "Downloads", "Pictures", "work/project", "Music").get(rnd.nextInt(5));
                List<String> lines = new ArrayList<>();
                for (String n : text.fileNames(rnd, 40)) {
                    lines.add(String.format("%-48s %6d kB   Folder", n, 4 + rnd.nextInt(900)));
                }
                return new DesktopTask(id, kind, app, dir, dir + " - " + app, false, lines);
            }
        }
    }

    private List<String> pool = List.of();

    /** One second of use: {@code busy} false leaves the screen as it is (idle). */
    void tick(Random rnd, boolean busy, int visible) {
        if (!busy) {
            return;
        }
        switch (kind) {
            case "browser", "files" -> {
                if (rnd.nextInt(3) == 0) {
                    first = Math.min(Math.max(0, lines.size() - visible), first + 2 + rnd.nextInt(5));
                }
            }
            case "terminal" -> {
                if (man) {
                    if (rnd.nextInt(2) == 0) {
                        first = Math.min(Math.max(0, lines.size() - visible), first + 3 + rnd.nextInt(8));
                    }
                } else if (rnd.nextInt(4) == 0) {
                    String c = COMMANDS.get(rnd.nextInt(COMMANDS.size()));
                    lines.add("user@debian:~/work/project$ " + c);
                    for (int i = 0, n = 1 + rnd.nextInt(5); i < n; i++) {
                        lines.add(String.format("-rw-r--r-- 1 user user %5d Nov %2d %s", rnd.nextInt(99999), 1 + rnd.nextInt(28), c.split(" ")[0] + i));
                    }
                    first = Math.max(0, lines.size() - visible);
                }
            }
            case "editor" -> {
                typed += "abcdefghijklmnopqrstuvwxyz ".charAt(rnd.nextInt(27));
                typed += "etaoin shrdlu".charAt(rnd.nextInt(13));
                if (typed.length() > 70) {
                    lines.add(Math.min(lines.size(), first + 5), typed);
                    typed = "";
                }
            }
            case "pdf" -> {
                if (rnd.nextInt(6) == 0) {
                    page = Math.min(page + 1, Math.max(0, lines.size() / visible));
                    first = page * visible;
                }
            }
            default -> {
                if (rnd.nextInt(4) == 0 && !pool.isEmpty()) {
                    lines.add(PEOPLE.get(rnd.nextInt(PEOPLE.size())) + ": " + pool.get(rnd.nextInt(pool.size())));
                    first = Math.max(0, lines.size() - Math.max(1, visible / 2));
                }
            }
        }
    }

    /** The window's state for the page's {@code render}: title, chrome rows, lines from {@code first}. */
    Map<String, Object> state(List<DesktopTask> sameApp, int visible) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("kind", kind);
        a.put("title", title);
        if (kind.equals("browser") || kind.equals("editor")) {
            a.put("tabs", sameApp.stream().map(t -> kind.equals("browser") ? t.doc : t.doc).toList());
            a.put("active", sameApp.indexOf(this));
        }
        if (kind.equals("browser")) {
            a.put("bar", "https://" + HOSTS.get(Math.abs(doc.hashCode()) % HOSTS.size()) + "/" + doc.replaceAll("[^A-Za-z0-9]+", "-").toLowerCase());
        }
        if (kind.equals("pdf")) {
            a.put("header", doc + "      page " + (page + 1) + " of " + (1 + lines.size() / Math.max(1, visible)) + "      100%");
        }
        if (kind.equals("chat")) {
            a.put("side", List.of("Channels", "#release", "#infra", "#random", "#design", "#support"));
            a.put("header", doc + "  \u2014 5 members");
        }
        if (kind.equals("files")) {
            a.put("side", List.of("Places", "Home", "Documents", "Downloads", "Pictures", "Trash"));
            a.put("header", "Home / " + doc.replace("/", " / "));
        }
        a.put("mono", kind.equals("terminal") || kind.equals("editor"));
        a.put("serif", kind.equals("pdf"));
        List<String> shown = new ArrayList<>(visibleLines(visible));
        if (kind.equals("editor") && !typed.isEmpty()) {
            shown.add(Math.min(shown.size(), 5), typed);
        }
        a.put("lines", shown);
        a.put("scroll", 0);
        if (man) {
            a.put("status", " Manual page " + doc.substring(4) + "(1) line " + (first + 1) + " (press h for help or q to quit)");
        }
        return a;
    }

    List<String> visibleLines(int visible) {
        return lines.subList(Math.min(first, lines.size()), Math.min(lines.size(), first + visible));
    }
}
