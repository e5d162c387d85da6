package io.videoworld.engines.privacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.videoworld.core.StreamRules;
import io.videoworld.perception.DecodedImage;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/** The producer's grey stand-in names its rule and decodes as a flat grey picture; a stream's rule versions apply by event time. */
class ExclusionMarkTest {
    @Test
    void theStandInNamesItsRuleAndShowsNothing() throws Exception {
        byte[] marked = ExclusionMark.excludedFrame(640, 360, "app:KeePassXC");
        assertThat(ExclusionMark.ruleOf(marked)).isEqualTo("app:KeePassXC");
        DecodedImage d = DecodedImage.decode(marked);
        assertThat(d.width()).isEqualTo(640);
        assertThat(d.height()).isEqualTo(360);
        int min = 255;
        int max = 0;
        for (byte v : d.bgr()) {
            min = Math.min(min, v & 0xff);
            max = Math.max(max, v & 0xff);
        }
        assertThat(max - min).isLessThanOrEqualTo(2);
        assertThat(ImageIO.read(new java.io.ByteArrayInputStream(marked)).getWidth()).as("Java's own decoder reads it too").isEqualTo(640);
        // Ordinary JPEGs (and the job's own grey frames) name no rule.
        BufferedImage img = new BufferedImage(64, 48, BufferedImage.TYPE_INT_RGB);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, "jpg", out);
        assertThat(ExclusionMark.ruleOf(out.toByteArray())).isNull();
        assertThat(ExclusionMark.ruleOf(WindowExclusion.blank(64, 48))).isNull();
        assertThat(ExclusionMark.ruleOf(new byte[] {1, 2, 3})).isNull();
        assertThat(ExclusionMark.ruleOf(ExclusionMark.excludedFrame(8, 8, "title:(?i)\\bpayroll\\b"))).isEqualTo("title:(?i)\\bpayroll\\b");
    }

    @Test
    void aVersionAppliesFromItsSinceUntilTheNext() {
        StreamRules r = StreamRules.none("desk").with(List.of("app:KeePassXC"), 1_000).with(List.of(), 5_000).with(List.of("private"), 4_000);
        assertThat(r.at(999)).isNull();
        assertThat(r.at(1_000).rules()).containsExactly("app:KeePassXC");
        assertThat(r.at(4_999).version()).isEqualTo(1);
        assertThat(r.versions().get(1).rules()).isEmpty();
        // A version set with an earlier time than the latest's applies from the latest's: versions stay in order.
        assertThat(r.latest().sinceMs()).isEqualTo(5_000);
        assertThat(r.at(5_000).version()).isEqualTo(3);
        assertThat(r.at(5_000).rules()).containsExactly("private");
        assertThatThrownBy(() -> r.with(List.of("window:Mail"), 9_000)).hasMessageContaining("window:Mail");
        StreamRules many = StreamRules.none("desk");
        for (int i = 0; i < StreamRules.MAX_VERSIONS + 5; i++) {
            many = many.with(List.of("private"), i);
        }
        assertThat(many.versions()).hasSize(StreamRules.MAX_VERSIONS);
        assertThat(many.latest().version()).isEqualTo(StreamRules.MAX_VERSIONS + 5);
    }
}
