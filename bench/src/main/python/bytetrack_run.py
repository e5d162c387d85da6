#!/usr/bin/env python3
"""Runs ByteTrack's reference BYTETracker on a detections CSV, as a baseline for VideoWorld's tracker.

ByteTrack is not part of VideoWorld: fetch its source (github.com/ifzhang/ByteTrack) outside this
repository and pass the checkout folder (the one holding `yolox/`) as the first argument. Only the
four files of yolox/tracker/ are loaded (byte_tracker.py, kalman_filter.py, matching.py,
basetrack.py); the `yolox` package itself is never imported, so torch is not needed. Runs on
Debian's python3-numpy and python3-scipy. Modules the tracker imports but that may be missing are
replaced in memory, only when the real ones cannot be imported:
  torch, torch.nn.functional  imported by byte_tracker.py but unused: empty modules
  cv2                         imported by matching.py but unused: empty module
  lap                         lapjv(cost, extend_cost, cost_limit) with lap's own semantics
                              (matrix extended by cost_limit/2 dummies), solved by scipy
  cython_bbox                 bbox_overlaps with the +1 pixel convention
  np.float & co               aliases removed from numpy >= 1.24

Usage:
  bytetrack_run.py BYTETRACK_SRC DETECTIONS.csv OUT.csv [--track-thresh 0.5] [--track-buffer 30]
      [--match-thresh 0.8] [--frame-rate 30] [--min-box-area 0] [--vertical-ratio R] [--mot20]
      [--skip-empty]

Input: optional first line `# frames=N width=W height=H`, then `frame,x1,y1,x2,y2,score` lines
(frames numbered from 1). Every frame 1..N is stepped, empty ones with a 0x5 array, unless
--skip-empty (ByteTrack's own demo/evaluator do not call update() on frames without detections).
Output: `frame,track_id,x1,y1,x2,y2` for every online target. Ends with one stderr line
`bytetrack frames=N updates_per_s=X` (X = updates per second of time spent inside update()).
"""
import argparse
import importlib
import importlib.util
import os
import sys
import time
import types

import numpy as np


# ---------------------------------------------------------------- shims for missing modules

def _importable(name):
    try:
        importlib.import_module(name)
        return True
    except Exception:
        return False


def _lapjv(cost, extend_cost=False, cost_limit=np.inf, return_cost=True):
    """lap.lapjv semantics: with a finite cost_limit the n x m matrix is extended to (n+m)^2, the
    dummy entries costing cost_limit/2 (0 in the dummy-dummy block), so leaving a row and a column
    unmatched costs cost_limit; x[i] = column of row i or -1, y[j] = row of column j or -1."""
    from scipy.optimize import linear_sum_assignment
    cost = np.ascontiguousarray(cost, dtype=np.double)
    n_rows, n_cols = cost.shape
    if n_rows != n_cols and not extend_cost and not cost_limit < np.inf:
        raise ValueError("Square cost array expected. If cost is intentionally non-square, pass extend_cost=True.")
    if cost_limit < np.inf:
        n = n_rows + n_cols
        ext = np.full((n, n), cost_limit / 2.0)
        ext[n_rows:, n_cols:] = 0.0
        ext[:n_rows, :n_cols] = cost
    elif extend_cost and n_rows != n_cols:
        n = max(n_rows, n_cols)
        ext = np.zeros((n, n))
        ext[:n_rows, :n_cols] = cost
    else:
        ext = cost
    rows, cols = linear_sum_assignment(ext)
    x = np.full(ext.shape[0], -1, dtype=np.int32)
    y = np.full(ext.shape[1], -1, dtype=np.int32)
    x[rows] = cols
    y[cols] = rows
    x = x[:n_rows]
    y = y[:n_cols]
    x[x >= n_cols] = -1
    y[y >= n_rows] = -1
    matched = np.nonzero(x >= 0)[0]
    opt = float(cost[matched, x[matched]].sum()) if return_cost else float("nan")
    return (opt, x, y) if return_cost else (x, y)


def _bbox_overlaps(boxes, query_boxes):
    """cython_bbox.bbox_overlaps: IoU of (N,4) x (K,4) x1,y1,x2,y2 boxes, areas (x2-x1+1)*(y2-y1+1)."""
    b = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    q = np.asarray(query_boxes, dtype=np.float64).reshape(-1, 4)
    out = np.zeros((b.shape[0], q.shape[0]), dtype=np.float64)
    if out.size == 0:
        return out
    q_area = (q[:, 2] - q[:, 0] + 1) * (q[:, 3] - q[:, 1] + 1)
    b_area = (b[:, 2] - b[:, 0] + 1) * (b[:, 3] - b[:, 1] + 1)
    iw = np.minimum(b[:, None, 2], q[None, :, 2]) - np.maximum(b[:, None, 0], q[None, :, 0]) + 1
    ih = np.minimum(b[:, None, 3], q[None, :, 3]) - np.maximum(b[:, None, 1], q[None, :, 1]) + 1
    ok = (iw > 0) & (ih > 0)
    inter = iw * ih
    ua = b_area[:, None] + q_area[None, :] - inter
    out[ok] = inter[ok] / ua[ok]
    return out


