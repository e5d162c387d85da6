package io.videoworld.query.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Json;
import org.junit.jupiter.api.Test;

/** The library's findings worded as the service words them: the first offending field, by its path, in a reader's order. */
class SchemaValidatorTest {
    private static final String SCHEMA = """
            {"type": "object", "required": ["video_id", "mode"], "additionalProperties": true, "properties": {
              "video_id": {"type": "string", "minLength": 1},
              "mode": {"type": "string", "enum": ["fast", "full"]},
              "num_frames": {"type": "integer", "minimum": 1, "maximum": 64},
              "fps": {"type": "number", "exclusiveMinimum": 0},
              "app": {"type": "string", "minLength": 1, "maxLength": 5},
              "regions": {"type": "array", "minItems": 1, "maxItems": 3, "items": {"type": "object", "required": ["bbox"], "properties": {
                "bbox": {"type": "array", "minItems": 4, "maxItems": 4, "items": {"type": "number", "minimum": 0}}}}}}}
            """;

    @Test
    void eachKindOfRefusalNamesItsFieldInTheServicesWords() {
        assertRefused("{\"mode\": \"fast\"}", "video_id", "'video_id' is required");
        assertRefused("{}", "video_id", "'video_id' is required");
        assertRefused("{\"video_id\": 3, \"mode\": \"fast\"}", "video_id", "'video_id' must be a string");
        assertRefused("{\"video_id\": \"\", \"mode\": \"fast\"}", "video_id", "'video_id' must not be empty");
        assertRefused("{\"video_id\": \"v\", \"mode\": \"slow\"}", "mode", "'mode' must be one of [\"fast\",\"full\"]");
        assertRefused("{\"video_id\": \"v\", \"mode\": \"fast\", \"num_frames\": 0}", "num_frames", "'num_frames' must be at least 1");
        assertRefused("{\"video_id\": \"v\", \"mode\": \"fast\", \"num_frames\": 65}", "num_frames", "'num_frames' must be at most 64");
        assertRefused("{\"video_id\": \"v\", \"mode\": \"fast\", \"num_frames\": 2.5}", "num_frames", "'num_frames' must be an integer");
        assertRefused("{\"video_id\": \"v\", \"mode\": \"fast\", \"fps\": 0}", "fps", "'fps' must be greater than 0");
        assertRefused("{\"video_id\": \"v\", \"mode\": \"fast\", \"regions\": []}", "regions", "'regions' must have at least 1 items");
        assertRefused("{\"video_id\": \"v\", \"mode\": \"fast\", \"regions\": [{}]}", "regions[0].bbox", "'regions[0].bbox' is required");
        assertRefused("{\"video_id\": \"v\", \"mode\": \"fast\", \"regions\": [{\"bbox\": [0, 0, 1, 1]}, {\"bbox\": [0, 0, -1, 1]}]}",
                "regions[1].bbox[2]", "'regions[1].bbox[2]' must be at least 0");
        assertRefused("{\"video_id\": \"v\", \"mode\": \"fast\", \"app\": \"toolong\"}", "app", "'app' must be at most 5 characters");
    }

    @Test
    void theFirstRefusalIsTheOneAReaderOfTheSchemaMeetsFirst() {
        // The value's own type before anything else about it; a parent's required before its properties; properties in schema order.
        assertRefused("{\"video_id\": \"v\", \"mode\": 7}", "mode", "'mode' must be a string");
        assertRefused("{\"num_frames\": 0, \"video_id\": 1}", "mode", "'mode' is required");
        assertRefused("{\"num_frames\": 0, \"mode\": \"fast\", \"video_id\": 1}", "video_id", "'video_id' must be a string");
        assertRefused("{\"video_id\": \"v\", \"num_frames\": 0}", "mode", "'mode' is required");
        assertRefused("{\"video_id\": \"v\", \"mode\": \"fast\", \"fps\": -1, \"num_frames\": 0}", "num_frames", "'num_frames' must be at least 1");
    }

    @Test
    void nullsAreAbsentAndIntegralFractionsAreIntegers() {
        assertThatCode(() -> SchemaValidator.validate(schema(), json("{\"video_id\": \"v\", \"mode\": \"fast\", \"num_frames\": null, \"fps\": null}")))
                .doesNotThrowAnyException();
        assertThatCode(() -> SchemaValidator.validate(schema(), json("{\"video_id\": \"v\", \"mode\": \"fast\", \"num_frames\": 3.0}")))
                .doesNotThrowAnyException();
        assertRefused("{\"video_id\": null, \"mode\": \"fast\"}", "video_id", "'video_id' is required");
        assertRefused("[1]", null, "request body must be an object");
    }

    private static void assertRefused(String body, String field, String message) {
        ApiException e = catchThrowableOfType(ApiException.class, () -> SchemaValidator.validate(schema(), json(body)));
        assertThat(e).as(body).isNotNull();
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.field()).as(body).isEqualTo(field);
        assertThat(e.getMessage()).as(body).isEqualTo(message);
    }

    private static JsonNode schema() {
        return SCHEMA_NODE;
    }

    private static final JsonNode SCHEMA_NODE = json(SCHEMA);

    private static JsonNode json(String s) {
        try {
            return Json.MAPPER.readTree(s);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
