#!/usr/bin/env bash
# Real photos and footage for the detector and tracker tests, from Debian's opencv-doc package
# (its examples/data): messi5.jpg and basketball1.png (people, a ball), vtest.avi (pedestrians,
# 795 frames 768x576), Megamind.avi (a trailer). Idempotent.  Usage: deploy/samples.sh [DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
dir=${1:-${VW_SAMPLES:-${VW_HOME:-$repo/.vw}/samples}}
files=(messi5.jpg basketball1.png vtest.avi Megamind.avi)
missing=0
for f in "${files[@]}"; do [ -s "$dir/$f" ] || missing=1; done
if [ $missing = 1 ]; then
  mkdir -p "$dir"
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get download -q opencv-doc >/dev/null 2>&1) || {
    echo "cannot download Debian's opencv-doc (apt-get download opencv-doc); run apt-get update first" >&2; rm -rf "$tmp"; exit 1; }
  dpkg -x "$tmp"/opencv-doc_*.deb "$tmp/x"
  for f in "${files[@]}"; do cp "$tmp/x/usr/share/doc/opencv-doc/examples/data/$f" "$dir/$f"; done
  rm -rf "$tmp"
fi
echo "$dir"
