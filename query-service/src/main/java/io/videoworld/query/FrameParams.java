package io.videoworld.query;

import io.javalin.http.Context;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.InputBounds;
import io.videoworld.query.api.RequestLimits;
import java.util.Arrays;
import java.util.List;

/**
 * What {@code GET /v1/frames/{id}} is asked for, every part checked before anything is read, so a
 * bad one costs nothing: the frame id and its stream, {@code width} and {@code height} (0 when
 * absent), {@code crop=x,y,w,h} normalised (null when absent) and {@code padding}; 400 naming the
 * parameter that is wrong or repeated.
 */
record FrameParams(String frameId, String stream, int width, int height, double[] crop, double padding) {

    static FrameParams of(Context ctx, RequestLimits limits) {
        String id = ctx.pathParam("id");
        int sep = id.indexOf(":f:");
        if (sep <= 0 || id.length() > limits.maxIdLength()) {
            throw ApiException.badField("id", "'" + ApiException.quote(id) + "' is not a frame id (stream:f:index, at most "
                    + limits.maxIdLength() + " characters)");
        }
        String stream = InputBounds.streamId(id.substring(0, sep), "id");
        return new FrameParams(id, stream, side(ctx, "width", limits), side(ctx, "height", limits), crop(ctx), number(ctx, "padding", 0, 1));
    }

    /** A query parameter given once, or null when absent; 400 naming it when it is repeated. */
    private static String param(Context ctx, String name) {
        List<String> values = ctx.queryParams(name);
        if (values.size() > 1) {
            throw ApiException.badField(name, "'" + name + "' must be given at most once");
        }
        return values.isEmpty() ? null : values.get(0);
    }

    private static int side(Context ctx, String name, RequestLimits limits) {
        String v = param(ctx, name);
        if (v == null) {
            return 0;
        }
        try {
            int n = Integer.parseInt(v.strip());
            if (n < 1 || n > limits.maxImageSide()) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw ApiException.badField(name, "'" + name + "' must be a whole number from 1 to " + limits.maxImageSide());
        }
    }

    /** A whole-number query parameter within [min, max]; {@code dflt} when absent, 400 naming it otherwise. */
    static int intParam(Context ctx, String name, int dflt, int min, int max) {
        String v = param(ctx, name);
        if (v == null) {
            return dflt;
        }
        try {
            int n = Integer.parseInt(v.strip());
            if (n < min || n > max) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw ApiException.badField(name, "'" + name + "' must be a whole number from " + min + " to " + max);
        }
    }

    /** A finite number within [min, max]; 0 when absent. */
    private static double number(Context ctx, String name, double min, double max) {
        String v = param(ctx, name);
        if (v == null) {
            return 0;
        }
        double d = parse(v);
        if (!Double.isFinite(d) || d < min || d > max) {
            throw ApiException.badField(name, "'" + name + "' must be a number from " + min + " to " + max);
        }
        return d;
    }

    /** {@code crop=x,y,w,h}, normalised and inside the picture, or null when absent. */
    private static double[] crop(Context ctx) {
        String crop = param(ctx, "crop");
        if (crop == null) {
            return null;
        }
        double[] b = Arrays.stream(crop.split(",", -1)).mapToDouble(FrameParams::parse).toArray();
        // FrameUrls writes boxes with four decimals, so x + w of a box touching the edge can come back as 1.0001.
        boolean ok = b.length == 4 && Arrays.stream(b).allMatch(Double::isFinite)
                && b[0] >= 0 && b[1] >= 0 && b[0] < 1 && b[1] < 1 && b[2] > 0 && b[3] > 0 && b[0] + b[2] <= 1.0002 && b[1] + b[3] <= 1.0002;
        if (!ok) {
            throw ApiException.badField("crop", "'crop' must be x,y,width,height: four numbers inside [0, 1] with positive size");
        }
        return b;
    }

    private static double parse(String s) {
        try {
            return Double.parseDouble(s.strip());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }
}
