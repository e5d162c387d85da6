package io.videoworld.query.agent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** The full record of an ask, step by step, also streamed to a listener as it grows. */
final class Trace {
    private final List<Map<String, Object>> steps = new ArrayList<>();
    private final Consumer<Map<String, Object>> listener;

    Trace(Consumer<Map<String, Object>> listener) {
        this.listener = listener;
    }

    void add(String stage, Map<String, ?> detail) {
        Map<String, Object> step = new LinkedHashMap<>();
        step.put("step", steps.size() + 1);
        step.put("stage", stage);
        step.putAll(detail);
        steps.add(step);
        if (listener != null) {
            listener.accept(step);
        }
    }

    List<Map<String, Object>> steps() {
        return List.copyOf(steps);
    }
}
