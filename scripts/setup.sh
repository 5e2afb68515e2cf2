#!/usr/bin/env bash
# Installs, from Debian's packages, whatever arvrc needs to build and test
# and this machine lacks. Idempotent: installs nothing (and does not touch
# apt) when everything is there. The CUDA toolkit (/usr/local/cuda) is
# optional: with it, the tests also assemble the PTX with ptxas.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  libcli11-dev doctest-dev libstb-dev libpng-dev libzstd-dev zlib1g-dev
  libjpeg62-turbo-dev
  # The Python module (python/): pybind11, and pytest for its tests.
  pybind11-dev python3-dev python3-pytest
  # Video (libarvr_video.so): FFmpeg's libraries.
  pkg-config libavformat-dev libavcodec-dev libavutil-dev libswscale-dev
  clang
  # The CPU bench's peer (bench/cpu/bench.py, run by scripts/test.sh).
  python3-opencv python3-numpy
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null |
       grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "arvrc: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
