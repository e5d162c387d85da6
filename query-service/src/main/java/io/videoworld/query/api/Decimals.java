package io.videoworld.query.api;

/** Numbers as the tools answer them: rounded to a fixed number of decimals, so answers stay short and stable. */
public final class Decimals {
    private Decimals() {}

    /** {@code v} rounded half up to {@code digits} decimals. */
    public static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }
}
