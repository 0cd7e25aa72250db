#!/usr/bin/env bash
# Installs the Debian packages sinew's build needs. Idempotent: quiet and quick when everything
# is already there. Run as root (or with sudo available) on Debian 12.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config git
  libgtest-dev libgmock-dev libbenchmark-dev
  libeigen3-dev libsuitesparse-dev libmetis-dev libopenblas-dev
  libtbb-dev libtrilinos-kokkos-dev libtrilinos-kokkos-kernels-dev
  nlohmann-json3-dev doxygen graphviz libfcl-dev libfclib-dev libhdf5-dev libsiconos-numerics-dev
  libpng-dev libmujoco-dev
  libopenmpi-dev openmpi-bin
  clang libclang-rt-14-dev python3
  pybind11-dev python3-dev python3-venv python3-numpy python3-scipy python3-pytest python3-matplotlib
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
