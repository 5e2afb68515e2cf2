// convert-arvr-to-loops: each boundary mode as index arithmetic, and
// samples as one (nearest) or four (bilinear) loads weighed in f32.
// RUN: arvr-opt %s --split-input-file --convert-arvr-to-loops --cse | FileCheck %s

// Wrap: i mod size, lifted into [0, size).
// CHECK-LABEL: func.func @wrap
// CHECK: %[[W:.+]] = memref.dim %{{.+}}, %{{.+}} : memref<?x?x1xi8>
// The remainder is taken only for an index outside the image (y first,
// then x).
// CHECK: scf.if
// CHECK: %[[GE:.+]] = arith.cmpi sge, %[[X:.+]], %{{.+}} : index
// CHECK-NEXT: %[[LT:.+]] = arith.cmpi slt, %[[X]], %[[W]] : index
// CHECK: %[[IN:.+]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK: %[[XW:.+]] = scf.if %[[IN]] -> (index) {
// CHECK-NEXT: scf.yield %[[X]] : index
// CHECK-NEXT: } else {
// CHECK: %[[R:.+]] = arith.remsi %[[X]], %[[W]] : index
// CHECK: %[[NEG:.+]] = arith.cmpi slt, %[[R]], %{{.+}} : index
// CHECK: %[[UP:.+]] = arith.addi %[[R]], %[[W]] : index
// CHECK: %[[XS:.+]] = arith.select %[[NEG]], %[[UP]], %[[R]] : index
// CHECK: scf.yield %[[XS]] : index
// CHECK-NEXT: } {arvr.boundary}
// CHECK: memref.load %{{.+}}[%{{.+}}, %[[XW]], %{{.+}}]
arvr.kernel @wrap(%src: !arvr.image<ui8, 1>) -> !arvr.image<ui8, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %c = arvr.dim %src channels : !arvr.image<ui8, 1>
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] wrap : !arvr.image<ui8, 1>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, 1>
}

// -----

// Mirror (reflect-101): fold into the period 2 size - 2 (at least 1), then
// reflect the upper half.
// CHECK-LABEL: func.func @mirror
// CHECK: scf.if
// CHECK: } else {
// CHECK: %[[TWICE:.+]] = arith.muli %[[W:.+]], %[[TWO:.+]] : index
// CHECK: %[[P0:.+]] = arith.subi %[[TWICE]], %[[TWO]] : index
// CHECK: %[[P:.+]] = arith.maxsi %[[P0]], %{{.+}} : index
// CHECK: %[[R:.+]] = arith.remsi %{{.+}}, %[[P]] : index
// CHECK: %[[F:.+]] = arith.select %{{.+}}, %{{.+}}, %[[R]] : index
// CHECK: %[[UPPER:.+]] = arith.cmpi sge, %[[F]], %[[W]] : index
// CHECK: %[[REF:.+]] = arith.subi %[[P]], %[[F]] : index
// CHECK: %[[YS:.+]] = arith.select %[[UPPER]], %[[REF]], %[[F]] : index
// CHECK: scf.yield %[[YS]] : index
// CHECK: memref.load %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}]
arvr.kernel @mirror(%src: !arvr.image<ui8, 1>) -> !arvr.image<ui8, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %c = arvr.dim %src channels : !arvr.image<ui8, 1>
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] mirror : !arvr.image<ui8, 1>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, 1>
}

// -----

// Constant: a load at the clamped point, or the padding outside.
// CHECK-LABEL: func.func @constant
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi slt
// CHECK: arith.andi
// CHECK: %[[V:.+]] = memref.load
// CHECK: %[[PAD:.+]] = arith.constant 7 : i8
// The clamp and the choice are marked as boundary handling, for
// arvr-specialize-interior.
// CHECK: %[[R:.+]] = arith.select %{{.+}}, %[[V]], %[[PAD]] {arvr.boundary} : i8
// CHECK: memref.store %[[R]]
arvr.kernel @constant(%src: !arvr.image<ui8, 1>) -> !arvr.image<ui8, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %c = arvr.dim %src channels : !arvr.image<ui8, 1>
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] constant(7 : i8) : !arvr.image<ui8, 1>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, 1>
}

// -----

// Bilinear: floor, fractions, four reads (plain ones when all four are
// inside), a + t (b - a) in x then y.
// CHECK-LABEL: func.func @bilinear
// CHECK-SAME: (%{{.+}}: memref<?x?x1xi8>, %[[U:[^:]+]]: f32
// CHECK: %[[X0F:.+]] = math.floor %[[U]] : f32
// CHECK: %[[AX:.+]] = arith.subf %[[U]], %[[X0F]] : f32
// CHECK: %[[PS:.+]]:4 = scf.if
// The + 1 of the plain reads cannot wrap.
// CHECK: arith.addi %{{.+}}, %{{.+}} overflow<nsw, nuw> : index
// CHECK-COUNT-4: memref.load
// CHECK: } else {
// CHECK: %[[D:.+]] = arith.subf %[[PS]]#1, %[[PS]]#0 : f32
// CHECK-NEXT: %[[TD:.+]] = arith.mulf %[[AX]], %[[D]] : f32
// CHECK-NEXT: arith.addf %[[PS]]#0, %[[TD]] : f32
// CHECK-NOT: {{(= |^ *)arvr\.}}
arvr.kernel @bilinear(%src: !arvr.image<ui8, 1>, %u: f32, %v: f32) -> !arvr.image<f32, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %c = arvr.dim %src channels : !arvr.image<ui8, 1>
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %s = arvr.sample %src[%u, %v, %ch] bilinear clamp : !arvr.image<ui8, 1>
    arvr.yield %s : f32
  }
  arvr.return %out : !arvr.image<f32, 1>
}

