# Sourced by build/compose-proof.sh and build/compose-fleet-proof.sh (with $repo and $work set; root, Debian 12,
# no Docker engine, no image registry): the images their compose files name, built locally.
#   1. build/container-proof.sh builds the Dockerfile from local images (localhost/portcullis:proof) and
#      proves the image alone;
#   2. stand-ins for the public postgres:16 and redis:7 images from the same debootstrap'ed Debian, with
#      Debian's postgresql and redis-server, honouring what the compose files use of the public images
#      (POSTGRES_USER, POSTGRES_DB, POSTGRES_PASSWORD_FILE, /var/lib/postgresql/data, pg_isready, redis-cli);
#   3. CONTAINERS_CONF exported for the podman that podman-compose starts.
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

