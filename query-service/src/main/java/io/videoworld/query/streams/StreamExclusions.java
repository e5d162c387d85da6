package io.videoworld.query.streams;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.StreamRulesStore;
import io.videoworld.core.StreamRules;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.InputBounds;
import io.videoworld.query.api.ToolDispatcher;
import io.videoworld.query.auth.Caller;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET/PUT /v1/streams/{id}/exclusions}: the exclusion rules of one stream, kept in
 * {@code vw-rules} with every version; a stream need not be indexed yet (rules before its first
 * frame). A new version applies to frames whose event time is at or after the moment it is set.
 */
public final class StreamExclusions {
    private final StreamRulesStore store;
    private final Clock clock;

    /** Rules in {@code store}; {@code clock} stamps when a new version applies from. */
    public StreamExclusions(StreamRulesStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** The stream's rules, every version kept (none set: an empty list). */
    public StreamRules get(Caller caller, String id) throws IOException {
        String stream = InputBounds.streamId(id, "id");
        ToolDispatcher.requireRead(caller, stream, "id");
        return store.read(stream);
    }

    /** Sets the stream's rules from now on: {@code {"rules": ["app:KeePassXC", "private"]}} (an empty list lifts them). */
    public StreamRules put(Caller caller, String id, JsonNode body) throws IOException {
        String stream = InputBounds.streamId(id, "id");
        ToolDispatcher.requireRead(caller, stream, "id");
        JsonNode list = body == null ? null : body.get("rules");
        if (list == null || !list.isArray()) {
            throw ApiException.badField("rules", "give the rules as a list of strings, e.g. [\"app:KeePassXC\", \"private\"]");
        }
        List<String> rules = new ArrayList<>();
        for (JsonNode r : list) {
            if (!r.isTextual()) {
                throw ApiException.badField("rules", "every rule is a string");
            }
            rules.add(r.asText());
        }
        try {
            return store.append(stream, rules, clock.millis());
        } catch (IllegalArgumentException e) {
            throw ApiException.badField("rules", e.getMessage());
        }
    }
}
