#!/usr/bin/env bash
# On the GPU machine: runs each example once through `arvrc run` on a 4K
# frame under Nsight Compute and prints, per kernel, the thread
# instructions executed per output pixel, the achieved occupancy and the
# duration: where the time of a kernel goes, measured (a static SASS count
# weighs the border version and the interior alike).
#
#   bench/ncu-counts.sh ARVRC SOURCE_DIR OUT_DIR
set -uo pipefail
arvrc=${1:?usage: bench/ncu-counts.sh ARVRC SOURCE_DIR OUT_DIR}
src=${2:?source dir}
out=${3:?output dir}
mkdir -p "$out"
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || true)
[ -n "$ncu" ] || { echo "SKIPPED: no ncu"; exit 0; }
python3 -c "import cv2,sys; cv2.imwrite(sys.argv[2], cv2.resize(cv2.imread(sys.argv[1]), (3840, 2160)))" \
  "$src/tests/data/baboon.jpg" "$out/4k.png" || exit 1
python3 -c "import numpy as np,sys; np.random.default_rng(1).integers(0, 256, 3840*2160*3//2, dtype=np.uint8).tofile(sys.argv[1])" \
  "$out/frame_3840x2160.nv12" || exit 1
metrics=smsp__thread_inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum
# The lens with the bench's calibration (arvr_bench's lensFor: OpenCV's
# 640x480 sample camera scaled to the frame, chromatic aberration on);
# with the example's defaults on a 4K frame most samples fall outside the
# source, which is not the bench's work.
lens=(-p fx=3215.494403769792 -p fy=2411.620802827344 -p cx=2053.698928422504
      -p cy=1060.068730940469 -p ca_red=0.9975 -p ca_blue=0.995)
for k in lens_undistort gaussian_blur nv12_to_rgb; do
  input="$out/4k.png"
  [ "$k" = nv12_to_rgb ] && input="$out/frame_3840x2160.nv12"
  params=()
  [ "$k" = lens_undistort ] && params=("${lens[@]}")
  "$ncu" --metrics "$metrics" --csv "$arvrc" run "$src/examples/$k.arvr" -i "$input" \
    "${params[@]}" -o "$out/$k.png" --target cuda --no-cache >"$out/$k.ncu.csv" 2>"$out/$k.ncu.err" || {
    echo "$k: ncu failed: $(tail -c 300 "$out/$k.ncu.err")"; continue; }
  # One line per metric of each kernel: name, metric, value.
  python3 - "$k" "$out/$k.ncu.csv" <<'PY'
import csv, sys
kernel, path = sys.argv[1], sys.argv[2]
rows = [r for r in csv.reader(open(path)) if len(r) > 10]
head, body = rows[0], rows[1:]
col = {name: i for i, name in enumerate(head)}
pixels = 3840 * 2160
for r in body:
    name, metric, value = r[col["Kernel Name"]], r[col["Metric Name"]], r[col["Metric Value"]]
    value = float(value.replace(",", ""))
    if metric == "smsp__thread_inst_executed.sum":
        print(f"{kernel} {name} thread instructions per output pixel: {value / pixels:.1f}")
    else:
        print(f"{kernel} {name} {metric}: {value:g} {r[col['Metric Unit']]}")
PY
done