// -----

// Bilinear under a boundary, the channel in range: one test that all four
// pixels are inside; if so, four plain loads; otherwise each read under
// the boundary (constant: the clamped pixel or the padding).
// The test is on the floored f32 coordinates, so the plain reads convert
// them without the clamps that keep other conversions defined; the last
// index is taken at most 2^24, exact in f32, and at least 0. Each
// coordinate's two bounds are one unsigned comparison of its bits with
// the last index's (a negative f32 has its sign bit set).
// CHECK-LABEL: func.func @bilinear_constant
// CHECK-SAME: (%[[SRC:[^:]+]]: memref<?x?x1xi8>, %[[U:[^:]+]]: f32, %[[V:[^:]+]]: f32
// CHECK-DAG: %[[X0:.+]] = math.floor %[[U]] : f32
// CHECK-DAG: %[[Y0:.+]] = math.floor %[[V]] : f32
// CHECK: %[[LASTX:.+]] = arith.minsi %{{.+}}, %c16777216
// CHECK: %[[LASTX0:.+]] = arith.maxsi %[[LASTX]], %c0
// CHECK: %[[LASTXI:.+]] = arith.index_cast %[[LASTX0]] : index to i32
// CHECK: %[[LASTXF:.+]] = arith.sitofp %[[LASTXI]] : i32 to f32
// CHECK: %[[LASTXB:.+]] = arith.bitcast %[[LASTXF]] : f32 to i32
// CHECK: %[[X0B:.+]] = arith.bitcast %[[X0]] : f32 to i32
// CHECK: %[[INX:.+]] = arith.cmpi ult, %[[X0B]], %[[LASTXB]] : i32
// CHECK: %[[Y0B:.+]] = arith.bitcast %[[Y0]] : f32 to i32
// CHECK: %[[INY:.+]] = arith.cmpi ult, %[[Y0B]], %{{.+}} : i32
// CHECK: %[[IN:.+]] = arith.andi %[[INX]], %[[INY]] : i1
// CHECK-NOT: arith.cmpf
// The test is expected true: LLVM lays the plain reads out as the path
// that falls through.
// CHECK: %[[TRUE:.+]] = arith.constant true
// CHECK: %[[LIKELY:.+]] = llvm.intr.expect %[[IN]], %[[TRUE]] : i1
// CHECK: %{{.+}}:4 = scf.if %[[LIKELY]] -> (f32, f32, f32, f32) {
// CHECK-NOT: arith.maxnumf
// CHECK: arith.fptosi
// CHECK-COUNT-4: memref.load
// CHECK-NOT: arith.select
// CHECK: } else {
// CHECK: arith.maxnumf
// CHECK-COUNT-4: arith.select
// CHECK: }
arvr.kernel @bilinear_constant(%src: !arvr.image<ui8, 1>, %u: f32, %v: f32) -> !arvr.image<f32, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %c = arvr.dim %src channels : !arvr.image<ui8, 1>
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %s = arvr.sample %src[%u, %v, %ch] bilinear constant(0 : i8) : !arvr.image<ui8, 1>
    arvr.yield %s : f32
  }
  arvr.return %out : !arvr.image<f32, 1>
}

// -----

// Nearest: the pixel at roundeven(u), roundeven(v).
// CHECK-LABEL: func.func @nearest
// CHECK: math.roundeven
// CHECK: math.roundeven
// CHECK-COUNT-1: memref.load
// CHECK-NOT: memref.load
// CHECK: arith.uitofp
arvr.kernel @nearest(%src: !arvr.image<ui8, 1>, %u: f32, %v: f32) -> !arvr.image<f32, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %h = arvr.dim %src height : !arvr.image<ui8, 1>
  %c = arvr.dim %src channels : !arvr.image<ui8, 1>
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<f32, 1> {
  ^bb0(%x: index, %y: index, %ch: index):
    %s = arvr.sample %src[%u, %v, %ch] nearest wrap : !arvr.image<ui8, 1>
    arvr.yield %s : f32
  }
  arvr.return %out : !arvr.image<f32, 1>
}

// -----

// The channel of the stage itself, over the image's own channels
// (`arvr.dim %src channels`), needs no boundary handling even when the
// count is dynamic; a constant channel of an image of unknown channel count
// does.
// CHECK-LABEL: func.func @channels
// CHECK: scf.for %[[CH:.+]] = %{{.+}} to %{{.+}} step
// CHECK: memref.load %{{.+}}[%{{.+}}, %{{.+}}, %[[CH]]] : memref<?x?x?xi8>
// CHECK: %[[LASTC:.+]] = arith.subi %{{.+}}, %{{.+}} : index
// CHECK: arith.minsi %{{.+}}, %[[LASTC]]
// CHECK: memref.load
arvr.kernel @channels(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %h = arvr.dim %src height : !arvr.image<ui8, ?>
  %c = arvr.dim %src channels : !arvr.image<ui8, ?>
  %out = arvr.stage "out" [%w, %h, %c] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %a = arvr.access %src[%x, %y, %ch] clamp : !arvr.image<ui8, ?>
    %one = arith.constant 1 : index
    %b = arvr.access %src[%x, %y, %one] clamp : !arvr.image<ui8, ?>
    %s = arith.addi %a, %b : i8
    arvr.yield %s : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}
