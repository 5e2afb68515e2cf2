#!/usr/bin/env bash
# GPU tests: every kernel of the test set, on every test image, run with
# --target cuda and --target cpu; the two outputs must agree (u8: identical,
# or at most 1 apart where float contraction differs). Where
# compute-sanitizer is installed, the CUDA runs are repeated under memcheck.
#
#   scripts/gpu-tests.sh ARVRC SOURCE_DIR OUT_DIR
#
# Exit: 0 all agree, 1 a mismatch or failure, 77 no usable GPU (skipped).
set -u
arvrc=${1:?usage: gpu-tests.sh ARVRC SOURCE_DIR OUT_DIR}
src=${2:?source dir}
out=${3:?output dir}

if ! info=$("$arvrc" info 2>&1); then
  echo "SKIPPED: GPU tests need a CUDA GPU: $info"
  exit 77
fi
echo "$info"
mkdir -p "$out"

# kernel file | parameters [| its own input files, else the images below]
cases=(
  "examples/brightness_contrast.arvr|"
  "examples/brightness_contrast.arvr|-p gain=2.5 -p bias=-40"
  "tests/golden/shift_clamp.arvr|-p dx=-9 -p dy=4"
  "tests/golden/all_builtins.arvr|"
  "tests/golden/uniforms.arvr|-p a=1.7 -p b=0.3 -p c=-2.5"
  "tests/golden/all_builtins.arvr|-p k=0 -p g=-1.5 -p flip=false"
  "tests/golden/boundaries.arvr|-p dx=-300 -p dy=41"
  "tests/golden/affine_warp.arvr|"
  "tests/golden/affine_warp.arvr|-p use_nearest=true"
  "examples/lens_undistort.arvr|"
  "examples/lens_undistort.arvr|-p ca_red=0.9975 -p ca_blue=0.995"
  # Coordinates infinite or NaN (1/fx = inf; r^2 k1 overflowing): samples
  # whose weight u - floor(u) is NaN, which u8_sat turns into 0 (on the
  # GPU a saturating FMA, arvr-gpu-saturating-fma).
  "examples/lens_undistort.arvr|-p fx=0 -p fy=0|tests/data/odd-7x3.png tests/data/odd-641x479.png"
  "examples/lens_undistort.arvr|-p k1=1e30|tests/data/baboon.jpg tests/data/odd-641x479.png"
  "tests/lit/Driver/Inputs/math.arvr|"
  "examples/gaussian_blur.arvr|"
  "examples/gaussian_blur.arvr|-p sigma=1 -p radius=2"
  # Opt-in inexact arithmetic: CPU and CUDA must still agree bit for bit
  # (radius 20, whose weights are computed at run time, differs by 1 with
  # or without it: exp is libdevice's on the GPU; see 2026-12-03 11:40).
  "examples/gaussian_blur.arvr|--fast-math"
  "examples/gaussian_blur.arvr|--fast-math -p sigma=1.3 -p radius=6"
  "tests/golden/argmin.arvr|-p r=4"
  "tests/golden/downscale.arvr|-p k=3"
  "tests/lit/Frontend/mlirgen-schedule.arvr|-p r=2"
  "examples/nv12_to_rgb.arvr||tests/data/pattern_1x1.nv12 tests/data/pattern_7x3.nv12 tests/data/pattern_641x479.nv12"
  # Reads without boundary that arvr-check-bounds proves in range.
  "tests/lit/Frontend/in-bounds.arvr|--kernel decimate"
  "tests/lit/Frontend/in-bounds.arvr|--kernel clamped"
  "tests/lit/Frontend/in-bounds.arvr|--kernel helper"
  "tests/lit/Frontend/in-bounds.arvr|--kernel displace"
  "tests/lit/Frontend/in-bounds.arvr|--kernel valid_box|tests/data/baboon.jpg tests/data/odd-7x3.png tests/data/odd-641x479.png"
  "tests/lit/Frontend/in-bounds.arvr|--kernel shared|tests/data/baboon.jpg tests/data/odd-7x3.png tests/data/odd-641x479.png"
  # Tables read at a pixel's value: a 256-entry stage of its own launch.
  "tests/lit/Driver/Inputs/value-tables.arvr|--kernel gamma|tests/data/baboon.jpg tests/data/odd-1x1.png tests/data/odd-641x479.png"
  "tests/lit/Driver/Inputs/value-tables.arvr|--kernel curve|tests/data/baboon.jpg tests/data/odd-7x3.png"
  # Functions with extents, read under their boundary modes: stages of
  # their own, sized by the extents.
  "tests/lit/Driver/Inputs/function-extents.arvr|--kernel mirror_func|tests/data/baboon.jpg tests/data/odd-1x1.png tests/data/odd-7x3.png tests/data/odd-641x479.png"
  "tests/lit/Driver/Inputs/function-extents.arvr|--kernel wrap_func|tests/data/odd-7x3.png tests/data/odd-641x479.png"
  "tests/lit/Driver/Inputs/function-extents.arvr|--kernel constant_func|tests/data/odd-7x3.png tests/data/odd-641x479.png"
  "tests/lit/Driver/Inputs/function-extents.arvr|--kernel method_func|tests/data/odd-7x3.png tests/data/odd-641x479.png"
  # Functions of four and five coordinates, inlined; argmin and argmax
  # over two ranges (bounds proved, a stored stage's window inferred).
  "tests/lit/Driver/Inputs/many-coordinates.arvr|--kernel four|tests/data/odd-7x3.png tests/data/odd-641x479.png"
  "tests/lit/Driver/Inputs/pair-argmin.arvr|--kernel pairs_valid|tests/data/golden/left01-241x181.png"
  "tests/lit/Driver/Inputs/pair-argmin.arvr|--kernel pairs_max|tests/data/golden/left01-241x181.png"
  # A histogram as one scatter of atomic adds (arvr-scatter-reductions),
  # then tables of it: histogram equalisation, identical to the CPU.
  "examples/equalize_hist.arvr||tests/data/golden/aloeL-320x277.png tests/data/golden/left01-241x181.png"
  "tests/lit/Driver/Inputs/scatter.arvr|--kernel scatter_i32|tests/data/golden/aloeL-320x277.png"
  "tests/lit/Driver/Inputs/scatter.arvr|--kernel row_i32|tests/data/golden/aloeL-320x277.png"
  # Kernels without a schedule whose stencils of 9 taps or more read their
  # input staged in shared memory (arvr-stage-inputs, arvr-auto-schedule).
  "tests/lit/Driver/Inputs/nested-reduction.arvr|--kernel box3|tests/data/odd-7x3.png tests/data/odd-641x479.png"
  "tests/lit/Driver/Inputs/nested-reduction.arvr|--kernel gauss15|tests/data/odd-1x1.png tests/data/odd-641x479.png"
  "tests/lit/Driver/Inputs/nested-reduction.arvr|--kernel light9|tests/data/baboon.jpg tests/data/odd-641x479.png"
  "tests/lit/Driver/Inputs/reduction-lets.arvr|--kernel nested|tests/data/odd-7x3.png tests/data/odd-641x479.png"
  "tests/lit/Driver/Inputs/function-extents.arvr|--kernel mirror_image|tests/data/odd-7x3.png tests/data/odd-641x479.png"
  "tests/lit/Frontend/in-bounds.arvr|--kernel shared_ref|tests/data/odd-7x3.png tests/data/odd-641x479.png"
)
images=(tests/data/baboon.jpg tests/data/left01.jpg tests/data/odd-1x1.png
        tests/data/odd-7x3.png tests/data/odd-641x479.png)

sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null || true)
failures=0
runs=0
# sanitized TOOL LOG ARGS...: `arvrc run ARGS --target cuda` under
# compute-sanitizer's TOOL, the run's output to LOG; prints "; TOOL clean",
# or "; TOOL FAILED (LOG's name)" and fails.
sanitized() {
  local tool=$1 log=$2
  shift 2
  if "$sanitizer" --tool "$tool" --error-exitcode 99 "$arvrc" run "$@" --target cuda >"$log" 2>&1; then
    echo "; $tool clean"
  else
    echo "; $tool FAILED (see $(basename "$log"))"
    return 1
  fi
}
printf '%-36s %-26s %-18s %s\n' kernel params image result
for entry in "${cases[@]}"; do
  IFS='|' read -r kernel params inputs <<<"$entry"
  if [ -n "$inputs" ]; then
    read -r -a these <<<"$inputs"
  else
    these=("${images[@]}")
  fi
  for image in "${these[@]}"; do
    runs=$((runs + 1))
    name="$(basename "$kernel" .arvr)-$runs"
    cpu="$out/$name-cpu.png"
    gpu="$out/$name-cuda.png"
    # shellcheck disable=SC2086
    if ! "$arvrc" run "$src/$kernel" -i "$src/$image" -o "$cpu" --target cpu $params >/dev/null 2>"$out/$name.err" ||
       ! "$arvrc" run "$src/$kernel" -i "$src/$image" -o "$gpu" --target cuda $params >"$out/$name.cuda.txt" 2>>"$out/$name.err"; then
      result="FAIL: $(head -c 300 "$out/$name.err")"
      failures=$((failures + 1))
    elif cmp -s "$cpu" "$gpu"; then
      result="identical"
    elif report=$("$arvrc" compare "$cpu" "$gpu" --max-abs 1 2>&1); then
      result="within 1 ($(echo "$report" | grep identical | tr -s ' '))"
    else
      result="MISMATCH: $(echo "$report" | tr '\n' ';' | tr -s ' ')"
      failures=$((failures + 1))
    fi
    # shellcheck disable=SC2086
    if [ -n "$sanitizer" ] && [[ "$image" == *odd-* || "$image" == *baboon* || "$image" == *.nv12 ]]; then
      result+=$(sanitized memcheck "$out/$name-memcheck.log" "$src/$kernel" -i "$src/$image" \
                  -o "$out/$name-memcheck.png" $params) || failures=$((failures + 1))
    fi
    # A kernel with a block barrier (a tile in shared memory, chosen by a
    # schedule or by the compiler) is racechecked at the odd size.
    kopt=$(grep -o -- '--kernel [a-z_0-9]*' <<<"$params" || true)
    # shellcheck disable=SC2086
    if [ -n "$sanitizer" ] && [[ "$image" == *odd-641x479* ]] &&
       "$arvrc" build "$src/$kernel" $kopt -o - 2>/dev/null | grep -q 'bar.sync'; then
      result+=$(sanitized racecheck "$out/$name-racecheck.log" "$src/$kernel" -i "$src/$image" \
                  -o "$out/$name-memcheck.png" $params) || failures=$((failures + 1))
    fi
    # What arvrc said of the CUDA run, once: the device it ran on.
    [ "$runs" -eq 1 ] && cat "$out/$name.cuda.txt"
    printf '%-36s %-26s %-18s %s\n' "$(basename "$kernel")" "${params:-defaults}" \
      "$(basename "$image")" "$result"
    rm -f "$out/$name-memcheck.png"
  done
