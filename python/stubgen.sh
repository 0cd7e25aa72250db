#!/usr/bin/env bash
# Regenerates the type stubs python/sinew/_sinew.pyi from the built module (run after changing a
# binding): pybind11-stubgen from PyPI in a throw-away virtual environment, then the tuples the
# solvers return spelled out. Usage: bash python/stubgen.sh [BUILD_DIR, default build]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
venv="${TMPDIR:-/tmp}/sinew-stubgen-venv"
[ -x "$venv/bin/pybind11-stubgen" ] || { /usr/bin/python3 -m venv --system-site-packages "$venv" && "$venv/bin/pip" install -q pybind11-stubgen; }
out="$(mktemp -d)"
PYTHONPATH="$build/python" "$venv/bin/pybind11-stubgen" sinew._sinew --numpy-array-remove-parameters -o "$out"
sed -E \
  -e 's/^(def (cg|cr|minres)\(.*\)) -> tuple:/\1 -> tuple[numpy.ndarray, KrylovResult]:/' \
  -e 's/^(def solve_contact\(.*\)) -> tuple:/\1 -> tuple[numpy.ndarray, ContactReport]:/' \
  -e 's/^(def solve_contact_global\(.*\)) -> tuple:/\1 -> tuple[numpy.ndarray, numpy.ndarray, ContactReport]:/' \
  -e 's/\b(A|W|M|H): typing.Any\b/\1: scipy.sparse.spmatrix/g; s/\bG: typing.Any = None/G: scipy.sparse.spmatrix | None = None/' \
  -e 's/^import numpy$/import numpy\nimport scipy.sparse/' \
  -e 's/def (positions|velocities)\(self\) -> typing.Any:/def \1(self) -> numpy.ndarray:/' \
  "$out/sinew/_sinew.pyi" > python/sinew/_sinew.pyi
rm -rf "$out"
echo "wrote python/sinew/_sinew.pyi"
