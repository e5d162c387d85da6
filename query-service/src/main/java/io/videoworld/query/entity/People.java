package io.videoworld.query.entity;

import io.videoworld.connectors.esread.ActivityRepository;
import io.videoworld.connectors.esread.ActivityRepository.PoseActivity;
import io.videoworld.connectors.esread.ObjectRepository.Track;
import io.videoworld.connectors.esread.PersonHistory;
import io.videoworld.connectors.esread.PersonHistory.PersonEvent;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.api.ContentIds;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The person registry: a person named in {@code register_entity} has one id in every stream
 * (a hash of the name, so the same name given in two streams is the same person), and a history
 * in {@code vw-people} of what was recorded about them: the name, each track (where seen, from
 * when to when) and each activity the person operator indexed for those tracks. The history is
 * only appended to; {@link #replay} rebuilds the person from it, the newest record of an
 * activity that grew superseding the older ones without removing them.
 */
public final class People {
    /** Prefix of a person's id. */
    public static final String PREFIX = "per_";

    /** One stretch of a track of the person: where (stream, track) and from when to when (the push's presentation times, ms). */
    public record Seen(String streamId, long epochMs, String trackId, long fromMs, long toMs, int samples) {}

    /** One activity of the person as last recorded. */
    public record Did(String streamId, String trackId, String label, double confidence, long fromMs, long toMs, int samples, List<Long> frames) {}

    /** A person replayed from their history: name, tracks and activities, with how many events it rests on. */
    public record PersonRecord(String personId, String name, List<Seen> seen, List<Did> activities, int events) {}

    private final PersonHistory history;
    private final ActivityRepository activities;

    public People(PersonHistory history, ActivityRepository activities) {
        this.history = history;
        this.activities = activities;
    }

    /** The person id of a name: the same name (case and spacing aside) gives the same id in every stream. */
    public static String idOf(String name) {
        return ContentIds.of(PREFIX, name.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT), 10);
    }

    /** Appends that {@code name} was given from the first of {@code tracks} in {@code v}, each track, and the tracks' activities. */
    public void named(String personId, String name, VideoDoc v, List<Track> tracks) throws IOException {
        long now = System.currentTimeMillis();
        List<PersonEvent> events = new ArrayList<>();
        String first = tracks.isEmpty() ? null : tracks.get(0).id();
        events.add(new PersonEvent(personId + ":named:" + v.streamId() + ":" + v.epochMs() + ":" + first + ":" + name, personId,
                PersonHistory.NAMED, v.streamId(), v.epochMs(), first, name, null, null, null, null, null, null, now));
        for (Track t : tracks) {
            events.add(trackEvent(personId, v.streamId(), v.epochMs(), t, now));
        }
        history.append(events);
        record(personId);
    }

    private static PersonEvent trackEvent(String personId, String streamId, long epochMs, Track t, long now) {
        return new PersonEvent(personId + ":track:" + t.id() + ":" + t.lastMs(), personId, PersonHistory.TRACK, streamId, epochMs, t.id(), null,
                null, null, t.firstMs(), t.lastMs(), t.samples(), null, now);
    }

    /**
     * The person replayed from their history, after appending what is new: the activities now
     * indexed for the person's tracks that the history does not hold as they are.
     */
    public PersonRecord record(String personId) throws IOException {
        List<PersonEvent> events = history.history(personId);
        Map<String, String> streamOf = new LinkedHashMap<>();
        Map<String, Long> epochOf = new LinkedHashMap<>();
        for (PersonEvent e : events) {
            if (PersonHistory.TRACK.equals(e.kind())) {
                streamOf.put(e.trackId(), e.streamId());
                epochOf.put(e.trackId(), e.epochMs());
            }
        }
        java.util.Set<String> known = new java.util.HashSet<>();
        events.forEach(e -> known.add(e.eventId()));
        long now = System.currentTimeMillis();
        List<PersonEvent> fresh = new ArrayList<>();
        for (PoseActivity a : activities.ofTracks(List.copyOf(streamOf.keySet()))) {
            String id = personId + ":activity:" + a.id() + ":" + a.samples() + ":" + a.toMs();
            if (!known.contains(id)) {
                fresh.add(new PersonEvent(id, personId, PersonHistory.ACTIVITY, streamOf.get(a.trackId()), epochOf.get(a.trackId()), a.trackId(),
                        null, a.label(), a.confidence(), a.fromMs(), a.toMs(), a.samples(), a.frames(), now));
            }
        }
        if (!fresh.isEmpty() && history.append(fresh) > 0) {
            events = history.history(personId);
        }
        return replay(personId, events);
    }

    /**
     * Rebuilds a person from their events in recorded order: the latest name, each track's widest
     * stretch, and per activity (track, label, first frame) the record resting on the most samples.
     */
    public static PersonRecord replay(String personId, List<PersonEvent> events) {
        String name = null;
        Map<String, Seen> seen = new LinkedHashMap<>();
        Map<String, Did> did = new LinkedHashMap<>();
        for (PersonEvent e : events) {
            switch (e.kind()) {
                case PersonHistory.NAMED -> name = e.name();
                case PersonHistory.TRACK -> seen.merge(e.trackId(), new Seen(e.streamId(), e.epochMs(), e.trackId(), e.fromMs(), e.toMs(), e.samples()),
                        (a, b) -> b.samples() >= a.samples() ? new Seen(a.streamId(), a.epochMs(), a.trackId(), Math.min(a.fromMs(), b.fromMs()),
                                Math.max(a.toMs(), b.toMs()), b.samples()) : a);
                case PersonHistory.ACTIVITY -> {
                    String key = e.trackId() + ":" + e.label() + ":" + (e.frames() == null || e.frames().isEmpty() ? 0 : e.frames().get(0));
                    Did d = new Did(e.streamId(), e.trackId(), e.label(), e.confidence(), e.fromMs(), e.toMs(), e.samples(), e.frames());
                    did.merge(key, d, (a, b) -> b.samples() >= a.samples() ? b : a);
                }
                default -> { } // a kind this version does not know is kept in the history and skipped here
            }
        }
        List<Did> acts = new ArrayList<>(did.values());
        acts.sort(java.util.Comparator.comparing(Did::streamId).thenComparingLong(Did::fromMs).thenComparing(Did::label));
        return new PersonRecord(personId, name, List.copyOf(seen.values()), List.copyOf(acts), events.size());
    }
}
