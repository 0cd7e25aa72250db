#!/usr/bin/env bash
# The main job on a fresh Debian 12 machine: installs what the build needs, builds the sinew
# program, lists the backends, and compares them on a generated FEM-like matrix.
# Results: results/compare.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${SINEW_JOBS:-2}"

bash scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$jobs" --target sinew
./build/apps/sinew backends
echo
./build/apps/sinew compare --size 40 --out results
