#!/usr/bin/env bash
# A first session with the query service over REST, with nothing but curl.
# Start the demo first (bin/videoworld demo --detach), then: examples/curl-session.sh
# VW_URL (default http://127.0.0.1:8080), VW_STREAM (default demo) and VW_TOKEN (when tokens are on)
# point it elsewhere.
set -euo pipefail
url=${VW_URL:-http://127.0.0.1:8080}
stream=${VW_STREAM:-demo}
auth=()
[ -n "${VW_TOKEN:-}" ] && auth=(-H "Authorization: Bearer $VW_TOKEN")

# -f: an HTTP error ends the session with curl's exit code instead of printing an error body as if it were an answer.
call() { # path [json-body]
  if [ $# -gt 1 ]; then
    curl -fsS "${auth[@]}" -H 'Content-Type: application/json' "$url$1" -d "$2"
  else
    curl -fsS "${auth[@]}" "$url$1"
  fi
  echo
}

echo "== is it up? (503 while the ingest job is still starting)"
curl -sS "$url/health"; echo
echo "== the streams this token may read"
call /v1/streams
echo "== what is known about the stream"
call /v1/tools/get_video_info "{\"video_id\": \"$stream\"}"
echo "== its shots"
call /v1/tools/get_temporal_structure "{\"video_id\": \"$stream\", \"granularity\": \"fine\"}"
echo "== three keyframes as URLs to open in a browser"
call /v1/tools/sample_frames "{\"video_id\": \"$stream\", \"sample_method\": \"keyframe\", \"num_frames\": 3, \"format\": \"url\"}"
echo "== search what was on screen"
call /v1/tools/temporal_search "{\"video_id\": \"$stream\", \"query\": \"shot\", \"top_k\": 3}"
echo "== ask (evidence mode without a language model)"
call /v1/ask "{\"question\": \"What happens after the first cut?\", \"stream_ids\": [\"$stream\"]}"
