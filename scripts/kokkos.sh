#!/usr/bin/env bash
# Builds Kokkos Core with the OpenMP (and Serial) execution spaces from Debian's own source package
# of Trilinos, the one Debian's serial libtrilinos-kokkos-dev is built from, and installs it into a
# cache folder that outlives build trees:
#
#   ${SINEW_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sinew}/kokkos-openmp
#
# sinew's CMake prefers a Kokkos found there over Debian's (SINEW_KOKKOS_FROM_SOURCE, see
# cmake/SinewDependencies.cmake and docs/backends.md). Debian builds Kokkos with the Serial space
# only, so without this the kokkos backend is a second serial backend.
#
# Idempotent: a complete install (its stamp names the source version and the compiler) is reused at
# once; anything else in the folder is removed and rebuilt. The stamp is written last, so an
# interrupted build is never taken for a complete one. About 10 s to fetch and unpack the 166 MB
# source tarball, 30 s of compiling on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."

cache="${SINEW_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sinew}"
prefix="$cache/kokkos-openmp"
version="$(dpkg-query -W -f='${source:Version}' libtrilinos-kokkos-dev 2>/dev/null || true)"
if [ -z "$version" ]; then
  echo "kokkos.sh: libtrilinos-kokkos-dev is not installed (run scripts/setup.sh): its version names the source" >&2
  exit 1
fi
compiler="$(c++ --version | head -n 1)"
stamp="trilinos $version; $compiler; OpenMP+Serial, PIC, Release"
if [ -f "$prefix/sinew-kokkos.stamp" ] && [ "$(cat "$prefix/sinew-kokkos.stamp")" = "$stamp" ]; then
  echo "kokkos.sh: reusing $prefix ($stamp)"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
# A deb-src line for the mirror the machine already uses for bookworm's binary packages.
known="$(apt-cache showsrc trilinos 2>/dev/null || true)"  # not piped into grep -q: pipefail would see SIGPIPE
if ! grep -qx "Version: $version" <<<"$known"; then
  mirror="$(sed -n 's/^URIs: *\(http[^ ]*\/debian\)\/* *$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)"
  [ -n "$mirror" ] || mirror="$(sed -n 's/^deb \(http[^ ]*\/debian\)\/* bookworm .*/\1/p' /etc/apt/sources.list 2>/dev/null | head -n 1)"
  [ -n "$mirror" ] || mirror="http://deb.debian.org/debian"
  echo "kokkos.sh: adding a deb-src line for $mirror bookworm"
  printf 'Types: deb-src\nURIs: %s\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$mirror" | $sudo tee /etc/apt/sources.list.d/sinew-deb-src.sources >/dev/null
  $sudo apt-get update -qq
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/sinew-kokkos.XXXXXX")"
trap 'rm -rf "$work"' EXIT
echo "kokkos.sh: fetching trilinos $version (Debian source) into $work"
(cd "$work" && apt-get source --download-only -qq "trilinos=$version" 2>&1 | grep -v "unsandboxed" || true)
tarball="$(ls "$work"/trilinos_*.orig.tar.* 2>/dev/null | head -n 1)"
[ -n "$tarball" ] || { echo "kokkos.sh: apt-get source trilinos=$version fetched no tarball" >&2; exit 1; }
tar -xf "$tarball" -C "$work" --wildcards '*/packages/kokkos/*'
src="$(ls -d "$work"/*/packages/kokkos)"

rm -rf "$prefix"
mkdir -p "$cache"
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
# Static and position-independent: linked into sinew's kokkos backend plugin, nothing to find at run
# time. Generic x86-64 code (no Kokkos_ARCH_*): the install serves every machine sharing the cache.
cmake -S "$src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_TESTS=OFF -DBUILD_SHARED_LIBS=OFF \
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DCMAKE_CXX_STANDARD=17 -DCMAKE_CXX_EXTENSIONS=OFF "${launcher[@]}" >/dev/null
cmake --build "$work/build" -j "${SINEW_JOBS:-2}" --target install >/dev/null
echo "$stamp" >"$prefix/sinew-kokkos.stamp"
echo "kokkos.sh: installed Kokkos (OpenMP, Serial) in $prefix"
