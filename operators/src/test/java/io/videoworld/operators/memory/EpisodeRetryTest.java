package io.videoworld.operators.memory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Waiting for Elasticsearch: 200 ms doubling to 5 s, as many waits as end within the time allowed. */
class EpisodeRetryTest {
    @Test
    void theWaitsFitTheTimeAllowed() {
        assertThat(EpisodeContext.waitForElasticsearch(0).getConfig().getMaxRetries()).isZero();
        assertThat(EpisodeContext.waitForElasticsearch(199).getConfig().getMaxRetries()).isZero();
        assertThat(EpisodeContext.waitForElasticsearch(200).getConfig().getMaxRetries()).isEqualTo(1);
        // 200 + 400 = 600 fits in 1000, another 800 would not.
        assertThat(EpisodeContext.waitForElasticsearch(1_000).getConfig().getMaxRetries()).isEqualTo(2);
        // 200 + 400 + 800 + 1600 + 3200 + 5000 x 10 = 56200 fits in a minute, one more 5000 would not.
        assertThat(EpisodeContext.waitForElasticsearch(60_000).getConfig().getMaxRetries()).isEqualTo(15);
        assertThat(EpisodeContext.waitForElasticsearch(60_000).getConfig().getDelay().toMillis()).isEqualTo(200);
        assertThat(EpisodeContext.waitForElasticsearch(60_000).getConfig().getMaxDelay().toMillis()).isEqualTo(5_000);
    }
}
