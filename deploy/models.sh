#!/usr/bin/env bash
# Brings the default models into a models directory from package registries, never a model hub:
#   all-minilm-l6-v2-q/  model.onnx + tokenizer.json   (int8 sentence embeddings, from a Maven jar)
#   ppocr/               PP-OCRv4 det + rec, cls, keys (from a Maven jar)
#   centernet/           MB3-CenterNet COCO-80 detector, model.onnx converted from the TF.js graph
#                        in npm @vladmandic/human (needs /usr/bin/python3 with onnx + numpy)
#   silero-vad/          silero_vad.onnx, Silero VAD v5 voice activity, from npm @ricky0123/vad-web
#   movenet/             MoveNet Lightning body pose (17 keypoints), model.onnx converted from the same package
#   blazeface/ faceres/  BlazeFace face detector and the faceres face descriptor, model.onnx each, converted
#                        from the same package by face_to_onnx.py (which checks each conversion numerically)
# Idempotent: what is already there is kept.  Usage: deploy/models.sh [DIR]   (default <repo>/.vw/models)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
. "$here/versions.env"
dir=${1:-${VW_MODELS:-$repo/.vw/models}}
dist=${VW_HOME:-$repo/.vw}/dist
mkdir -p "$dir" "$dist"

fetch_jar() { # artifact -> path of the jar
  local artifact=$1 g a v
  IFS=: read -r g a v <<<"$artifact"
  local jar=$dist/$a-$v.jar
  if [ ! -s "$jar" ]; then
    echo "fetching $artifact from Maven Central..." >&2
    mvn -B -q dependency:copy -Dartifact="$artifact" -DoutputDirectory="$dist" >&2
  fi
  echo "$jar"
}

if [ ! -s "$dir/all-minilm-l6-v2-q/model.onnx" ]; then
  jar=$(fetch_jar "$MINILM_ARTIFACT")
  tmp=$(mktemp -d)
  unzip -q -o "$jar" 'all-minilm-l6-v2-q.onnx' 'all-minilm-l6-v2-q-tokenizer.json' -d "$tmp"
  mkdir -p "$dir/all-minilm-l6-v2-q"
  mv "$tmp/all-minilm-l6-v2-q.onnx" "$dir/all-minilm-l6-v2-q/model.onnx"
  mv "$tmp/all-minilm-l6-v2-q-tokenizer.json" "$dir/all-minilm-l6-v2-q/tokenizer.json"
  rm -rf "$tmp"
fi

if [ ! -s "$dir/ppocr/det.onnx" ]; then
  jar=$(fetch_jar "$PPOCR_ARTIFACT")
  tmp=$(mktemp -d)
  unzip -q -o "$jar" 'models/*' -d "$tmp"
  mkdir -p "$dir/ppocr"
  mv "$tmp/models/ch_PP-OCRv4_det_infer.onnx" "$dir/ppocr/det.onnx"
  mv "$tmp/models/ch_PP-OCRv4_rec_infer.onnx" "$dir/ppocr/rec.onnx"
  mv "$tmp/models/ch_ppocr_mobile_v2.0_cls_infer.onnx" "$dir/ppocr/cls.onnx"
  mv "$tmp/models/ppocr_keys_v1.txt" "$dir/ppocr/keys.txt"
  rm -rf "$tmp"
fi
# A model converted before the graph took any input side (fixed 512x512) is converted again from the kept package.
if [ -s "$dir/centernet/model.onnx" ] && /usr/bin/python3 -c 'import onnx' 2>/dev/null \
   && ! /usr/bin/python3 -c 'import onnx, sys; sys.exit(0 if onnx.load(sys.argv[1]).graph.input[0].type.tensor_type.shape.dim[1].dim_param else 1)' \
        "$dir/centernet/model.onnx"; then
  echo "the detector at $dir/centernet takes only 512x512 input; converting it again" >&2
  rm -f "$dir/centernet/model.onnx"
fi
human_models() { # names of models/ in @vladmandic/human -> a folder holding their .json and .bin
  local tgz=$dist/human-$HUMAN_NPM_VERSION.tgz
  if [ ! -s "$tgz" ]; then
    echo "fetching @vladmandic/human $HUMAN_NPM_VERSION from the npm registry..." >&2
    curl -sSfL -o "$tgz.part" "https://registry.npmjs.org/@vladmandic/human/-/human-$HUMAN_NPM_VERSION.tgz"
    mv "$tgz.part" "$tgz"
  fi
  echo "$HUMAN_NPM_SHA256  $tgz" | sha256sum -c --quiet - || { echo "checksum mismatch for $tgz" >&2; rm -f "$tgz"; exit 1; }
  if ! /usr/bin/python3 -c 'import onnx, numpy' 2>/dev/null; then
    echo "converting the package's models needs Debian's python3-onnx and python3-numpy: apt-get install -y python3-onnx python3-numpy" >&2
    exit 1
  fi
  local tmp m
  tmp=$(mktemp -d)
  for m in "$@"; do tar -xzf "$tgz" -C "$tmp" "package/models/$m.json" "package/models/$m.bin"; done
  echo "$tmp/package/models"
}
if [ ! -s "$dir/centernet/model.onnx" ]; then
  src=$(human_models centernet)
  mkdir -p "$dir/centernet"
  /usr/bin/python3 "$here/centernet_to_onnx.py" "$src" "$dir/centernet/model.onnx.part" >&2
  mv "$dir/centernet/model.onnx.part" "$dir/centernet/model.onnx"
  rm -rf "${src%/package/models}"
fi
if [ ! -s "$dir/movenet/model.onnx" ]; then
  src=$(human_models movenet-lightning)
  mkdir -p "$dir/movenet"
  /usr/bin/python3 "$here/movenet_to_onnx.py" "$src" "$dir/movenet/model.onnx.part" >&2
  mv "$dir/movenet/model.onnx.part" "$dir/movenet/model.onnx"
  rm -rf "${src%/package/models}"
fi
if [ ! -s "$dir/blazeface/model.onnx" ] || [ ! -s "$dir/faceres/model.onnx" ]; then
  src=$(human_models blazeface faceres)
  /usr/bin/python3 "$here/face_to_onnx.py" "$src" "$dir" >&2
  rm -rf "${src%/package/models}"
fi
if [ ! -s "$dir/silero-vad/silero_vad.onnx" ]; then
  tgz=$dist/vad-web-$VAD_NPM_VERSION.tgz
  if [ ! -s "$tgz" ]; then
    echo "fetching @ricky0123/vad-web $VAD_NPM_VERSION from the npm registry..." >&2
    curl -sSfL -o "$tgz.part" "https://registry.npmjs.org/@ricky0123/vad-web/-/vad-web-$VAD_NPM_VERSION.tgz"
    mv "$tgz.part" "$tgz"
  fi
  echo "$VAD_NPM_SHA256  $tgz" | sha256sum -c --quiet - || { echo "checksum mismatch for $tgz" >&2; rm -f "$tgz"; exit 1; }
  tmp=$(mktemp -d)
  tar -xzf "$tgz" -C "$tmp" package/dist/silero_vad_v5.onnx
  mkdir -p "$dir/silero-vad"
  mv "$tmp/package/dist/silero_vad_v5.onnx" "$dir/silero-vad/silero_vad.onnx"
  rm -rf "$tmp"
fi
echo "$dir"
