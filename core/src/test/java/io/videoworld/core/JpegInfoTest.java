package io.videoworld.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Color;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class JpegInfoTest {
    @Test
    void readsTheSizeOfARealJpeg() {
        assertThat(JpegInfo.parse(JpegSamples.solid(321, 123, Color.GREEN))).isEqualTo(new JpegInfo(321, 123));
    }

    @Test
    void rejectsTruncatedAndForeignBytes() {
        byte[] jpeg = JpegSamples.solid(32, 32, Color.GREEN);
        assertThat(JpegInfo.parse(Arrays.copyOf(jpeg, jpeg.length - 1))).isNull();
        assertThat(JpegInfo.parse(Arrays.copyOf(jpeg, 20))).isNull();
        assertThat(JpegInfo.parse(new byte[] {(byte) 0x89, 'P', 'N', 'G'})).isNull();
        assertThat(JpegInfo.parse(new byte[0])).isNull();
        assertThat(JpegInfo.parse(null)).isNull();
    }

    @Test
    void rejectsAJpegWhoseSegmentLengthRunsPastTheEnd() {
        byte[] bogus = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0, 0x7F, 0x00, 0x01, (byte) 0xFF, (byte) 0xD9};
        assertThat(JpegInfo.parse(bogus)).isNull();
    }
}
