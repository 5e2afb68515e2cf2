// arvr-wide-access: in the interior version of a launch, a thread's run of
// neighbouring bytes is read and written as aligned vectors; the images'
// rows being aligned joins the interior test, so that rows that are not
// take the border version (no third, scalar interior copy).
// RUN: arvr-opt %s --split-input-file --arvr-map-to-gpu="columns-per-thread=4 rows-per-thread=1" --canonicalize --arvr-specialize-interior --canonicalize --arvr-wide-access --canonicalize --cse | FileCheck %s
// RUN: arvr-opt %s --split-input-file --arvr-map-to-gpu="columns-per-thread=16" --canonicalize --arvr-specialize-interior --canonicalize --arvr-wide-access --canonicalize --cse | FileCheck %s --check-prefix=RUN16

// Four RGB pixels a thread, channels swapped: 12 bytes, read as three
// 4-byte vectors and written as three, each output byte the right input
// byte (out pixel p channel c = in pixel p channel 2 - c).
// CHECK-LABEL: func.func @rgb_swap
// CHECK-SAME: (%[[IN:[^:]+]]: memref<?x?x3xi8>, %[[OUT:[^:]+]]: memref<?x?x3xi8>
// The rows' alignment, tested once, before the split: the first byte and
// the pitch of each image a multiple of 4.
// CHECK-NOT: scf.if
// CHECK: %[[P:.+]] = memref.extract_aligned_pointer_as_index %[[IN]]
// CHECK: %[[W:.+]] = memref.dim %[[IN]], %c1
// CHECK: %[[PITCH:.+]] = arith.muli %[[W]], %c3
// CHECK: arith.remui %[[PITCH]], %c4
// CHECK: arith.remui %[[P]], %c4
// CHECK: memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK: %[[OUTOK:.+]] = arith.andi %{{.+}}, %{{.+}} : i1
// CHECK-NEXT: %[[ALIGNED:.+]] = arith.andi %{{.+}}, %[[OUTOK]] : i1
// CHECK-NEXT: %[[OK:.+]] = arith.andi %{{.+}}, %[[ALIGNED]] : i1
// CHECK-NEXT: scf.if %[[OK]] {
// CHECK: %[[FOUT:.+]] = memref.reinterpret_cast %[[OUT]] to offset: [0], sizes: [%{{.+}}], strides: [1] : memref<?x?x3xi8> to memref<?xi8>
// CHECK: %[[FIN:.+]] = memref.reinterpret_cast %[[IN]] to offset: [0], sizes: [%{{.+}}], strides: [1] : memref<?x?x3xi8> to memref<?xi8>
// CHECK: %[[A:.+]] = vector.load %[[FIN]][%[[AT:.+]]] {alignment = 4 : i64} : memref<?xi8>, vector<4xi8>
// CHECK: %[[B:.+]] = vector.load %[[FIN]][%{{.+}}] {alignment = 4 : i64} : memref<?xi8>, vector<4xi8>
// CHECK: %[[C:.+]] = vector.load %[[FIN]][%{{.+}}] {alignment = 4 : i64} : memref<?xi8>, vector<4xi8>
// CHECK-DAG: %[[A0:.+]] = vector.extract %[[A]][0]
// CHECK-DAG: %[[A1:.+]] = vector.extract %[[A]][1]
// CHECK-DAG: %[[A2:.+]] = vector.extract %[[A]][2]
// CHECK-DAG: %[[B1:.+]] = vector.extract %[[B]][1]
// CHECK: %[[V:.+]] = vector.from_elements %[[A2]], %[[A1]], %[[A0]], %[[B1]] : vector<4xi8>
// CHECK: vector.store %[[V]], %[[FOUT]][%{{.+}}] {alignment = 4 : i64}
// CHECK: vector.store
// CHECK: vector.store
// CHECK-NOT: vector.store
// CHECK: } else {
// The border version, each point guarded (four points: unrolled, as in
// the interior), and no other.
// CHECK-NOT: scf.for
// CHECK: scf.if
// CHECK-COUNT-3: memref.load %[[IN]]
// CHECK-COUNT-3: memref.store
// CHECK-NOT: } else {
// CHECK: } {arvr.interior}
func.func @rgb_swap(%in: memref<?x?x3xi8>, %out: memref<?x?x3xi8>, %h: index, %w: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %r = memref.load %in[%y, %x, %c0] : memref<?x?x3xi8>
    %g = memref.load %in[%y, %x, %c1] : memref<?x?x3xi8>
    %b = memref.load %in[%y, %x, %c2] : memref<?x?x3xi8>
    memref.store %b, %out[%y, %x, %c0] : memref<?x?x3xi8>
    memref.store %g, %out[%y, %x, %c1] : memref<?x?x3xi8>
    memref.store %r, %out[%y, %x, %c2] : memref<?x?x3xi8>
    scf.reduce
  }
  return
}

// -----

// Chroma at (x / 2, y / 2) for 16 columns and two rows a thread: the two
// rows' reads are of the same chroma row (y0 and y0 + 1 halved, y0 even),
// 8 pixels of 2 bytes, one 16-byte vector; each output row one 16-byte
// vector.
// RUN16-LABEL: func.func @chroma
// RUN16: scf.if
// RUN16: memref.reinterpret_cast
// RUN16: vector.load %{{.+}} {alignment = 16 : i64} : memref<?xi8>, vector<16xi8>
// RUN16-NOT: vector.load
// RUN16: vector.store %{{.+}} {alignment = 16 : i64} : memref<?xi8>, vector<16xi8>
// RUN16: vector.store %{{.+}} {alignment = 16 : i64} : memref<?xi8>, vector<16xi8>
// RUN16-NOT: vector.store
// RUN16: } else {
func.func @chroma(%uv: memref<?x?x2xi8>, %out: memref<?x?x1xi8>, %h: index, %w: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %hx = arith.divui %x, %c2 : index
    %hy = arith.divui %y, %c2 : index
    %u = memref.load %uv[%hy, %hx, %c0] : memref<?x?x2xi8>
    %v = memref.load %uv[%hy, %hx, %c1] : memref<?x?x2xi8>
    %s = arith.addi %u, %v : i8
    memref.store %s, %out[%y, %x, %c0] : memref<?x?x1xi8>
    scf.reduce
  }
  return
}

// -----

// Only the first channel of each pixel written: no vector is filled whole,
// so the stores stay bytes (the reads still merge).
// CHECK-LABEL: func.func @first_channel
// CHECK: vector.load
// CHECK-NOT: vector.store
// CHECK: } {arvr.interior}
func.func @first_channel(%in: memref<?x?x3xi8>, %out: memref<?x?x3xi8>, %h: index, %w: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %r = memref.load %in[%y, %x, %c0] : memref<?x?x3xi8>
    memref.store %r, %out[%y, %x, %c0] : memref<?x?x3xi8>
    scf.reduce
  }
  return
}

// -----

// A channel count known only at run time: nothing to widen, one interior
// version.
// CHECK-LABEL: func.func @any_channels
// CHECK-NOT: vector.
// CHECK-NOT: extract_aligned_pointer
// CHECK: } {arvr.interior}
func.func @any_channels(%in: memref<?x?x?xi8>, %out: memref<?x?x?xi8>, %h: index, %w: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %r = memref.load %in[%y, %x, %c0] : memref<?x?x?xi8>
    memref.store %r, %out[%y, %x, %c0] : memref<?x?x?xi8>
    scf.reduce
  }
  return
}
