package io.videoworld.query.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.videoworld.core.Json;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The OpenAPI 3.1 document, generated from the tool catalog so it cannot drift from validation. */
public final class OpenApi {
    private static final Pattern PATH_PARAM = Pattern.compile("\\{(\\w+)}");

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
        for (Endpoints.Endpoint e : Endpoints.ALL) {
            ObjectNode op = paths.has(e.path()) ? (ObjectNode) paths.get(e.path()) : paths.putObject(e.path());
            describe(op.putObject(e.method().toLowerCase(Locale.ROOT)), e);
        }
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

    /** One endpoint's operation: path parameters, body, success type and the error answers it can give. */
    private static void describe(ObjectNode op, Endpoints.Endpoint e) {
        op.put("summary", e.summary());
        if (e.open()) {
            op.putArray("security").addObject();
        }
        ArrayNode params = op.putArray("parameters");
        Matcher m = PATH_PARAM.matcher(e.path());
        while (m.find()) {
            params.addObject().put("name", m.group(1)).put("in", "path").put("required", true).putObject("schema").put("type", "string");
        }
        if (e.path().equals("/v1/frames/{id}")) {
            for (String q : new String[] {"width", "height"}) {
                params.addObject().put("name", q).put("in", "query").putObject("schema").put("type", "integer");
            }
            params.addObject().put("name", "crop").put("in", "query").put("description", "x,y,w,h normalised").putObject("schema").put("type", "string");
            params.addObject().put("name", "padding").put("in", "query").putObject("schema").put("type", "number");
        }
        if (e.body()) {
            op.putObject("requestBody").put("required", true).putObject("content").putObject("application/json").putObject("schema").put("type", "object");
        }
        ObjectNode responses = op.putObject("responses");
        responses.putObject("200").put("description", "success").putObject("content").putObject(e.produces());
        if (!e.open()) {
            for (String code : new String[] {"400", "401", "403", "404"}) {
                responses.putObject(code).put("description", code.equals("400") ? "invalid argument; error.field names it" : "see the tools' answers")
                        .putObject("content").putObject("application/json").putObject("schema").put("$ref", "#/components/schemas/Error");
            }
        }
    }
}
