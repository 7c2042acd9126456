#!/usr/bin/env bash
# Proves deploy/compose.fleet.yaml (three instances behind HAProxy on one PostgreSQL and one Redis) on a
# machine with no Docker engine and no image registry (Debian 12, root), with podman-compose:
#   1. build/compose-standins.sh: the image from the Dockerfile and stand-ins for postgres:16 and redis:7;
#      here also a stand-in for haproxy:2.6 from Debian's haproxy package (2.6), honouring what the fleet
#      file uses of the public image (its configuration at /usr/local/etc/haproxy/haproxy.cfg, master-worker
#      in the foreground, SIGUSR1 to stop);
#   2. podman-compose up from a clean clone of HEAD, secrets generated into the clone's secrets/ folder. The
#      edge network is created first with the subnet and ip_range the file declares, which podman-compose 1.0
#      does not read (Docker Compose does), so that the instances' --trusted-proxies names HAProxy's address;
#   3. checks, all through HAProxy on the published port: /readyz 200; signup and login; requests spread over
#      the three instances (each instance's own request counter, read from its metrics listener); an
#      instance stopped with SIGTERM (podman stop) while requests run, every answer counted; the instance
#      back in rotation after it starts again; the per-IP budget counted once across the fleet (a burst's
#      200s against the budget of one instance) under the client's address, not HAProxy's.
# Usage: bash build/compose-fleet-proof.sh [workdir]   (default /tmp/portcullis-compose-fleet-proof; needs the
# network to Debian's mirror and the npm registry; about 10 minutes the first time). Not part of npm test: it
# needs root and minutes.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/portcullis-compose-fleet-proof}
port=8080
if ss -ltn | grep -q ":$port "; then echo "port $port is in use: stop what listens there first" >&2; exit 1; fi
source "$repo/build/compose-standins.sh"

# HAProxy needs two descriptors per connection of its maxconn 4096 (8,223 in all) and stops short of them;
# the stand-ins' 1,024 is too few. Docker's and podman's defaults are far higher where no outer limit caps them
# (this machine's hard limit is 20,000).
sed -i 's/nofile=1024:1024/nofile=16384:16384/' "$CONTAINERS_CONF"

if ! podman image exists localhost/haproxy-standin:2.6; then
  mkdir -p "$work/haproxy"
  printf '%s\n' 'FROM localhost/debian:bookworm-slim' \
    'RUN apt-get update && apt-get install -y --no-install-recommends haproxy && rm -rf /var/lib/apt/lists/*' \
    'RUN mkdir -p /usr/local/etc/haproxy' \
    'USER haproxy' \
    'STOPSIGNAL SIGUSR1' \
    'CMD ["haproxy", "-W", "-db", "-f", "/usr/local/etc/haproxy/haproxy.cfg"]' >"$work/haproxy/Containerfile"
  podman build --runtime /usr/sbin/runc --network host --format docker -t localhost/haproxy-standin:2.6 "$work/haproxy" >"$work/haproxy.log"
fi

rm -rf "$work/src"
git clone -q "$repo" "$work/src"
cd "$work/src"
mkdir -p secrets
for s in admin-secret client-secret jwt-secret postgres-password; do
  head -c 32 /dev/urandom | base64 | tr -d '\n/+=' >"secrets/$s"
