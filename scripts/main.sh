#!/usr/bin/env bash
# The main job on a fresh Debian 12 machine: installs what the build needs, builds the sinew
# program, lists the backends, and runs the built-in default scene (a soft cantilever beam of
# stable Neo-Hookean tetrahedra swinging down under gravity, implicit Euler with Newton).
# Results: results/cantilever.csv (per step: energies, tip position, Newton iterations, residual).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${SINEW_JOBS:-2}"

bash scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$jobs" --target sinew
./build/apps/sinew backends
echo
./build/apps/sinew demo cantilever --out results
