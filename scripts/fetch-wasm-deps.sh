#!/usr/bin/env bash
# Fetches the third-party sources and headers the wasm (Emscripten) build needs into .deps/ (ignored by git):
#   .deps/src/<package>/        Debian source packages, unpacked with dpkg-source (listed in SOURCE_PACKAGES)
#   .deps/wasm-include/         boost/ and doctest/ only, so emcc never sees the rest of /usr/include
# The system's apt configuration is left alone: a private deb-src sources folder and private package lists
# live under .deps/apt/. Idempotent: a package that is already unpacked is not fetched again.
# Needs: apt-get, dpkg-source (dpkg-dev), libboost-json1.81-dev, doctest-dev.
set -euo pipefail

# Debian source packages compiled with emcc. One line per package.
SOURCE_PACKAGES=(
  libsodium
  bearssl
)

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEPS="$ROOT/.deps"
APT_DIR="$DEPS/apt"
SRC_DIR="$DEPS/src"
INCLUDE_DIR="$DEPS/wasm-include"

log() { echo "fetch-wasm-deps: $*"; }

mkdir -p "$SRC_DIR" "$INCLUDE_DIR"

# --- headers for emcc --------------------------------------------------------------------------------------
stage_header_dir() {  # stage_header_dir <system dir> <name under wasm-include>
  local from="$1" name="$2"
  if [[ ! -d "$from" ]]; then
    log "missing $from (install the Debian package that provides it)" >&2
    exit 1
  fi
  if [[ "$(readlink "$INCLUDE_DIR/$name" 2>/dev/null)" != "$from" ]]; then
    rm -rf "${INCLUDE_DIR:?}/$name"
    ln -s "$from" "$INCLUDE_DIR/$name"
    log "staged $from as .deps/wasm-include/$name"
  fi
}
stage_header_dir /usr/include/boost boost
stage_header_dir /usr/include/doctest doctest

# --- Debian source packages --------------------------------------------------------------------------------
missing=()
for pkg in "${SOURCE_PACKAGES[@]}"; do
  if [[ -f "$SRC_DIR/$pkg/.unpacked" ]]; then
    log "$pkg: already unpacked in .deps/src/$pkg ($(cat "$SRC_DIR/$pkg/.unpacked"))"
  else
    missing+=("$pkg")
  fi
done

if ((${#missing[@]} > 0)); then
  mkdir -p "$APT_DIR/sources.list.d" "$APT_DIR/lists/partial" "$APT_DIR/download"
  # The system's deb sources, turned into deb-src, in a private folder.
  sed 's/^Types:.*/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
    >"$APT_DIR/sources.list.d/debian-src.sources"
  APT_OPTS=(
    -o Dir::Etc::SourceList=/dev/null
    -o Dir::Etc::SourceParts="$APT_DIR/sources.list.d"
    -o Dir::State::Lists="$APT_DIR/lists"
    -o DPkg::Lock::Timeout=300
    -o APT::Sandbox::User=root
  )
  log "updating private deb-src package lists"
  apt-get "${APT_OPTS[@]}" -qq update
  for pkg in "${missing[@]}"; do
    log "$pkg: downloading the Debian source package"
    rm -rf "${APT_DIR:?}/download/$pkg"
    mkdir -p "$APT_DIR/download/$pkg"
    (cd "$APT_DIR/download/$pkg" && apt-get "${APT_OPTS[@]}" -qq source --download-only "$pkg")
    dsc=("$APT_DIR/download/$pkg"/*.dsc)
    log "$pkg: unpacking $(basename "${dsc[0]}")"
    rm -rf "${SRC_DIR:?}/$pkg"
    # apt has checked the files against the signed Release file; dpkg-source's own check of the .dsc
    # signature needs debian-keyring, so its warnings go to a log instead of the terminal.
    dpkg-source -x "${dsc[0]}" "$SRC_DIR/$pkg" >"$APT_DIR/download/$pkg/unpack.log" 2>&1
    basename "${dsc[0]}" .dsc >"$SRC_DIR/$pkg/.unpacked"
    log "$pkg: ready in .deps/src/$pkg"
  done
fi

log "done"
