#!/usr/bin/env bash
# Builds the lens variants of issue 15's open questions as bench extras
# (KERNEL@LABEL.ptx, .manifest, .plan.json: bench/README.md, "A compiler
# change can be measured"), each examples/lens_undistort.arvr built for the
# bench (`--specialize src.channels=3`), some with another schedule, the
# flag `--stage-samples`, or a probe's edit of the PTX:
#
#   main        ARVRC's lens as it is (a reference when the bundle differs)
#   p8          gpu_pixels(8): 16 points a thread
#   p4magic     gpu_pixels(4), floors as a rounding addition (lens_magic_floor.py)
#   p4magicm8   the same at `.minnctapersm 8` (64 registers)
#   s2, s4      --stage-samples with gpu_pixels(2) and (4)
#   s2async ... the staged copy as cp.async, its barrier later
#               (lens_async_staging.py async|late|late3)
#   warp_perspective@main
# and, given BRANCH_ARVRC (the branch floors-after-proofs' arvrc):
#   tfm8        its lens at `.minnctapersm 8`
#   tfp4, tfp4m8  gpu_pixels(4), at 56 and 64 registers
#   tfs2late3, tfs4late3  staged with its floors, the late barrier
# and, given STAGING_ARVRC (the branch async-staging's arvrc, whose
# --stage-samples copies with cp.async and computes the first point's
# arithmetic while the copies fly, as the probe's late3 does by hand):
#   sc2, sc4    its --stage-samples with gpu_pixels(2) and (4)
#
#   bench/probes/lens-variants.sh ARVRC OUTDIR [BRANCH_ARVRC [STAGING_ARVRC]]
#
# Then on the GPU machine, with a bundle: ARVR_BENCH_EXTRA=OUTDIR
# ARVR_BENCH_ONLY=lens_undistort,warp_perspective bench/run.sh ... (the
# bench checks every extra's output against arvrc's before timing it).
set -eu
arvrc=${1:?usage: lens-variants.sh ARVRC OUTDIR [BRANCH_ARVRC [STAGING_ARVRC]]}
out=${2:?output folder}
branch=${3:-}
staging_arvrc=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# place PTX MANIFEST PLAN NAME: OUTDIR/NAME.{ptx,manifest,plan.json} from a
# build's (or a derived PTX with its source's manifest and plan), both naming
# NAME.ptx as their PTX.
place() {
  [ "$1" = "$out/$4.ptx" ] || cp "$1" "$out/$4.ptx"
  sed "s|^ptx .*|ptx $4.ptx|" "$2" > "$out/$4.manifest"
  sed "s|\"file\": \"[^\"]*\"|\"file\": \"$4.ptx\"|" "$3" > "$out/$4.plan.json"
}

# build COMPILER SOURCE NAME [FLAGS...]: SOURCE built as NAME.
build() {
  local compiler=$1 source=$2 name=$3
  shift 3
  "$compiler" build "$source" --specialize src.channels=3 "$@" -o "$work/out" > /dev/null
  place "$work/out" "$work/out.manifest" "$work/out.plan.json" "$name"
}

# variant COMPILER LABEL PIXELS [FLAGS...]: the lens with gpu_pixels(PIXELS).
variant() {
  local compiler=$1 label=$2 pixels=$3
  shift 3
  sed "s/out.gpu_pixels([0-9]*)/out.gpu_pixels($pixels)/" \
    "$root/examples/lens_undistort.arvr" > "$work/lens_undistort.arvr"
  build "$compiler" "$work/lens_undistort.arvr" "lens_undistort@$label" "$@"
}

# derive FROM LABEL COMMAND...: LABEL's PTX is COMMAND IN OUT on FROM's.
derive() {
  local from=$out/lens_undistort@$1 label=$2
  shift 2
  "$@" "$from.ptx" "$out/lens_undistort@$label.ptx"
  place "$out/lens_undistort@$label.ptx" "$from.manifest" "$from.plan.json" \
    "lens_undistort@$label"
}

# The main kernel's `.minnctapersm` (the first one after its entry) as 8.
m8() {
  awk '/^\.visible \.entry lens_undistort_out\(/ { f = 1 }
       f && /\.minnctapersm/ { sub(/[0-9]+/, "8"); f = 0 } { print }' "$1" > "$2"
}
staging() { python3 "$here/lens_async_staging.py" "$1" "$2" "$form"; }
magic() { python3 "$here/lens_magic_floor.py" "$1" "$2"; }

variant "$arvrc" main 2
variant "$arvrc" p8 8
variant "$arvrc" p4 4
derive p4 p4magic magic
derive p4magic p4magicm8 m8
rm "$out"/lens_undistort@p4.*
for pixels in 2 4; do
  variant "$arvrc" "s$pixels" "$pixels" --stage-samples
  for form in async late late3; do
    derive "s$pixels" "s$pixels$form" staging
  done
done
build "$arvrc" "$root/examples/warp_perspective.arvr" warp_perspective@main

if [ -n "$branch" ]; then
  variant "$branch" tf 2
  derive tf tfm8 m8
  rm "$out"/lens_undistort@tf.*
  variant "$branch" tfp4 4
  derive tfp4 tfp4m8 m8
  form=late3
  for pixels in 2 4; do
    variant "$branch" "tfs$pixels" "$pixels" --stage-samples
    derive "tfs$pixels" "tfs${pixels}late3" staging
    rm "$out/lens_undistort@tfs$pixels".*
  done
fi
if [ -n "$staging_arvrc" ]; then
  for pixels in 2 4; do
    variant "$staging_arvrc" "sc$pixels" "$pixels" --stage-samples
  done
fi
ls "$out"
