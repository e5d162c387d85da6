package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.media.audio.AudioTrack;
import io.videoworld.perception.CocoLabels;
import io.videoworld.query.api.ToolCatalog;
import io.videoworld.query.perception.PerceptionResponses;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The catalog every LLM and MCP client reads claims only what the tools compute: no capability the
 * code lacks is claimed in a positive sentence, and the lists it gives (audio event types, scene
 * attributes, the detector's vocabulary, describe_visual's sources) are the ones the code has.
 */
class CatalogTruthTest {
    private static final ToolCatalog CATALOG = ToolCatalog.load();

    /** Phrases naming what no tool computes; allowed only in a sentence that denies it. */
    private static final List<String> NOT_BUILT = List.of("open-vocabulary", "open vocabulary", "text-video", "video embedding",
            "image embedding", "audio embedding", "visual embedding", "music", "applause", "scream", "alarm", "diaris", "weather",
            "i-frame", "action classifier", "recognises the activities");
    private static final Pattern DENIAL = Pattern.compile("\\b(no|not|never|cannot|nothing)\\b");

    /** Every description in the catalog: the tool's own and each of its parameters', with where it is. */
    private static List<String[]> descriptions() {
        List<String[]> out = new ArrayList<>();
        for (ToolCatalog.ToolDef t : CATALOG.all()) {
            out.add(new String[] {t.name(), t.description()});
            collect(t.name(), t.parameters(), out);
        }
        return out;
    }

    private static void collect(String where, JsonNode node, List<String[]> out) {
        if (node.isObject()) {
            if (node.path("description").isTextual()) {
                out.add(new String[] {where, node.get("description").asText()});
            }
            node.fields().forEachRemaining(e -> {
                if (!"description".equals(e.getKey())) {
                    collect(where + "." + e.getKey(), e.getValue(), out);
                }
            });
        } else if (node.isArray()) {
            node.forEach(n -> collect(where, n, out));
        }
    }

    @Test
    void noSentenceClaimsACapabilityTheCodeDoesNotHave() {
        List<String> claims = new ArrayList<>();
        for (String[] d : descriptions()) {
            for (String sentence : d[1].split("(?<=[.;])\\s+")) {
                String s = sentence.toLowerCase(Locale.ROOT);
                if (DENIAL.matcher(s).find()) {
                    continue;
                }
                for (String phrase : NOT_BUILT) {
                    if (s.contains(phrase)) {
                        claims.add(d[0] + ": '" + phrase + "' in \"" + sentence + "\"");
                    }
                }
            }
        }
        assertThat(claims).isEmpty();
    }

    @Test
    void theAudioEventTypesListedAreExactlyTheOnesTheTrackMeasurementGives() {
        String listed = param("detect_audio_events", "event_types").get("description").asText();
        Set<String> named = quoted(listed);
        // Two seconds of each: digital silence, a loud square wave, a steady tone, and a tone whose loudness swings like speech.
        int r = AudioTrack.RATE;
        float[] samples = new float[r * 12];
        for (int i = 2 * r; i < 3 * r; i++) {
            samples[i] = (i / 40) % 2 == 0 ? 0.9f : -0.9f;
        }
        for (int i = 5 * r; i < 8 * r; i++) {
            samples[i] = (float) (0.1 * Math.sin(2 * Math.PI * 440 * i / r));
        }
        for (int i = 9 * r; i < 12 * r; i++) {
            double amplitude = (i / (r * 3 / 10)) % 2 == 0 ? 0.2 : 0.02;
            samples[i] = (float) (amplitude * Math.sin(2 * Math.PI * 200 * i / r));
        }
        Set<String> measured = AudioTrack.events(samples).stream().map(AudioTrack.Event::type).collect(Collectors.toCollection(TreeSet::new));
        assertThat(measured).containsExactlyInAnyOrder("silence", "loud_transient", "steady_sound", "speech_like");
        assertThat(named).isEqualTo(measured);
    }

    @Test
    void theSceneAttributesListedAreTheOnesTheAnswerCarries() {
        String listed = param("get_scene_attributes", "attributes").get("description").asText();
        Set<String> answered = new LinkedHashSet<>();
        for (RecordComponent c : PerceptionResponses.SceneAttributes.class.getRecordComponents()) {
            if (c.getType() == String.class && !"method".equals(c.getName())) {
                answered.add(snake(c.getName()));
            }
        }
        answered.remove("weather");
        Set<String> named = new LinkedHashSet<>();
        Matcher m = Pattern.compile("[a-z]+(?:_[a-z]+)*").matcher(listed.substring(listed.indexOf(':') + 1, listed.indexOf(';')));
        while (m.find()) {
            named.add(m.group());
        }
        named.remove("or");
        named.remove("indoor_outdoor");
        assertThat(named).isEqualTo(answered);
        assertThat(CATALOG.find("get_scene_attributes").orElseThrow().description()).contains("Weather is not measured");
    }

    @Test
    void theDetectorAndDescriptionClaimsMatchTheCode() {
        String detect = CATALOG.find("detect_objects").orElseThrow().description();
        assertThat(detect).contains("the " + CocoLabels.NAMES.size() + " COCO classes");
        assertThat(CocoLabels.NAMES).hasSize(80);
        String describe = CATALOG.find("describe_visual").orElseThrow().description();
        Set<String> components = Arrays.stream(PerceptionResponses.Description.class.getRecordComponents()).map(RecordComponent::getName)
                .collect(Collectors.toSet());
        assertThat(components).contains("source", "facts").doesNotContain("confidence");
        assertThat(describe).contains("'source': 'composed'").contains("'source': 'model'").contains("No confidence is given");
        assertThat(CATALOG.find("recognize_activity").orElseThrow().description()).contains("not an action classifier");
    }

    private static JsonNode param(String tool, String name) {
        return CATALOG.find(tool).orElseThrow().parameters().get("properties").get(name);
    }

    private static Set<String> quoted(String text) {
        Set<String> out = new TreeSet<>();
        Matcher m = Pattern.compile("'([a-z_]+)'").matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private static String snake(String camel) {
        return camel.replaceAll("([A-Z])", "_$1").toLowerCase(Locale.ROOT);
    }
}
