package io.videoworld.core;

import java.util.Arrays;

/**
 * Minimum-cost matching of rows to columns where a pair costing more than a limit is never
 * matched, as {@code lap.lapjv(cost, extend_cost=True, cost_limit=thresh)} does in ByteTrack: the
 * matrix is extended so that leaving a row and a column both unmatched costs the limit, then
 * solved exactly with the Hungarian method (O(n^3); trackers match tens of boxes).
 */
public final class LinearAssignment {
    private LinearAssignment() {}

    /** Returns, for each row, the matched column or -1. */
    public static int[] solve(double[][] cost, double limit) {
        int rows = cost.length;
        int cols = rows == 0 ? 0 : cost[0].length;
        int[] match = new int[rows];
        Arrays.fill(match, -1);
        if (rows == 0 || cols == 0) {
            return match;
        }
        int n = rows + cols;
        double big = limit * 2 + 1;
        double[][] c = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (i < rows && j < cols) {
                    c[i][j] = cost[i][j] > limit ? big : cost[i][j];
                } else if (i < rows || j < cols) {
                    c[i][j] = limit / 2;
                }
            }
        }
        int[] colOfRow = hungarian(c);
        for (int i = 0; i < rows; i++) {
            int j = colOfRow[i];
            if (j < cols && cost[i][j] <= limit) {
                match[i] = j;
            }
        }
        return match;
    }

    /** Classic potentials-based Hungarian algorithm on a square matrix; returns row -> column. */
    static int[] hungarian(double[][] a) {
        int n = a.length;
        double[] u = new double[n + 1];
        double[] v = new double[n + 1];
        int[] p = new int[n + 1];
        int[] way = new int[n + 1];
        for (int i = 1; i <= n; i++) {
            p[0] = i;
            int j0 = 0;
            double[] minv = new double[n + 1];
            Arrays.fill(minv, Double.POSITIVE_INFINITY);
            boolean[] used = new boolean[n + 1];
            do {
                used[j0] = true;
                int i0 = p[j0];
                int j1 = 0;
                double delta = Double.POSITIVE_INFINITY;
                for (int j = 1; j <= n; j++) {
                    if (!used[j]) {
                        double cur = a[i0 - 1][j - 1] - u[i0] - v[j];
                        if (cur < minv[j]) {
                            minv[j] = cur;
                            way[j] = j0;
                        }
                        if (minv[j] < delta) {
                            delta = minv[j];
                            j1 = j;
                        }
                    }
                }
                for (int j = 0; j <= n; j++) {
                    if (used[j]) {
                        u[p[j]] += delta;
                        v[j] -= delta;
                    } else {
                        minv[j] -= delta;
                    }
                }
                j0 = j1;
            } while (p[j0] != 0);
            do {
                int j1 = way[j0];
                p[j0] = p[j1];
                j0 = j1;
            } while (j0 != 0);
        }
        int[] rowToCol = new int[n];
        for (int j = 1; j <= n; j++) {
            rowToCol[p[j] - 1] = j - 1;
        }
        return rowToCol;
    }
}
