// convert-arvr-to-loops: kernels become destination-passing functions, the
// output stage an scf.parallel over (y, x) with an scf.for over channels
// (unrolled when there are few and they are known),
// and accesses memref.loads after their boundary arithmetic.
// RUN: arvr-opt %s --convert-arvr-to-loops --cse | FileCheck %s

// CHECK-LABEL: func.func @shift
// CHECK-SAME: (%[[SRC:[^:]+]]: memref<?x?x3xi8> {arvr.name = "src"}, %[[DX:[^:]+]]: i32 {arvr.name = "dx"}, %[[OUT:[^:]+]]: memref<?x?x3xi8> {arvr.output = 0 : i64})
// CHECK-SAME: attributes {llvm.emit_c_interface}
arvr.kernel @shift(%src: !arvr.image<ui8, 3> {arvr.name = "src"}, %dx: i32 {arvr.name = "dx"}) -> !arvr.image<ui8, 3> {
  // CHECK-DAG: %[[ZERO:.+]] = arith.constant 0 : index
  // CHECK-DAG: %[[ONE:.+]] = arith.constant 1 : index
  // CHECK-DAG: %[[W:.+]] = memref.dim %[[SRC]], %[[ONE]]
  // CHECK-DAG: %[[H:.+]] = memref.dim %[[SRC]], %[[ZERO]]
  %w = arvr.dim %src width : !arvr.image<ui8, 3>
  %h = arvr.dim %src height : !arvr.image<ui8, 3>
  %c = arvr.dim %src channels : !arvr.image<ui8, 3>
  // Three channels, known at compile time: computed one after the other
  // (sharing what they can), then stored.
  // CHECK: scf.parallel (%[[Y:.+]], %[[X:.+]]) = (%[[ZERO]], %[[ZERO]]) to (%[[H]], %[[W]])
  // CHECK-NOT: scf.for
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<ui8, 3> {
  ^bb0(%x: index, %y: index, %ch: index):
    // Clamp to the edge: max(min(i, size - 1), 0) for x and y; the channel
    // is one of the image's, so it is read as is.
    // CHECK: %[[DXI:.+]] = arith.index_cast %[[DX]]
    // CHECK: %[[SX:.+]] = arith.subi %[[X]], %[[DXI]]
    %dxi = arith.index_cast %dx : i32 to index
    %sx = arith.subi %x, %dxi : index
    // CHECK: %[[LASTY:.+]] = arith.subi %{{.+}}, %[[ONE]]
    // CHECK: %[[MINY:.+]] = arith.minsi %[[Y]], %[[LASTY]]
    // CHECK: %[[CY:.+]] = arith.maxsi %[[MINY]], %[[ZERO]]
    // CHECK: %[[MINX:.+]] = arith.minsi %[[SX]], %{{.+}}
    // CHECK: %[[CX:.+]] = arith.maxsi %[[MINX]], %[[ZERO]]
    // CHECK: %[[V0:.+]] = memref.load %[[SRC]][%[[CY]], %[[CX]], %[[ZERO]]]
    // CHECK: %[[V1:.+]] = memref.load %[[SRC]][%[[CY]], %[[CX]], %[[ONE]]]
    // CHECK: %[[TWO:.+]] = arith.constant 2 : index
    // CHECK: %[[V2:.+]] = memref.load %[[SRC]][%[[CY]], %[[CX]], %[[TWO]]]
    %v = arvr.access %src[%sx, %y, %ch] clamp : !arvr.image<ui8, 3>
    // CHECK: memref.store %[[V0]], %[[OUT]][%[[Y]], %[[X]], %[[ZERO]]]
    // CHECK: memref.store %[[V1]], %[[OUT]][%[[Y]], %[[X]], %[[ONE]]]
    // CHECK: memref.store %[[V2]], %[[OUT]][%[[Y]], %[[X]], %[[TWO]]]
    arvr.yield %v : i8
  }
  // CHECK: return
  // CHECK-NOT: {{(= |^ *)arvr\.}}
  arvr.return %out : !arvr.image<ui8, 3>
}

// An in-bounds access loads directly.
// CHECK-LABEL: func.func @copy
arvr.kernel @copy(%src: !arvr.image<f32, ?>) -> !arvr.image<f32, ?> {
  %w = arvr.dim %src width : !arvr.image<f32, ?>
  %h = arvr.dim %src height : !arvr.image<f32, ?>
  %c = arvr.dim %src channels : !arvr.image<f32, ?>
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<f32, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    // CHECK-NOT: arith.minsi
    // CHECK: scf.parallel (%[[Y:.+]], %[[X:.+]]) =
    // CHECK: scf.for %[[C:[^ ]+]] =
    // CHECK-NEXT: %[[V:.+]] = memref.load %{{[a-z0-9_]+}}[%[[Y]], %[[X]], %[[C]]] : memref<?x?x?xf32>
    // CHECK-NEXT: memref.store %[[V]], %{{.+}}[%[[Y]], %[[X]], %[[C]]]
    %v = arvr.access %src[%x, %y, %ch] in_bounds : !arvr.image<f32, ?>
    arvr.yield %v : f32
  }
  arvr.return %out : !arvr.image<f32, ?>
}