done
# Parity with OpenCV on the GPU, at the bars of tests/lit/Parity/opencv.test.
golden="$src/tests/data/golden"
parity=(
  "examples/lens_undistort.arvr||left01.png|undistort-left01.png|--max-abs 2 --min-within1 99.5 --min-psnr 50"
  "examples/gaussian_blur.arvr|-p radius=2 -p sigma=1|baboon.png|gauss-r2-s1.0.png|--max-abs 1 --min-psnr 60"
  "examples/gaussian_blur.arvr|-p radius=4 -p sigma=2|baboon.png|gauss-r4-s2.0.png|--max-abs 1 --min-psnr 60"
  "examples/gaussian_blur.arvr|-p radius=7 -p sigma=3.5|baboon.png|gauss-r7-s3.5.png|--max-abs 1 --min-psnr 60"
  "examples/nv12_to_rgb.arvr||baboon_512x512.nv12|nv12-rgb.png|--max-abs 1 --min-psnr 60"
)
if [ -d "$golden" ]; then
  echo "OpenCV parity on the GPU:"
  for entry in "${parity[@]}"; do
    IFS='|' read -r kernel params input reference bars <<<"$entry"
    runs=$((runs + 1))
    gpu="$out/parity-$runs.png"
    # shellcheck disable=SC2086
    if "$arvrc" run "$src/$kernel" -i "$golden/$input" -o "$gpu" --target cuda $params >/dev/null 2>"$out/parity-$runs.err" &&
       report=$("$arvrc" compare "$gpu" "$golden/$reference" $bars 2>&1); then
      result="meets the bars"
    else
      result="FAILS"
      failures=$((failures + 1))
    fi
    echo "  $(basename "$kernel") ${params:-defaults} vs $reference: $result:" \
      "$(echo "${report:-$(cat "$out/parity-$runs.err")}" | tr '\n' ';' | tr -s ' ')"
    report=""
  done
