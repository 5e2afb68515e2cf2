#!/usr/bin/env bash
# A probe, on the GPU machine: one example under other thread blocks.
# Each variant is examples/KERNEL.arvr with its `out.gpu_tile(...)`
# replaced by `out.gpu_tile(bx, by)` (or, without one, a schedule of just
# that added), built by the bundle's arvrc for the bench's known values
# as the bench's KERNEL (the other examples as the bench builds them) and
# timed by arvr_bench; KERNEL's arvrc and hand rows at batch 8 go to
# OUT/summary.txt. Results: docs/gpu-runs/2026-12-04-0455-nv12-blocks.txt
# and later entries of docs/gpu-runs.md.
#
#   bench/probes/blocks.sh BUNDLE OUT KERNEL default|BXxBY ...
set -u
bundle=${1:?usage: blocks.sh BUNDLE OUT KERNEL default|BXxBY ...}
out=${2:?output dir}
kernel=${3:?kernel: lens_undistort, gaussian_blur or nv12_to_rgb}
shift 3
export XDG_CACHE_HOME=/tmp/blocks-cache
mkdir -p /tmp/w "$out" && tar -C /tmp/w -xJf "$bundle"
cd /tmp/w/arvrc || exit 1
# shellcheck disable=SC1091
source bench/known-values.sh
[ -x /tmp/arvr_bench ] ||
  nvcc -O3 -std=c++17 -arch=sm_90 -Ibench bench/arvr_bench.cu -o /tmp/arvr_bench -lcuda || exit 1
python3 -c "import cv2,sys; cv2.imwrite(sys.argv[2], cv2.imread(sys.argv[1]))" \
  tests/data/baboon.jpg /tmp/photo.ppm
for v in "$@"; do
  d=/tmp/blocks-$kernel-$v
  mkdir -p "$d"
  for k in lens_undistort gaussian_blur nv12_to_rgb; do
    src=examples/$k.arvr
    if [ "$k" = "$kernel" ] && [ "$v" != default ]; then
      src=$d/variant.arvr
      tile="out.gpu_tile(${v%x*}, ${v#*x});"
      if grep -q 'out.gpu_tile(' "examples/$k.arvr"; then
        sed "s/out.gpu_tile([0-9]*, [0-9]*);/$tile/" "examples/$k.arvr" >"$src"
      else
        sed "\$s/^}$/  schedule { $tile }\n}/" "examples/$k.arvr" >"$src"
      fi
    fi
    # shellcheck disable=SC2086,SC2154
    "bin/arvrc" build "$src" ${known[$k]} -o "$d/$k.ptx" || continue 2
  done
  /tmp/arvr_bench --manifests "$d" --photo /tmp/photo.ppm --reps 50 \
    --csv "$out/$kernel-$v.csv" >"$out/$kernel-$v.log" 2>&1
  grep "^$kernel," "$out/$kernel-$v.csv" | grep ",8," | grep -E "arvrc|hand" \
    | sed "s/^/$v /" >>"$out/summary.txt"
done
