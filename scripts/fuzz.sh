#!/usr/bin/env bash
# Fuzzes sinew's file readers with libFuzzer (clang, ASan + UBSan) for SECONDS per fuzzer
# (default 30; CI runs 20). For a thorough run, give it hours and several jobs, e.g.
#   bash scripts/fuzz.sh 3600 -jobs=2 -workers=2
# Findings (crash-*, leak-*, timeout-*) are written to build-fuzz/findings/ and fail the script;
# reproduce one with build-fuzz/mesh_readers_fuzz build-fuzz/findings/crash-...
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
shift || true

CXX=clang++ cmake -S fuzz -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz

# Seed corpus: the reference mesh files, each behind the byte that selects its reader.
corpus=build-fuzz/corpus/mesh_readers
mkdir -p "$corpus" build-fuzz/findings
data=tests/scene/data
{ printf '\0'; cat "$data/gmsh_box_ascii.msh"; } >"$corpus/gmsh_ascii"
{ printf '\0'; cat "$data/gmsh_box_binary.msh"; } >"$corpus/gmsh_binary"
{ printf '\1'; printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2//4 -1\n'; } >"$corpus/obj"
{ printf '\2'; cat "$data/cube.node"; printf '\0'; cat "$data/cube.ele"; } >"$corpus/tetgen"

echo "== fuzzing the mesh readers for ${seconds} s"
build-fuzz/mesh_readers_fuzz -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=10 \
  -artifact_prefix=build-fuzz/findings/ -print_final_stats=1 "$@" "$corpus" 2>&1 | tail -n 12
