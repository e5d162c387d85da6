#!/usr/bin/env python3
"""Times PySceneDetect's ContentDetector and AdaptiveDetector (default settings) on video files.

PySceneDetect is not part of VideoWorld: fetch its source outside this repository and point
PYSCENEDETECT_SRC at the folder holding its `scenedetect` package; it runs on Debian's
python3-opencv and python3-numpy. Prints one JSON line per (file, detector):
{"file", "detector", "frames", "seconds", "cut_frames": [0-based first frame of each shot after the
first], "cuts": [the same as PySceneDetect's times]}. "seconds" runs from opening the file to the
scene list, so decoding is included, as it is in VideoWorld's figure. PySceneDetect's times count
from the first frame; the benchmark maps cut_frames to the stream's presentation times.
"""
import json
import os
import sys
import time
import warnings

warnings.filterwarnings("ignore", category=DeprecationWarning)

sys.path.insert(0, os.environ.get("PYSCENEDETECT_SRC", "."))
from scenedetect import AdaptiveDetector, ContentDetector, SceneManager, open_video  # noqa: E402


def run(path, name, detector):
    start = time.perf_counter()
    video = open_video(path, backend="opencv")
    manager = SceneManager()
    manager.add_detector(detector)
    frames = manager.detect_scenes(video, show_progress=False)
    scenes = manager.get_scene_list()
    seconds = time.perf_counter() - start
    cut_frames = [s[0].get_frames() for s in scenes[1:]]
    cuts = [s[0].get_seconds() for s in scenes[1:]]
    print(json.dumps({"file": path, "detector": name, "frames": frames, "seconds": seconds, "cut_frames": cut_frames,
                      "cuts": cuts}), flush=True)


for path in sys.argv[1:]:
    run(path, "content", ContentDetector())
    run(path, "adaptive", AdaptiveDetector())
