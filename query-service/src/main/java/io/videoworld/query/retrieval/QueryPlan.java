package io.videoworld.query.retrieval;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Seed 003's search plan: query triples, a temporal and a spatial constraint, keywords. It drives
 * {@link EvidenceSearch#moments}: the triples' terms and keywords are the text searched (the
 * question's embedding still carries its meaning), a temporal constraint narrows the time range
 * (seconds named in it) or orders the best clips by time (first / last), and a spatial constraint
 * puts first the clips whose episodic event took place there (its place or application). A plan
 * comes from the model's parse, or, in evidence mode, from the question's own words ({@link #fromQuestion}).
 *
 * @param triples [subject, relation, object] triples; "?" marks the unknown part
 * @param keywords words to search besides the triples' terms
 * @param from earliest second a clip may lie at, or 0
 * @param to latest second, or {@link Double#MAX_VALUE}
 * @param order {@code earliest} or {@code latest} when the question asks for the first or the last time, else null
 * @param place the place or application the question names, or null
 * @param source {@code model} (the parse) or {@code question} (derived from its words)
 */
public record QueryPlan(List<List<String>> triples, List<String> keywords, double from, double to, String order, String place, String source) {
    /** No plan: the question's text is searched as it is. */
    public static final QueryPlan NONE = new QueryPlan(List.of(), List.of(), 0, Double.MAX_VALUE, null, null, "none");

    private static final Set<String> STOP = Set.of("the", "and", "for", "what", "when", "where", "which", "who", "whom", "whose", "why",
            "how", "did", "does", "do", "was", "were", "is", "are", "has", "have", "had", "been", "being", "that", "this", "these", "those",
            "there", "then", "than", "with", "from", "into", "onto", "about", "any", "some", "you", "your", "his", "her", "its", "our",
            "their", "they", "them", "she", "him", "can", "could", "would", "should", "will", "shall", "may", "might", "must", "not", "all",
            "just", "now", "time", "times", "first", "last", "latest", "earliest", "recently", "most", "recent", "before", "after",
            "since", "between", "around", "during", "while", "again", "ever", "see", "seen", "saw", "seconds", "second", "minutes",
            "minute", "sec", "secs", "min", "mins", "many", "much", "often", "beginning", "finally", "initially");
    private static final Set<String> NOT_PLACES = Set.of("the", "a", "an", "first", "last", "end", "start", "beginning", "screen", "time",
            "all", "once", "least", "most", "some", "any", "order", "front");
    private static final String NUM = "(\\d+(?:\\.\\d+)?)\\s*(s|sec|secs|seconds?|m|min|mins|minutes?)\\b";
    private static final Pattern BETWEEN = Pattern.compile("between\\s+(\\d+(?:\\.\\d+)?)\\s*(?:s|sec|secs|seconds?|m|min|mins|minutes?)?\\s+and\\s+" + NUM);
    private static final Pattern AFTER = Pattern.compile("(?:after|since|from)\\s+" + NUM);
    private static final Pattern BEFORE = Pattern.compile("(?:before|until|by)\\s+" + NUM);
    private static final Pattern AT = Pattern.compile("(?:at|around)\\s+" + NUM);
    private static final Pattern FIRST_N = Pattern.compile("(?:in|during|within)\\s+the\\s+first\\s+" + NUM);
    private static final Pattern EARLIEST = Pattern.compile("\\b(first time|for the first time|at first|earliest|initially|at the (?:beginning|start)|first)\\b");
    private static final Pattern LATEST = Pattern.compile("\\b(last time|latest|most recent(?:ly)?|recently|just now|finally|at the end|in the end|last)\\b");
    private static final Pattern PLACE = Pattern.compile("\\b(?:in|on|at|inside|into)\\s+(?:the\\s+|a\\s+|an\\s+|my\\s+)?([a-z][a-z0-9_-]{1,30})");
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}_'-]*");

    /** The text to search: the triples' known terms and the keywords, each once, in order; the question when there are none. */
    public String searchText(String question) {
        Set<String> terms = new LinkedHashSet<>();
        for (List<String> t : triples) {
            for (String part : t) {
                if (part != null && !part.isBlank() && !"?".equals(part.strip())) {
                    terms.add(part.strip());
                }
            }
        }
        keywords.stream().filter(k -> k != null && !k.isBlank()).forEach(k -> terms.add(k.strip()));
        return terms.isEmpty() ? question : String.join(" ", terms);
    }

    /** Whether the plan changes anything about the search. */
    public boolean constrains() {
        return from > 0 || to < Double.MAX_VALUE || order != null || place != null;
    }

    /** The plan as the trace shows it. */
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source", source);
        m.put("triples", triples);
        m.put("keywords", keywords);
        if (from > 0) {
            m.put("from", from);
        }
        if (to < Double.MAX_VALUE) {
            m.put("to", to);
        }
        if (order != null) {
            m.put("order", order);
        }
        if (place != null) {
            m.put("place", place);
        }
        return m;
    }

    /** A plan from the question's own words: its content words as one simple triple and keywords, and its time and place phrases. */
    public static QueryPlan fromQuestion(String question) {
        String q = question == null ? "" : question.toLowerCase(Locale.ROOT);
        double[] range = range(q);
        String order = order(q);
        String place = place(q);
        List<String> words = new ArrayList<>();
        Matcher m = WORD.matcher(q);
        while (m.find() && words.size() < 24) {
            String w = m.group();
            if (w.length() >= 3 && !STOP.contains(w) && !w.equals(place) && !w.chars().allMatch(Character::isDigit) && !words.contains(w)) {
                words.add(w);
            }
        }
        List<List<String>> triples = new ArrayList<>();
        if (words.size() >= 2) {
            triples.add(List.of(words.get(0), words.size() > 2 ? String.join(" ", words.subList(1, words.size() - 1)) : "?",
                    words.get(words.size() - 1)));
        }
        return new QueryPlan(triples, words.size() >= 2 ? List.of() : words, range[0], range[1], order, place, "question");
    }

    /** A plan from the model's parse (seed 003's JSON), its constraints read as {@link #fromQuestion} reads a question's. */
    public static QueryPlan fromParse(JsonNode parsed) {
        List<List<String>> triples = new ArrayList<>();
        JsonNode ts = parsed.has("query_triples") ? parsed.get("query_triples") : parsed.path("query_triple");
        if (ts.isArray() && !ts.isEmpty() && !ts.get(0).isArray()) {
            ts = io.videoworld.core.Json.MAPPER.createArrayNode().add(ts);
        }
        for (JsonNode t : ts) {
            if (t.isArray() && triples.size() < 8) {
                List<String> parts = new ArrayList<>();
                t.forEach(p -> parts.add(p.isTextual() ? clip(p.asText()) : "?"));
                triples.add(List.copyOf(parts));
            }
        }
        List<String> keywords = new ArrayList<>();
        parsed.path("keywords").forEach(k -> {
            if (k.isTextual() && keywords.size() < 16) {
                keywords.add(clip(k.asText()));
            }
        });
        String time = parsed.path("time_constraint").asText("").toLowerCase(Locale.ROOT);
        String space = parsed.path("spatial_constraint").asText("").toLowerCase(Locale.ROOT);
        double[] range = range(time);
        // Seed 003 puts "now" and "last time" in the spatial constraint too.
        String order = order(time) != null ? order(time) : order(space);
        String place = space.isBlank() ? null : place("in " + space.replaceFirst("^(in|on|at|inside)\\s+", ""));
        return new QueryPlan(List.copyOf(triples), List.copyOf(keywords), range[0], range[1], order, place, "model");
    }

    private static String clip(String s) {
        return s.length() > 80 ? s.substring(0, 80) : s;
    }

    private static double seconds(String n, String unit) {
        double v = Double.parseDouble(n);
        return unit.startsWith("m") ? v * 60 : v;
    }

    private static double[] range(String q) {
        Matcher m = BETWEEN.matcher(q);
        if (m.find()) {
            double b = seconds(m.group(2), m.group(3));
            double a = seconds(m.group(1), m.group(3));
            return new double[] {Math.min(a, b), Math.max(a, b)};
        }
        double from = 0;
        double to = Double.MAX_VALUE;
        if ((m = FIRST_N.matcher(q)).find()) {
            to = seconds(m.group(1), m.group(2));
        }
        if ((m = AFTER.matcher(q)).find()) {
            from = seconds(m.group(1), m.group(2));
        }
        if ((m = BEFORE.matcher(q)).find()) {
            to = Math.min(to, seconds(m.group(1), m.group(2)));
        }
        if (from == 0 && to == Double.MAX_VALUE && (m = AT.matcher(q)).find()) {
            double t = seconds(m.group(1), m.group(2));
            from = Math.max(0, t - 5);
            to = t + 5;
        }
        return new double[] {from, to};
    }

    private static String order(String q) {
        Matcher e = EARLIEST.matcher(q);
        Matcher l = LATEST.matcher(q);
        boolean early = e.find();
        boolean late = l.find();
        if (early == late) {
            // Neither, or both ("the first time after the last meeting"): no order is imposed.
            return null;
        }
        return early ? "earliest" : "latest";
    }

    private static String place(String q) {
        Matcher m = PLACE.matcher(q);
        while (m.find()) {
            String w = m.group(1);
            if (!NOT_PLACES.contains(w) && !STOP.contains(w)) {
                return w;
            }
        }
        return null;
    }
}
