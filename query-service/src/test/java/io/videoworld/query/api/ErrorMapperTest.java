package io.videoworld.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.ErrorResponse;
import com.fasterxml.jackson.core.JsonParseException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.BadMessageException;
import org.eclipse.jetty.io.EofException;
import org.junit.jupiter.api.Test;

/** Each kind of failure becomes the status it deserves, and no answer shows Java internals. */
class ErrorMapperTest {
    private static ErrorMapper.Answer answer(Throwable e) {
        ErrorMapper.Answer a = ErrorMapper.answer(e, "POST /test");
        assertThat(a.message()).doesNotContainPattern(ErrorMapper.INTERNALS);
        return a;
    }

    private static ElasticsearchException es(int status, String type) {
        return new ElasticsearchException("search", ErrorResponse.of(r -> r.status(status)
                .error(c -> c.type(type).reason("java.lang.IllegalArgumentException: term too long"))));
    }

    @Test
    void anUnexpectedFailureIsA500ThatOnlyGivesTheIdItIsLoggedUnder() {
        ErrorMapper.Answer a = answer(new NullPointerException("Cannot invoke \"JsonLocation.getLineNr()\""));
        assertThat(a.status()).isEqualTo(500);
        assertThat(a.code()).isEqualTo("internal");
        assertThat(a.message()).matches("internal error \\(logged as [0-9a-f]{8}\\)");
        assertThat(answer(new IllegalStateException("x")).message()).isNotEqualTo(a.message());
    }

    @Test
    void elasticsearchRefusingTheInputIsTheClientsErrorAndElasticsearchFailingIsNot() {
        ErrorMapper.Answer refused = answer(new UncheckedIOException(new IOException(es(400, "search_phase_execution_exception"))));
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.code()).isEqualTo("invalid_argument");
        assertThat(refused.message()).contains("refused by Elasticsearch").doesNotContain("term too long");
        assertThat(answer(es(404, "index_not_found_exception")).status()).isEqualTo(404);
        assertThat(answer(es(429, "es_rejected_execution_exception")).status()).isEqualTo(429);
        ErrorMapper.Answer broken = answer(es(500, "null_pointer_exception"));
        assertThat(broken.status()).isEqualTo(503);
        assertThat(broken.message()).contains("logged as");
        assertThat(answer(new IOException(new ConnectException("Connection refused"))).status()).isEqualTo(503);
    }

    @Test
    void brokenFramingIsA4xx() {
        ErrorMapper.Answer chunk = answer(new IOException(new BadMessageException(400, "Bad chunking")));
        assertThat(chunk.status()).isEqualTo(400);
        assertThat(chunk.message()).isEqualTo("malformed HTTP request: Bad chunking");
        assertThat(answer(new EofException("Early EOF")).status()).isEqualTo(400);
        assertThat(answer(new IOException(new TimeoutException("Idle timeout expired: 500/500 ms"))).status()).isEqualTo(408);
        ErrorMapper.Answer json = answer(new JsonParseException(null, "Unexpected character ('}' (code 125))"));
        assertThat(json.status()).isEqualTo(400);
        assertThat(json.message()).isEqualTo("request body is not valid JSON: Unexpected character ('}' (code 125))");
        ApiException nested = ApiException.badField("video_id", "bad");
        assertThat(answer(new RuntimeException(nested)).status()).isEqualTo(400);
    }

    @Test
    void libraryTextGoesOutOnlyWithoutClassNamesAndConfigurationHints() {
        assertThat(ErrorMapper.safe("Non-standard token 'NaN': enable `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow"))
                .isEqualTo("Non-standard token 'NaN'");
        assertThat(ErrorMapper.safe("Unexpected end-of-input: expected close marker for Object (start marker at [Source: REDACTED"))
                .isEqualTo("Unexpected end-of-input: expected close marker for Object");
        assertThat(ErrorMapper.safe("java.util.concurrent.TimeoutException: Idle timeout")).isNull();
        assertThat(ErrorMapper.safe("failed with IllegalStateException")).isNull();
        assertThat(ErrorMapper.safe("x".repeat(500))).hasSize(80);
    }
}
