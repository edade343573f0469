#!/usr/bin/env bash
# The Docker image, built and smoke-tested as .ci/run does the wheel (called from .ci/run; also by
# hand: `bash .ci/docker_smoke.sh [postgresql+asyncpg://...]`).
#
#   1. a Docker daemon: the running one, else Debian's docker.io started here
#      (`dockerd --bridge=none --iptables=false`: the containers use the host's network); where
#      none can run, one line says so and the script exits 0;
#   2. the base image, made from Debian packages (no image registry is reachable from CI): a
#      debootstrap of bookworm with Debian's python3 (3.11) and a venv first on PATH, so `python`
#      and `pip` are what python:3.11-slim has; imported with `docker import` and kept by its tag,
#      so a rerun skips this (about 2 minutes the first time);
#   3. the image: deploy/Dockerfile with `--build-arg BASE_IMAGE=<that base>` and `--network host`
#      (pip reaches the package index as the host does), the context only what the wheel is made of;
#   4. .ci/smoke_image.py: two hub containers and a gateway container with `--network host` on the
#      machine's PostgreSQL (a fresh schema, `cuehub migrate` first) and Redis: /readyz, pages, a
#      command seen through the other hub and the gateway, HEALTHCHECK healthy, non-root, JSON
#      logs, SIGTERM stops each within 10 s.
# Each part prints how long it took.
set -euo pipefail
cd "$(dirname "$0")/.."
PG_URL="${1:-${HUB_TEST_PG_URL:-postgresql+asyncpg://postgres@127.0.0.1:5432/test}}"
BASE_TAG="${CUEHUB_CI_BASE:-cuehub-ci/python:3.11-bookworm}"
IMAGE="cuehub:ci"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
T0=$(date +%s)
took() { echo "  [$(( $(date +%s) - T0 ))s] $*"; }
skip() { echo "image smoke test skipped: $*"; exit 0; }
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"

apt_install() {
  command -v apt-get >/dev/null 2>&1 || return 1
  $SUDO apt-get update -y -q >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "$@" >/dev/null 2>&1
}

STARTED_DAEMON=""
stop_daemon() {
  if [ -n "$STARTED_DAEMON" ]; then
    $SUDO kill "$STARTED_DAEMON" 2>/dev/null || true
    for _ in $(seq 1 50); do $SUDO kill -0 "$STARTED_DAEMON" 2>/dev/null || break; sleep 0.2; done
  fi
}
trap stop_daemon EXIT

# --- 1. a daemon ----------------------------------------------------------------------------------
if ! docker info >/dev/null 2>&1; then
  if ! command -v dockerd >/dev/null 2>&1; then
    apt_install docker.io || skip "no Docker daemon here and docker.io could not be installed"
  fi
  command -v docker >/dev/null 2>&1 || skip "no docker client"
  DLOG="$(mktemp /tmp/cuehub-dockerd-XXXXXX.log)"
  $SUDO dockerd --bridge=none --iptables=false --ip6tables=false >"$DLOG" 2>&1 &
  STARTED_DAEMON=$!
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && break
    kill -0 "$STARTED_DAEMON" 2>/dev/null || break
    sleep 0.5
  done
  docker info >/dev/null 2>&1 \
    || { STARTED_DAEMON=""; skip "no Docker daemon can run on this machine ($(grep -m1 -iE 'error|fatal' "$DLOG" | cut -c1-160 || true))"; }
  took "dockerd started (log: $DLOG)"
fi

# --- 2. the base image ----------------------------------------------------------------------------
if docker image inspect "$BASE_TAG" >/dev/null 2>&1; then
  took "base image $BASE_TAG: cached"
else
  command -v debootstrap >/dev/null 2>&1 || apt_install debootstrap || { echo "FATAL: no debootstrap" >&2; exit 1; }
  ROOTFS="$(mktemp -d /var/tmp/cuehub-base-XXXXXX)"
  $SUDO debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates bookworm "$ROOTFS" "$MIRROR" \
    > "$ROOTFS.log" 2>&1 || { tail -20 "$ROOTFS.log"; exit 1; }
  # The host's own CA certificates (a package index reached through a TLS-inspecting proxy is then
  # trusted inside the build as outside it); none on an ordinary machine.
  for crt in /usr/local/share/ca-certificates/*.crt; do
    [ -e "$crt" ] && $SUDO cp "$crt" "$ROOTFS/usr/local/share/ca-certificates/"
  done
  $SUDO chroot "$ROOTFS" update-ca-certificates >/dev/null
  $SUDO chroot "$ROOTFS" python3 -m venv /usr/local/python
  $SUDO chroot "$ROOTFS" apt-get clean
  $SUDO rm -rf "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/var/cache/apt/*.bin
  $SUDO tar -C "$ROOTFS" -c . | docker import \
    --change 'ENV PATH=/usr/local/python/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' \
    --change 'ENV PIP_CERT=/etc/ssl/certs/ca-certificates.crt' \
    --change 'CMD ["python3"]' \
    - "$BASE_TAG" >/dev/null
  $SUDO rm -rf "$ROOTFS" "$ROOTFS.log"
  took "base image $BASE_TAG made by debootstrap ($(docker image inspect -f '{{.Size}}' "$BASE_TAG" | awk '{printf "%d MB", $1/1e6}'))"
fi

# --- 3. the image ---------------------------------------------------------------------------------
# Without the buildx plugin the client's legacy builder runs; the context is a tar of exactly what
# the Dockerfile copies, so neither builder needs the .dockerignore.
docker buildx version >/dev/null 2>&1 || export DOCKER_BUILDKIT=0
BLOG="$(mktemp /tmp/cuehub-image-build-XXXXXX.log)"
tar -c --exclude=__pycache__ --exclude='*.pyc' \
    pyproject.toml setup.py MANIFEST.in README.md LICENSE hub clients migrations deploy/Dockerfile \
  | docker build --network host --build-arg BASE_IMAGE="$BASE_TAG" -f deploy/Dockerfile -t "$IMAGE" - \
    > "$BLOG" 2>&1 || { tail -40 "$BLOG"; echo "FATAL: docker build failed (log: $BLOG)" >&2; exit 1; }
rm -f "$BLOG"
# The previous run's image and wheel stage, now untagged: a daemon kept across CI runs does not
# fill its disk (the base stays: it is tagged).
docker image prune -f >/dev/null
took "image $IMAGE built ($(docker image inspect -f '{{.Size}}' "$IMAGE" | awk '{printf "%d MB", $1/1e6}'))"

# --- 4. the smoke test ----------------------------------------------------------------------------
python .ci/smoke_image.py --image "$IMAGE" --pg "$PG_URL"
took "image smoke test passed"
