# Portcullis as one self-contained executable on a slim Debian.
#   docker build -t portcullis .
#   docker run -p 8080:8080 -v portcullis-data:/data portcullis \
#     --database-url /data/portcullis.db --url http://localhost:8080 \
#     --client-id ... --client-secret ... --admin-secret ... --jwt-secret ...
# Every setting is a flag (no environment variable is read): flags after the image name are appended to
# the entrypoint, and a later flag wins over an earlier one.

# Base images are arguments so that a machine without a registry can build from local images (for example a
# debootstrap'ed Debian imported with `podman import`); the defaults are the public images.
ARG BUILD_IMAGE=node:24-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim

# Build stage: Debian 12 like the runtime, so the Node binary inside the executable finds the same glibc.
# It builds the login UI and the console (Vite), the server bundle (esbuild) and the single executable,
# which carries both UIs inside it.
FROM ${BUILD_IMAGE} AS build
WORKDIR /src
# Dependencies first, so this layer is reused until the lockfile changes. `npm ci` also installs the
# Node 24 binary (devDependency "node") that becomes the base of the executable.
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
# --strip drops symbol and debug sections from the copied Node binary (about 18 MB); binutils is in this image.
RUN npm run build && npm run sea -- --strip

# Runtime stage: the executable and CA certificates (TLS to databases, SMTP and OAuth providers), nothing else.
FROM ${RUNTIME_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
 && groupadd --system --gid 10001 portcullis \
 && useradd --system --uid 10001 --gid portcullis --home-dir /data --no-create-home --shell /usr/sbin/nologin portcullis \
 && install -d -o portcullis -g portcullis -m 0700 /data
COPY --from=build /src/dist/portcullis /usr/local/bin/portcullis
USER 10001:10001
# SQLite files and anything else the server keeps belong on the volume; relative paths land there.
WORKDIR /data
VOLUME ["/data"]
# Main HTTP (REST, GraphQL, OAuth/OIDC, UIs), gRPC, metrics.
EXPOSE 8080 9091 8081
# Ready means the database answers (GET /readyz); bash's /dev/tcp keeps curl out of the image. It probes the
# default --http-port 8080.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["/bin/bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /readyz HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
# Inside a container 127.0.0.1 is unreachable from outside, so the metrics listener binds all interfaces
# here (the port is published only when asked for); pass --metrics-host 127.0.0.1 to keep it private.
ENTRYPOINT ["/usr/local/bin/portcullis", "--metrics-host", "0.0.0.0"]
