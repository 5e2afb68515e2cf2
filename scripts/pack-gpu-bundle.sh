#!/usr/bin/env bash
# Builds arvrc statically linked (MLIR/LLVM archives, static libstdc++) and
# packs it with the GPU test inputs into dist/arvrc-gpu.tar.xz (at most
# 60 MiB), for the GPU machine, which has no MLIR.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

cmake -G Ninja -S . -B build-static -DCMAKE_BUILD_TYPE=Release \
  -DARVRC_STATIC=ON -DARVRC_BUILD_TESTS=OFF >/dev/null
ninja -C build-static -j2 arvrc arvr_runtime arvr_video

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
bundle="$stage/arvrc"
mkdir -p "$bundle/bin" "$bundle/tests" "$bundle/scripts"
strip -o "$bundle/bin/arvrc" build-static/bin/arvrc
# The runtime library (LLVM linked in, statically) and its headers.
mkdir -p "$bundle/lib" "$bundle/include" "$bundle/tests/runtime"
strip --strip-unneeded -o "$bundle/lib/libarvr_runtime.so.1" build-static/runtime/libarvr_runtime.so.1
cp -r runtime/include/arvr "$bundle/include/"
# The video module; FFmpeg's libraries travel apart
# (scripts/pack-ffmpeg-libs.sh), unpacked into lib/arvrc/ where needed.
mkdir -p "$bundle/lib/arvrc"
strip --strip-unneeded -o "$bundle/lib/arvrc/libarvr_video.so" build-static/lib/arvrc/libarvr_video.so
cp tests/runtime/gpu_run.cpp "$bundle/tests/runtime/"
cp -r examples "$bundle/"
cp -r tests/data tests/golden "$bundle/tests/"
mkdir -p "$bundle/tests/lit/Driver/Inputs" "$bundle/tests/lit/Frontend" "$bundle/bench"
cp tests/lit/Driver/Inputs/*.arvr tests/lit/Driver/Inputs/*.py "$bundle/tests/lit/Driver/Inputs/"
cp tests/lit/Frontend/mlirgen-schedule.arvr tests/lit/Frontend/in-bounds.arvr "$bundle/tests/lit/Frontend/"
# The random reads' grammar, which interior_random.py imports.
mkdir -p "$bundle/tests/lit/Frontend/Inputs"
cp tests/lit/Frontend/Inputs/check_bounds_random.py "$bundle/tests/lit/Frontend/Inputs/"
cp -r bench/cuda bench/*.cu bench/*.cuh bench/*.sh bench/*.py "$bundle/bench/"
cp scripts/gpu-tests.sh scripts/gpu-runtime-tests.sh scripts/gpu-run.sh "$bundle/scripts/"
# The Python module, for each interpreter named in ARVRC_BUNDLE_PYTHONS
# (the GPU machine's version: its headers here, e.g. pyenv's 3.12), against
# the bundle's runtime library.
mkdir -p "$bundle/python/arvr" "$bundle/tests/python" "$bundle/examples/python"
cp python/arvr/__init__.py python/arvr/__init__.pyi python/arvr/py.typed "$bundle/python/arvr/"
cp tests/python/*.py "$bundle/tests/python/"
for python in ${ARVRC_BUNDLE_PYTHONS:-}; do
  include=$("$python" -c "import sysconfig; print(sysconfig.get_paths()['include'])")
  suffix=$("$python" -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
  g++ -O2 -shared -fPIC -std=c++17 -fvisibility=hidden -I"$include" \
    -Iruntime/include python/_arvr.cpp -o "$bundle/python/arvr/_arvr$suffix" \
    "$bundle/lib/libarvr_runtime.so.1" -Wl,-rpath,'$ORIGIN/../../lib'
done
git rev-parse HEAD > "$bundle/COMMIT" 2>/dev/null || echo unknown > "$bundle/COMMIT"

mkdir -p dist
tar -C "$stage" -cJf dist/arvrc-gpu.tar.xz arvrc
size=$(stat -c %s dist/arvrc-gpu.tar.xz)
limit=$((60 * 1024 * 1024))
echo "dist/arvrc-gpu.tar.xz: $((size / 1024 / 1024)) MiB ($(cat "$bundle/COMMIT"))"
if [ "$size" -gt "$limit" ]; then
  echo "error: the bundle is larger than 60 MiB" >&2
  exit 1
fi
