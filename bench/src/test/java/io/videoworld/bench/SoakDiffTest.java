package io.videoworld.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The soak's report of a copy that differs from the clean run names the fields that differ. */
class SoakDiffTest {
    @Test
    void namesEachDifferingFieldOfTheSameDocument() {
        String copy = "{\"_id\":\"S:e:000002\",\"_source\":{\"summary\":\"kite\",\"revision\":3,\"linked\":[\"a\"]}}";
        String clean = "{\"_id\":\"S:e:000002\",\"_source\":{\"summary\":\"kite\",\"revision\":2}}";
        assertThat(SoakBench.fieldsThatDiffer(List.of(copy), List.of(clean)))
                .isEqualTo("fields that differ: S:e:000002.linked = [\"a\"] vs (absent), S:e:000002.revision = 3 vs 2");
    }

    @Test
    void documentsOnlyOneSideHoldsAreLeftToTheFullListing() {
        String copy = "{\"_id\":\"S:e:000003\",\"_source\":{\"summary\":\"kite\"}}";
        String clean = "{\"_id\":\"S:e:000002\",\"_source\":{\"summary\":\"kite\"}}";
        assertThat(SoakBench.fieldsThatDiffer(List.of(copy), List.of(clean))).isEqualTo("no document differs field by field");
    }

    @Test
    void timesOfBothKindsAreCountedFromTheCopysEpoch() throws Exception {
        var doc = io.videoworld.core.Json.MAPPER.readTree("{\"occurred_at\":1795815934000,\"event_time_ms\":1795815935000,\"start_pts_ms\":13000,\"batches\":1}");
        assertThat(SoakBench.relative(doc, 1795815921000L).toString())
                .isEqualTo("{\"occurred_at\":13000,\"event_time_ms\":14000,\"start_pts_ms\":13000,\"batches\":1}");
    }
}