fi
# The examples of issue 16 on the GPU: each output of the CUDA run against
# the CPU's (identical, or within 1 / a millionth of the peak for f32), and
# against the references at the bars of tests/lit/Parity/examples.test
# (REFERENCE:BARS, one per output, separated by ';').
examples=(
  "pyr_down|-i building-251x187.png|p1.png p2.png p3.png||pyr1-building.png:--max-abs 0;pyr2-building.png:--max-abs 0;pyr3-building.png:--max-abs 0"
  "bilateral|-i building-251x187.png|b.png||bilateral-building.png:--max-abs 1"
  "harris|-i left01-241x181.png|h.pfm||harris-left01.pfm:--max-abs-of-peak 1e-6"
  "warp_perspective|-i building-251x187.png|w.png|-p fx=200 -p fy=200 -p cx=125 -p cy=93|warp-building-f64.png:--max-abs 1"
  "stereo_sad|-i aloeL-320x277.png -i aloeR-320x277.png|s.png||stereo-aloe.png:--max-abs 0"
)
if [ -d "$golden" ]; then
  echo "Examples of issue 16 on the GPU:"
  for entry in "${examples[@]}"; do
    IFS='|' read -r kernel inputs outputs params references <<<"$entry"
    runs=$((runs + 1))
    read -r -a names <<<"$outputs"
    cpuOut=() gpuOut=()
    for name in "${names[@]}"; do
      cpuOut+=(-o "$out/ex$runs-cpu-$name")
      gpuOut+=(-o "$out/ex$runs-cuda-$name")
    done
    result="ok"
    # shellcheck disable=SC2086
    if ! (cd "$golden" && "$arvrc" run "$src/examples/$kernel.arvr" $inputs "${cpuOut[@]}" --target cpu $params >/dev/null 2>"$out/ex$runs.err" &&
          "$arvrc" run "$src/examples/$kernel.arvr" $inputs "${gpuOut[@]}" --target cuda $params >/dev/null 2>>"$out/ex$runs.err"); then
      result="FAIL: $(head -c 300 "$out/ex$runs.err")"
      failures=$((failures + 1))
    else
      IFS=';' read -r -a refs <<<"$references"
      for i in "${!names[@]}"; do
        cpu="$out/ex$runs-cpu-${names[$i]}" gpu="$out/ex$runs-cuda-${names[$i]}"
        if cmp -s "$cpu" "$gpu"; then
          result="$result; ${names[$i]} CPU = CUDA"
        elif [[ "${names[$i]}" == *.pfm ]] && "$arvrc" compare "$gpu" "$cpu" --max-abs-of-peak 1e-6 >/dev/null 2>&1; then
          result="$result; ${names[$i]} CUDA within 1e-6 of the peak of CPU"
        elif "$arvrc" compare "$gpu" "$cpu" --max-abs 1 >/dev/null 2>&1; then
          result="$result; ${names[$i]} CUDA within 1 of CPU"
        else
          result="$result; ${names[$i]} CUDA MISMATCHES CPU"
          failures=$((failures + 1))
        fi
        ref="${refs[$i]%%:*}" bars="${refs[$i]#*:}"
        # shellcheck disable=SC2086
        if "$arvrc" compare "$gpu" "$golden/$ref" $bars >/dev/null 2>&1; then
          result="$result, meets the bar against $ref"
        else
          result="$result, FAILS the bar against $ref"
          failures=$((failures + 1))
        fi
      done
    fi
    echo "  $kernel: $result"
  done
fi
# The interior versions' proofs on the GPU (arvr-specialize-interior, per
# block and per thread): random clamped reads against brute force, as
# tests/lit/Driver/interior-random.test runs them on the CPU.
runs=$((runs + 1))
if report=$(python3 "$src/tests/lit/Driver/Inputs/interior_random.py" "$arvrc" \
              "$out/interior-random" 2 30 2026 cuda 2>&1) &&
   echo "$report" | grep -q ": 0 wrong$"; then
  echo "interior versions, random clamped reads on the GPU: $(echo "$report" | tail -1)"
else
  echo "interior versions, random clamped reads on the GPU: FAIL $(echo "$report" | tail -3 | tr '\n' ';')"
  failures=$((failures + 1))
fi
# u16 images: a 16-bit PPM in, u16 outputs as 16-bit PNG, CPU against CUDA.
runs=$((runs + 1))
if python3 "$src/tests/lit/Driver/Inputs/png16.py" make-ppm "$out/in16.ppm" &&
   "$arvrc" run "$src/tests/lit/Driver/Inputs/png16-copy.arvr" --kernel gain -i "$out/in16.ppm" \
     -o "$out/u16-cpu.png" --target cpu >/dev/null 2>"$out/u16.err" &&
   "$arvrc" run "$src/tests/lit/Driver/Inputs/png16-copy.arvr" --kernel gain -i "$out/in16.ppm" \
     -o "$out/u16-cuda.png" --target cuda >/dev/null 2>>"$out/u16.err" &&
   "$arvrc" compare "$out/u16-cpu.png" "$out/u16-cuda.png" --max-abs 0 >/dev/null 2>&1; then
  echo "u16 images (png16-copy.arvr gain): CPU = CUDA"
else
  echo "u16 images (png16-copy.arvr gain): FAIL $(head -c 300 "$out/u16.err")"
  failures=$((failures + 1))
