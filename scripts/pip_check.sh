#!/usr/bin/env bash
# Issue 25's "a fresh clone: `pip install .` then the example scripts run", as a test (ctest test
# python_pip_install): copies the files a clone would hold into WORK_DIR/src, installs that copy
# with pip into a fresh virtual environment WORK_DIR/venv, and runs python/tests (the two example
# scripts among them, checked against their closed-form numbers) with the installed package, not
# build/python. With SINEW_EXE set (ctest sets it), its runs are compared with that `sinew run`.
#
#   bash scripts/pip_check.sh WORK_DIR [PYTHON]   (PYTHON: the interpreter of the venv, default python3)
#
# How, and why:
# - The copy is what `git ls-files` lists (tracked and untracked files not ignored), so work not
#   yet committed is checked as it would be committed, and no build-pip/ of an earlier install
#   comes along.
# - The venv sees Debian's numpy, scipy, pytest and matplotlib (--system-site-packages). Debian 12
#   has no scikit-build-core, so pip installs it from PyPI, and the build runs with
#   --no-build-isolation: CMake then finds Debian's pybind11 (pybind11-dev) and nothing else is
#   downloaded. A build-isolated `pip install .` fetches pybind11 from PyPI into a temporary folder
#   of a random name, whose path in the module's compile lines defeats ccache: about 45 s more on
#   every run (measured; it builds and passes the same way, with pybind11 2.13).
# - CCACHE_BASEDIR is the copy, so the objects of an earlier check are reused from any folder:
#   about 2.5 minutes on 2 cores with a cold cache, 10 s with a warm one.
set -euo pipefail
work="$(realpath -m "${1:?usage: pip_check.sh WORK_DIR [PYTHON]}")"
python="${2:-python3}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
start=$SECONDS

rm -rf "$work"
mkdir -p "$work/src"
git -C "$repo" ls-files -z --cached --others --exclude-standard |
  tar -C "$repo" --null -T - --ignore-failed-read -cf - 2>/dev/null | tar -C "$work/src" -xf -

"$python" -m venv --system-site-packages "$work/venv"
pip=("$work/venv/bin/python" -m pip --disable-pip-version-check)
"${pip[@]}" install -q "scikit-build-core>=0.10"
echo "pip_check: copy and venv in $((SECONDS - start)) s"

build_start=$SECONDS
if ! (cd "$work/src" && CCACHE_BASEDIR="$work/src" CMAKE_BUILD_PARALLEL_LEVEL="${SINEW_JOBS:-2}" \
      "${pip[@]}" install -v --no-build-isolation . >"$work/pip.log" 2>&1); then
  tail -n 60 "$work/pip.log"
  echo "pip_check: pip install . failed (the whole log: $work/pip.log)" >&2
  exit 1
fi
echo "pip_check: pip install . in $((SECONDS - build_start)) s"

# The installed package, from outside the copy: not the source tree's python/sinew, not build/python.
cd "$work"
unset PYTHONPATH
"$work/venv/bin/python" -c '
import sys, sinew, sinew._sinew
where = sinew._sinew.__file__
assert where.startswith(sys.argv[1]), f"sinew imported from {where}, not the venv {sys.argv[1]}"
print("pip_check: sinew", sinew.__version__, "from", where)' "$work/venv/"
SINEW_SOURCE_DIR="$work/src" "$work/venv/bin/python" -m pytest -q -p no:cacheprovider "$work/src/python/tests"
echo "pip_check: done in $((SECONDS - start)) s"
