package io.videoworld.engines.people;

import io.videoworld.perception.FaceDescriptors;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Identity without names: each track's face descriptor (the mean of its faces' unit descriptors)
 * joins the person it is most similar to when that similarity reaches the threshold, else starts a
 * new person whose id derives from that first track. The similarity to a person is the mean cosine
 * similarity to each of its tracks' descriptors (average linkage: one look-alike track does not
 * pull others in). The result depends only on the order the tracks come in.
 */
public final class FaceLinks {
    /**
     * Cosine similarity from which two faces are one person: the lowest at which the tuning half of
     * the face set (deploy/samples.sh faces/facematch.jpg, even columns) keeps a pairwise precision
     * of at least 0.95; FaceLinksTest scores it once on the held-out half.
     */
    public static final double THRESHOLD = 0.57;

    /**
     * A person known by face.
     *
     * @param id {@code per_} and a hash of the first track's id
     * @param sum sum of the tracks' unit descriptors
     * @param tracks how many tracks joined it
     */
    public record Person(String id, float[] sum, int tracks) {
        /** Unit mean of the tracks' descriptors. */
        public float[] descriptor() {
            return FaceDescriptors.unit(sum);
        }

        /** Mean cosine similarity of a unit descriptor to the tracks' descriptors. */
        public double similarity(float[] unit) {
            double dot = 0;
            for (int i = 0; i < unit.length; i++) {
                dot += (double) sum[i] * unit[i];
            }
            return dot / tracks;
        }
    }

    private final double threshold;
    private final List<Person> people = new ArrayList<>();

    /** A linker with {@link #THRESHOLD}. */
    public FaceLinks() {
        this(THRESHOLD);
    }

    /** A linker joining faces from cosine similarity {@code threshold}. */
    public FaceLinks(double threshold) {
        this.threshold = threshold;
    }

    /** A linker that already knows these people (in the order they were first seen). */
    public FaceLinks(double threshold, List<Person> known) {
        this(threshold);
        people.addAll(known);
    }

    /** The id of the person a track's face descriptor belongs to; joins or starts one. */
    public String link(String trackId, float[] descriptor) {
        float[] d = FaceDescriptors.unit(descriptor);
        int best = -1;
        double bestSim = threshold;
        for (int i = 0; i < people.size(); i++) {
            double s = people.get(i).similarity(d);
            if (s >= bestSim) {
                best = i;
                bestSim = s;
            }
        }
        if (best < 0) {
            Person p = new Person(idOf(trackId), d, 1);
            people.add(p);
            return p.id();
        }
        Person p = people.get(best);
        float[] sum = new float[d.length];
        for (int i = 0; i < d.length; i++) {
            sum[i] = p.sum()[i] + d[i];
        }
        people.set(best, new Person(p.id(), sum, p.tracks() + 1));
        return p.id();
    }

    /** The people known so far, in the order they were first seen. */
    public List<Person> people() {
        return List.copyOf(people);
    }

    /** The id of a person first seen in a track: {@code per_} and 20 hex digits of the SHA-1 of {@code face:<track id>}. */
    public static String idOf(String trackId) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-1").digest(("face:" + trackId).getBytes(StandardCharsets.UTF_8));
            return "per_" + HexFormat.of().formatHex(h, 0, 10);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Pairwise cosine similarities at or above {@code threshold} as the decision "same person". */
    public static boolean same(float[] a, float[] b, double threshold) {
        return FaceDescriptors.cosine(a, b) >= threshold;
    }
}
