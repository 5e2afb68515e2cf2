// arvr-fast-reciprocal: a division by a constant or by a value defined
// outside every loop becomes a product by its reciprocal (computed once);
// a division by a value that changes per point stays.
// RUN: arvr-opt %s --arvr-fast-reciprocal | FileCheck %s

// CHECK-LABEL: func.func @by_constant
// CHECK-NOT: arith.divf
// CHECK: %[[R:.+]] = arith.constant 2.500000e-01 : f32
// CHECK: arith.mulf %{{.+}}, %[[R]] : f32
func.func @by_constant(%x: f32) -> f32 {
  %c = arith.constant 4.0 : f32
  %q = arith.divf %x, %c : f32
  return %q : f32
}

// CHECK-LABEL: func.func @by_parameter
// CHECK-SAME: (%[[M:.+]]: memref<8xf32>, %[[D:.+]]: f32)
// The reciprocal of the parameter, and of arithmetic of it computed in the
// loop, before each product; the division by the loaded value stays.
// CHECK: scf.for
// CHECK: %[[V:.+]] = memref.load
// CHECK: %[[R:.+]] = arith.divf %{{.+}}, %[[D]] : f32
// CHECK: %[[Q:.+]] = arith.mulf %[[V]], %[[R]] : f32
// CHECK: %[[D2:.+]] = arith.mulf %[[D]], %[[D]] : f32
// CHECK: %[[R2:.+]] = arith.divf %{{.+}}, %[[D2]] : f32
// CHECK: %[[Q2:.+]] = arith.mulf %[[Q]], %[[R2]] : f32
// CHECK: arith.divf %[[Q2]], %[[V]] : f32
func.func @by_parameter(%m: memref<8xf32>, %d: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %m[%i] : memref<8xf32>
    %q = arith.divf %v, %d : f32
    %dd = arith.mulf %d, %d : f32
    %q2 = arith.divf %q, %dd : f32
    %w = arith.divf %q2, %v : f32
    memref.store %w, %m[%i] : memref<8xf32>
  }
  return
}
