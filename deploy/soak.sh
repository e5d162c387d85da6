#!/usr/bin/env bash
# The soak (bin/videoworld bench soak [MINUTES]): the one-machine cluster (deploy/cluster.sh) started from a
# wiped state with the query service, the job at its defaults but detection at 2 fps (2 cores), then
# io.videoworld.bench.SoakBench drives it for MINUTES (default 30): live screens and a camera, the same
# recorded streams pushed again every two minutes, the malformed corpus, REST fuzz, a TaskManager and an
# Elasticsearch node killed and restarted; it compares every copy with the clean reference and saves
# bench/results/soak.json. The cluster is stopped at the end unless --keep.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
minutes=30 keep=0
while [ $# -gt 0 ]; do case $1 in --keep) keep=1 ;; [0-9]*) minutes=$1 ;; *) echo "usage: $0 [MINUTES] [--keep]" >&2; exit 2 ;; esac; shift; done
export VW_CLUSTER_QUERY_PORT=8080
export VW_CLUSTER_JOB_ARGS=${VW_CLUSTER_JOB_ARGS:---vw.detect.fps 2}
cluster=$here/cluster.sh
[ $keep = 1 ] || trap '"$cluster" down >/dev/null 2>&1 || true' EXIT
"$cluster" down --wipe >/dev/null 2>&1 || true
"$cluster" up >&2
cd "$repo"
java -Xmx1g -cp "$repo/bench/target/classes:$(cat "$repo/bench/target/classpath.txt")" io.videoworld.bench.SoakBench "$minutes" "$cluster"
