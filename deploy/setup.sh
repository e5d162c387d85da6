#!/usr/bin/env bash
# What a fresh Debian/Ubuntu machine needs before 'bin/videoworld demo' or 'bin/videoworld test',
# checked in one place. As root it installs what is missing with apt-get; otherwise it names the
# missing packages on one line and exits 2.
#
#   deploy/setup.sh demo    java 17+, mvn, curl, unzip, runuser, python3 with onnx + numpy (the
#                           detector is converted once from its npm TF.js graph), apt lists that
#                           know opencv-doc (sample media)
#   deploy/setup.sh test    the same, plus Chromium, chromedriver and DejaVu fonts (page tests)
set -euo pipefail
want=${1:-demo}
case $want in demo|test) ;; *) echo "usage: $0 demo|test" >&2; exit 2 ;; esac

missing=()   # Debian packages
command -v java >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || missing+=(maven)
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v unzip >/dev/null 2>&1 || missing+=(unzip)
command -v runuser >/dev/null 2>&1 || missing+=(util-linux)
if ! /usr/bin/python3 -c 'import onnx, numpy' >/dev/null 2>&1; then
  missing+=(python3-onnx python3-numpy)
fi
if [ "$want" = test ]; then
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
  [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
fi
if command -v java >/dev/null 2>&1; then
  major=$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1)
  if [ -n "$major" ] && [ "$major" -lt 17 ]; then
    missing+=(openjdk-17-jdk-headless)
  fi
fi
lists_ok=1
command -v apt-cache >/dev/null 2>&1 && ! apt-cache show opencv-doc >/dev/null 2>&1 && lists_ok=0

if [ ${#missing[@]} -eq 0 ] && [ $lists_ok = 1 ]; then
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  echo "videoworld setup: installing ${missing[*]:-nothing}; refreshing package lists" >&2
  apt-get update -qq
  if [ ${#missing[@]} -gt 0 ]; then
    apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  exit 0
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "videoworld: missing ${missing[*]}; install them with: sudo apt-get install -y ${missing[*]}" >&2
else
  echo "videoworld: the package lists do not know opencv-doc (sample media); run: sudo apt-get update" >&2
fi
exit 2
