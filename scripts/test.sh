#!/usr/bin/env bash
# All tests on a fresh Debian 12 machine: installs what the build needs (and builds an OpenMP Kokkos
# from Debian's source, scripts/kokkos.sh), builds everything with warnings as errors, runs ctest and
# the docs build (warnings as errors), then builds with clang under AddressSanitizer +
# UndefinedBehaviorSanitizer, runs the test suites again and fuzzes the file readers briefly
# (libFuzzer, linked with those sanitized libraries).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${SINEW_JOBS:-2}"

bash scripts/setup.sh
# Kokkos Core with OpenMP from Debian's Trilinos source, for the kokkos backend (Debian's Kokkos is
# Serial only): built once into ~/.cache/sinew/kokkos-openmp (about 40 s), reused by later runs.
bash scripts/kokkos.sh

echo "== build (Release, warnings as errors)"
# Debian's python3 (numpy, scipy, pytest from apt) builds and tests the Python module: ctest runs
# python/tests with pytest (python_pytest), against the module in build/python.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSINEW_WARNINGS_AS_ERRORS=ON -DSINEW_UNITY_TESTS=ON -DSINEW_UNITY_LIBS=ON -DBUILD_SHARED_LIBS=ON \
  -DPython3_EXECUTABLE=/usr/bin/python3 -DSINEW_PYTHON_TESTS=ON
cmake --build build -j "$jobs"
echo "== ctest"
ctest --test-dir build --output-on-failure -j "$jobs"
bash scripts/consumers.sh build  # install to a temporary prefix, build and run tests/consumers/ against it
echo "== docs (Doxygen, warnings as errors)"
cmake --build build --target docs

echo "== sanitizer build (clang, ASan + UBSan, CUDA off; libraries instrumented for libFuzzer)"
bash scripts/fuzz.sh configure  # build-asan: the flags are kept in one place, scripts/fuzz.sh
cmake --build build-asan -j "$jobs"
# SINEW_QUICK_TESTS shortens the longest physics runs (tests/support/quick_tests.hpp): the Release
# stage above checks them whole, and under the sanitizers the ten-box stack alone took 6 minutes.
SINEW_QUICK_TESTS=1 ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j "$jobs"

echo "== fuzzing the file readers (short run; scripts/fuzz.sh documents long ones)"
bash scripts/fuzz.sh 20
