// arvr-redundant-clamps: float clamps that an interval analysis proves
// idle go; those it cannot prove stay.
// RUN: arvr-opt %s --arvr-redundant-clamps | FileCheck %s

// A blur of bytes by weights summing to 1 (0.25 + 0.5 + 0.25), through an
// intermediate buffer, then u8_sat: its values lie in [0, 255] give or
// take rounding, so the rounding alone gives the byte.
// CHECK-LABEL: func.func @normalised
// CHECK: memref.store %{{.+}}, %[[BUF:.+]][
// CHECK: %[[V:.+]] = memref.load %[[BUF]]
// CHECK-NEXT: %[[R:.+]] = math.roundeven %[[V]] : f32
// CHECK-NEXT: arith.fptoui %[[R]] : f32 to i8
// CHECK-NOT: arith.minnumf
// CHECK-NOT: arith.maxnumf
// CHECK: return
func.func @normalised(%src: memref<?xi8>, %dst: memref<?xi8>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %top = arith.constant 255.0 : f32
  %quarter = arith.constant 0.25 : f32
  %half = arith.constant 0.5 : f32
  %buf = memref.alloc(%n) : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %a = memref.load %src[%i] : memref<?xi8>
    %j = arith.addi %i, %c1 : index
    %b = memref.load %src[%j] : memref<?xi8>
    %k = arith.addi %i, %c2 : index
    %c = memref.load %src[%k] : memref<?xi8>
    %fa = arith.uitofp %a : i8 to f32
    %fb = arith.uitofp %b : i8 to f32
    %fc = arith.uitofp %c : i8 to f32
    %s0 = math.fma %quarter, %fa, %zero : f32
    %s1 = math.fma %half, %fb, %s0 : f32
    %s2 = math.fma %quarter, %fc, %s1 : f32
    memref.store %s2, %buf[%i] : memref<?xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %buf[%i] : memref<?xf32>
    %lo = arith.maxnumf %v, %zero : f32
    %hi = arith.minnumf %lo, %top : f32
    %r = math.roundeven %hi : f32
    %u = arith.fptoui %r : f32 to i8
    memref.store %u, %dst[%i] : memref<?xi8>
    scf.reduce
  }
  memref.dealloc %buf : memref<?xf32>
  return
}

// Weights summing to 1.2: values up to 306, so the upper clamp stays, and
// with it the lower one inside it (a chain under a rounding goes from the
// outside in), though the values are never negative.
// CHECK-LABEL: func.func @brighter
// CHECK: %[[LO:.+]] = arith.maxnumf %{{.+}}, %{{.+}} : f32
// CHECK-NEXT: %[[HI:.+]] = arith.minnumf %[[LO]], %{{.+}} : f32
// CHECK-NEXT: math.roundeven %[[HI]] : f32
func.func @brighter(%src: memref<?xi8>, %dst: memref<?xi8>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %top = arith.constant 255.0 : f32
  %w = arith.constant 0.6 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %a = memref.load %src[%i] : memref<?xi8>
    %j = arith.addi %i, %c1 : index
    %b = memref.load %src[%j] : memref<?xi8>
    %fa = arith.uitofp %a : i8 to f32
    %fb = arith.uitofp %b : i8 to f32
    %p = arith.mulf %w, %fa : f32
    %s = math.fma %w, %fb, %p : f32
    %lo = arith.maxnumf %s, %zero : f32
    %hi = arith.minnumf %lo, %top : f32
    %r = math.roundeven %hi : f32
    %u = arith.fptoui %r : f32 to i8
    memref.store %u, %dst[%i] : memref<?xi8>
    scf.reduce
  }
  return
}

