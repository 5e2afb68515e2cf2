#!/usr/bin/env bash
# The whole benchmark, on the GPU machine, in one go (a few minutes):
# compiles the three examples with arvrc (timing it), builds arvr_bench with
# nvcc (with NPP when it links), runs it, then its second set (five more
# examples against NPP), and writes the report.
#
#   bench/run.sh ARVRC SOURCE_DIR OUT_DIR
set -uo pipefail
arvrc=${1:?usage: bench/run.sh ARVRC SOURCE_DIR OUT_DIR}
src=${2:?source dir}
out=${3:?output dir}
mkdir -p "$out/ptx"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "commit: $(cat "$src/COMMIT" 2>/dev/null || git -C "$src" rev-parse HEAD)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw \
    --format=csv 2>&1
  echo "nvcc: $("$nvcc" --version | tail -1)"
  echo "command: bench/run.sh (arvr_bench --reps 60)"
} >"$out/machine.txt"

: >"$out/compile.csv"
# Each example is compiled for what the benchmark runs it on, as the hand
# kernels are written for it (arvrc build --specialize): 3-channel frames,
# and the Gaussian's sigma 2 and radius 4. The Gaussian is also built
# without, as the variant "arvrc generic".
# shellcheck source=bench/known-values.sh
source "$(dirname "$0")/known-values.sh"
# Compile time: the median of three builds without the compile cache
# (one run alone swung 0.5-1.4 s for pyr_down between machines and runs),
# in ms; build_ms OUTPUT ARGS... writes OUTPUT.
build_ms() {
  local output=$1 times=() start end
  shift
  for _ in 1 2 3; do
    start=$(date +%s%N)
    "$arvrc" build "$@" --no-cache -o "$output" || return 1
    end=$(date +%s%N)
    times+=("$(( (end - start) / 1000000 ))")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n 2p
}
for k in lens_undistort gaussian_blur nv12_to_rgb; do
  # shellcheck disable=SC2086
  ms=$(build_ms "$out/ptx/$k.ptx" "$src/examples/$k.arvr" ${known[$k]}) || exit 1
  echo "$k,$ms" >>"$out/compile.csv"
done

# The second set, in its own folder (arvr_bench --set more).
mkdir -p "$out/ptx-more"
for k in "${more_examples[@]}"; do
  # shellcheck disable=SC2086
  ms=$(build_ms "$out/ptx-more/$k.ptx" "$src/examples/$k.arvr" ${known[$k]}) || exit 1
  echo "$k,$ms" >>"$out/compile.csv"
done

"$arvrc" build "$src/examples/gaussian_blur.arvr" -o "$out/ptx/gaussian_blur_generic.ptx" || exit 1
# Opt-in inexact arithmetic: its distance from the exact build is reported.
# shellcheck disable=SC2086
"$arvrc" build "$src/examples/gaussian_blur.arvr" ${known[gaussian_blur]} --fast-math \
  -o "$out/ptx/gaussian_blur_fastmath.ptx" || exit 1
# Other schedules of the Gaussian, timed beside the example's.
sed 's/out.gpu_tile([0-9]*, [0-9]*);/out.gpu_tile(32, 16);/' "$src/examples/gaussian_blur.arvr" \
  >"$out/ptx/gaussian_blur_shared_32x16.arvr"
sed 's/blur_x.compute_shared();/blur_x.compute_root();/; s/out.gpu_tile([0-9]*, [0-9]*);/out.gpu_tile(32, 8);/' \
  "$src/examples/gaussian_blur.arvr" >"$out/ptx/gaussian_blur_root.arvr"
sed '/weight.compute_root();/d; /norm.compute_root();/d; /coef.compute_root();/d' "$src/examples/gaussian_blur.arvr" \
  >"$out/ptx/gaussian_blur_inline_weights.arvr"
# Several points per thread (gpu_pixels), with reductions unrolled.
sed 's/\(out.gpu_tile([0-9]*, [0-9]*);\)/\1\n    out.gpu_pixels(4);/' "$src/examples/gaussian_blur.arvr" \
  >"$out/ptx/gaussian_blur_shared_px4.arvr"
sed 's/\(out.gpu_tile([0-9]*, [0-9]*);\)/\1\n    out.gpu_pixels(4);\n    blur_x.unroll(3);\n    out.unroll(3);/' \
  "$src/examples/gaussian_blur.arvr" >"$out/ptx/gaussian_blur_shared_px4_unroll.arvr"
sed 's/blur_x.compute_shared();/blur_x.compute_root();\n    blur_x.gpu_pixels(2);/; s/out.gpu_tile([0-9]*, [0-9]*);/out.gpu_tile(32, 8);\n    out.gpu_pixels(2);/' \
  "$src/examples/gaussian_blur.arvr" >"$out/ptx/gaussian_blur_root_px2.arvr"
# Other schedules of the lens: one or four points a thread, taller blocks.
sed '/out.gpu_pixels([0-9]*);/d' "$src/examples/lens_undistort.arvr" \
  >"$out/ptx/lens_undistort_px1.arvr"
