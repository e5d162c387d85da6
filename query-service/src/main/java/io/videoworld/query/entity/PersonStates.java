package io.videoworld.query.entity;

import io.videoworld.connectors.esread.ActivityRepository.PoseActivity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Answers a question about what a person is doing at a time from the activities the person
 * operator indexed for them, without a vision model: a question that names an activity ("is she
 * sitting?") gets yes or no with what the person was doing instead; any other question gets what
 * the person was doing.
 */
public final class PersonStates {
    /** Each activity label and the words that name it in a question. */
    private static final Map<String, Pattern> WORDS = new LinkedHashMap<>();

    static {
        WORDS.put("standing", words("stand|stands|standing|stood|upright"));
        WORDS.put("sitting", words("sit|sits|sitting|sat|seated"));
        WORDS.put("lying", words("lie|lies|lying|laying|lay"));
        WORDS.put("bending", words("bend|bends|bending|bent|stooping|stoop"));
        WORDS.put("walking", words("walk|walks|walking|walked"));
        WORDS.put("running", words("run|runs|running|ran|jogging"));
        WORDS.put("raising_hand", words("raise|raises|raising|raised|hand up|hands up|arm up"));
    }

    private PersonStates() {}

    private static Pattern words(String alternatives) {
        return Pattern.compile("\\b(" + alternatives + ")\\b");
    }

    /** The activity labels a question names, in the order of {@link #WORDS}. */
    public static List<String> asked(String question) {
        List<String> out = new ArrayList<>();
        if (question == null) {
            return out;
        }
        String q = question.toLowerCase(Locale.ROOT);
        WORDS.forEach((label, p) -> {
            if (p.matcher(q).find()) {
                out.add(label);
            }
        });
        return out;
    }

    /** How a label reads in a sentence. */
    public static String phrase(String label) {
        return "raising_hand".equals(label) ? "raising a hand" : label;
    }

    /** The activities around {@code ptsMs}: those whose span holds it, else those ending or starting within {@code nearMs} of it. */
    public static List<PoseActivity> at(List<PoseActivity> all, long ptsMs, long nearMs) {
        List<PoseActivity> holding = all.stream().filter(a -> a.fromMs() <= ptsMs && a.toMs() >= ptsMs).toList();
        if (!holding.isEmpty()) {
            return holding;
        }
        return all.stream().filter(a -> a.fromMs() - nearMs <= ptsMs && a.toMs() + nearMs >= ptsMs).toList();
    }

    /**
     * The answer for {@code who} from the activities at the time, most confident first; null when
     * there are none.
     */
    public static String answer(String who, String question, List<PoseActivity> at) {
        if (at.isEmpty()) {
            return null;
        }
        List<String> doing = at.stream().sorted((a, b) -> Double.compare(b.confidence(), a.confidence())).map(PoseActivity::label).distinct().toList();
        String what = String.join(" and ", doing.stream().map(PersonStates::phrase).toList());
        List<String> asked = asked(question);
        if (asked.isEmpty()) {
            return capital(who) + " is " + what + ".";
        }
        List<String> missing = asked.stream().filter(l -> !doing.contains(l)).toList();
        if (missing.isEmpty()) {
            return "Yes: " + who + " is " + String.join(" and ", asked.stream().map(PersonStates::phrase).toList()) + ".";
        }
        return "No: " + who + " is " + what + ", not " + String.join(" or ", missing.stream().map(PersonStates::phrase).toList()) + ".";
    }

    /** The activities as evidence: label, confidence, span and frames of each. */
    public static String evidence(List<PoseActivity> at) {
        List<String> parts = new ArrayList<>();
        for (PoseActivity a : at) {
            parts.add(phrase(a.label()) + " " + String.format(Locale.ROOT, "%.2f", a.confidence()) + " from " + a.fromMs() / 1000.0 + " s to "
                    + a.toMs() / 1000.0 + " s on frames " + a.frames());
        }
        return "pose: " + String.join("; ", parts);
    }

    private static String capital(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
