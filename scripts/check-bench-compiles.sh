#!/usr/bin/env bash
# Compiles bench/arvr_bench.cu (without NPP) with nvcc for sm_90, as the GPU
# machine will (it adds NPP). Exit 77 (skipped) without nvcc.
#
#   scripts/check-bench-compiles.sh SOURCE_DIR WORK_DIR RUNTIME_LIBRARY
set -euo pipefail
src=${1:?source dir}
work=${2:?work dir}
nvcc=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null || true)
if [ -z "$nvcc" ]; then
  echo "SKIPPED: no nvcc to compile the benchmark"
  exit 77
fi
cuda=$(dirname "$(dirname "$nvcc")")
mkdir -p "$work"
runtime=${3:?the runtime library (libarvr_runtime.so.1)}
"$nvcc" -O3 -std=c++17 -arch=sm_90 -I"$src/bench" -I"$src/runtime/include" \
  "$src/bench/arvr_bench.cu" -o "$work/arvr_bench" -L"$cuda/lib64/stubs" -lcuda \
  -L"$(dirname "$runtime")" -l:"$(basename "$runtime")"
echo "bench/arvr_bench.cu compiles for sm_90"
