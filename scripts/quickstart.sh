#!/usr/bin/env bash
# The main job: installs what is missing, builds arvrc, compiles the example
# kernel and runs it on a real photo (on the GPU when a CUDA driver is
# found, otherwise on the CPU), and says where the output image is.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh
scripts/build.sh
mkdir -p out
build/bin/arvrc build examples/brightness_contrast.arvr -o out/brightness_contrast.ptx
echo "arvrc: wrote out/brightness_contrast.ptx"
build/bin/arvrc run examples/brightness_contrast.arvr \
  -i tests/data/baboon.jpg -o out/brightness_contrast.png
echo "Input: tests/data/baboon.jpg   Output: $root/out/brightness_contrast.png"
