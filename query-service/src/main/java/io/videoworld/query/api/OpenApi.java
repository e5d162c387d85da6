package io.videoworld.query.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.videoworld.core.Json;
import java.util.Set;

/** The OpenAPI 3.1 document, generated from the tool catalog so it cannot drift from validation. */
public final class OpenApi {
    private OpenApi() {}

    public static ObjectNode document(ToolCatalog catalog, Set<String> implemented) {
        ObjectNode doc = Json.MAPPER.createObjectNode().put("openapi", "3.1.0");
        doc.putObject("info").put("title", "VideoWorld query service").put("version", "0.1.0")
                .put("description", "The video world atomic operations over indexed video and screenshot streams. "
                        + "Tools not yet backed by data answer 501 naming the missing capability.");
        ObjectNode components = doc.putObject("components");
        components.putObject("securitySchemes").putObject("bearer").put("type", "http").put("scheme", "bearer");
        ObjectNode error = components.putObject("schemas").putObject("Error").put("type", "object");
        ObjectNode errorBody = error.putObject("properties").putObject("error").put("type", "object");
        ObjectNode ep = errorBody.putObject("properties");
        ep.putObject("code").put("type", "string");
        ep.putObject("message").put("type", "string");
        ep.putObject("field").put("type", "string").put("description", "path of the offending field, e.g. regions[1].bbox");
        doc.putArray("security").addObject().putArray("bearer");
        ObjectNode paths = doc.putObject("paths");
        paths.putObject("/health").putObject("get").put("summary", "Service, Elasticsearch and ingest job status; 503 when degraded")
                .putArray("security").addObject();
        ObjectNode frame = paths.putObject("/v1/frames/{id}").putObject("get").put("summary", "A frame's JPEG, optionally cropped and resized");
        ArrayNode params = frame.putArray("parameters");
        params.addObject().put("name", "id").put("in", "path").put("required", true).putObject("schema").put("type", "string");
        for (String q : new String[] {"width", "height"}) {
            params.addObject().put("name", q).put("in", "query").putObject("schema").put("type", "integer");
        }
        params.addObject().put("name", "crop").put("in", "query").put("description", "x,y,w,h normalised").putObject("schema").put("type", "string");
        params.addObject().put("name", "padding").put("in", "query").putObject("schema").put("type", "number");
        frame.putObject("responses").putObject("200").putObject("content").putObject("image/jpeg");
        for (ToolCatalog.ToolDef t : catalog.all()) {
            ObjectNode op = paths.putObject("/v1/tools/" + t.name()).putObject("post");
            op.put("operationId", t.name()).put("summary", t.description());
            op.putArray("tags").add(t.family());
            if (!t.aliases().isEmpty()) {
                op.put("description", "Also reachable as " + String.join(", ", t.aliases().stream().map(a -> "/v1/tools/" + a).toList())
                        + (implemented.contains(t.name()) ? "." : ". Not yet backed by data: answers 501."));
            } else if (!implemented.contains(t.name())) {
                op.put("description", "Not yet backed by data: answers 501.");
            }
            op.putObject("requestBody").put("required", true).putObject("content").putObject("application/json")
                    .set("schema", t.parameters());
            ObjectNode responses = op.putObject("responses");
            responses.putObject("200").put("description", "the seed's response JSON");
            for (String code : new String[] {"400", "401", "403", "404", "413", "501"}) {
                responses.putObject(code).put("description", switch (code) {
                    case "400" -> "invalid argument; error.field names it";
                    case "401" -> "no or unknown bearer token";
                    case "403" -> "the token may not read that stream";
                    case "404" -> "unknown stream, frame or entity";
                    case "413" -> "past a request limit (body size, uploaded image size, pixels per request); the message names it";
                    default -> "the capability this tool needs is not there yet";
                }).putObject("content").putObject("application/json").putObject("schema").put("$ref", "#/components/schemas/Error");
            }
        }
        return doc;
    }
}
