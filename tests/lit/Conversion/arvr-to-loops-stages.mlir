// convert-arvr-to-loops with an intermediate stage: it is computed over its
// window into a buffer of its own (freed at the end), read back relative to
// the window's origin; a returned stage with a window (a band of rows)
// writes at its place in the output; gpu_block rides on the loop.
// RUN: arvr-opt %s --convert-arvr-to-loops --cse | FileCheck %s

// CHECK-LABEL: func.func @two_stages
// CHECK-SAME: (%[[SRC:[^:]+]]: memref<?x?x?xi8> {arvr.name = "src"}, %[[Y0:[^:]+]]: index, %[[TH:[^:]+]]: index, %[[B:[^:]+]]: index, %[[OUT:[^:]+]]: memref<?x?x?xf32> {arvr.output = 0 : i64})
arvr.kernel @two_stages(%src: !arvr.image<ui8, ?> {arvr.name = "src"}, %y0: index, %th: index, %b: index) -> !arvr.image<f32, ?> {
  %zero = arith.constant 0 : index
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %h = arvr.dim %src height : !arvr.image<ui8, ?>
  %c = arvr.dim %src channels : !arvr.image<ui8, ?>
  // CHECK: %[[C0:.+]] = arith.constant 0 : index
  // CHECK: %[[C1:.+]] = arith.constant 1 : index
  // CHECK: %[[W:.+]] = memref.dim %[[SRC]], %[[C1]]
  // CHECK: %[[C2:.+]] = arith.constant 2 : index
  // CHECK: %[[C:.+]] = memref.dim %[[SRC]], %[[C2]]
  // CHECK: %[[T:.+]] = memref.alloc(%[[TH]], %[[W]], %[[C]]) : memref<?x?x?xf32>
  // CHECK: scf.parallel (%[[I:.+]], %[[J:.+]]) = (%[[C0]], %[[C0]]) to (%[[TH]], %[[W]]) step (%[[C1]], %[[C1]]) {
  // CHECK: scf.for %[[K:.+]] = %[[C0]] to %[[C]] step %[[C1]] {
  // CHECK: %[[Y:.+]] = arith.addi %[[Y0]], %[[I]] : index
  // CHECK: memref.load %[[SRC]]
  // CHECK: memref.store %{{.+}}, %[[T]][%[[I]], %[[J]], %[[K]]]
  // CHECK: } {arvr.schedule = #arvr.loop<stage = "t" block = [64, 4]>}
  %t = arvr.stage "t" [%w, %th, %c] at [%zero, %y0, %zero] gpu_block [64, 4] : !arvr.image<f32, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] clamp : !arvr.image<ui8, ?>
    %f = arith.uitofp %v : i8 to f32
    arvr.yield %f : f32
  }
  // The output's band of rows [b, h): row i of the loop is row b + i.
  // CHECK: %[[ROWS:.+]] = arith.subi %{{.+}}, %[[B]] : index
  %rows = arith.subi %h, %b : index
  // CHECK: scf.parallel (%[[OI:.+]], %[[OJ:.+]]) = (%[[C0]], %[[C0]]) to (%[[ROWS]], %[[W]])
  // CHECK: scf.for %[[OK:.+]] = %[[C0]] to %[[C]]
  // CHECK: %[[OY:.+]] = arith.addi %[[B]], %[[OI]] : index
  // The read of t is relative to its origin.
  // CHECK: %[[TY:.+]] = arith.subi %[[OY]], %[[Y0]] : index
  // CHECK: %[[V:.+]] = memref.load %[[T]][%[[TY]], %{{.+}}, %{{.+}}] : memref<?x?x?xf32>
  // CHECK: memref.store %[[V]], %[[OUT]][%[[OY]], %{{.+}}, %{{.+}}] : memref<?x?x?xf32>
  // CHECK: }
  // CHECK-NOT: block =
  %out = arvr.stage "out" [%w, %rows, %c] at [%zero, %b, %zero] : !arvr.image<f32, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %t[%x, %y, %ch] in_bounds : !arvr.image<f32, ?>
    arvr.yield %v : f32
  }
  // CHECK: memref.dealloc %[[T]] : memref<?x?x?xf32>
  // CHECK-NEXT: return
  arvr.return %out : !arvr.image<f32, ?>
}
