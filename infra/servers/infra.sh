#!/usr/bin/env bash
# Installs, starts and stops the servers of the distributed deployment on one machine, for tests and
# local scale-out runs (infra/README.md "Servers"): Apache Kafka 3.9 (KRaft, single node; jars from Maven
# Central), Redis (Debian's redis-server) and a ClickHouse HTTP-interface TEST DOUBLE over chdb
# (./clickhouse-standin.ts; production uses a real ClickHouse server >= 24.8 through CLICKHOUSE_URL).
#
#   infra/servers/infra.sh install [kafka|redis|all]       idempotent; what is there already is kept
#   infra/servers/infra.sh start   [kafka|redis|clickhouse|all]   installs first, waits until ready
#   infra/servers/infra.sh stop    [kafka|redis|clickhouse|all]
#   infra/servers/infra.sh status  [kafka|redis|clickhouse|all]   exit 0 when every one named is ready
#   infra/servers/infra.sh env     prints KAFKA_BROKERS=… CLICKHOUSE_URL=… REDIS_URL=… for these servers
#
# Servers are started one at a time under a lock (INFRA_DIR/.lock), so parallel callers are safe.
# Everything binds 127.0.0.1 on non-default ports (ports below, overridable by the environment), and keeps
# its jars, data, logs and pid files under INFRA_DIR (default <repo>/.infra, gitignored). `stop` keeps the
# data; remove INFRA_DIR/<service>/data for a clean start.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
HERE="$ROOT/infra/servers"
INFRA_DIR=${INFRA_DIR:-$ROOT/.infra}
KAFKA_PORT=${INFRA_KAFKA_PORT:-19092}
KAFKA_CONTROLLER_PORT=${INFRA_KAFKA_CONTROLLER_PORT:-19093}
REDIS_PORT=${INFRA_REDIS_PORT:-16379}
CLICKHOUSE_PORT=${INFRA_CLICKHOUSE_PORT:-18123}
# Seconds a server may take to become ready (a cold JVM on 2 busy cores takes 5-15 s).
READY_TIMEOUT_S=${INFRA_READY_TIMEOUT_S:-90}

log() { echo "infra: $*" >&2; }
die() {
  log "$*"
  exit 1
}

# true while the pid in $1 names a live process
alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# true when something accepts TCP connections on 127.0.0.1:$1
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# wait_for NAME PIDFILE CHECK...: polls CHECK until it succeeds, the process dies, or the timeout passes
wait_for() {
  local name=$1 pidfile=$2
  shift 2
  local deadline=$((SECONDS + READY_TIMEOUT_S))
  until "$@"; do
    alive "$pidfile" || die "$name exited while starting (see its log under $INFRA_DIR/$name/logs)"
    [ $SECONDS -lt $deadline ] || die "$name not ready after ${READY_TIMEOUT_S}s (see $INFRA_DIR/$name/logs)"
    sleep 0.3
  done
}

# stop_pid NAME PIDFILE: SIGTERM, then SIGKILL after 30 s (a broker's controlled shutdown takes a few s)
stop_pid() {
  local name=$1 pidfile=$2
  if ! alive "$pidfile"; then
    rm -f "$pidfile"
    return 0
  fi
  local pid
  pid=$(cat "$pidfile")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 300); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "$name did not stop in 30 s; killing"
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"
  log "$name stopped"
}

# ---------------------------------------------------------------- Kafka (KRaft, broker + controller)
K=$INFRA_DIR/kafka

kafka_install() {
  # The jar set is the resolved dependency tree of kafka_2.13 (./kafka/pom.xml), copied once; Maven's
  # local repository (~/.m2) is the cache CI keeps between runs.
  if [ -f "$K/lib/.complete" ]; then return 0; fi
  command -v java >/dev/null || die "Kafka needs Java 17+ (apt-get install openjdk-17-jre-headless)"
  command -v mvn >/dev/null || apt_install maven
  log "resolving the Kafka broker's jars from Maven Central"
  rm -rf "$K/lib"
  mvn -q -B -Dstyle.color=never -f "$HERE/kafka/pom.xml" dependency:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$K/lib"
  ls "$K/lib"/kafka_2.13-*.jar >/dev/null 2>&1 || die "no kafka_2.13 jar after resolving $HERE/kafka/pom.xml"
  touch "$K/lib/.complete"
}

kafka_ready() {
  port_open "$KAFKA_PORT" && grep -q "Kafka Server started" "$K/logs/stdout.log" 2>/dev/null
}

