#!/usr/bin/env bash
# GPU tests of the runtime library (libarvr_runtime, bundled under lib/ and
# include/ beside bin/arvrc): tests/runtime/gpu_run.cpp, built with nvcc,
# launches kernels through it on frames it uploads, three at a time (the
# Gaussian, built without its values, and the lens each one launch per
# kernel for all three: batch grid-z; the Gaussian's weight tables computed
# by launches that use no frame), and each frame must be the CPU's output
# of `arvrc run`, byte for
# byte; then once more under memcheck. Called by scripts/gpu-tests.sh.
#
#   scripts/gpu-runtime-tests.sh ARVRC SOURCE_DIR OUT_DIR
#
# Exit: 0 all agree, 1 a failure, 77 no runtime library or nvcc here.
set -u
arvrc=${1:?usage: gpu-runtime-tests.sh ARVRC SOURCE_DIR OUT_DIR}
src=${2:?source dir}
out=${3:?output dir}
runs=0
failures=0
runtime_dir=$(dirname "$arvrc")/..
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ -f "$runtime_dir/lib/libarvr_runtime.so.1" ] && [ -x "$nvcc" ]; then
  mkdir -p "$out"
  lens_params="fx=535.915733961632 fy=535.915733961632 cx=342.283154737084
    cy=235.570829097882 k1=-0.266372609096607 k2=-0.0385888989223047
    p1=0.00178319470428530 p2=-0.000281221004411155 k3=0.238391530808785
    ca_red=0.9975 ca_blue=0.995"
  if "$nvcc" -O2 -std=c++17 -I"$runtime_dir/include" "$src/tests/runtime/gpu_run.cpp" \
       -L"$runtime_dir/lib" -l:libarvr_runtime.so.1 -Xlinker -rpath="$runtime_dir/lib" \
       -o "$out/gpu_run" &&
     python3 - "$src/tests/data/baboon.jpg" "$out" <<'PY'
import cv2, sys
image = cv2.imread(sys.argv[1])
for i in range(3):
    crop = image[i * 9:i * 9 + 300, i * 13:i * 13 + 400]
    cv2.imwrite(f"{sys.argv[2]}/f{i}.ppm", cv2.resize(crop, (641, 479)))
PY
  then
    for kernel in gaussian_blur lens_undistort; do
      runs=$((runs + 1))
      params="sigma=2 radius=4"
      # The lens's proof launch (a table from the parameters alone, which
      # the library skips when run again alike) is first run with no
      # distortion (every block proved inside but the last column's and
      # row's); then the launch whose frames are compared has a strong
      # pincushion (k1 = 0.8: 93976 of the 641x479 pixels sample outside,
      # black), so a table kept from the first launch would send those
      # blocks' samples out of the image: the proof must run again.
      [ "$kernel" = lens_undistort ] &&
        params="${lens_params/k1=-0.266372609096607/k1=0.8} --first k1=0 k2=0 k3=0 p1=0 p2=0"
      cpu_params=()
      for p in $params; do
        [ "$p" = --first ] && break
        cpu_params+=(-p "$p")
      done
      d=$out/$kernel
      mkdir -p "$d"
      # shellcheck disable=SC2086
      if "$arvrc" build "$src/examples/$kernel.arvr" -o "$d/k.ptx" &&
         "$out/gpu_run" "$d/k.plan.json" "$d/gpu" $params -- \
           "$out/f0.ppm" "$out/f1.ppm" "$out/f2.ppm"; then
        differ=0
        for i in 0 1 2; do
          "$arvrc" run "$src/examples/$kernel.arvr" -i "$out/f$i.ppm" \
            -o "$d/cpu$i.png" --target cpu "${cpu_params[@]}" >/dev/null &&
            "$arvrc" compare "$d/gpu$i.ppm" "$d/cpu$i.png" --max-abs 0 >/dev/null ||
            differ=$((differ + 1))
        done
        echo "runtime library, $kernel: 3 frames in one call, $differ differ from the CPU"
        [ "$differ" -eq 0 ] || failures=$((failures + 1))
        if command -v compute-sanitizer >/dev/null; then
          runs=$((runs + 1))
          # shellcheck disable=SC2086
          if compute-sanitizer --tool memcheck --error-exitcode 9 "$out/gpu_run" \
               "$d/k.plan.json" "$d/mc" $params -- "$out/f0.ppm" \
               "$out/f1.ppm" >"$d/memcheck.log" 2>&1; then
            echo "runtime library, $kernel: memcheck clean"
          else
            echo "runtime library, $kernel: memcheck FAILED"; tail -5 "$d/memcheck.log"
            failures=$((failures + 1))
          fi
        fi
      else
        echo "runtime library, $kernel: FAILED"
        failures=$((failures + 1))
      fi
    done
    # examples/embed as its CMake project builds it, with nvcc: the
    # Gaussian as a CPU object linked in, and as PTX for --gpu; three
    # frames in one call each way, the GPU's identical to the CPU's.
    runs=$((runs + 1))
    e=$out/embed
    mkdir -p "$e/gpu"
    if "$arvrc" build "$src/examples/gaussian_blur.arvr" --target cpu --emit=obj -o "$e/gaussian_blur.o" &&
       "$arvrc" build "$src/examples/gaussian_blur.arvr" -o "$e/gpu/gaussian_blur.ptx" &&
       "$nvcc" -O2 -std=c++17 -DEMBED_CUDA -DEMBED_GPU_PLAN="\"$e/gpu/gaussian_blur.plan.json\"" \
         -I"$e" -I"$runtime_dir/include" "$src/examples/embed/embed.cpp" "$e/gaussian_blur.o" \
         -L"$runtime_dir/lib" -l:libarvr_runtime.so.1 -Xlinker -rpath="$runtime_dir/lib" -lm \
         -o "$e/embed" &&
       "$e/embed" "$out/f0.ppm" "$e/c0.ppm" "$out/f1.ppm" "$e/c1.ppm" "$out/f2.ppm" "$e/c2.ppm" &&
       "$e/embed" --gpu "$out/f0.ppm" "$e/g0.ppm" "$out/f1.ppm" "$e/g1.ppm" "$out/f2.ppm" "$e/g2.ppm"; then
      differ=0
      for i in 0 1 2; do
        "$arvrc" compare "$e/g$i.ppm" "$e/c$i.ppm" --max-abs 0 >/dev/null || differ=$((differ + 1))
      done
      echo "examples/embed: 3 frames on the GPU and on the CPU object, $differ differ"
      [ "$differ" -eq 0 ] || failures=$((failures + 1))
    else
      echo "examples/embed: FAILED"
      failures=$((failures + 1))
    fi
  else
    echo "runtime library: could not build tests/runtime/gpu_run.cpp or its frames"
    failures=$((failures + 1))
  fi
else
  echo "runtime library: not in this bundle (lib/libarvr_runtime.so.1) or no nvcc: not tested"
  exit 77
fi
echo "runtime library: $runs runs, $failures failed"
[ "$failures" -eq 0 ]
