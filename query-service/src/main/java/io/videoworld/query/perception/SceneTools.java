package io.videoworld.query.perception;

import static io.videoworld.query.api.Decimals.round;

import io.videoworld.connectors.esread.ObjectRepository;
import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.core.VideoDoc;
import io.videoworld.perception.DecodedImage;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.Args;
import io.videoworld.query.perception.PerceptionResponses.SceneAttributes;
import io.videoworld.query.perception.PerceptionResponses.SceneEvidence;
import io.videoworld.query.video.Videos;
import java.io.IOException;
import java.util.List;

/**
 * Seed 000 API-8 {@code get_scene_attributes} from image statistics: indoor or outdoor from sky
 * pixels, lighting and colour temperature from brightness and warmth, shot scale from the tallest
 * person box, camera motion from the global shift between frames half a second apart. Weather is
 * not measured and stays unknown.
 */
public final class SceneTools {
    private static final double MOTION_GAP_S = 0.5;

    private final VideoRepository videos;
    private final ObjectFinder finder;

    public SceneTools(VideoRepository videos, ObjectFinder finder) {
        this.videos = videos;
        this.finder = finder;
    }

    /** Seed 000 API-8; {@code attributes} picks which ones ({@code indoor_outdoor} is seed 000's name for {@code location}). */
    public SceneAttributes getSceneAttributes(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        double t = args.requiredNumber("timestamp", 0, 1e9);
        List<String> wanted = args.has("attributes") ? args.stringList("attributes") : List.of();
        DecodedImage now = finder.image(v, t);
        PixelStats.Scene s = PixelStats.scene(now);
        boolean outdoor = s.skyFraction() > 0.3;
        ObjectFinder.Seen seen = null;
        try {
            seen = finder.objectsAt(v, t, false);
        } catch (ApiException e) {
            // No detector and nothing stored: shot scale stays unknown.
        }
        double tallest = 0;
        if (seen != null) {
            for (ObjectRepository.Found f : seen.found()) {
                if ("person".equals(f.category()) && f.score() >= 0.3) {
                    tallest = Math.max(tallest, f.bbox()[3] - f.bbox()[1]);
                }
            }
        }
        String angle = seen == null ? null : tallest == 0 ? "no_person_visible" : tallest > 0.8 ? "close_up"
                : tallest > 0.45 ? "medium_shot" : "long_shot";
        double duration = v.lastPtsMs() / 1000.0;
        double other = t + MOTION_GAP_S <= duration ? t + MOTION_GAP_S : Math.max(0, t - MOTION_GAP_S);
        String motion = other == t ? null : motion(now, finder.image(v, other), other > t ? 1 : -1);
        return new SceneAttributes(t,
                pick(wanted, "location", outdoor ? "outdoor" : "indoor"),
                pick(wanted, "lighting", s.brightness() < 60 ? "dark" : s.brightness() < 110 ? "dim" : "bright"),
                pick(wanted, "color_temperature", s.warmth() > 18 ? "warm" : s.warmth() < -12 ? "cool" : "neutral"),
                pick(wanted, "time_of_day", outdoor ? (s.brightness() > 100 ? "daytime" : "night") : null),
                null,
                pick(wanted, "camera_angle", angle),
                pick(wanted, "camera_motion", motion),
                new SceneEvidence(Math.round(s.brightness()), Math.round(s.contrast()), round(s.skyFraction(), 4), round(tallest, 4)),
                "image statistics (brightness, colour, sky pixels), global motion between frames " + MOTION_GAP_S
                        + " s apart, shot scale from the tallest person box; weather is not measured");
    }

    /** The value of an attribute when it was asked for (or nothing was), else null: left out of the answer. */
    private static String pick(List<String> wanted, String attribute, String value) {
        boolean asked = wanted.isEmpty() || wanted.contains(attribute) || ("location".equals(attribute) && wanted.contains("indoor_outdoor"));
        return asked ? value : null;
    }

    /** How the camera moved from {@code now} to {@code later}, {@code sign} -1 when {@code later} is in fact earlier. */
    private static String motion(DecodedImage now, DecodedImage later, double sign) {
        double[] shift = PixelStats.globalShift(now, later);
        double dx = shift[0] * sign;
        double dy = shift[1] * sign;
        if (shift[2] > 0.9 && shift[3] > 25) {
            return "cut_or_fast_motion";
        }
        if (Math.hypot(dx, dy) < 0.01) {
            return "static";
        }
        if (Math.abs(dx) >= Math.abs(dy)) {
            return dx > 0 ? "pan_left" : "pan_right";
        }
        return dy > 0 ? "tilt_up" : "tilt_down";
    }
}
