package io.videoworld.core;

import java.util.ArrayList;
import java.util.List;

/**
 * The exclusion rules set for one stream over REST, every version kept: a version applies to the
 * frames whose event time is at or after its {@code sinceMs}, until the next version's. Choosing by
 * event time (not by when the job happened to read the rules) makes a replay decide as the first run did.
 *
 * @param streamId the stream
 * @param versions the versions, oldest first, {@code sinceMs} never decreasing
 */
public record StreamRules(String streamId, List<Version> versions) {
    /** How many versions are kept; older ones are dropped (their frames are past). */
    public static final int MAX_VERSIONS = 64;

    /**
     * One version of a stream's rules.
     *
     * @param version 1, 2, ... in the order they were set
     * @param sinceMs the event time from which it applies (epoch ms)
     * @param rules the rules as written ({@link ExclusionRules#parse})
     */
    public record Version(long version, long sinceMs, List<String> rules) {}

    public StreamRules {
        versions = versions == null ? List.of() : List.copyOf(versions);
    }

    /** No rules set for the stream. */
    public static StreamRules none(String streamId) {
        return new StreamRules(streamId, List.of());
    }

    /** The version that applies at this event time, or null when none does (no rules). */
    public Version at(long eventTimeMs) {
        Version found = null;
        for (Version v : versions) {
            if (v.sinceMs() <= eventTimeMs) {
                found = v;
            }
        }
        return found;
    }

    /** The latest version, or null. */
    public Version latest() {
        return versions.isEmpty() ? null : versions.get(versions.size() - 1);
    }

    /**
     * These rules with a new version appended, applying from {@code sinceMs} (raised to the latest
     * version's own, so versions stay in order); the rules are checked first.
     */
    public StreamRules with(List<String> rules, long sinceMs) {
        ExclusionRules.parse(rules);
        Version last = latest();
        List<Version> out = new ArrayList<>(versions);
        out.add(new Version(last == null ? 1 : last.version() + 1, last == null ? sinceMs : Math.max(sinceMs, last.sinceMs()), List.copyOf(rules)));
        while (out.size() > MAX_VERSIONS) {
            out.remove(0);
        }
        return new StreamRules(streamId, out);
    }
}
