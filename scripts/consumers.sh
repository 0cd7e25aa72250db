#!/usr/bin/env bash
# Uses sinew the way another project does: installs a build (default: the Release build in build/)
# to a temporary prefix, then configures, builds and runs each project under tests/consumers/
# against that prefix alone. Checks that the linalg-only consumer links no sinew library besides
# sinew_linalg and sinew_core, that one binary switches backends by settings file, argument and
# environment, that (shared builds) the backends it uses are plugins found when it runs, and that
# an unknown component fails find_package with a clear message.
#   scripts/consumers.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
jobs="${SINEW_JOBS:-2}"
work="$(mktemp -d "${TMPDIR:-/tmp}/sinew-consumers.XXXXXX")"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
start=$SECONDS

fail() { echo "consumers: FAILED: $*" >&2; exit 1; }

echo "-- install $build to a temporary prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install $build"; }
echo "   $(find "$prefix/include" -name '*.hpp' | wc -l) headers, libraries: $(cd "$prefix/lib" && ls libsinew_* | tr '\n' ' ')"
test -f "$prefix/lib/cmake/sinew/sinewConfig.cmake" || fail "no lib/cmake/sinew/sinewConfig.cmake"
test -x "$prefix/bin/sinew" || fail "no bin/sinew"
"$prefix/bin/sinew" backends >/dev/null || fail "the installed sinew program: sinew backends"

launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
configure_and_build() {  # name
  local src="tests/consumers/$1" bin="$work/$1"
  cmake -S "$src" -B "$bin" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" "${launcher[@]}" \
    >"$bin.configure.log" 2>&1 || { cat "$bin.configure.log"; fail "configure $1"; }
  cmake --build "$bin" -j "$jobs" >"$bin.build.log" 2>&1 || { cat "$bin.build.log"; fail "build $1"; }
}

echo "-- linalg_only: find_package(sinew COMPONENTS linalg)"
configure_and_build linalg_only
"$work/linalg_only/linalg_only" || fail "linalg_only run"
link_line="$(ninja -C "$work/linalg_only" -t commands linalg_only | tail -n 1)"
libs="$(grep -oE 'libsinew_[A-Za-z0-9_]+\.(a|so)' <<<"$link_line" | sort -u | tr '\n' ' ')"
echo "   sinew libraries on its link line: $libs"
for lib in $libs; do
  case "$lib" in
    libsinew_linalg.* | libsinew_core.*) ;;
    *) fail "linalg_only links $lib (link line: $link_line)" ;;
  esac
done
grep -q libsinew_linalg <<<"$libs" || fail "linalg_only does not link libsinew_linalg"

echo "-- step_mesh: materials + integrators"
configure_and_build step_mesh
"$work/step_mesh/step_mesh" || fail "step_mesh run"

echo "-- backend_switch: one binary, backend chosen at run time"
configure_and_build backend_switch
switch="$work/backend_switch/backend_switch"
usable="$("$switch" --list | awk '$2 == "usable" { print $1 }')"
echo "   usable backends: $(tr '\n' ' ' <<<"$usable")"
for name in $usable; do
  printf '# settings of a run\nbackend = %s\n' "$name" >"$work/settings.txt"
  "$switch" "$work/settings.txt" || fail "backend_switch with backend = $name in a settings file"
done
SINEW_BACKEND="$(tail -n 1 <<<"$usable")" "$switch" >/dev/null || fail "backend_switch with SINEW_BACKEND"
"$switch" --backend serial >/dev/null || fail "backend_switch --backend serial"
set +e
"$switch" --backend no_such_backend >/dev/null 2>"$work/bad_backend.log"
rc=$?
set -e
[ "$rc" = 2 ] && grep -q "no_such_backend" "$work/bad_backend.log" || fail "an unknown backend: exit $rc, $(cat "$work/bad_backend.log")"

plugins="$prefix/lib/sinew/backends"
if [ -d "$plugins" ]; then
  echo "-- backend plugins (shared build): loaded from what is installed when the program runs"
  needed="$(readelf -d "$switch" | grep -oE 'libsinew_[A-Za-z0-9_]+\.so' | sort -u | tr '\n' ' ')"
  echo "   sinew libraries backend_switch needs: $needed"
  grep -q 'libsinew_backend_\(tbb\|kokkos\|cuda\)' <<<"$needed" && fail "backend_switch links a plugin: $needed"
  name="$("$switch" --list | awk -v dir="$plugins/" '$2 == "usable" && index($3, dir) == 1 { print $1; exit }')"
  [ -n "$name" ] || fail "no usable backend from a plugin in $plugins: $("$switch" --list)"
  plugin="libsinew_backend_$name.so"
  # Uninstall one plugin: the same binary reports it absent, then uses it once it is back, in
  # the installed folder or in a folder named by SINEW_BACKEND_PATH; no relinking in between.
  mkdir -p "$work/held"
  mv "$plugins/$plugin" "$work/held/"
  "$switch" --list | grep -q "^$name unavailable" || fail "$name still listed with its plugin uninstalled"
  set +e
  "$switch" --backend "$name" >/dev/null 2>"$work/held.log"
  rc=$?
  set -e
  [ "$rc" = 2 ] && grep -q "no plugin libsinew_backend_$name.so in $plugins" "$work/held.log" ||
    fail "$name without its plugin: exit $rc, $(cat "$work/held.log")"
  SINEW_BACKEND_PATH="$work/held" "$switch" --backend "$name" >/dev/null ||
    fail "$name from a folder in SINEW_BACKEND_PATH"
  mv "$work/held/$plugin" "$plugins/"
  "$switch" --backend "$name" >/dev/null || fail "$name after reinstalling its plugin"
  echo "   $name: absent once its plugin is removed, used from SINEW_BACKEND_PATH and again once reinstalled"

  echo "-- own_backend: a user's backend built against the installation, loaded by the same binary"
  configure_and_build own_backend
  SINEW_BACKEND_PATH="$work/own_backend" "$switch" --list | grep -q "^reverse usable $work/own_backend/" ||
    fail "the reverse plugin is not listed: $(SINEW_BACKEND_PATH="$work/own_backend" "$switch" --list)"
  SINEW_BACKEND_PATH="$work/own_backend" "$switch" --backend reverse || fail "backend_switch --backend reverse"
fi

echo "-- unknown_component: find_package must fail and say why"
if cmake -S tests/consumers/unknown_component -B "$work/unknown_component" -DCMAKE_PREFIX_PATH="$prefix" \
  >"$work/unknown.log" 2>&1; then
  fail "find_package(sinew COMPONENTS no_such_component) succeeded"
fi
grep -q "'no_such_component' is not a sinew component" "$work/unknown.log" || { cat "$work/unknown.log"; fail "unclear message"; }

echo "-- consumers: OK ($((SECONDS - start)) s)"