fi
# Several outputs (three, of two sizes, sharing a root stage; a pyramid's
# three levels, two of them computed in their level's launch by
# arvr-fuse-point-consumers): each output of the CUDA run against the
# CPU's, and the CUDA run under memcheck.
for multi in "tests/lit/Driver/Inputs/three-outputs.arvr|frame grey preview" \
             "examples/pyr_down.arvr|half quarter eighth"; do
  outputs=${multi#*|}
  multi=${multi%%|*}
for image in tests/data/odd-1x1.png tests/data/odd-7x3.png tests/data/odd-641x479.png tests/data/baboon.jpg; do
  runs=$((runs + 1))
  result="3 outputs:"
  for target in cpu cuda; do
    args=()
    for output in $outputs; do args+=(-o "$out/multi-$runs-$target-$output.png"); done
    "$arvrc" run "$src/$multi" -i "$src/$image" "${args[@]}" \
      --target $target >/dev/null 2>"$out/multi-$runs.err" || result="$result FAILED ($target)"
  done
  for output in $outputs; do
    if cmp -s "$out/multi-$runs-cpu-$output.png" "$out/multi-$runs-cuda-$output.png"; then
      result="$result $output identical"
    elif "$arvrc" compare "$out/multi-$runs-cpu-$output.png" "$out/multi-$runs-cuda-$output.png" --max-abs 1 >/dev/null 2>&1; then
      result="$result $output within 1"
    else
      result="$result $output MISMATCH"
    fi
  done
  if [ -n "$sanitizer" ]; then
    if "$sanitizer" --tool memcheck --error-exitcode 99 "$arvrc" run "$src/$multi" -i "$src/$image" \
         -o "$out/mm-a.png" -o "$out/mm-b.png" -o "$out/mm-c.png" --target cuda >"$out/multi-$runs-memcheck.log" 2>&1; then
      result="$result; memcheck clean"
    else
      result="$result; MEMCHECK FAILED (multi-$runs-memcheck.log)"
    fi
    rm -f "$out/mm-a.png" "$out/mm-b.png" "$out/mm-c.png"
  fi
  case "$result" in *FAIL*|*MISMATCH*) failures=$((failures + 1)) ;; esac
  printf '%-36s %-26s %-18s %s\n' "$(basename "$multi")" defaults "$(basename "$image")" "$result"
done
done
# Schedules never change results: the Gaussian with its schedule (blur_x in
# shared memory), everything inlined, blur_x at the root and other tiles,
# all on the GPU, bit for bit; the shared-memory kernels under racecheck.
sed '/^  schedule {/,/^  }/d' "$src/examples/gaussian_blur.arvr" >"$out/gauss-inline.arvr"
sed 's/compute_shared/compute_root/' "$src/examples/gaussian_blur.arvr" >"$out/gauss-root.arvr"
sed 's/out.gpu_tile([0-9]*, [0-9]*);/out.gpu_tile(8, 4);/' "$src/examples/gaussian_blur.arvr" >"$out/gauss-tiles.arvr"
for image in tests/data/odd-1x1.png tests/data/odd-7x3.png tests/data/odd-641x479.png tests/data/baboon.jpg; do
  for params in "-p radius=7 -p sigma=3.5" "-p radius=1 -p sigma=0.8"; do
    runs=$((runs + 1))
    result="identical on the GPU: shared, inline, root, 8x4 tiles"
    # shellcheck disable=SC2086
    "$arvrc" run "$src/examples/gaussian_blur.arvr" -i "$src/$image" -o "$out/sched-$runs-shared.png" --target cuda $params >/dev/null || result="FAILED (shared)"
    for variant in inline root tiles; do
      # shellcheck disable=SC2086
      if ! "$arvrc" run "$out/gauss-$variant.arvr" -i "$src/$image" -o "$out/sched-$runs-$variant.png" --target cuda $params >/dev/null ||
         ! cmp -s "$out/sched-$runs-shared.png" "$out/sched-$runs-$variant.png"; then
        result="DIFFERS ($variant)"
      fi
    done
    if [ -n "$sanitizer" ]; then
      for tool in racecheck memcheck; do
        # shellcheck disable=SC2086
        if "$sanitizer" --tool $tool --error-exitcode 99 "$arvrc" run "$src/examples/gaussian_blur.arvr" \
             -i "$src/$image" -o "$out/sched-$runs-$tool.png" --target cuda $params >"$out/sched-$runs-$tool.log" 2>&1; then
          result="$result; $tool clean"
        else
          result="$result; $tool FAILED (sched-$runs-$tool.log)"
        fi
      done
    fi
    case "$result" in *FAIL*|*DIFFERS*) failures=$((failures + 1)) ;; esac
    echo "schedules: gaussian_blur $params $(basename "$image"): $result"
  done
done
# The examples under compute-sanitizer at sizes that are no multiple of any
# tile: initcheck (no read of uninitialised device memory) at 1x1, 7x3 and
# 641x479, memcheck and initcheck at 3841x2161.
if [ -n "$sanitizer" ]; then
  python3 - "$src/tests/data/baboon.jpg" "$out" <<'PY' || echo "note: no python3/cv2 for the 3841x2161 frames"
