package io.videoworld.engines.tracking;

/**
 * ByteTrack's constant-velocity Kalman filter over a box as (centre x, centre y, aspect ratio,
 * height) plus their velocities, with noise proportional to the box height. State is a mean of 8
 * and a row-major 8x8 covariance, kept in plain arrays so they fit in Flink state records.
 */
public final class BoxKalman {
    private static final double POS = 1.0 / 20;
    private static final double VEL = 1.0 / 160;

    private BoxKalman() {}

    /** The measurement (cx, cy, w/h, h) of a pixel box. */
    public static double[] measure(double x1, double y1, double x2, double y2) {
        double w = x2 - x1;
        double h = Math.max(1e-6, y2 - y1);
        return new double[] {x1 + w / 2, y1 + h / 2, w / h, h};
    }

    /** The pixel box (x1, y1, x2, y2) of a state mean. */
    public static double[] box(double[] mean) {
        double h = mean[3];
        double w = mean[2] * h;
        return new double[] {mean[0] - w / 2, mean[1] - h / 2, mean[0] + w / 2, mean[1] + h / 2};
    }

    public static double[] initiateMean(double[] z) {
        return new double[] {z[0], z[1], z[2], z[3], 0, 0, 0, 0};
    }

    public static double[] initiateCov(double[] z) {
        double h = z[3];
        double[] std = {2 * POS * h, 2 * POS * h, 1e-2, 2 * POS * h, 10 * VEL * h, 10 * VEL * h, 1e-5, 10 * VEL * h};
        double[] cov = new double[64];
        for (int i = 0; i < 8; i++) {
            cov[i * 9] = std[i] * std[i];
        }
        return cov;
    }

    /** One step ahead, in place: mean += velocity, cov = F cov F' + Q. */
    public static void predict(double[] mean, double[] cov) {
        double h = mean[3];
        double[] std = {POS * h, POS * h, 1e-2, POS * h, VEL * h, VEL * h, 1e-5, VEL * h};
        for (int i = 0; i < 4; i++) {
            mean[i] += mean[i + 4];
        }
        // F = [[I, I], [0, I]]; F P F' written out in 4x4 blocks.
        double[] p = cov.clone();
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 4; j++) {
                double a = p[i * 8 + j];
                double b = p[i * 8 + j + 4];
                double c = p[(i + 4) * 8 + j];
                double d = p[(i + 4) * 8 + j + 4];
                cov[i * 8 + j] = a + b + c + d;
                cov[i * 8 + j + 4] = b + d;
                cov[(i + 4) * 8 + j] = c + d;
                cov[(i + 4) * 8 + j + 4] = d;
            }
        }
        for (int i = 0; i < 8; i++) {
            cov[i * 9] += std[i] * std[i];
        }
    }

    /** Corrects mean and covariance in place with a measurement (cx, cy, a, h). */
    public static void update(double[] mean, double[] cov, double[] z) {
        double h = mean[3];
        double[] r = {POS * h, POS * h, 1e-1, POS * h};
        // S = H P H' + R: the top-left 4x4 block of P.
        double[][] s = new double[4][4];
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 4; j++) {
                s[i][j] = cov[i * 8 + j];
            }
            s[i][i] += r[i] * r[i];
        }
        double[][] sInv = invert4(s);
        // K = P H' S^-1: (8x4) = P[:, 0:4] * S^-1.
        double[][] k = new double[8][4];
        for (int i = 0; i < 8; i++) {
            for (int j = 0; j < 4; j++) {
                double acc = 0;
                for (int m = 0; m < 4; m++) {
                    acc += cov[i * 8 + m] * sInv[m][j];
                }
                k[i][j] = acc;
            }
        }
        double[] innovation = new double[4];
        for (int j = 0; j < 4; j++) {
            innovation[j] = z[j] - mean[j];
        }
        for (int i = 0; i < 8; i++) {
            for (int j = 0; j < 4; j++) {
                mean[i] += k[i][j] * innovation[j];
            }
        }
        // P -= K S K' = K (H P): (H P) is the first four rows of P.
        double[] p = cov.clone();
        for (int i = 0; i < 8; i++) {
            for (int j = 0; j < 8; j++) {
                double acc = 0;
                for (int m = 0; m < 4; m++) {
                    acc += k[i][m] * p[m * 8 + j];
                }
                cov[i * 8 + j] = p[i * 8 + j] - acc;
            }
        }
    }

    static double[][] invert4(double[][] m) {
        int n = 4;
        double[][] a = new double[n][2 * n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(m[i], 0, a[i], 0, n);
            a[i][n + i] = 1;
        }
        for (int col = 0; col < n; col++) {
            int pivot = col;
            for (int r = col + 1; r < n; r++) {
                if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) {
                    pivot = r;
                }
            }
            double[] t = a[col];
            a[col] = a[pivot];
            a[pivot] = t;
            double d = a[col][col];
            if (Math.abs(d) < 1e-12) {
                d = 1e-12;
            }
            for (int j = 0; j < 2 * n; j++) {
                a[col][j] /= d;
            }
            for (int r = 0; r < n; r++) {
                if (r != col) {
                    double f = a[r][col];
                    for (int j = 0; j < 2 * n; j++) {
                        a[r][j] -= f * a[col][j];
                    }
                }
            }
        }
        double[][] inv = new double[n][n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(a[i], n, inv[i], 0, n);
        }
        return inv;
    }
}
