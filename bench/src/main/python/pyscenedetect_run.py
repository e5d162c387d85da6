#!/usr/bin/env python3
"""Times PySceneDetect's ContentDetector and AdaptiveDetector (default settings) on video files.

PySceneDetect is not part of VideoWorld: fetch its source outside this repository and point
PYSCENEDETECT_SRC at the folder holding its `scenedetect` package; it runs on Debian's
python3-opencv and python3-numpy. Prints one JSON line per (file, detector):
{"file", "detector", "frames", "seconds", "cuts": [start times of shots after the first]}.
"""
import json
import os
import sys
import time

sys.path.insert(0, os.environ.get("PYSCENEDETECT_SRC", "."))
from scenedetect import AdaptiveDetector, ContentDetector, SceneManager, open_video  # noqa: E402


def run(path, name, detector):
    video = open_video(path, backend="opencv")
    manager = SceneManager()
    manager.add_detector(detector)
    start = time.perf_counter()
    frames = manager.detect_scenes(video, show_progress=False)
    seconds = time.perf_counter() - start
    scenes = manager.get_scene_list()
    cuts = [s[0].get_seconds() for s in scenes[1:]]
    print(json.dumps({"file": path, "detector": name, "frames": frames, "seconds": seconds, "cuts": cuts}), flush=True)


for path in sys.argv[1:]:
    run(path, "content", ContentDetector())
    run(path, "adaptive", AdaptiveDetector())