import sys, cv2, numpy as np
img = cv2.imread(sys.argv[1])
cv2.imwrite(sys.argv[2] + "/odd-3841x2161.png", cv2.resize(img, (3841, 2161)))
rng = np.random.default_rng(1)
w, h = 3841, 2161
rng.integers(0, 256, w * h + 2 * ((w + 1) // 2) * ((h + 1) // 2), dtype=np.uint8).tofile(
    sys.argv[2] + "/frame_3841x2161.nv12")
PY
  for entry in "lens_undistort|odd-1x1.png odd-7x3.png odd-641x479.png OUT:odd-3841x2161.png" \
               "gaussian_blur|odd-1x1.png odd-7x3.png odd-641x479.png OUT:odd-3841x2161.png" \
               "nv12_to_rgb|pattern_1x1.nv12 pattern_7x3.nv12 pattern_641x479.nv12 OUT:frame_3841x2161.nv12"; do
    IFS='|' read -r kernel inputs <<<"$entry"
    for input in $inputs; do
      tools="initcheck"
      # NV12's stores go through shared memory per warp (arvr-stage-stores).
      [ "$input" = pattern_641x479.nv12 ] && tools="initcheck racecheck"
      path="$src/tests/data/$input"
      if [[ "$input" == OUT:* ]]; then
        path="$out/${input#OUT:}"
        tools="memcheck initcheck"
        [ -f "$path" ] || continue
      fi
      for tool in $tools; do
        runs=$((runs + 1))
        if "$sanitizer" --tool "$tool" --error-exitcode 99 "$arvrc" run "$src/examples/$kernel.arvr" \
             -i "$path" -o "$out/san-$runs.png" --target cuda >"$out/san-$runs.log" 2>&1; then
          echo "sanitizer: $kernel $(basename "$path"): $tool clean"
        else
          echo "sanitizer: $kernel $(basename "$path"): $tool FAILED (san-$runs.log)"
          tail -5 "$out/san-$runs.log"
          failures=$((failures + 1))
        fi
        rm -f "$out/san-$runs.png"
      done
    done
  done
fi
# Float images (PFM): f32 in and out, u8 to f32, f32 to u8, on the GPU
# against the CPU.
pfm="$src/tests/lit/Driver/Inputs/float-images.arvr"
python3 "$src/tests/lit/Driver/Inputs/pfm.py" make "$out/in.pfm" 641 479 3
for entry in "scale|$out/in.pfm|pfm" "to_float|$src/tests/data/odd-641x479.png|pfm" "tonemap|$out/in.pfm|png"; do
  IFS='|' read -r kernel input ext <<<"$entry"
  runs=$((runs + 1))
  if "$arvrc" run "$pfm" --kernel "$kernel" -i "$input" -o "$out/pfm-$runs-cpu.$ext" --target cpu >/dev/null 2>"$out/pfm-$runs.err" &&
     "$arvrc" run "$pfm" --kernel "$kernel" -i "$input" -o "$out/pfm-$runs-cuda.$ext" --target cuda >/dev/null 2>>"$out/pfm-$runs.err"; then
    if cmp -s "$out/pfm-$runs-cpu.$ext" "$out/pfm-$runs-cuda.$ext"; then
      result="identical"
    else
      result="DIFFERS: $("$arvrc" compare "$out/pfm-$runs-cpu.$ext" "$out/pfm-$runs-cuda.$ext" 2>&1 | head -2 | tr '\n' ';')"
      failures=$((failures + 1))
    fi
  else
    result="FAILED: $(head -c 300 "$out/pfm-$runs.err")"
    failures=$((failures + 1))
  fi
  printf '%-36s %-26s %-18s %s\n' float-images.arvr "$kernel" "$(basename "$input")" "$result"
done
# Pixels per thread, unrolled reductions and stages in shared memory
# (chains and trees of them) change no bit on the GPU: each
# example with extra schedule lines against the example as it is.
# with_schedule FILE OUT LINE...: FILE with LINEs added to its schedule
# (each replacing the file's own line of that directive, if any).
with_schedule() {
  local file=$1 dest=$2 line
  shift 2
  local base
  base=$(mktemp)
  cp "$file" "$base"
  for line in "$@"; do
    # Only the directive's own statement (a comment naming it stays).
    local call=${line%%(*}
    grep -v -E "^[[:space:]]*${call//./\.}\(.*\);[[:space:]]*$" "$base" \
      >"$base.next" || true
    mv "$base.next" "$base"
  done
  file=$base
  if grep -q '^  schedule {' "$file"; then
    # awk -v turns each \n into a new line.
    awk -v add="$(printf '    %s\\n' "$@")" '{ print } /^  schedule \{/ { printf "%s", add }' "$file" >"$dest"
  else
    sed '$d' "$file" >"$dest"
    printf '  schedule {\n' >>"$dest"
    printf '    %s\n' "$@" >>"$dest"
    printf '  }\n}\n' >>"$dest"
  fi
  rm -f "$base"
}
variants=(
  "examples/brightness_contrast.arvr|tests/data/odd-641x479.png|out.gpu_pixels(4);"
  "examples/lens_undistort.arvr|tests/data/odd-641x479.png|out.gpu_pixels(4);"
  "examples/nv12_to_rgb.arvr|tests/data/pattern_641x479.nv12|out.gpu_pixels(2);"
  "examples/gaussian_blur.arvr|tests/data/odd-641x479.png|out.gpu_pixels(4);|blur_x.unroll(4);|out.unroll(3);"
  "examples/gaussian_blur.arvr|tests/data/baboon.jpg|out.gpu_pixels(3);|norm.unroll(2);"
  "tests/lit/Driver/Inputs/three-outputs.arvr|tests/data/odd-641x479.png|frame.gpu_pixels(3);|preview.gpu_pixels(2);"
  "tests/lit/Driver/Inputs/shared-chain.arvr|tests/data/odd-641x479.png|bx.compute_shared();|b.compute_shared();"
  "tests/lit/Driver/Inputs/shared-tree.arvr|tests/data/odd-641x479.png|a.compute_shared();|b.compute_shared();|s.compute_shared();"
)
for entry in "${variants[@]}"; do
  IFS='|' read -r -a fields <<<"$entry"
  kernel=${fields[0]} image=${fields[1]}
  runs=$((runs + 1))
  variant="$out/variant-$runs.arvr"
  with_schedule "$src/$kernel" "$variant" "${fields[@]:2}"
  outputs=1
  [[ "$kernel" == *three-outputs* ]] && outputs=3
  base_o=() var_o=()
  for ((o = 0; o < outputs; o++)); do
    base_o+=(-o "$out/variant-$runs-base-$o.png")
    var_o+=(-o "$out/variant-$runs-var-$o.png")
  done
  result="identical on the GPU with ${fields[*]:2}"
  if ! "$arvrc" run "$src/$kernel" -i "$src/$image" "${base_o[@]}" --target cuda >/dev/null 2>"$out/variant-$runs.err" ||
     ! "$arvrc" run "$variant" -i "$src/$image" "${var_o[@]}" --target cuda >/dev/null 2>>"$out/variant-$runs.err"; then
    result="FAILED: $(head -c 300 "$out/variant-$runs.err")"
  else
    for ((o = 0; o < outputs; o++)); do
      cmp -s "$out/variant-$runs-base-$o.png" "$out/variant-$runs-var-$o.png" || result="DIFFERS (output $o) with ${fields[*]:2}"
    done
  fi
  if [ -n "$sanitizer" ] && [[ "$result" == identical* ]]; then
    tools="memcheck"
    grep -q compute_shared "$variant" && tools="memcheck racecheck"
    for tool in $tools; do
      result+=$(sanitized "$tool" "$out/variant-$runs-$tool.log" "$variant" -i "$src/$image" "${var_o[@]}")
    done
  fi
  case "$result" in *FAIL*|*DIFFERS*) failures=$((failures + 1)) ;; esac
  printf '%-36s %-26s %-18s %s\n' "$(basename "$kernel")" variant "$(basename "$image")" "$result"
done
# The Gaussian without its schedule block (arvr-auto-schedule chooses one:
# its tables at the root, blur_x in shared memory): the example's bits,
# memcheck and racecheck clean, at an odd size and on a photo.
sed '/^  schedule {/,/^  }/d' "$src/examples/gaussian_blur.arvr" >"$out/gaussian_auto.arvr"
for image in tests/data/odd-641x479.png tests/data/baboon.jpg; do
  runs=$((runs + 1))
  result="identical on the GPU to the scheduled example"
  if ! grep -q "schedule {" "$out/gaussian_auto.arvr" &&
     "$arvrc" run "$src/examples/gaussian_blur.arvr" -i "$src/$image" -o "$out/auto-$runs-base.png" \
       --target cuda >/dev/null 2>"$out/auto-$runs.err" &&
     "$arvrc" run "$out/gaussian_auto.arvr" -i "$src/$image" -o "$out/auto-$runs.png" \
       --target cuda >/dev/null 2>>"$out/auto-$runs.err"; then
    cmp -s "$out/auto-$runs-base.png" "$out/auto-$runs.png" || result="DIFFERS from the scheduled example"
  else
    result="FAILED: $(head -c 300 "$out/auto-$runs.err")"
  fi
  if [ -n "$sanitizer" ] && [[ "$result" == identical* ]]; then
    for tool in memcheck racecheck; do
      result+=$(sanitized "$tool" "$out/auto-$runs-$tool.log" "$out/gaussian_auto.arvr" -i "$src/$image" \
                  -o "$out/auto-$runs.png")
    done
  fi
  case "$result" in *FAIL*|*DIFFERS*) failures=$((failures + 1)) ;; esac
  printf '%-36s %-26s %-18s %s\n' gaussian_blur.arvr "no schedule" "$(basename "$image")" "$result"
