// arvr-map-to-gpu leaves no image to be written on the host: a loop it
// cannot map (here, one not starting at 0) is an error, not host code.
// RUN: arvr-opt %s --arvr-map-to-gpu -verify-diagnostics

func.func @offset(%out: memref<?x?xi8>, %h: index, %w: index) {
  %c1 = arith.constant 1 : index
  %v = arith.constant 7 : i8
  scf.parallel (%y, %x) = (%c1, %c1) to (%h, %w) step (%c1, %c1) {
    // expected-error @+1 {{internal compiler error: an image is written outside the GPU kernels}}
    memref.store %v, %out[%y, %x] : memref<?x?xi8>
    scf.reduce
  }
  return
}
