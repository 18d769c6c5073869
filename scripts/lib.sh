# Shared by the scripts in this folder: logging, Debian packages, npm packages and the two builds.
# Every step is idempotent and quick when there is nothing to do.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NATIVE_BUILD="$ROOT/build/native"
WASM_BUILD="$ROOT/build/wasm"
export NODE_PATH=/usr/share/nodejs

step() { printf '\n==> %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Debian packages the platform builds, runs and tests with.
# dnsmasq-base, not dnsmasq: the binary the DNS tests start on a free port, without the system service that
# `dnsmasq` enables and starts on port 53 (under sysvinit a failed start there fails the whole install).
# libssh-dev: SSH restart targets (native/restart/); openssh-server: the sshd their tests start on loopback
# (package installs start no services here, so no system sshd runs).
# libvips-dev: the CDN's image variants (edge/cdn/); libvips-tools: `vips`, which makes test images.
PACKAGES=(
  g++ cmake ninja-build pkg-config git ca-certificates curl
  libboost-json1.81-dev libsodium-dev libcpp-httplib-dev liblmdb-dev libssl-dev libbearssl-dev
  libcli11-dev libspdlog-dev libfmt-dev libhowardhinnant-date-dev tzdata
  libldns-dev dnsmasq-base
  libgmime-3.0-dev libopendkim-dev libcurl4-openssl-dev dovecot-core dovecot-imapd
  python3-aiosmtpd python3-dkim python3-dnspython
  libssh-dev openssh-server
  libvips-dev libvips-tools
  ccache
  doctest-dev libbenchmark-dev
  emscripten dpkg-dev
  chromium nginx-light wrk
)

ensure_packages() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
  # node and npm: the machine's own (any source) if present, else Debian's.
  command -v node >/dev/null || missing+=(nodejs)
  command -v npm >/dev/null || missing+=(npm)
  if ((${#missing[@]} == 0)); then
    echo "Debian packages: all ${#PACKAGES[@]} present"
    return
  fi
  [[ $(id -u) == 0 ]] || die "missing Debian packages (${missing[*]}); run as root or install them with apt-get"
  echo "Debian packages: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=300 update -q
  apt-get -o DPkg::Lock::Timeout=300 install -y -q --no-install-recommends "${missing[@]}"
}

ensure_npm_packages() {
  local stamp="$ROOT/node_modules/.package-lock.json"
  if [[ -f "$stamp" && "$stamp" -nt "$ROOT/package-lock.json" ]]; then
    echo "npm packages: up to date"
    return
  fi
  echo "npm packages: npm ci"
  (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error)
}

# ccache keeps compiled objects between runs and between checkouts of the same machine: a second run of the
# test command, or a second worktree, recompiles only what changed.
# Asked at configure time, after ensure_packages may have installed it.
launcher_flags() {
  command -v ccache >/dev/null && echo "-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
  return 0
}

build_native() {
  local type="${1:-RelWithDebInfo}"
  if [[ ! -f "$NATIVE_BUILD/build.ninja" ]]; then
    cmake -S "$ROOT" -B "$NATIVE_BUILD" -G Ninja -DCMAKE_BUILD_TYPE="$type" $(launcher_flags)
  fi
  cmake --build "$NATIVE_BUILD"
}

# The Release configuration the benchmarks use (bench/README.md): built by the test command too, so a
# warning only -O3 shows cannot break the documented benchmark commands unnoticed. Nothing is run from it.
RELEASE_BUILD="$ROOT/build/bench"
build_release() {
  if [[ ! -f "$RELEASE_BUILD/build.ninja" ]]; then
    cmake -S "$ROOT" -B "$RELEASE_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release $(launcher_flags)
  fi
  cmake --build "$RELEASE_BUILD"
}

build_wasm() {
  "$ROOT/scripts/fetch-wasm-deps.sh"
  if [[ ! -f "$WASM_BUILD/build.ninja" ]]; then
    emcmake cmake -S "$ROOT" -B "$WASM_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node
  fi
  cmake --build "$WASM_BUILD"
}