def _install_shims():
    used = []
    for alias, value in (("float", float), ("int", int), ("bool", bool), ("object", object)):
        if alias not in np.__dict__:
            setattr(np, alias, value)
            used.append("np." + alias)
    if not _importable("torch"):
        torch = types.ModuleType("torch")
        nn = types.ModuleType("torch.nn")
        functional = types.ModuleType("torch.nn.functional")
        torch.nn, nn.functional = nn, functional
        sys.modules.update({"torch": torch, "torch.nn": nn, "torch.nn.functional": functional})
        used.append("torch")
    if not _importable("cv2"):
        sys.modules["cv2"] = types.ModuleType("cv2")
        used.append("cv2")
    if not _importable("lap"):
        lap = types.ModuleType("lap")
        lap.lapjv = _lapjv
        sys.modules["lap"] = lap
        used.append("lap")
    if not _importable("cython_bbox"):
        cb = types.ModuleType("cython_bbox")
        cb.bbox_overlaps = _bbox_overlaps
        sys.modules["cython_bbox"] = cb
        used.append("cython_bbox")
    return used


def _load_tracker(src):
    """Registers stub packages yolox / yolox.tracker (never running yolox/__init__.py) and loads the
    tracker modules from SRC/yolox/tracker."""
    tracker_dir = os.path.join(os.path.abspath(src), "yolox", "tracker")
    if not os.path.isfile(os.path.join(tracker_dir, "byte_tracker.py")):
        sys.exit("no yolox/tracker/byte_tracker.py under " + src)
    pkg = types.ModuleType("yolox")
    pkg.__path__ = [os.path.dirname(tracker_dir)]
    sub = types.ModuleType("yolox.tracker")
    sub.__path__ = [tracker_dir]
    sub.__package__ = "yolox.tracker"
    pkg.tracker = sub
    sys.modules["yolox"], sys.modules["yolox.tracker"] = pkg, sub
    mods = {}
    for name in ("basetrack", "kalman_filter", "matching", "byte_tracker"):
        full = "yolox.tracker." + name
        spec = importlib.util.spec_from_file_location(full, os.path.join(tracker_dir, name + ".py"))
        mod = importlib.util.module_from_spec(spec)
        sys.modules[full] = mod
        setattr(sub, name, mod)
        spec.loader.exec_module(mod)
        mods[name] = mod
    return mods["byte_tracker"].BYTETracker


# ---------------------------------------------------------------- I/O and main loop

def read_detections(path):
    frames, width, height = None, None, None
    per_frame = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            if line.startswith("#"):
                for tok in line[1:].split():
                    if "=" in tok:
                        k, v = tok.split("=", 1)
                        if k == "frames":
                            frames = int(v)
                        elif k == "width":
                            width = int(float(v))
                        elif k == "height":
                            height = int(float(v))
                continue
            parts = line.split(",")
            if parts[0].strip().lower() == "frame":
                continue  # header row
            fr = int(parts[0])
            per_frame.setdefault(fr, []).append([float(p) for p in parts[1:6]])
    if frames is None:
        frames = max(per_frame) if per_frame else 0
    return frames, width, height, per_frame


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("src", help="ByteTrack checkout (folder holding yolox/)")
    ap.add_argument("detections")
    ap.add_argument("out")
    ap.add_argument("--track-thresh", type=float, default=0.5)
    ap.add_argument("--track-buffer", type=int, default=30)
    ap.add_argument("--match-thresh", type=float, default=0.8)
    ap.add_argument("--frame-rate", type=float, default=30)
    ap.add_argument("--min-box-area", type=float, default=0.0)
    ap.add_argument("--vertical-ratio", type=float, default=None,
                    help="drop targets with w/h > R (ByteTrack's demo uses 1.6); default off")
    ap.add_argument("--mot20", action="store_true")
    ap.add_argument("--skip-empty", action="store_true",
                    help="do not call update() on frames without detections (as ByteTrack's tools do)")
    a = ap.parse_args(argv)

    shims = _install_shims()
    BYTETracker = _load_tracker(a.src)
    if shims:
        print("bytetrack shims: " + ",".join(shims), file=sys.stderr)

    frames, width, height, per_frame = read_detections(a.detections)
    if width is None or height is None:  # scale is min(H/H, W/W) = 1 whatever the size
        width = height = 1
    targs = argparse.Namespace(track_thresh=a.track_thresh, track_buffer=a.track_buffer,
                               match_thresh=a.match_thresh, mot20=a.mot20,
                               min_box_area=a.min_box_area, aspect_ratio_thresh=a.vertical_ratio)
    tracker = BYTETracker(targs, frame_rate=a.frame_rate)
    img_info = (height, width)
    img_size = (height, width)

    spent = 0.0
    updates = 0
    with open(a.out, "w") as out:
        for fr in range(1, frames + 1):
            rows = per_frame.get(fr)
            if not rows and a.skip_empty:
                continue
            dets = np.asarray(rows, dtype=np.float64).reshape(-1, 5) if rows else np.zeros((0, 5))
            t0 = time.perf_counter()
            online = tracker.update(dets, img_info, img_size)
            spent += time.perf_counter() - t0
            updates += 1
            for t in online:
                tlwh = t.tlwh
                if tlwh[2] * tlwh[3] <= a.min_box_area:
                    continue
                if a.vertical_ratio is not None and tlwh[2] / tlwh[3] > a.vertical_ratio:
                    continue
                x1, y1, w, h = (float(v) for v in tlwh)
                out.write(f"{fr},{t.track_id},{x1:.3f},{y1:.3f},{x1 + w:.3f},{y1 + h:.3f}\n")
    rate = updates / spent if spent > 0 else float("inf")
    print(f"bytetrack frames={updates} updates_per_s={rate:.1f}", file=sys.stderr)


if __name__ == "__main__":
    main()
