#!/usr/bin/env bash
# Fuzzes sinew's file readers with libFuzzer (clang, AddressSanitizer + UndefinedBehaviorSanitizer)
# for SECONDS per fuzzer (default 30; CI runs 20):
#   mesh_readers_fuzz  Gmsh / TetGen / OBJ readers (fuzz/, a standalone project of their sources)
#   scene_file_fuzz    the scene-file reader scene::parse_scene (built in build-asan, the clang
#                      sanitizer build of scripts/test.sh, linking its instrumented libraries)
#   problem_files_fuzz the Siconos .dat problem reader constraints::parse_siconos_dat (build-asan)
# Any input must give a result or a sinew::Error; a crash, a sanitizer report, another exception
# or a timeout is a finding, written to build-fuzz/findings/ (crash-*, leak-*, timeout-*,
# oom-*), and fails the script. Reproduce one with the fuzzer and the file, e.g.
#   build-asan/fuzz/scene_file_fuzz build-fuzz/findings/crash-...
#
# Long runs (before a release, or after changing a reader): hours, several workers, keeping the
# corpus the fuzzer grows (build-fuzz/corpus/*) between runs, e.g.
#   bash scripts/fuzz.sh 3600 -jobs=2 -workers=2
#   FUZZERS=scene_file_fuzz bash scripts/fuzz.sh 14400
# (-jobs=N runs N fuzzing jobs one after another on -workers=M processes; each job stops at
# -max_total_time, so the run lasts about SECONDS * jobs / workers.) The scene fuzzer's seeds are
# every reference scene and test scene; it skips inputs that ask for big procedural meshes (see
# fuzz/scene_file_fuzz.cpp), so its executions stay cheap (hundreds per second).
#
#   bash scripts/fuzz.sh configure   only configures build-asan (scripts/test.sh uses it)
# SINEW_ASAN_BUILD=DIR uses another folder than build-asan; SINEW_JOBS=N builds with N jobs.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${SINEW_JOBS:-2}"
asan="${SINEW_ASAN_BUILD:-build-asan}"  # the sanitizer build's folder

# The sanitizer build of scripts/test.sh: clang, -O1 -g1 (line tables: readable stacks at a fraction
# of -O2 -g's compile time), ASan + UBSan, libraries instrumented for libFuzzer. Debian's serial Kokkos:
# the OpenMP one of scripts/kokkos.sh is built by GCC against libgomp, which clang's -fopenmp is not.
configure_asan() {
  CXX=clang++ cmake -S . -B "$asan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DSINEW_SANITIZE=ON -DSINEW_BUILD_FUZZERS=ON \
    -DSINEW_WITH_CUDA=OFF -DSINEW_UNITY_TESTS=ON -DSINEW_UNITY_LIBS=ON -DSINEW_BUILD_BENCH=OFF -DSINEW_BUILD_APPS=OFF \
    -DSINEW_BUILD_DOCS=OFF -DSINEW_WARNINGS_AS_ERRORS=ON -DSINEW_KOKKOS_FROM_SOURCE=OFF >/dev/null
}
if [ "${1:-}" = configure ]; then
  configure_asan
  exit 0
fi
seconds="${1:-30}"
shift || true
fuzzers="${FUZZERS:-mesh_readers_fuzz scene_file_fuzz problem_files_fuzz}"

CXX=clang++ cmake -S fuzz -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz
for fuzzer in scene_file_fuzz problem_files_fuzz; do  # built in the sanitized toolkit build
  [[ " $fuzzers " == *" $fuzzer "* ]] || continue
  [ -f "$asan/CMakeCache.txt" ] && grep -q 'SINEW_BUILD_FUZZERS:BOOL=ON' "$asan/CMakeCache.txt" || configure_asan
  cmake --build "$asan" -j "$jobs" --target "$fuzzer"
done
mkdir -p build-fuzz/findings

# Seed corpora. Mesh readers: the reference mesh files, each behind the byte that selects its reader.
corpus=build-fuzz/corpus/mesh_readers_fuzz
mkdir -p "$corpus"
data=tests/scene/data
{ printf '\0'; cat "$data/gmsh_box_ascii.msh"; } >"$corpus/gmsh_ascii"
{ printf '\0'; cat "$data/gmsh_box_binary.msh"; } >"$corpus/gmsh_binary"
{ printf '\1'; printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2//4 -1\n'; } >"$corpus/obj"
{ printf '\2'; cat "$data/cube.node"; printf '\0'; cat "$data/cube.ele"; } >"$corpus/tetgen"
# Scene files: every reference scene and every test scene (good and bad).
corpus=build-fuzz/corpus/scene_file_fuzz
mkdir -p "$corpus"
cp scenes/*.json tests/apps/data/*.json "$corpus/"
# Problem files: Siconos' own .dat problems (local and global, dense and sparse-block).
corpus=build-fuzz/corpus/problem_files_fuzz
mkdir -p "$corpus"
cp tests/constraints/data/fclib-siconos/*.dat "$corpus/"

status=0
for fuzzer in $fuzzers; do
  binary=build-fuzz/$fuzzer
  [ "$fuzzer" = scene_file_fuzz ] || [ "$fuzzer" = problem_files_fuzz ] && binary=$asan/fuzz/$fuzzer
  echo "== fuzzing $fuzzer for ${seconds} s"
  # detect_leaks stays on; the JSON dictionary is not needed: the seeds hold every key.
  "$binary" -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=10 \
    -artifact_prefix=build-fuzz/findings/ -print_final_stats=1 "$@" "build-fuzz/corpus/$fuzzer" \
    >"build-fuzz/$fuzzer.log" 2>&1 || status=$?
  grep -E '^#[0-9]+.*(DONE|pulse)|^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|cov:' \
    "build-fuzz/$fuzzer.log" | tail -n 5
  if [ "$status" -ne 0 ]; then
    tail -n 60 "build-fuzz/$fuzzer.log"
    echo "fuzz.sh: $fuzzer found a bug (exit $status); see build-fuzz/$fuzzer.log and build-fuzz/findings/" >&2
    exit "$status"
  fi
done
