// arvr-map-to-gpu leaves no image to be written on the host: a loop it
// cannot map (here, one not starting at 0) is an error, not host code.
// RUN: arvr-opt %s -split-input-file --arvr-map-to-gpu -verify-diagnostics

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

// -----

// A loop of a stage in shared memory needs one reading loop to fuse with.
func.func @shared_unread(%h: index, %w: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = arith.constant 1.0 : f32
  %buf = memref.alloc(%h, %w) : memref<?x?x1xf32>
  // expected-error @+1 {{a stage scheduled in shared memory could not be fused with its reader}}
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    memref.store %v, %buf[%y, %x, %c0] : memref<?x?x1xf32>
    scf.reduce
  } {arvr.schedule = #arvr.loop<stage = "t" shared = true>}
  memref.dealloc %buf : memref<?x?x1xf32>
  return
}