done
chmod 0644 secrets/* && chmod 0700 secrets
export PORTCULLIS_IMAGE=localhost/portcullis:proof POSTGRES_IMAGE=localhost/postgres-standin:16 \
  REDIS_IMAGE=localhost/redis-standin:7 HAPROXY_IMAGE=localhost/haproxy-standin:2.6
export COMPOSE_PROJECT_NAME=portcullisfleet
project=$COMPOSE_PROJECT_NAME
compose() { podman-compose -p "$project" -f deploy/compose.fleet.yaml "$@"; }
container() { echo "${project}_$1_1"; }
edge_network() {
  podman network rm -f "${project}_edge" >/dev/null 2>&1 || true
  # The subnet and ip_range as the file declares them (podman-compose runs on Python's yaml, so it is here).
  read -r subnet range < <(python3 -c 'import sys, yaml
c = yaml.safe_load(open("deploy/compose.fleet.yaml"))["networks"]["edge"]["ipam"]["config"][0]
print(c["subnet"], c["ip_range"])')
  podman network create --subnet "$subnet" --ip-range "$range" "${project}_edge" >/dev/null
}
finish() {
  cd "$work/src" || return
  for service in haproxy portcullis1 portcullis2 portcullis3; do
    podman logs "$(container $service)" >"$work/$service.log" 2>&1 || true
  done
  compose down -v >"$work/down.log" 2>&1 || true
  podman network rm -f "${project}_edge" "${project}_data" >/dev/null 2>&1 || true
}
compose down -v >"$work/down-before.log" 2>&1 || true
edge_network
trap finish EXIT
compose up -d >"$work/up.log" 2>&1 || { cat "$work/up.log" >&2; exit 1; }

base="http://127.0.0.1:$port"
instances=(portcullis1 portcullis2 portcullis3)
healthy() { podman healthcheck run "$(container "$1")" >/dev/null 2>&1; }
for _ in $(seq 1 180); do
  all=1
  for i in "${instances[@]}"; do healthy "$i" || all=0; done
  [[ $all == 1 ]] && curl -fs "$base/readyz" >/dev/null && break
  sleep 1
done
# HAProxy's rise 2 at inter 1s: every instance in rotation.
sleep 3
echo "readyz through HAProxy: $(curl -s -o /dev/null -w '%{http_code}' "$base/readyz")"
echo "HAProxy address: $(podman inspect "$(container haproxy)" --format '{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}')"

origin=(-H 'Origin: http://localhost:8080' -H 'Content-Type: application/json')
email="fleet-proof-$RANDOM@example.com"
password='Fleet-proof-1'
login_body="{\"email\":\"$email\",\"password\":\"$password\"}"
echo "signup: $(curl -s -o /dev/null -w '%{http_code}' "${origin[@]}" -d "{\"email\":\"$email\",\"password\":\"$password\",\"confirm_password\":\"$password\"}" "$base/v1/signup")"
login=$(curl -s -w ' %{http_code}' "${origin[@]}" -d "$login_body" "$base/v1/login")
echo "login: ${login##* } $(grep -q '"access_token"' <<<"$login" && echo 'with an access token')"

# Which instance answered: each one's own count of discovery requests, from its metrics listener (port 8081,
# on the container's loopback; bash's /dev/tcp as the image has no curl).
discovery=/.well-known/openid-configuration
served() {
  podman exec "$(container "$1")" bash -c 'exec 3<>/dev/tcp/127.0.0.1/8081 && printf "GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n" >&3 && cat <&3' 2>/dev/null |
    awk -v route="route=\"$discovery\"" 'index($0, "portcullis_http_requests_total{") == 1 && index($0, route) { n += $NF } END { print n + 0 }'
}
spread() {
  local before=() i
  for i in "${instances[@]}"; do before+=("$(served "$i")"); done
  for _ in $(seq 1 "$1"); do curl -s -o /dev/null "$base$discovery"; done
  local out=() k=0
  for i in "${instances[@]}"; do out+=("$i $(($(served "$i") - before[k]))"); k=$((k + 1)); done
  echo "${out[*]}"
}
echo "30 requests spread: $(spread 30)"

# Stop one instance (podman stop: SIGTERM, SIGKILL only after 30 s) while two clients run: one keep-alive
# connection of GETs at 20 a second (curl --rate), one login after another on new connections.
victim=portcullis2
rm -f "$work/stop-logins"
printf 'url = "%s"\noutput = /dev/null\n' $(yes "$base$discovery" | head -n 400) >"$work/gets.curlrc"
curl -s --rate 20/s -K "$work/gets.curlrc" -w '%{http_code}\n' >"$work/gets.codes" &
gets=$!
(while [[ ! -e "$work/stop-logins" ]]; do
  curl -s -o /dev/null -w '%{http_code}\n' --max-time 10 "${origin[@]}" -d "$login_body" "$base/v1/login"
  sleep 0.2
done) >"$work/logins.codes" &
logins=$!
sleep 5
log_before=$(podman logs "$(container haproxy)" 2>&1 | wc -l)
start=$(date +%s%N)
podman stop -t 30 "$(container "$victim")" >/dev/null
echo "podman stop $victim: $(( ($(date +%s%N) - start) / 1000000 )) ms, exit code $(podman inspect "$(container "$victim")" --format '{{.State.ExitCode}}')"
wait "$gets"
touch "$work/stop-logins"
wait "$logins"
count() { sort "$1" | uniq -c | awk '{ printf "%s%s x%s", sep, $2, $1; sep = ", " } END { print "" }'; }
echo "GETs during the stop: $(wc -l <"$work/gets.codes") sent: $(count "$work/gets.codes")"
echo "logins during the stop: $(wc -l <"$work/logins.codes") sent: $(count "$work/logins.codes")"
podman logs "$(container haproxy)" >"$work/haproxy.log" 2>&1 || true
# httplog: "... actconn/feconn/beconn/srv_conn/retries srv_queue/backend_queue" (retries "+n" when redispatched).
retried=$(tail -n +"$((log_before + 1))" "$work/haproxy.log" | grep -oE '[0-9]+/[0-9]+/[0-9]+/[0-9]+/\+?[0-9]+ [0-9]+/[0-9]+ "' | awk -F'[/ ]' '$5 != "0"' | wc -l)
echo "HAProxy: requests retried or redispatched during the stop: $retried"
tail -n +"$((log_before + 1))" "$work/haproxy.log" | grep -E "^Server portcullis/$victim is (DOWN|UP)" | sed -E 's/, check duration.*//; s/^/HAProxy: /' || true

