package io.videoworld.connectors.es;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.videoworld.core.Json;
import org.junit.jupiter.api.Test;

class IndexSettingsTest {
    @Test
    void wildcardAndPerIndexEntries() {
        IndexSettings s = IndexSettings.parse("*=2/1, vw-videos=1/, vw-frames=/2");
        assertEquals(2, s.shardsOf("vw-shots"));
        assertEquals(1, s.replicasOf("vw-shots"));
        assertEquals(1, s.shardsOf("vw-videos"));
        assertEquals(1, s.replicasOf("vw-videos"));
        assertEquals(2, s.shardsOf("vw-frames"));
        assertEquals(2, s.replicasOf("vw-frames"));
        assertNull(IndexSettings.parse("").shardsOf("vw-frames"));
        assertThrows(IllegalArgumentException.class, () -> IndexSettings.parse("vw-frames=0/1"));
        assertThrows(IllegalArgumentException.class, () -> IndexSettings.parse("vw-frames"));
    }

    @Test
    void everyIndexDefaultsToOneShardNoReplicaAndTheSettingsReplaceThem() throws Exception {
        for (String index : EsIndices.ALL) {
            int[] d = EsIndices.defaultShardsAndReplicas(index);
            assertEquals(1, d[0], index);
            assertEquals(0, d[1], index);
            try (var in = EsIndices.mapping(index)) {
                var body = Json.MAPPER.readTree(EsIndices.withSettings(Json.MAPPER.readTree(in), 3, 1));
                assertEquals(3, body.path("settings").path("number_of_shards").asInt(), index);
                assertEquals(1, body.path("settings").path("number_of_replicas").asInt(), index);
                assertEquals("1s", body.path("settings").path("refresh_interval").asText(), index);
            }
        }
    }
}
