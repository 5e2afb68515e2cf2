// The CPU pipeline: the same loops, computing a band of rows given by two
// arguments before the output, lowered to the LLVM dialect with a C-interface
// wrapper for the ExecutionEngine.
// RUN: arvr-opt %s --arvr-cpu-pipeline | FileCheck %s

// CHECK-LABEL: llvm.func @invert(
// CHECK: llvm.load
// CHECK: llvm.xor
// CHECK: llvm.store
// CHECK-LABEL: llvm.func @_mlir_ciface_invert(
// CHECK-SAME: %{{.+}}: !llvm.ptr, %{{.+}}: i64 {arvr.name = "row_begin"}, %{{.+}}: i64 {arvr.name = "row_end"}, %{{.+}}: !llvm.ptr {arvr.output = 0 : i64})
// CHECK: llvm.call @invert(
// CHECK-NOT: {{(= |^ *)arvr\.}}
// CHECK-NOT: scf.
// CHECK-NOT: memref.
arvr.kernel @invert(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %h = arvr.dim %src height : !arvr.image<ui8, ?>
  %c = arvr.dim %src channels : !arvr.image<ui8, ?>
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] in_bounds : !arvr.image<ui8, ?>
    %m = arith.constant -1 : i8
    %r = arith.xori %v, %m : i8
    arvr.yield %r : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}
