# Sourced by bench/run.sh and bench/sass.sh: what each example is compiled
# for in the benchmark (arvrc build --specialize), the frames it runs on
# and the values the hand kernels are written for: 3-channel frames, and
# the Gaussian's sigma 2 and radius 4.
# shellcheck disable=SC2034
declare -A known=(
  [lens_undistort]="--specialize src.channels=3"
  [gaussian_blur]="--specialize src.channels=3 --specialize sigma=2 --specialize radius=4"
  [nv12_to_rgb]=""
  [bilateral]="--specialize sigma_color=30 --specialize sigma_space=5"
  [harris]="--specialize k=0.04"
  [pyr_down]="--specialize src.channels=3"
  [stereo_sad]="--specialize max_d=63"
  [warp_perspective]="--specialize src.channels=3"
)
# The second set (arvr_bench --set more): five more examples.
more_examples=(bilateral harris pyr_down stereo_sad warp_perspective)