sed 's/out.gpu_pixels([0-9]*);/out.gpu_pixels(4);/' "$src/examples/lens_undistort.arvr" \
  >"$out/ptx/lens_undistort_px4.arvr"
sed 's/out.gpu_tile([0-9]*, [0-9]*);/out.gpu_tile(32, 8);/' "$src/examples/lens_undistort.arvr" \
  >"$out/ptx/lens_undistort_32x8.arvr"
for v in lens_undistort_px1 lens_undistort_px4 lens_undistort_32x8; do
  # shellcheck disable=SC2086
  "$arvrc" build "$out/ptx/$v.arvr" ${known[lens_undistort]} -o "$out/ptx/$v.ptx" || exit 1
done
# The example assembled by the toolkit's ptxas (arvrc build --emit=cubin):
# the driver loads the cubin instead of JIT-compiling the PTX.
"$arvrc" build "$src/examples/gaussian_blur.arvr" ${known[gaussian_blur]} --emit=cubin -o "$out/ptx/gaussian_blur_cubin.cubin" \
  --manifest "$out/ptx/gaussian_blur_cubin.manifest" || exit 1
sed 's/out.gpu_tile([0-9]*, [0-9]*);/out.gpu_tile(64, 8);/' "$src/examples/gaussian_blur.arvr" \
  >"$out/ptx/gaussian_blur_shared_64x8.arvr"
# Without its schedule block: the schedule arvr-auto-schedule chooses.
sed '/^  schedule {/,/^  }/d' "$src/examples/gaussian_blur.arvr" >"$out/ptx/gaussian_blur_auto.arvr"
# Each schedule compiled for the same known values as the example, so
# that only the schedule differs.
for v in gaussian_blur_auto gaussian_blur_shared_32x16 gaussian_blur_shared_64x8 gaussian_blur_root \
         gaussian_blur_inline_weights gaussian_blur_shared_px4 \
         gaussian_blur_shared_px4_unroll gaussian_blur_root_px2; do
  # shellcheck disable=SC2086
  "$arvrc" build "$out/ptx/$v.arvr" ${known[gaussian_blur]} -o "$out/ptx/$v.ptx" || exit 1
done

# The photo the frames are made from (scaled up; content does not change
# the work of these kernels).
python3 -c "import cv2,sys; cv2.imwrite(sys.argv[2], cv2.imread(sys.argv[1]))" \
  "$src/tests/data/baboon.jpg" "$out/photo.ppm" || rm -f "$out/photo.ppm"

# arvrc's kernels run through the runtime library beside arvrc (the GPU
# bundle's lib/ and include/, or a build tree's runtime/).
runtime_lib=$(dirname "$arvrc")/../lib
[ -f "$runtime_lib/libarvr_runtime.so.1" ] || runtime_lib=$(dirname "$arvrc")/../runtime
runtime_include=$src/include
[ -f "$runtime_include/arvr/runtime.h" ] || runtime_include=$src/runtime/include
flags=(-O3 -std=c++17 -arch=sm_90 -lineinfo -I"$src/bench" -I"$runtime_include"
       -L"$runtime_lib" -l:libarvr_runtime.so.1 -Xlinker -rpath="$(cd "$runtime_lib" && pwd)")
npp=(-lcuda -lnppig -lnppif -lnppicc -lnppc)
if "$nvcc" "${flags[@]}" -DARVR_BENCH_NPP -DARVR_BENCH_NPP_MORE "$src/bench/arvr_bench.cu" \
     -o "$out/arvr_bench" "${npp[@]}" 2>"$out/nvcc.log"; then
  echo "built with NPP (both sets)"
elif "$nvcc" "${flags[@]}" -DARVR_BENCH_NPP "$src/bench/arvr_bench.cu" -o "$out/arvr_bench" \
     "${npp[@]}" 2>"$out/nvcc.log"; then
  echo "built with NPP for the first set only (the second's peers did not build):"
  cat "$out/nvcc.log"
else
  echo "NPP build failed (see nvcc.log); building without NPP"
  cat "$out/nvcc.log"
  "$nvcc" "${flags[@]}" "$src/bench/arvr_bench.cu" -o "$out/arvr_bench" -lcuda || exit 1
fi