done
# Many frames in one run (compiled once), on the GPU and on the CPU.
mkdir -p "$out/frames"
cp "$src"/tests/data/odd-*.png "$src/tests/data/baboon.jpg" "$out/frames/"
runs=$((runs + 1))
if "$arvrc" run "$src/examples/gaussian_blur.arvr" -i "$out/frames/*" -o "$out/batch-cuda" --target cuda &&
   "$arvrc" run "$src/examples/gaussian_blur.arvr" -i "$out/frames/*" -o "$out/batch-cpu" --target cpu; then
  for f in "$out"/batch-cpu/*.png; do
    if ! cmp -s "$f" "$out/batch-cuda/$(basename "$f")"; then
      echo "batch: $(basename "$f") differs between CPU and CUDA"
      failures=$((failures + 1))
    fi
  done
  echo "batch of $(ls "$out/batch-cuda" | wc -l) frames: CPU and CUDA outputs compared"
else
  echo "batch: FAILED"
  failures=$((failures + 1))
fi
# Frames of one size run as stacked batches (one launch per kernel for up
# to 8 frames, arvr-batch-frames): 11 frames of different content, a frame
# of another size among them (it ends a batch), on the GPU and the CPU.
# Every example that batches runs so (each byte image's frame is a view of
# the stack): colour frames, grey ones for Harris, raw NV12 for NV12.
mkdir -p "$out/same" "$out/same-grey" "$out/same-nv12"
if python3 - "$src/tests/data/baboon.jpg" "$out" <<'PY'
import cv2, sys
import numpy as np
image = cv2.imread(sys.argv[1])
rng = np.random.default_rng(7)
for i in range(11):
    crop = cv2.resize(image[i * 7:i * 7 + 300, i * 11:i * 11 + 400], (641, 479))
    cv2.imwrite(f"{sys.argv[2]}/same/f{i:02d}.png", crop)
    cv2.imwrite(f"{sys.argv[2]}/same-grey/f{i:02d}.png", cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY))
    rng.integers(0, 256, 641 * 479 + 2 * 321 * 240, dtype=np.uint8).tofile(
        f"{sys.argv[2]}/same-nv12/f{i:02d}_641x479.nv12")
# Harris's frame of another size: grey, 7x3.
cv2.imwrite(f"{sys.argv[2]}/same-grey/f04b.png",
            cv2.cvtColor(cv2.resize(image[:30, :70], (7, 3)), cv2.COLOR_BGR2GRAY))
PY
then
  cp "$src/tests/data/odd-7x3.png" "$out/same/f04b.png"
  cp "$src/tests/data/pattern_7x3.nv12" "$out/same-nv12/f04b_7x3.nv12"
  for kernel in gaussian_blur lens_undistort warp_perspective brightness_contrast \
                bilateral harris pyr_down nv12_to_rgb; do
    runs=$((runs + 1))
    frames="$out/same/*"
    [ "$kernel" = harris ] && frames="$out/same-grey/*"
    [ "$kernel" = nv12_to_rgb ] && frames="$out/same-nv12/*"
    if "$arvrc" run "$src/examples/$kernel.arvr" -i "$frames" -o "$out/same-cuda-$kernel" --target cuda &&
       "$arvrc" run "$src/examples/$kernel.arvr" -i "$frames" -o "$out/same-cpu-$kernel" --target cpu; then
      differ=0 count=0
      for f in $(cd "$out/same-cpu-$kernel" && find . -type f); do
        count=$((count + 1))
        cmp -s "$out/same-cpu-$kernel/$f" "$out/same-cuda-$kernel/$f" || differ=$((differ + 1))
      done
      echo "stacked batches, $kernel: $count outputs, $differ differ between CPU and CUDA"
      [ "$count" -ge 12 ] || differ=$((differ + 1))
      [ "$differ" -eq 0 ] || failures=$((failures + 1))
    else
      echo "stacked batches, $kernel: FAILED"
      failures=$((failures + 1))
    fi
  done
else
  echo "stacked batches: could not make the frames (python3 with OpenCV)"
  failures=$((failures + 1))
fi
# The runtime library, through which a user's program runs kernels: its
# own script (frames through libarvr_runtime against the CPU, memcheck).
runs=$((runs + 1))
"$(dirname "$0")/gpu-runtime-tests.sh" "$arvrc" "$src" "$out/runtime"
case $? in
  0 | 77) ;;
  *) failures=$((failures + 1)) ;;
esac
echo "$runs runs, $failures failed"
[ "$failures" -eq 0 ]
