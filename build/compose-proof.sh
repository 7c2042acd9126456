#!/usr/bin/env bash
# Proves compose.yaml on a machine with no Docker engine and no image registry (Debian 12, root), with
# podman-compose:
#   1-2. build/compose-standins.sh: the image from the Dockerfile (build/container-proof.sh, which proves it
#      alone) and stand-ins for the public postgres:16 and redis:7 images, from a debootstrap'ed Debian;
#   3. podman-compose up from a clean clone of HEAD, the images chosen by compose.yaml's variables, secrets
#      generated into the clone's secrets/ folder;
#   4. checks: /readyz answers 200 through the published port; a signup and a login over REST succeed and the
#      user is a row in PostgreSQL; the rate-limit counters are keys in Redis; the services are healthy.
# Usage: bash build/compose-proof.sh [workdir]   (default /tmp/portcullis-compose-proof; needs the network to
# Debian's mirror and the npm registry; about 8 minutes the first time). Not part of npm test: it needs root.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/portcullis-compose-proof}
port=8080
# Both proofs serve on 8080: checked before minutes of building.
if ss -ltn | grep -q ":$port "; then echo "port $port is in use: stop what listens there first" >&2; exit 1; fi
source "$repo/build/compose-standins.sh"

rm -rf "$work/src"
git clone -q "$repo" "$work/src"
cd "$work/src"
# The recipe's first step (compose.yaml's header), with readable files for the server's uid 10001.
mkdir -p secrets
for s in admin-secret client-secret jwt-secret postgres-password; do
  head -c 32 /dev/urandom | base64 | tr -d '\n/+=' >"secrets/$s"
done
chmod 0644 secrets/* && chmod 0700 secrets
export PORTCULLIS_IMAGE=localhost/portcullis:proof POSTGRES_IMAGE=localhost/postgres-standin:16 REDIS_IMAGE=localhost/redis-standin:7
export COMPOSE_PROJECT_NAME=portcullisproof
compose() { podman-compose -p "$COMPOSE_PROJECT_NAME" -f compose.yaml "$@"; }
compose down -v >"$work/down-before.log" 2>&1 || true
trap 'cd "$work/src" && compose logs portcullis >"$work/portcullis.log" 2>&1; compose down -v >"$work/down.log" 2>&1 || true' EXIT
compose up -d >"$work/up.log" 2>&1 || { cat "$work/up.log" >&2; exit 1; }

base="http://127.0.0.1:$port"
for _ in $(seq 1 120); do
  curl -fs "$base/readyz" >/dev/null && break
  sleep 1
done
echo "readyz: $(curl -s -o /dev/null -w '%{http_code}' "$base/readyz")"
# State-changing REST calls carry the Origin of --url (docs/calling-the-api.md).
origin=(-H 'Origin: http://localhost:8080' -H 'Content-Type: application/json')
email="compose-proof-$RANDOM@example.com"
password='Compose-proof-1'
echo "signup: $(curl -s -o /dev/null -w '%{http_code}' "${origin[@]}" -d "{\"email\":\"$email\",\"password\":\"$password\",\"confirm_password\":\"$password\"}" "$base/v1/signup")"
login=$(curl -s -w ' %{http_code}' "${origin[@]}" -d "{\"email\":\"$email\",\"password\":\"$password\"}" "$base/v1/login")
echo "login: ${login##* } $(grep -q '"access_token"' <<<"$login" && echo 'with an access token')"
# podman exec, not podman-compose exec, whose version 1.0 prints its own podman commands on stdout.
in_service() { local service=$1; shift; podman exec "${COMPOSE_PROJECT_NAME}_${service}_1" "$@"; }
echo "postgres users row: $(in_service postgres psql -U portcullis -d portcullis -tAc "SELECT email FROM users WHERE email = '$email'" 2>/dev/null | tr -d '\r')"
# A wrong password is counted for the account's lockout (OWASP ASVS 2.2.1); with --redis-url the counter is a
# Redis key, beside the per-IP request counters, so every instance sees the same count.
echo "wrong password: $(curl -s -o /dev/null -w '%{http_code}' "${origin[@]}" -d "{\"email\":\"$email\",\"password\":\"Wrong-password-1\"}" "$base/v1/login")"
echo "redis keys: $(in_service redis redis-cli --scan | grep '^portcullis:' | tr -d '\r' | sed 's/:[^:]*$/:…/' | sort -u | tr '\n' ' ')"
for service in portcullis postgres redis; do
  podman healthcheck run "${COMPOSE_PROJECT_NAME}_${service}_1" && echo "$service: healthy"
done