podman start "$(container "$victim")" >/dev/null
for _ in $(seq 1 60); do healthy "$victim" && break; sleep 1; done
sleep 3
podman logs "$(container haproxy)" 2>&1 | grep -E "^portcullis/$victim changed its IP" | sed 's/^/HAProxy: /' || true
echo "$victim started again; 30 requests spread: $(spread 30)"

# One budget across the fleet: --rate-limit-rps 30 a second and --rate-limit-burst 60 once every 10 s per
# client IP, counted in Redis. 300 requests at once from one client (32 connections): one budget lets about
# 60 + 30 for each second started through; were each instance counting alone, three times as many.
sleep 11
printf 'url = "%s"\noutput = /dev/null\n' $(yes "$base$discovery" | head -n 300) >"$work/burst.curlrc"
start=$(date +%s%N)
# (curl 7.88 draws its parallel progress meter despite -s: stderr is dropped.)
codes=$(curl -s --parallel --parallel-max 32 -K "$work/burst.curlrc" -w '%{http_code}\n' 2>/dev/null)
echo "burst of 300 from one client in $(( ($(date +%s%N) - start) / 1000000 )) ms: $(count <(echo "$codes"))"
limited() {
  podman exec "$(container "$1")" bash -c 'exec 3<>/dev/tcp/127.0.0.1/8081 && printf "GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n" >&3 && cat <&3' 2>/dev/null |
    awk 'index($0, "portcullis_rate_limited_total{") == 1 { n += $NF } END { print n + 0 }'
}
echo "refused by each instance: $(for i in "${instances[@]}"; do printf '%s %s  ' "$i" "$(limited "$i")"; done)"
# The client's address as HAProxy saw it (the host's, through the published port), and HAProxy's own for
# its health checks, which carry no X-Forwarded-For.
echo "redis per-IP keys: $(podman exec "$(container redis)" redis-cli --scan --pattern 'portcullis:ip:*' | tr -d '\r' | sort -u | tr '\n' ' ')"
for service in "${instances[@]}" postgres redis; do
  podman healthcheck run "$(container "$service")" && echo "$service: healthy"
done
