// RUN: arvr-opt %s --arvr-host-uniforms | FileCheck %s

// The lens's shape: a launch divides an aberration factor by a focal
// length, takes the reciprocal of the other and doubles a coefficient, all
// of parameters alone. Those, and a fused multiply-add of them, move before
// the launch (the constants 1 and 2 copied out with them; the body keeps
// its own); the kernel uses their results. A sine of a parameter stays (the
// host's libm is not the GPU's), and so does the product that uses it; an
// addition with fast-math flags stays (the GPU may contract it), as does
// one with an infinite constant (the plan writes numbers only); what reads
// the thread id stays.
// CHECK-LABEL: func.func @lens_like
// CHECK-SAME: (%[[OUT:[^:]+]]: memref<64xf32>, %[[CA:[^:]+]]: f32, %[[FX:[^:]+]]: f32, %[[FY:[^:]+]]: f32, %[[P1:[^:]+]]: f32
// CHECK: %[[S:.+]] = arith.divf %[[CA]], %[[FX]] : f32
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.0
// CHECK-NEXT: %[[R:.+]] = arith.divf %[[ONE]], %[[FY]] : f32
// CHECK-NEXT: %[[TWO:.+]] = arith.constant 2.0
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[TWO]], %[[P1]] : f32
// CHECK-NEXT: %[[F:.+]] = math.fma %[[S]], %[[R]], %[[P]] : f32
// CHECK-NEXT: gpu.launch
// CHECK-NOT: arith.divf
// CHECK: math.sin %[[CA]]
// CHECK: arith.mulf %{{.+}}, %[[S]] : f32
// CHECK: arith.addf %[[P]], %[[F]] fastmath<contract> : f32
// CHECK: arith.addf %[[P]], %{{.+}} : f32
// CHECK: arith.mulf %{{.+}}, %[[R]] : f32
// CHECK: arith.addf %{{.+}}, %[[F]] : f32
// CHECK: gpu.terminator
func.func @lens_like(%out: memref<64xf32>, %ca: f32, %fx: f32, %fy: f32,
                     %p1: f32) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %inf = arith.constant 0x7F800000 : f32
    %s = arith.divf %ca, %fx : f32
    %r = arith.divf %one, %fy : f32
    %p = arith.mulf %two, %p1 : f32
    %f = math.fma %s, %r, %p : f32
    %sin = math.sin %ca : f32
    %k = arith.mulf %sin, %s : f32
    %c = arith.addf %p, %f fastmath<contract> : f32
    %i = arith.addf %p, %inf : f32
    %t = arith.index_cast %tx : index to i32
    %x = arith.sitofp %t : i32 to f32
    %v = arith.mulf %x, %r : f32
    %w = arith.addf %v, %f : f32
    %u = arith.addf %w, %k : f32
    %y = arith.addf %u, %c : f32
    %z = arith.addf %y, %i : f32
    memref.store %z, %out[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}

// Nothing of parameters alone: the launch is left as it is.
// CHECK-LABEL: func.func @nothing
// CHECK-NEXT: arith.constant
// CHECK-NEXT: gpu.launch
func.func @nothing(%out: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    %x = arith.sitofp %t : i32 to f32
    memref.store %x, %out[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}
