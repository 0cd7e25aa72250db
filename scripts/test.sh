#!/usr/bin/env bash
# All tests on a fresh Debian 12 machine: installs what the build needs, builds everything with
# warnings as errors, runs ctest and the docs build (warnings as errors), fuzzes the file readers
# briefly (libFuzzer, ASan + UBSan), then runs the test suites again under AddressSanitizer +
# UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${SINEW_JOBS:-2}"

bash scripts/setup.sh

echo "== build (Release, warnings as errors)"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSINEW_WARNINGS_AS_ERRORS=ON -DSINEW_UNITY_TESTS=ON
cmake --build build -j "$jobs"
echo "== ctest"
ctest --test-dir build --output-on-failure -j "$jobs"
echo "== docs (Doxygen, warnings as errors)"
cmake --build build --target docs

echo "== fuzzing the file readers (short run; scripts/fuzz.sh documents long ones)"
bash scripts/fuzz.sh 20

echo "== sanitizer build (ASan + UBSan, CUDA off)"
# -O1 -g1 (line tables): readable sanitizer stacks at a fraction of -O2 -g's compile time.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
  -DSINEW_SANITIZE=ON -DSINEW_WITH_CUDA=OFF -DSINEW_UNITY_TESTS=ON \
  -DSINEW_BUILD_BENCH=OFF -DSINEW_BUILD_APPS=OFF -DSINEW_BUILD_DOCS=OFF -DSINEW_WARNINGS_AS_ERRORS=ON >/dev/null
cmake --build build-asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j "$jobs"
