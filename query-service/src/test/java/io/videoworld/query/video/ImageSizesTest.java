package io.videoworld.query.video;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.videoworld.media.images.Images;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.RequestLimits;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/** Sizes known from headers match what decoding finds, and the predicted output size is what {@link Images#transform} makes. */
class ImageSizesTest {
    private static byte[] image(String format, int w, int h) throws IOException {
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, format, out);
        return out.toByteArray();
    }

    @Test
    void headersGiveTheSizeOfJpegAndPngAndNothingElse() throws IOException {
        assertThat(ImageSizes.declared(image("jpg", 321, 123))).isEqualTo(new ImageSizes.Size(321, 123));
        assertThat(ImageSizes.declared(image("png", 77, 55))).isEqualTo(new ImageSizes.Size(77, 55));
        assertThat(ImageSizes.declared(image("bmp", 10, 10))).isNull();
        assertThat(ImageSizes.declared(new byte[] {(byte) 0xFF, (byte) 0xD8, 0, 0})).isNull();
        assertThat(ImageSizes.declared(null)).isNull();
        byte[] png = image("png", 8, 8);
        png[16] = (byte) 0x7F;
        assertThat(ImageSizes.declared(png).width()).isEqualTo(0x7F000008L);
    }

    @Test
    void thePredictedOutputIsWhatTransformMakes() throws IOException {
        byte[] jpeg = image("jpg", 640, 360);
        ImageSizes.Size source = ImageSizes.declared(jpeg);
        double[][] boxes = {{0, 0, 1, 1}, {0.1, 0.2, 0.3, 0.4}, {0.9, 0.9, 0.1, 0.1}, {0, 0, 0.002, 1}};
        int[][] sizes = {{0, 0}, {320, 0}, {0, 90}, {100, 100}, {33, 0}};
        for (double[] b : boxes) {
            Images.PixelBox box = Images.box(b, 0.25, 640, 360);
            for (int[] s : sizes) {
                ImageSizes.Size predicted = ImageSizes.output(source, box, s[0], s[1]);
                if (predicted.pixels() > 4_000_000) {
                    continue;
                }
                byte[] out = Images.transform(jpeg, box, s[0], s[1], 90);
                assertThat(ImageSizes.declared(out)).as("box %s size %dx%d", java.util.Arrays.toString(b), s[0], s[1]).isEqualTo(predicted);
            }
        }
        assertThat(ImageSizes.output(source, Images.box(new double[] {0, 0, 0.002, 1}, 0, 640, 360), 8192, 0).height())
                .isGreaterThan(1_000_000);
    }

    @Test
    void theBudgetAnswers413NamingTheLimit() {
        RequestLimits limits = RequestLimits.defaults();
        PixelBudget budget = new PixelBudget(limits);
        budget.charge(100_000_000, "num_frames");
        assertThatThrownBy(() -> budget.charge(60_000_000, "num_frames")).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).isEqualTo(413);
            assertThat(e.field()).isEqualTo("num_frames");
            assertThat(e.getMessage()).contains("160 megapixels").contains("the limit is 150 megapixels");
        });
        assertThatThrownBy(() -> budget.checkUpload(new ImageSizes.Size(60_000, 60_000), "source.image_data"))
                .hasMessageContaining("declares 60000x60000").hasMessageContaining("8192 pixels a side");
        assertThatThrownBy(() -> budget.checkUpload(new ImageSizes.Size(8000, 8000), "source.image_data"))
                .hasMessageContaining("40 megapixels");
        assertThatThrownBy(() -> budget.checkOutput(new ImageSizes.Size(8193, 10), "width")).hasMessageContaining("8193x10");
    }
}
