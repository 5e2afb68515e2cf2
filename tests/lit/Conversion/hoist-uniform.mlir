// RUN: arvr-opt %s --arvr-hoist-uniform | FileCheck %s

// Two points, each in its guard, compute sin(angle) * 2 from the parameter
// `angle` and scale their own coordinate by it: the sine and the product
// move to the top of the launch (a copy of the constant 2 with them), and
// one of each is left. What depends on the thread id, on a load, an
// integer division that may trap and index arithmetic stay in the guards.
// CHECK-LABEL: func.func @two_points
// CHECK-SAME: (%[[OUT:[^:]+]]: memref<64xf32>, %[[ANGLE:[^:]+]]: f32, %[[N:[^:]+]]: i32, %[[D:[^:]+]]: i32
// CHECK: gpu.launch
// CHECK-NEXT: %[[SIN:.+]] = math.sin %[[ANGLE]] : f32
// CHECK-NEXT: %[[TWO:.+]] = arith.constant 2.0
// CHECK-NEXT: %[[K:.+]] = arith.mulf %[[SIN]], %[[TWO]] : f32
// CHECK-NOT: math.sin
// CHECK: scf.if
// CHECK: arith.divsi %[[N]], %[[D]]
// CHECK: arith.mulf %{{.+}}, %[[K]]
// CHECK: scf.if
// CHECK-NOT: math.sin
// CHECK: arith.divsi %[[N]], %[[D]]
// CHECK: memref.load
// CHECK: arith.mulf %{{.+}}, %[[K]]
// CHECK: gpu.terminator
func.func @two_points(%out: memref<64xf32>, %angle: f32, %n: i32, %d: i32,
                      %in: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %c2 = arith.constant 2 : index
    %limit = arith.constant 60 : index
    %p0 = arith.muli %tx, %c2 : index
    %in0 = arith.cmpi slt, %p0, %limit : index
    scf.if %in0 {
      %two = arith.constant 2.0 : f32
      %s = math.sin %angle : f32
      %k = arith.mulf %s, %two : f32
      %q = arith.divsi %n, %d : i32
      %qf = arith.sitofp %q : i32 to f32
      %i = arith.index_cast %p0 : index to i32
      %f = arith.sitofp %i : i32 to f32
      %g = arith.addf %f, %qf : f32
      %v = arith.mulf %g, %k : f32
      memref.store %v, %out[%p0] : memref<64xf32>
    }
    %p1 = arith.addi %p0, %c1 : index
    %in1 = arith.cmpi slt, %p1, %limit : index
    scf.if %in1 {
      %two = arith.constant 2.0 : f32
      %s = math.sin %angle : f32
      %k = arith.mulf %s, %two : f32
      %q = arith.divsi %n, %d : i32
      %qf = arith.sitofp %q : i32 to f32
      %x = memref.load %in[%p1] : memref<64xf32>
      %g = arith.addf %x, %qf : f32
      %v = arith.mulf %g, %k : f32
      memref.store %v, %out[%p1] : memref<64xf32>
    }
    gpu.terminator
  }
  return
}

// Nothing uniform: the pass changes nothing.
// CHECK-LABEL: func.func @nothing
// CHECK: gpu.launch
// CHECK-NEXT: arith.index_cast
// CHECK-NEXT: arith.sitofp
// CHECK-NEXT: math.sin
func.func @nothing(%out: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %i = arith.index_cast %tx : index to i32
    %f = arith.sitofp %i : i32 to f32
    %s = math.sin %f : f32
    memref.store %s, %out[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}

// A terminator yielding a uniform value stays where it is.
// CHECK-LABEL: func.func @yield
// CHECK: gpu.launch
// CHECK-NEXT: %[[C:.+]] = math.cos
// CHECK: scf.if
// CHECK-NEXT: scf.yield %[[C]]
func.func @yield(%out: memref<64xf32>, %angle: f32) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %c16 = arith.constant 16 : index
    %low = arith.cmpi slt, %tx, %c16 : index
    %v = scf.if %low -> f32 {
      %c = math.cos %angle : f32
      scf.yield %c : f32
    } else {
      %z = arith.constant 0.0 : f32
      scf.yield %z : f32
    }
    memref.store %v, %out[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}
