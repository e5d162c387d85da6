package io.videoworld.connectors.framestore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keyframes encrypted at rest: the files on disk are not JPEGs, read back they are, and a wrong or missing key fails by name. */
class EncryptedFrameStoreTest {
    @TempDir
    Path root;

    private static byte[] jpeg() throws Exception {
        BufferedImage img = new BufferedImage(160, 90, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setColor(Color.ORANGE);
        g.fillRect(20, 20, 60, 40);
        g.dispose();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, "jpg", out);
        return out.toByteArray();
    }

    private static byte[] randomKey() {
        byte[] k = new byte[32];
        new SecureRandom().nextBytes(k);
        return k;
    }

    @Test
    void filesAreSealedAndReadBackOnlyWithTheirKey() throws Exception {
        byte[] picture = jpeg();
        byte[] key = randomKey();
        String storeKey = "desk/1700000000000/0000000003.jpg";
        FrameStore store = new EncryptedFrameStore(new LocalFrameStore(root), key);
        store.put(storeKey, picture);

        byte[] onDisk = Files.readAllBytes(root.resolve(storeKey));
        assertThat(onDisk[0] == (byte) 0xFF && onDisk[1] == (byte) 0xD8).as("not a JPEG on disk").isFalse();
        assertThat(ImageIO.read(new ByteArrayInputStream(onDisk))).isNull();
        assertThat(new String(onDisk, java.nio.charset.StandardCharsets.ISO_8859_1))
                .doesNotContain(new String(picture, 200, 32, java.nio.charset.StandardCharsets.ISO_8859_1));
        assertThat(store.get(storeKey)).hasValue(picture);
        assertThat(ImageIO.read(new ByteArrayInputStream(store.get(storeKey).orElseThrow())).getWidth()).isEqualTo(160);

        // The same key again (as the query service opens it) reads it; another key or none fails, naming the variable.
        assertThat(new EncryptedFrameStore(new LocalFrameStore(root), key.clone()).get(storeKey)).hasValue(picture);
        assertThatThrownBy(() -> new EncryptedFrameStore(new LocalFrameStore(root), randomKey()).get(storeKey))
                .hasMessageContaining(EncryptedFrameStore.KEY_ENV).hasMessageContaining("not the key");
        assertThatThrownBy(() -> new EncryptedFrameStore(new LocalFrameStore(root), null).get(storeKey))
                .hasMessageContaining("is encrypted").hasMessageContaining(EncryptedFrameStore.KEY_ENV);
        // A sealed file moved under another name does not decrypt there.
        Files.createDirectories(root.resolve("desk/other"));
        Files.copy(root.resolve(storeKey), root.resolve("desk/other/x.jpg"));
        assertThatThrownBy(() -> store.get("desk/other/x.jpg")).hasMessageContaining("not the key");
        // A file written before encryption was turned on is still read; a missing one is empty.
        new LocalFrameStore(root).put("desk/old.jpg", picture);
        assertThat(store.get("desk/old.jpg")).hasValue(picture);
        assertThat(store.get("desk/none.jpg")).isEmpty();
        store.deleteStream("desk");
        assertThat(Files.exists(root.resolve(storeKey))).isFalse();
    }

    @Test
    void offByDefaultAndTheKeyIsChecked() throws Exception {
        byte[] picture = jpeg();
        FrameStore plain = new EncryptedFrameStore(new LocalFrameStore(root), EncryptedFrameStore.key(null));
        plain.put("a/b.jpg", picture);
        assertThat(Files.readAllBytes(root.resolve("a/b.jpg"))).isEqualTo(picture);
        assertThat(EncryptedFrameStore.key(" ")).isNull();
        assertThat(EncryptedFrameStore.key(Base64.getEncoder().encodeToString(new byte[32]))).hasSize(32);
        assertThatThrownBy(() -> new EncryptedFrameStore(new LocalFrameStore(root), new byte[16])).hasMessageContaining("32 bytes");
        assertThatThrownBy(() -> EncryptedFrameStore.key("not base64 !")).hasMessageContaining("base64");
    }
}