photo=()
[ -f "$out/photo.ppm" ] && photo=(--photo "$out/photo.ppm")
# ARVR_BENCH_EXTRA=DIR: plans built by a changed compiler (KERNEL@LABEL,
# for any example of either set), run beside these. ARVR_BENCH_STAGE_SAMPLES=1:
# beside them, the experiment behind `arvrc build --stage-samples`
# (arvr-gpu-stage-samples, off by default) for the lens and
# warp_perspective, as "arvrc stage-samples", its outputs checked against
# the default's (opt-in: a variant whose output differs leaves its whole
# example untimed, which a record run must not risk).
extra_dir=$out/ptx-extra
mkdir -p "$extra_dir"
[ -n "${ARVR_BENCH_EXTRA:-}" ] && cp "$ARVR_BENCH_EXTRA"/*.* "$extra_dir"/
if [ "${ARVR_BENCH_STAGE_SAMPLES:-0}" = 1 ]; then
  for k in lens_undistort warp_perspective; do
    # shellcheck disable=SC2086
    "$arvrc" build "$src/examples/$k.arvr" ${known[$k]} --stage-samples --no-cache \
      -o "$extra_dir/$k@stage-samples.ptx" || exit 1
  done
fi
extra=(--extra "$extra_dir")
# ARVR_BENCH_ONLY=K1,K2 and ARVR_BENCH_SIZES=1080p,4K: those examples and
# sizes alone (arvr_bench --only, --sizes): a short device call.
[ -n "${ARVR_BENCH_ONLY:-}" ] && extra+=(--only "$ARVR_BENCH_ONLY")
[ -n "${ARVR_BENCH_SIZES:-}" ] && extra+=(--sizes "$ARVR_BENCH_SIZES")
# ARVR_BENCH_SETS=more: the second set alone (a short device call).
if [ "${ARVR_BENCH_SETS:-both}" = more ]; then
  : >"$out/bench.csv"
  : >"$out/bench.log"
  status=0
else
  "$out/arvr_bench" --plans "$out/ptx" "${photo[@]}" "${extra[@]}" --reps 60 --csv "$out/bench.csv" \
    | tee "$out/bench.log"
  status=${PIPESTATUS[0]}
fi
# The second set, its rows appended to the first's (ARVR_BENCH_SETS=main:
# the first set alone).
if [ "${ARVR_BENCH_SETS:-both}" != main ]; then
  "$out/arvr_bench" --plans "$out/ptx-more" "${photo[@]}" "${extra[@]}" --reps 60 --set more \
    --csv "$out/bench-more.csv" | tee -a "$out/bench.log"
  more=${PIPESTATUS[0]}
  # The second set alone: its header and its copy bandwidth first.
  [ -s "$out/bench.csv" ] || grep '^kernel,\|^# copy_GBps,' "$out/bench-more.csv" >"$out/bench.csv"
  grep -v '^kernel,\|^#' "$out/bench-more.csv" >>"$out/bench.csv"
  [ "$status" = 0 ] && status=$more
fi
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw --format=csv,noheader \
  | sed 's/^/after the run: /' >>"$out/machine.txt"

# Instructions a pixel: each implementation's batch of 8 at 4K once more,
# under Nsight Compute (arvr_bench --count), nothing timed. ARVR_BENCH_COUNT=0
# leaves it out.
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || true)
counts=()
if [ -n "$ncu" ] && [ "${ARVR_BENCH_COUNT:-1}" != 0 ]; then
  sets=(main more)
  [ "${ARVR_BENCH_SETS:-both}" = main ] && sets=(main)
  [ "${ARVR_BENCH_SETS:-both}" = more ] && sets=(more)
  for set in "${sets[@]}"; do
    dir=$out/ptx
    [ "$set" = more ] && dir=$out/ptx-more
    if "$ncu" --profile-from-start off --csv --log-file "$out/count-$set.ncu.csv" \
         --metrics smsp__thread_inst_executed.sum,smsp__inst_executed.sum \
         "$out/arvr_bench" --plans "$dir" "${photo[@]}" "${extra[@]}" --set "$set" --count \
         --csv "$out/count-$set.csv" >"$out/count-$set.log" 2>&1; then
      counts+=("$out/count-$set.log" "$out/count-$set.ncu.csv")
    else
      echo "instruction counts ($set): ncu failed: $(tail -c 300 "$out/count-$set.log")"
    fi
  done
else
  echo "instruction counts: not measured (no ncu, or ARVR_BENCH_COUNT=0)"
fi

# What a user of the command line sees: one 4K PNG through `arvrc run`
# (file reading and writing, compilation and module load included).
python3 -c "import cv2,sys; cv2.imwrite(sys.argv[2], cv2.resize(cv2.imread(sys.argv[1]), (3840, 2160)))" \
  "$src/tests/data/baboon.jpg" "$out/4k.png" &&
for k in lens_undistort gaussian_blur; do
  start=$(date +%s%N)
  "$arvrc" run "$src/examples/$k.arvr" -i "$out/4k.png" -o "$out/4k-$k.png" --target cuda >/dev/null
  end=$(date +%s%N)
  echo "# arvrc run $k on a 4K PNG (CLI, wall clock): $(( (end - start) / 1000000 )) ms" | tee -a "$out/machine.txt"
done
rm -rf "$out/4k.png" "$out"/4k-*.png
# ARVR_BENCH_KEEP=1 keeps arvr_bench and the PTX it read, for Nsight Compute
# afterwards (bench/README.md).
[ "${ARVR_BENCH_KEEP:-0}" = 1 ] || rm -rf "$out/photo.ppm" "$out/arvr_bench" "$out/ptx" "$out/ptx-more"

python3 "$src/bench/report.py" "$out/bench.csv" "$out/compile.csv" "$out/machine.txt" \
  "$out/results.md" "$out/chart.png" "${counts[@]}"
exit "$status"
