#!/usr/bin/env bash
# Faults, measured, on the one-machine cluster (deploy/cluster.sh): push the same generated video twice
# with the same start time, once as stream vwclean (no failure), then as stream vwfault while this script
# kill -9s one TaskManager, then one Kafka broker, then one Elasticsearch node (each brought back), then
# compares Elasticsearch: frames, shots, scenes, tracks and episodes of both streams, counts and a
# content hash per index (the stream id normalised), nothing lost or duplicated. Prints each recovery time.
#
#   deploy/cluster-faults.sh [--seconds N (default 45)] [--keep] [--clean-only]   (bin/videoworld cluster faults)
#   --clean-only: only the clean run, its ingest rate appended to $VW_HOME/cluster-throughput.txt;
#   --streams K (with --clean-only): K copies of the video pushed at once as separate streams
#
# Starts from a wiped $VW_HOME/cluster and stops everything at the end unless --keep. On a 2-core machine it
# runs the job without keyframe perception (OCR, embeddings) and detects at 2 fps, to fit a few minutes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
home=${VW_HOME:-$repo/.vw}
state=$home/cluster
seconds=45 keep=0 clean_only=0 streams=1
while [ $# -gt 0 ]; do case $1 in --seconds) seconds=$2; shift ;; --keep) keep=1 ;; --clean-only) clean_only=1 ;; --streams) streams=$2; shift ;; *) echo "unknown $1" >&2; exit 2 ;; esac; shift; done
export VW_CLUSTER_QUERY_PORT=${VW_CLUSTER_QUERY_PORT:-0}
export VW_CLUSTER_JOB_ARGS=${VW_CLUSTER_JOB_ARGS:---vw.perception.enabled false --vw.detect.fps 2}
cluster=$here/cluster.sh
es=http://127.0.0.1:9260
flink=http://127.0.0.1:${VW_CLUSTER_FLINK_PORT:-8081}
bootstrap=127.0.0.1:19092,127.0.0.1:19192,127.0.0.1:19292
report=$state/../cluster-faults-report.txt
log() { printf '[faults %s] %s\n' "$(date +%T)" "$*" >&2; }
now() { date +%s.%N; }
since() { python3 -c "print(f'{$(now) - $1:.1f}')"; }
[ $keep = 1 ] || trap '"$cluster" down >/dev/null 2>&1 || true' EXIT

"$cluster" down --wipe >/dev/null 2>&1 || true
"$cluster" up >&2
cp_conn="$repo/producer/target/classes:$(cat "$repo/producer/target/classpath.txt")"
video=$home/faults/sample-$seconds.mp4
if [ ! -s "$video" ]; then
  mkdir -p "$(dirname "$video")"
  java -cp "$cp_conn" io.videoworld.producer.VideoWorldCli sample-video "$video" --seconds "$seconds" >&2
fi
epoch=1700000000000
push() { java -cp "$cp_conn" io.videoworld.producer.VideoWorldCli push "$video" --stream-id "$1" --epoch-ms $epoch --bootstrap "$bootstrap"; }
count() { curl -fsS -m 5 "$es/$1/_count?q=stream_id:$2" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["count"])' 2>/dev/null || echo -1; }
counts() { echo "$(count vw-frames "$1") $(count vw-shots "$1") $(count vw-tracks "$1") $(count vw-episodes "$1") $(count vw-videos "$1")"; }
last_change=0
# CPU seconds per component (from the pid files) and of the whole machine, so a throughput run can say what was busy
cpu_snapshot() { # file: "name cpu-seconds" lines, "machine busy-seconds total-seconds"
  local tck; tck=$(getconf CLK_TCK)
  { for f in "$state"/run/*.pid; do
      local n; n=$(basename "$f" .pid)
      [ -r "/proc/$(cat "$f")/stat" ] && awk -v n="$n" -v t="$tck" '{ sub(/^.*\) /, ""); print n, ($12 + $13) / t }' "/proc/$(cat "$f")/stat"
    done
    awk -v t="$tck" '/^cpu / { print "machine", ($2 + $3 + $4 + $7 + $8) / t, ($2 + $3 + $4 + $5 + $6 + $7 + $8) / t }' /proc/stat
  } >"$1" 2>/dev/null || true
}
cpu_share() { # before after seconds: cores used per component over the window, and the machine's busy fraction
  python3 - "$1" "$2" "$3" <<'PY'
import sys
def read(p):
    out = {}
    for line in open(p):
        f = line.split()
        out[f[0]] = [float(x) for x in f[1:]]
    return out
a, b, secs = read(sys.argv[1]), read(sys.argv[2]), float(sys.argv[3])
cores = " ".join(f"{n}={(b[n][0] - a[n][0]) / secs:.2f}" for n in sorted(b) if n in a and n != "machine")
busy = (b["machine"][0] - a["machine"][0]) / max(1e-9, b["machine"][1] - a["machine"][1])
print(f"cores: {cores} machine_busy={busy:.2f}")
PY
}
quiet() { # stream: wait until every count holds still for 20 s; $last_change: when they last moved (CPU snapshot then in cpu-end)
  local last="" same=0 c
  for _ in $(seq 1 600); do
    c=$(counts "$1")
    if [ "$c" = "$last" ] && [ "${c%% *}" -gt 0 ]; then same=$((same + 1)); else same=0; last=$c; last_change=$(now); cpu_snapshot "$state/cpu-end"; fi
    [ $same -ge 20 ] && { log "$1 settled: frames shots tracks episodes videos = $c"; return 0; }
    sleep 1
  done
  log "$1 did not settle"; return 1
}
job_state() { curl -fsS -m 3 "$flink/jobs/overview" | python3 -c 'import json,sys
js=[j for j in json.load(sys.stdin)["jobs"] if j["name"]=="videoworld-ingest" and j["state"] not in ("CANCELED","FAILED","FINISHED")]
if not js: print("NONE"); sys.exit()
import urllib.request
d=json.load(urllib.request.urlopen(sys.argv[1]+"/jobs/"+js[0]["jid"]))
print("RUNNING" if d["state"]=="RUNNING" and all(v["status"]=="RUNNING" for v in d["vertices"]) else d["state"]+"/partial")' "$flink" 2>/dev/null || echo UNKNOWN; }
restarts() { local j; j=$(curl -fsS -m 3 "$flink/jobs/overview" | python3 -c 'import json,sys; print([j["jid"] for j in json.load(sys.stdin)["jobs"] if j["state"]=="RUNNING"][0])' 2>/dev/null)
  curl -fsS -m 3 "$flink/jobs/$j/exceptions" | python3 -c 'import json,sys; print(len(json.load(sys.stdin).get("exceptionHistory",{}).get("entries",[])))' 2>/dev/null || echo "?"; }
progress_after() { # t0 frames-at-kill: seconds until vwfault's frame count grows again (or "n/a"; "all in" when it was complete)
  [ "$2" -ge "$expected" ] && { echo "all in"; return; }
  for _ in $(seq 1 240); do
    [ "$(count vw-frames vwfault)" -gt "$2" ] && { since "$1"; return; }
    sleep 0.5
  done
  echo "n/a"
}

t_clean=$(now)
log "pushing the clean run (stream vwclean, $seconds s of video)"
# --streams K (only with --clean-only): K copies pushed at once as vwclean, vwclean2, ... (the job keys by stream)
[ "$streams" -gt 1 ] && [ $clean_only = 0 ] && { echo "--streams needs --clean-only" >&2; exit 2; }
cpu_snapshot "$state/cpu-start"
for i in $(seq 2 "$streams"); do push "vwclean$i" >&2 & done
push vwclean >&2
wait
clean_streams=vwclean; [ "$streams" -gt 1 ] && clean_streams='vwclean*'
quiet "$clean_streams"
clean_s=$(since "$t_clean")
expected=$(count vw-frames "$clean_streams")
ingest_s=$(python3 -c "print(f'{$last_change - $t_clean:.1f}')")
fps=$(python3 -c "print(f'{$expected / ($last_change - $t_clean):.1f}')")
log "clean run: $expected frames indexed in $ingest_s s from the push's start ($fps frames/s; $clean_s s to settled)"

if [ $clean_only = 1 ]; then # throughput only (e.g. VW_CLUSTER_TMS=1 vs 2)
  # which TaskManagers ran the job's tasks (slots taken per TaskManager)
  placement=$(curl -fsS -m 3 "$flink/taskmanagers" | python3 -c 'import json,sys
print(" ".join("%s:%d" % (t["id"], t["slotsNumber"] - t["freeSlots"]) for t in json.load(sys.stdin)["taskmanagers"]))' 2>/dev/null || echo "?")
  echo "$(date -u +%FT%TZ) TMs=${VW_CLUSTER_TMS:-2} slots=${VW_CLUSTER_SLOTS:-2} parallelism=${VW_CLUSTER_PARALLELISM:-2} video=${seconds}s streams=$streams frames=$expected ingest_s=$ingest_s frames_per_s=$fps slots_used=[$placement] $(cpu_share "$state/cpu-start" "$state/cpu-end" "$ingest_s")" | tee -a "$state/../cluster-throughput.txt"
  exit 0
fi
log "pushing the faulty run (stream vwfault) in the background"
push vwfault >"$state/push-fault.out" 2>&1 &
pushpid=$!
for _ in $(seq 1 240); do [ "$(count vw-frames vwfault)" -gt 0 ] && break; sleep 0.5; done

: >"$report.tmp"
fault() { # name component recovered-check back-check: each check is given t0 and prints the seconds since
  local name=$1 comp=$2 recovered=$3 back=$4
  restarts_before=$(restarts)
  local before; before=$(count vw-frames vwfault)
  local t0; t0=$(now)
  log "kill -9 $comp ($name) with $before/$expected frames of vwfault indexed"
  "$cluster" kill "$comp"
  local rec; rec=$("$recovered" "$t0")
  local prog; prog=$(progress_after "$t0" "$before")
  "$cluster" start "$comp"
  local back_t0; back_t0=$(now)
  local bk; bk=$("$back" "$back_t0")
  printf '%-20s killed at %s/%s frames; recovered (%s) %s s after the kill; frames indexed again after %s s; restarted, back (%s) %s s after the restart\n' \
    "$name" "$before" "$expected" "$rec_what" "$rec" "$prog" "$back_what" "$bk" | tee -a "$report.tmp" >&2
}
flink_recovered() { # t0: the job has restarted (one more entry in its exception history) and all its tasks run again
  local left=0
  for _ in $(seq 1 300); do
    s=$(job_state)
    [ "$s" != RUNNING ] && left=1
    # with a free slot on the other TaskManager the restart can be quicker than one poll: the exception history tells
    if [ "$s" = RUNNING ] && { [ $left = 1 ] || [ "$(restarts)" != "$restarts_before" ]; }; then since "$1"; return; fi
    sleep 0.2
  done
  echo "n/a"
}
tms_back() { # t0: both TaskManagers registered with the JobManager again
  for _ in $(seq 1 300); do
    [ "$(curl -fsS -m 2 "$flink/taskmanagers" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["taskmanagers"]))' 2>/dev/null)" = "${VW_CLUSTER_TMS:-2}" ] && { since "$1"; return; }
    sleep 0.2
  done
  echo "n/a"
}
kafka_recovered() { # t0 [isr]: every partition of vw.frames has a leader and >= isr (2) in-sync replicas
  for _ in $(seq 1 300); do
    if java -cp "$repo/jobs/target/classes:$(cat "$repo/jobs/target/classpath.txt")" io.videoworld.jobs.ClusterTopics --bootstrap "$bootstrap" --check-isr "${2:-2}" >/dev/null 2>&1; then since "$1"; return; fi
    sleep 0.2
  done
  echo "n/a"
}
kafka_back() { kafka_recovered "$1" 3; }
es_back() { # t0: both nodes in the cluster and every replica assigned again (green)
  for _ in $(seq 1 600); do
    curl -fsS -m 2 "$es/_cluster/health?wait_for_status=green&wait_for_nodes=2&timeout=1s" 2>/dev/null | grep -q '"timed_out":false' && { since "$1"; return; }
    sleep 0.2
  done
  echo "n/a"
}
es_recovered() { # t0: every primary shard active again (status yellow or green) and a write accepted
  for _ in $(seq 1 300); do
    if curl -fsS -m 2 "$es/_cluster/health?wait_for_status=yellow&timeout=1s" 2>/dev/null | grep -q '"timed_out":false' \
       && curl -fsS -m 2 -X PUT "$es/vw-fault-probe/_doc/1?refresh=false" -H 'Content-Type: application/json' -d '{"t":1}' >/dev/null 2>&1; then since "$1"; return; fi
    sleep 0.2
  done
  echo "n/a"
}
rec_what="job restarted, all tasks RUNNING"; back_what="2 TaskManagers registered"; fault "TaskManager tm2" tm2 flink_recovered tms_back
rec_what="every partition led, ISR>=2"; back_what="ISR 3 everywhere"; fault "Kafka broker 3" kafka3 kafka_recovered kafka_back
rec_what="primaries active, a write ok"; back_what="green, 2 nodes"; fault "Elasticsearch es2" es2 es_recovered es_back
wait $pushpid || log "the faulty push exited non-zero: $(tail -3 "$state/push-fault.out")"
quiet vwfault
log "Flink restarts in the job's exception history: $(restarts)"

python3 - "$es" >>"$report.tmp" <<'PY'
import hashlib, json, sys, urllib.request
es = sys.argv[1]
def docs(index, stream, kind=None):
    q = {"bool": {"filter": [{"term": {"stream_id": stream}}] + ([{"term": {"kind": kind}}] if kind else [])}}
    body = json.dumps({"size": 10000, "query": q}).encode()
    req = urllib.request.Request(f"{es}/{index}/_search", body, {"Content-Type": "application/json"})
    hits = json.load(urllib.request.urlopen(req))["hits"]["hits"]
    out = sorted(json.dumps({"_id": h["_id"], **h["_source"]}, sort_keys=True).replace(stream, "STREAM") for h in hits)
    return len(hits), len(set(h["_id"] for h in hits)), hashlib.sha256("\n".join(out).encode()).hexdigest()[:16], out
ok = True
print(f"{'index':<22} {'clean':>7} {'fault':>7}  hash clean / fault")
for label, index, kind in [("frames", "vw-frames", None), ("shots", "vw-shots", "shot"), ("scenes", "vw-shots", "scene"),
                           ("tracks", "vw-tracks", None), ("episodes", "vw-episodes", None), ("streams", "vw-videos", None)]:
    a, b = docs(index, "vwclean", kind), docs(index, "vwfault", kind)
    same = a[0] == b[0] and a[2] == b[2]
    ok &= same and a[0] == a[1] and b[0] == b[1]
    print(f"{label:<22} {a[0]:>7} {b[0]:>7}  {a[2]} / {b[2]}  {'same' if same else 'DIFFERENT'}")
    if not same:
        sa, sb = set(a[3]), set(b[3])
        for d in list(sa - sb)[:2]: print("   only clean:", d[:300])
        for d in list(sb - sa)[:2]: print("   only fault:", d[:300])
print("RESULT:", "identical (nothing lost, nothing duplicated)" if ok else "DIFFERENT")
PY
{ echo "deploy/cluster-faults.sh --seconds $seconds   ($(date -u +%FT%TZ), $(nproc) cores)"; echo "Flink TaskManagers: ${VW_CLUSTER_TMS:-2} x ${VW_CLUSTER_SLOTS:-2} slots, parallelism ${VW_CLUSTER_PARALLELISM:-2}; job args: $VW_CLUSTER_JOB_ARGS"
   echo "clean run: $expected frames ingested in $ingest_s s from the push's start = $fps frames/s"; cat "$report.tmp"; } >"$report"
rm -f "$report.tmp"
cat "$report"
grep -q "RESULT: identical" "$report"
