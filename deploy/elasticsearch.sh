#!/usr/bin/env bash
# Elasticsearch for a machine without Docker: the real server from Maven Central's integ-test
# distribution, started on 127.0.0.1 with security off. Elasticsearch refuses to run as root, so
# as root it runs as the unprivileged user 'vwes' (created on first use).
#
#   deploy/elasticsearch.sh start     fetch if needed, start, wait until healthy, print the URL
#   deploy/elasticsearch.sh stop      stop the server this script started
#   deploy/elasticsearch.sh status    print the URL and health, exit 1 when down
#   deploy/elasticsearch.sh fetch     only download and unpack
#
# Environment: VW_HOME (state folder, default <repo>/.vw), VW_ES_PORT (default 9200),
# VW_ES_HEAP (default 768m), VW_ES_USER (default vwes).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
# shellcheck source=versions.env
. "$here/versions.env"
home=${VW_HOME:-$repo/.vw}
port=${VW_ES_PORT:-9200}
heap=${VW_ES_HEAP:-768m}
user=${VW_ES_USER:-vwes}
dist=$home/dist
es=$home/elasticsearch-$ES_VERSION
data=$home/es-data-$port
pidfile=$home/run/elasticsearch-$port.pid
url=http://127.0.0.1:$port

healthy() { curl -fsS -m 2 "$url/_cluster/health" >/dev/null 2>&1; }

fetch() {
  [ -x "$es/bin/elasticsearch" ] && return 0
  mkdir -p "$dist"
  local zip=$dist/elasticsearch-$ES_VERSION.zip
  if [ ! -s "$zip" ]; then
    echo "fetching Elasticsearch $ES_VERSION from Maven Central..." >&2
    mvn -B -q dependency:copy -Dartifact="org.elasticsearch.distribution.integ-test-zip:elasticsearch:$ES_VERSION:zip" \
      -DoutputDirectory="$dist" -Dmdep.stripVersion=false >&2
  fi
  rm -rf "$es.tmp" && mkdir -p "$es.tmp"
  unzip -q "$zip" -d "$es.tmp"
  mv "$es.tmp/elasticsearch-$ES_VERSION" "$es" && rm -rf "$es.tmp"
}

as_user() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u "$user" -- "$@"
  else
    "$@"
  fi
}

start() {
  if healthy; then echo "$url"; return 0; fi
  fetch
  mkdir -p "$data/data" "$data/logs" "$home/run"
  if [ "$(id -u)" = 0 ]; then
    id "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
    chown -R "$user" "$es" "$data"
    # The server's user must be able to reach its folders through the repository's parents.
    d=$home; while [ "$d" != / ]; do chmod o+x "$d" 2>/dev/null || true; d=$(dirname "$d"); done
  fi
  cat > "$es/config/elasticsearch.yml" <<YML
cluster.name: videoworld
node.name: vw-local
network.host: 127.0.0.1
http.port: $port
transport.port: $((port + 100))
discovery.type: single-node
path.data: $data/data
path.logs: $data/logs
cluster.routing.allocation.disk.threshold_enabled: false
action.auto_create_index: true
xpack.security.enabled: false
YML
  # A keystore left by security auto-configuration would re-enable TLS settings we do not use.
  rm -f "$es/config/elasticsearch.keystore"
  local java_home=${ES_JAVA_HOME:-${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}}
  rm -f "$pidfile"
  as_user env ES_JAVA_HOME="$java_home" ES_JAVA_OPTS="-Xms$heap -Xmx$heap" \
    "$es/bin/elasticsearch" -d -p "$data/es.pid" >"$data/logs/startup.out" 2>&1 || {
      echo "Elasticsearch failed to start; see $data/logs" >&2; tail -n 30 "$data/logs/startup.out" >&2 || true; exit 1; }
  for _ in $(seq 1 120); do
    if healthy; then
      cp "$data/es.pid" "$pidfile"
      echo "$url"
      return 0
    fi
    sleep 1
  done
  echo "Elasticsearch did not become healthy in 120 s; see $data/logs" >&2
  tail -n 30 "$data/logs/videoworld.log" >&2 || true
  exit 1
}

stop() {
  local pid
  for f in "$pidfile" "$data/es.pid"; do
    [ -f "$f" ] || continue
    pid=$(cat "$f")
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid"
      for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$f"
  done
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  fetch) fetch ;;
  status) if healthy; then echo "$url"; curl -fsS "$url/_cluster/health"; echo; else echo "down ($url)"; exit 1; fi ;;
  *) echo "usage: $0 start|stop|status|fetch" >&2; exit 2 ;;
esac
