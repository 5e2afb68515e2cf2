#!/usr/bin/env bash
# On the GPU machine: assembles the three examples as the benchmark builds
# them (arvrc build --emit=cubin, with the bench's --specialize values) and
# counts the SASS instructions of each kernel (cuobjdump -sass), a static
# count: every path of the kernel, interior and border versions together.
#
#   bench/sass.sh ARVRC SOURCE_DIR OUT_DIR
set -uo pipefail
arvrc=${1:?usage: bench/sass.sh ARVRC SOURCE_DIR OUT_DIR}
src=${2:?source dir}
out=${3:?output dir}
mkdir -p "$out"
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
# shellcheck source=bench/known-values.sh
source "$(dirname "$0")/known-values.sh"
for k in lens_undistort gaussian_blur nv12_to_rgb; do
  # shellcheck disable=SC2086
  "$arvrc" build "$src/examples/$k.arvr" ${known[$k]} --emit=cubin \
    -o "$out/$k.cubin" --manifest "$out/$k.manifest" || exit 1
  "$cuobjdump" -sass "$out/$k.cubin" >"$out/$k.sass" || exit 1
  # One line per function: its name and its instruction count.
  awk -v k="$k" '/Function :/ { f = $3 }
       /^ +\/\*[0-9a-f]{4}\*\// && f != "" { n[f]++ }
       END { for (f in n) printf "%s %s %d\n", k, f, n[f] }' "$out/$k.sass"
done | tee "$out/sass-counts.txt"
