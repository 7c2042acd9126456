#!/usr/bin/env bash
# Proves compose.yaml on a machine with no Docker engine and no image registry (Debian 12, root), with
# podman-compose:
#   1. build/container-proof.sh builds the Dockerfile from local images and proves the image alone;
#   2. stand-ins for the public postgres:16 and redis:7 images from the same debootstrap'ed Debian, with
#      Debian's postgresql and redis-server, honouring what compose.yaml uses of the public images
#      (POSTGRES_USER, POSTGRES_DB, POSTGRES_PASSWORD_FILE, /var/lib/postgresql/data, pg_isready, redis-cli);
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
command -v podman-compose >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman-compose >/dev/null
mkdir -p "$work"

bash "$repo/build/container-proof.sh" "$work/container"

# crun fails on these machines (cgroups v1 hybrid) and runc works; podman-compose starts plain `podman`, so
# the runtime (and the ulimits container-proof.sh passes by flag) come from a containers.conf of our own.
printf '%s\n' '[containers]' 'default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]' \
  '[engine]' 'runtime = "runc"' >"$work/containers.conf"
export CONTAINERS_CONF="$work/containers.conf"

if ! podman image exists localhost/postgres-standin:16; then
  mkdir -p "$work/postgres"
  # The public image's entrypoint, reduced to what compose.yaml uses: initdb on an empty volume with the
  # user, database and password from the variables, password (SCRAM) logins from the network, then run.
  # Debian's package would create a cluster of its own (on 5433 when the build host holds 5432), which the
  # client wrappers (psql, pg_isready) would then aim at: none is created.
  cat >"$work/postgres/entrypoint.sh" <<'EOF'
#!/bin/bash
set -euo pipefail
data=/var/lib/postgresql/data
bin=$(echo /usr/lib/postgresql/*/bin)
mkdir -p "$data" /run/postgresql && chown postgres:postgres "$data" /run/postgresql && chmod 0700 "$data"
if [[ ! -s "$data/PG_VERSION" ]]; then
  password=$(cat "${POSTGRES_PASSWORD_FILE}")
  printf '%s' "$password" >/tmp/pwfile && chown postgres /tmp/pwfile
  runuser -u postgres -- "$bin/initdb" -D "$data" -U "$POSTGRES_USER" --pwfile=/tmp/pwfile --auth-host=scram-sha-256 --auth-local=trust >/dev/null
  rm -f /tmp/pwfile
  echo "host all all all scram-sha-256" >>"$data/pg_hba.conf"
  runuser -u postgres -- "$bin/pg_ctl" -D "$data" -o "-c listen_addresses=''" -w start >/dev/null
  runuser -u postgres -- psql -U "$POSTGRES_USER" -d postgres -c "CREATE DATABASE \"$POSTGRES_DB\" OWNER \"$POSTGRES_USER\"" >/dev/null
  runuser -u postgres -- "$bin/pg_ctl" -D "$data" -w stop >/dev/null
fi
exec runuser -u postgres -- "$bin/postgres" -D "$data" -c listen_addresses='*'
EOF
  printf '%s\n' 'FROM localhost/debian:bookworm-slim' \
    'RUN mkdir -p /etc/postgresql-common/createcluster.d && echo "create_main_cluster = false" >/etc/postgresql-common/createcluster.d/no-main.conf' \
    'RUN apt-get update && apt-get install -y --no-install-recommends postgresql && rm -rf /var/lib/apt/lists/*' \
    'COPY entrypoint.sh /usr/local/bin/entrypoint.sh' \
    'RUN chmod 0755 /usr/local/bin/entrypoint.sh' \
    'ENTRYPOINT ["/usr/local/bin/entrypoint.sh"]' >"$work/postgres/Containerfile"
  podman build --runtime /usr/sbin/runc --network host -t localhost/postgres-standin:16 "$work/postgres" >"$work/postgres.log"
fi
if ! podman image exists localhost/redis-standin:7; then
  mkdir -p "$work/redis"
  # The public image serves every interface without protected mode, its data in /data.
  printf '%s\n' 'FROM localhost/debian:bookworm-slim' \
    'RUN apt-get update && apt-get install -y --no-install-recommends redis-server redis-tools && rm -rf /var/lib/apt/lists/*' \
    'RUN mkdir -p /data && chown redis:redis /data' \
    'WORKDIR /data' \
    'CMD ["runuser", "-u", "redis", "--", "redis-server", "--bind", "0.0.0.0", "--protected-mode", "no", "--dir", "/data"]' \
    >"$work/redis/Containerfile"
  podman build --runtime /usr/sbin/runc --network host -t localhost/redis-standin:7 "$work/redis" >"$work/redis.log"
fi

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