kafka_start() {
  if alive "$K/kafka.pid" && kafka_ready; then return 0; fi
  kafka_install
  mkdir -p "$K/data" "$K/logs"
  sed -e "s#@DATA@#$K/data#" -e "s#@PORT@#$KAFKA_PORT#" -e "s#@CONTROLLER_PORT@#$KAFKA_CONTROLLER_PORT#" \
    "$HERE/kafka/server.properties.in" >"$K/server.properties"
  local cp="$K/lib/*" jvm_log="-Dlog4j.configuration=file:$HERE/kafka/log4j.properties"
  if [ ! -f "$K/data/meta.properties" ]; then
    # A static quorum (controller.quorum.voters) formats without --standalone.
    [ -f "$K/cluster.id" ] || java -cp "$cp" "$jvm_log" kafka.tools.StorageTool random-uuid >"$K/cluster.id"
    java -cp "$cp" "$jvm_log" kafka.tools.StorageTool format -t "$(cat "$K/cluster.id")" \
      -c "$K/server.properties" >"$K/logs/format.log" 2>&1 || die "formatting Kafka storage failed: $K/logs/format.log"
  fi
  : >"$K/logs/stdout.log"
  # Small heap (Kafka lives on the page cache), C1 only (faster start for a short-lived test broker).
  nohup java -Xms256m -Xmx768m -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 \
    -XX:+ExplicitGCInvokesConcurrent -XX:+ExitOnOutOfMemoryError -XX:TieredStopAtLevel=1 -Xshare:auto \
    -Djava.awt.headless=true -Dkafka.logs.dir="$K/logs" "$jvm_log" \
    -cp "$cp" kafka.Kafka "$K/server.properties" >>"$K/logs/stdout.log" 2>&1 9>&- &
  echo $! >"$K/kafka.pid"
  wait_for kafka "$K/kafka.pid" kafka_ready
  log "kafka ready on 127.0.0.1:$KAFKA_PORT (pid $(cat "$K/kafka.pid"))"
}

kafka_stop() { stop_pid kafka "$K/kafka.pid"; }
kafka_status() { alive "$K/kafka.pid" && kafka_ready; }

# ---------------------------------------------------------------- Redis (Debian's redis-server)
R=$INFRA_DIR/redis

apt_install() {
  command -v apt-get >/dev/null || die "$1 is not installed and there is no apt-get; install it by hand"
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  log "installing $1 from Debian"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$1" >/dev/null
}

redis_install() { command -v redis-server >/dev/null || apt_install redis-server; }

redis_ready() { [ "$(redis-cli -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ]; }

redis_start() {
  if alive "$R/redis.pid" && redis_ready; then return 0; fi
  redis_install
  mkdir -p "$R/data" "$R/logs"
  # No persistence: the hot cache is rebuilt by the processors; the store is the truth.
  redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --dir "$R/data" --save "" --appendonly no \
    --daemonize no --logfile "$R/logs/redis.log" >/dev/null 2>&1 9>&- &
  echo $! >"$R/redis.pid"
  wait_for redis "$R/redis.pid" redis_ready
  log "redis ready on 127.0.0.1:$REDIS_PORT (pid $(cat "$R/redis.pid"))"
}

redis_stop() { stop_pid redis "$R/redis.pid"; }
redis_status() { alive "$R/redis.pid" && redis_ready; }

# ---------------------------------------------------------------- ClickHouse HTTP stand-in (TEST DOUBLE)
C=$INFRA_DIR/clickhouse

clickhouse_ready() { [ "$(curl -s --max-time 2 "http://127.0.0.1:$CLICKHOUSE_PORT/ping")" = "Ok." ]; }

clickhouse_start() {
  if alive "$C/clickhouse.pid" && clickhouse_ready; then return 0; fi
  [ -d "$ROOT/node_modules/chdb" ] || die "the ClickHouse stand-in needs chdb: run npm ci first"
  mkdir -p "$C/data" "$C/logs"
  nohup node --import tsx "$HERE/clickhouse-standin.ts" --port "$CLICKHOUSE_PORT" --path "$C/data" \
    >"$C/logs/stdout.log" 2>&1 9>&- &
  echo $! >"$C/clickhouse.pid"
  wait_for clickhouse "$C/clickhouse.pid" clickhouse_ready
  log "clickhouse stand-in (test double over chdb) ready on 127.0.0.1:$CLICKHOUSE_PORT (pid $(cat "$C/clickhouse.pid"))"
}

clickhouse_stop() { stop_pid clickhouse "$C/clickhouse.pid"; }
clickhouse_status() { alive "$C/clickhouse.pid" && clickhouse_ready; }
clickhouse_install() { :; }

# ---------------------------------------------------------------- dispatch
action=${1:-}
target=${2:-all}
case "$target" in
all) services=(kafka redis clickhouse) ;;
kafka | redis | clickhouse) services=("$target") ;;
*) die "unknown service '$target' (kafka, redis, clickhouse or all)" ;;
esac
cd "$ROOT"
case "$action" in
install | start | stop)
  # One at a time: test files started in parallel all ask for the same servers.
  mkdir -p "$INFRA_DIR"
  exec 9>"$INFRA_DIR/.lock"
  flock 9
  for s in "${services[@]}"; do "${s}_${action}"; done
  ;;
status)
  rc=0
  for s in "${services[@]}"; do
    if "${s}_status"; then echo "$s: ready"; else
      echo "$s: not running"
      rc=1
    fi
  done
  exit $rc
  ;;
env)
  echo "KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT"
  echo "CLICKHOUSE_URL=http://127.0.0.1:$CLICKHOUSE_PORT"
  echo "REDIS_URL=redis://127.0.0.1:$REDIS_PORT"
  ;;
*)
  sed -n '2,15p' "$0" >&2
  exit 2
  ;;
esac