// A parameter's value is unknown (it may be NaN): its clamps stay. A clamp
// outside any rounding goes where the range proves it: a byte minus 300 is
// below 0, and a byte is at least -1. A byte's max with 0 stays (a value
// that may be 0 against a bound of 0: -0 and +0).
// CHECK-LABEL: func.func @unknown
// CHECK: %[[P:.+]] = arith.mulf %{{.+}}, %arg3 : f32
// CHECK-NEXT: %[[LO:.+]] = arith.maxnumf %[[P]], %{{.+}} : f32
// CHECK-NEXT: arith.minnumf %[[LO]], %{{.+}} : f32
// CHECK: %[[D:.+]] = arith.subf %[[F:.+]], %{{.+}} : f32
// CHECK-NOT: arith.minnumf %[[D]]
// CHECK-NOT: arith.maximumf %[[F]]
// CHECK: memref.store %[[D]], %arg2
// CHECK: memref.store %[[F]], %arg2
// CHECK: %[[Z:.+]] = arith.maxnumf %[[F]], %{{.+}} : f32
// CHECK: memref.store %[[Z]], %arg2
func.func @unknown(%src: memref<?xi8>, %dst: memref<?xi8>, %out: memref<?xf32>,
                   %gain: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %top = arith.constant 255.0 : f32
  %minus1 = arith.constant -1.0 : f32
  %c300 = arith.constant 300.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %a = memref.load %src[%i] : memref<?xi8>
    %fa = arith.uitofp %a : i8 to f32
    %p = arith.mulf %fa, %gain : f32
    %lo = arith.maxnumf %p, %zero : f32
    %hi = arith.minnumf %lo, %top : f32
    %r = math.roundeven %hi : f32
    %u = arith.fptoui %r : f32 to i8
    memref.store %u, %dst[%i] : memref<?xi8>
    %d = arith.subf %fa, %c300 : f32
    %m = arith.minnumf %d, %zero : f32
    memref.store %m, %out[%i] : memref<?xf32>
    %g = arith.maximumf %minus1, %fa : f32
    memref.store %g, %out[%i] : memref<?xf32>
    %z = arith.maxnumf %fa, %zero : f32
    memref.store %z, %out[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

// A rounding whose result is used as a float (a -0 for a +0 would show):
// its clamps stay, though the values are in range.
// CHECK-LABEL: func.func @float_use
// CHECK: arith.maxnumf
// CHECK: arith.minnumf
// CHECK: math.roundeven
func.func @float_use(%src: memref<?xi8>, %out: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %top = arith.constant 255.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %a = memref.load %src[%i] : memref<?xi8>
    %fa = arith.uitofp %a : i8 to f32
    %lo = arith.maxnumf %fa, %zero : f32
    %hi = arith.minnumf %lo, %top : f32
    %r = math.roundeven %hi : f32
    memref.store %r, %out[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

// A tile in a launch's dynamic shared memory (arvr-map-to-gpu's) is a
// buffer too: half a byte, read back, needs no clamp.
// CHECK-LABEL: func.func @shared_tile
// CHECK: gpu.barrier
// CHECK-NEXT: %[[V:.+]] = memref.load
// CHECK-NEXT: %[[R:.+]] = math.roundeven %[[V]] : f32
// CHECK-NEXT: arith.fptoui %[[R]] : f32 to i8
func.func @shared_tile(%src: memref<?xi8>, %dst: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %bytes = arith.constant 256 : i32
  %zero = arith.constant 0.0 : f32
  %top = arith.constant 255.0 : f32
  %half = arith.constant 0.5 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %bytes {
    %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %tile = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
    %a = memref.load %src[%tx] : memref<?xi8>
    %fa = arith.uitofp %a : i8 to f32
    %h = arith.mulf %half, %fa : f32
    memref.store %h, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %v = memref.load %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    %lo = arith.maxnumf %v, %zero : f32
    %hi = arith.minnumf %lo, %top : f32
    %r = math.roundeven %hi : f32
    %u = arith.fptoui %r : f32 to i8
    memref.store %u, %dst[%tx] : memref<?xi8>
    gpu.terminator
  }
  return
}

// A bilinear sample of bytes at an unknown coordinate: the taps come from
// an scf.if (read, or the border's 0), the fractions are u - floor(u) (in
// [0, 1], or NaN for an infinite or NaN u), and the lerps lie between
// their ends or are NaN. Under u8_sat's rounding the clamp at 255 goes
// (maxnumf turns NaN into 0 first, so what the min reads is in
// [0, 255]); the clamp at 0 stays, as the lerp may be NaN.
// CHECK-LABEL: func.func @bilinear
// CHECK: scf.yield
// CHECK: math.fma
// CHECK: math.fma
// CHECK: %[[X:.+]] = math.fma %{{.+}}, %{{.+}}, %{{.+}} : f32
// CHECK-NEXT: %[[LO:.+]] = arith.maxnumf %[[X]], %{{.+}} : f32
// CHECK-NEXT: %[[R:.+]] = math.roundeven %[[LO]] : f32
// CHECK-NEXT: arith.fptoui %[[R]] : f32 to i8
// CHECK-NOT: arith.minnumf
// CHECK: return
func.func @bilinear(%src: memref<?xi8>, %dst: memref<?xi8>, %u: f32,
                    %v: f32, %inside: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %top = arith.constant 255.0 : f32
  %fu = math.floor %u : f32
  %fv = math.floor %v : f32
  %tu = arith.subf %u, %fu : f32
  %tv = arith.subf %v, %fv : f32
  %taps:4 = scf.if %inside -> (f32, f32, f32, f32) {
    %a = memref.load %src[%c0] : memref<?xi8>
    %b = memref.load %src[%c1] : memref<?xi8>
    %c = memref.load %src[%c2] : memref<?xi8>
    %d = memref.load %src[%c3] : memref<?xi8>
    %fa = arith.uitofp %a : i8 to f32
    %fb = arith.uitofp %b : i8 to f32
    %fc = arith.uitofp %c : i8 to f32
    %fd = arith.uitofp %d : i8 to f32
    scf.yield %fa, %fb, %fc, %fd : f32, f32, f32, f32
  } else {
    scf.yield %zero, %zero, %zero, %zero : f32, f32, f32, f32
  }
  %d0 = arith.subf %taps#1, %taps#0 : f32
  %top0 = math.fma %tu, %d0, %taps#0 : f32
  %d1 = arith.subf %taps#3, %taps#2 : f32
  %top1 = math.fma %tu, %d1, %taps#2 : f32
  %d2 = arith.subf %top1, %top0 : f32
  %x = math.fma %tv, %d2, %top0 : f32
  %lo = arith.maxnumf %x, %zero : f32
  %hi = arith.minnumf %lo, %top : f32
  %r = math.roundeven %hi : f32
  %y = arith.fptoui %r : f32 to i8
  memref.store %y, %dst[%c0] : memref<?xi8>
  return
}

// Not lerps: a weight that is no fraction (a parameter, maybe above 1),
// and an fma whose addend is not the difference's second operand. Their
// chains stay whole.
// CHECK-LABEL: func.func @not_lerps
// CHECK: arith.maxnumf
// CHECK-NEXT: arith.minnumf
// CHECK-NEXT: math.roundeven
// CHECK: arith.maxnumf
// CHECK-NEXT: arith.minnumf
// CHECK-NEXT: math.roundeven
// CHECK: return
func.func @not_lerps(%src: memref<?xi8>, %dst: memref<?xi8>, %w: f32,
                     %u: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %top = arith.constant 255.0 : f32
  %a = memref.load %src[%c0] : memref<?xi8>
  %b = memref.load %src[%c1] : memref<?xi8>
  %fa = arith.uitofp %a : i8 to f32
  %fb = arith.uitofp %b : i8 to f32
  %d = arith.subf %fb, %fa : f32
  %x = math.fma %w, %d, %fa : f32
  %lo = arith.maxnumf %x, %zero : f32
  %hi = arith.minnumf %lo, %top : f32
  %r = math.roundeven %hi : f32
  %y = arith.fptoui %r : f32 to i8
  memref.store %y, %dst[%c0] : memref<?xi8>
  %fu = math.floor %u : f32
  %t = arith.subf %u, %fu : f32
  %x2 = math.fma %t, %d, %fb : f32
  %lo2 = arith.maxnumf %x2, %zero : f32
  %hi2 = arith.minnumf %lo2, %top : f32
  %r2 = math.roundeven %hi2 : f32
  %y2 = arith.fptoui %r2 : f32 to i8
  memref.store %y2, %dst[%c1] : memref<?xi8>
  return
}

// A chain goes from the outside in: a byte minus 5 is in [-5, 250], so
// the clamp at 255 goes and the clamp at 0 (which it needs) stays.
// CHECK-LABEL: func.func @outer_only
// CHECK: %[[D:.+]] = arith.subf
// CHECK-NEXT: %[[LO:.+]] = arith.maxnumf %[[D]], %{{.+}} : f32
// CHECK-NEXT: math.roundeven %[[LO]] : f32
// CHECK-NOT: arith.minnumf
// CHECK: return
func.func @outer_only(%src: memref<?xi8>, %dst: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %top = arith.constant 255.0 : f32
  %five = arith.constant 5.0 : f32
  %a = memref.load %src[%c0] : memref<?xi8>
  %fa = arith.uitofp %a : i8 to f32
  %d = arith.subf %fa, %five : f32
  %lo = arith.maxnumf %d, %zero : f32
  %hi = arith.minnumf %lo, %top : f32
  %r = math.roundeven %hi : f32
  %y = arith.fptoui %r : f32 to i8
  memref.store %y, %dst[%c0] : memref<?xi8>
  return
}
