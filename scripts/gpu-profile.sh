#!/usr/bin/env bash
# On the GPU machine: where the examples' instructions go. Runs each example
# once at 4K (3840x2160) through `arvrc run` under Nsight Compute with the
# per-instruction counters (SourceCounters), and writes, per kernel, the
# SASS with each instruction's executed count (KERNEL-sass.csv) and the
# summary sections (KERNEL-ncu.txt). scripts/sass-summary.py reads the CSVs.
#
#   scripts/gpu-profile.sh ARVRC SOURCE_DIR OUT_DIR
set -uo pipefail
arvrc=${1:?usage: scripts/gpu-profile.sh ARVRC SOURCE_DIR OUT_DIR}
src=${2:?source dir}
out=${3:?output dir}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$src/tests/data/baboon.jpg" "$tmp" <<'PY' || { echo "no python3/cv2: no 4K frames"; exit 1; }
import sys, cv2, numpy as np
img = cv2.resize(cv2.imread(sys.argv[1]), (3840, 2160))
cv2.imwrite(sys.argv[2] + "/frame.png", img)
i420 = cv2.cvtColor(img, cv2.COLOR_BGR2YUV_I420).reshape(-1)
w, h = 3840, 2160
y, u, v = i420[:w * h], i420[w * h:w * h * 5 // 4], i420[w * h * 5 // 4:]
np.concatenate([y, np.stack([u, v], 1).reshape(-1)]).tofile(
    sys.argv[2] + "/frame_3840x2160.nv12")
PY
status=0
# The lens with the bench's parameters: OpenCV's sample calibration
# (640x480) scaled to the frame, chromatic aberration on (with the
# defaults, most of a 4K frame samples outside the photo).
lens_params=(-p fx=3215.494404 -p fy=2411.620803 -p cx=2053.698929
             -p cy=1060.068731 -p ca_red=0.9975 -p ca_blue=0.995)
for entry in "gaussian_blur|frame.png" "lens_undistort|frame.png" \
             "nv12_to_rgb|frame_3840x2160.nv12"; do
  k=${entry%%|*}
  input=$tmp/${entry#*|}
  params=()
  [ "$k" = lens_undistort ] && params=("${lens_params[@]}")
  ncu --section SourceCounters --section InstructionStats --section LaunchStats \
      --section ComputeWorkloadAnalysis --section WarpStateStats \
      --section Occupancy --section SpeedOfLight -k "regex:^$k" --launch-count 4 \
      -o "$tmp/$k" "$arvrc" run "$src/examples/$k.arvr" -i "$input" \
      -o "$tmp/$k-out.png" "${params[@]}" --target cuda --no-cache >"$out/$k-ncu.txt" 2>&1 || status=1
  ncu -i "$tmp/$k.ncu-rep" --page details >>"$out/$k-ncu.txt" 2>&1 || status=1
  ncu -i "$tmp/$k.ncu-rep" --page source --csv --print-source sass \
      >"$out/$k-sass.csv" 2>&1 || status=1
done
exit "$status"
