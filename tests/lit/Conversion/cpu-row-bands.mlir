// arvr-cpu-row-bands: kernel functions take the band of rows they compute.
// RUN: arvr-opt %s --arvr-cpu-row-bands | FileCheck %s

// CHECK-LABEL: func.func @k
// CHECK-SAME: (%[[OUT:[^:]+]]: memref<?x?xi8>, %[[H:[^:]+]]: index, %[[W:[^:]+]]: index, %[[BEGIN:[^:]+]]: index {arvr.name = "row_begin"}, %[[END:[^:]+]]: index {arvr.name = "row_end"})
func.func @k(%out: memref<?x?xi8>, %h: index, %w: index) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = arith.constant 7 : i8
  // CHECK: %[[LO:.+]] = arith.maxsi %{{.+}}, %[[BEGIN]] : index
  // CHECK: %[[HI:.+]] = arith.minsi %[[H]], %[[END]] : index
  // CHECK: scf.parallel (%{{.+}}, %{{.+}}) = (%[[LO]], %{{.+}}) to (%[[HI]], %[[W]])
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    memref.store %v, %out[%y, %x] : memref<?x?xi8>
    scf.reduce
  }
  return
}

// Functions that are not kernels keep their signature.
// CHECK-LABEL: func.func @helper(%{{.+}}: index) {
func.func @helper(%n: index) {
  return
}
