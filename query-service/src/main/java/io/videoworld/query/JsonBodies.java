package io.videoworld.query;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.ErrorMapper;
import io.videoworld.query.api.RequestLimits;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a request body as JSON within {@link RequestLimits}: at most {@code maxBodyBytes} (also
 * for chunked bodies, whose size nobody declares), nested at most {@code maxJsonDepth} deep, one
 * value and nothing after it. Every way a body can be wrong is a 4xx naming what.
 */
final class JsonBodies {
    private final RequestLimits limits;
    private final ObjectMapper mapper;

    JsonBodies(RequestLimits limits) {
        this.limits = limits;
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(limits.maxJsonDepth()).build())
                .build();
        this.mapper = JsonMapper.builder(factory).enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
    }

    /** The body as JSON; an empty body is an empty object. */
    JsonNode read(HttpServletRequest req) {
        return parse(bytes(req));
    }

    /** The body's bytes: 413 past the size limit, 400/408 for broken framing. */
    byte[] bytes(HttpServletRequest req) {
        long declared = req.getContentLengthLong();
        if (declared > limits.maxBodyBytes()) {
            throw tooLarge(declared);
        }
        byte[] body;
        try (InputStream in = req.getInputStream()) {
            body = in.readNBytes(limits.maxBodyBytes() + 1);
        } catch (IOException | RuntimeException e) {
            ApiException framing = ErrorMapper.framing(e);
            throw framing != null ? framing : new ApiException(400, "malformed_request", null, "the request body could not be read");
        }
        if (body.length > limits.maxBodyBytes()) {
            throw tooLarge(-1);
        }
        return body;
    }

    /** Parses JSON text under the depth limit. */
    JsonNode parse(byte[] body) {
        if (isBlank(body)) {
            return mapper.createObjectNode();
        }
        try {
            return mapper.readTree(body);
        } catch (StreamConstraintsException e) {
            String m = String.valueOf(e.getMessage());
            if (m.contains("nesting depth")) {
                throw ApiException.badField(null, "request body is JSON nested deeper than " + limits.maxJsonDepth()
                        + " levels (the limit)");
            }
            throw ApiException.badField(null, "request body has a JSON value past the parser's limits (numbers of at most 1000 digits)");
        } catch (JsonProcessingException e) {
            String reason = ErrorMapper.safe(e.getOriginalMessage());
            String at = e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
            throw ApiException.badField(null, "request body is not valid JSON" + (reason == null ? "" : ": " + reason) + at);
        } catch (IOException e) {
            throw ApiException.badField(null, "request body is not valid JSON");
        }
    }

    private ApiException tooLarge(long declared) {
        return ApiException.tooLarge(null, "request body " + (declared > 0 ? "of " + declared + " bytes " : "")
                + "is larger than the limit of " + limits.maxBodyBytes() + " bytes");
    }

    private static boolean isBlank(byte[] b) {
        for (byte x : b) {
            if (x != ' ' && x != '\n' && x != '\r' && x != '\t') {
                return false;
            }
        }
        return true;
    }
}
