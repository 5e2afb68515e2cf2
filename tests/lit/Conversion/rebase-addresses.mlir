// arvr-rebase-addresses: a load or store whose index differs from an
// earlier access's (same base, in its block or one that dominates it) by a
// constant is addressed from that access's address (an anchor: an address
// computed as it was, never one derived from another).
// RUN: arvr-opt %s --pass-pipeline="builtin.module(gpu.module(arvr-rebase-addresses))" | FileCheck %s

gpu.module @kernels {
  // A bilinear sample's four pixels of a 3-channel row-major image:
  // (y*s + x*3), (y*s + (x + 1)*3), ((y + 1)*s + x*3), ((y + 1)*s + (x + 1)*3):
  // the next column from its row's address; the next row (a stride away,
  // not a constant) its own anchor.
  // CHECK-LABEL: llvm.func @four
  // CHECK-SAME: (%[[P:.+]]: !llvm.ptr, %[[X:.+]]: i32, %[[Y:.+]]: i32, %[[S:.+]]: i32)
  // CHECK: %[[A0:.+]] = llvm.getelementptr %[[P]][%{{.+}}] : (!llvm.ptr, i32) -> !llvm.ptr, i8
  // CHECK: llvm.load %[[A0]]
  // CHECK: %[[A1:.+]] = llvm.getelementptr %[[A0]][3] : (!llvm.ptr) -> !llvm.ptr, i8
  // CHECK: llvm.load %[[A1]]
  // CHECK: %[[A2:.+]] = llvm.getelementptr %[[P]][%{{.+}}] : (!llvm.ptr, i32) -> !llvm.ptr, i8
  // CHECK: llvm.load %[[A2]]
  // CHECK: %[[A3:.+]] = llvm.getelementptr %[[A2]][3] : (!llvm.ptr) -> !llvm.ptr, i8
  // CHECK: llvm.load %[[A3]]
  llvm.func @four(%p: !llvm.ptr, %x: i32, %y: i32, %s: i32) -> i8 {
    %one = llvm.mlir.constant(1 : i32) : i32
    %three = llvm.mlir.constant(3 : i32) : i32
    %x1 = llvm.add %x, %one : i32
    %y1 = llvm.add %y, %one : i32
    %r0 = llvm.mul %y, %s : i32
    %r1 = llvm.mul %y1, %s : i32
    %c0 = llvm.mul %x, %three : i32
    %c1 = llvm.mul %x1, %three : i32
    %i00 = llvm.add %r0, %c0 : i32
    %i10 = llvm.add %r0, %c1 : i32
    %i01 = llvm.add %r1, %c0 : i32
    %i11 = llvm.add %c1, %r1 : i32
    %a00 = llvm.getelementptr %p[%i00] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    %v00 = llvm.load %a00 : !llvm.ptr -> i8
    %a10 = llvm.getelementptr %p[%i10] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    %v10 = llvm.load %a10 : !llvm.ptr -> i8
    %a01 = llvm.getelementptr %p[%i01] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    %v01 = llvm.load %a01 : !llvm.ptr -> i8
    %a11 = llvm.getelementptr %p[%i11] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    %v11 = llvm.load %a11 : !llvm.ptr -> i8
    %s0 = llvm.add %v00, %v10 : i8
    %s1 = llvm.add %v01, %v11 : i8
    %r = llvm.add %s0, %s1 : i8
    llvm.return %r : i8
  }

  // A store at x - 1 (a shift by a constant, subtraction) and one at the
  // same index, from a load's address; f32 elements count as elements.
  // CHECK-LABEL: llvm.func @store
  // CHECK: %[[L:.+]] = llvm.getelementptr %{{.+}}[%{{.+}}] : (!llvm.ptr, i32) -> !llvm.ptr, f32
  // CHECK: %[[ST:.+]] = llvm.getelementptr %[[L]][-8] : (!llvm.ptr) -> !llvm.ptr, f32
  // CHECK: llvm.store %{{.+}}, %[[ST]]
  // CHECK: llvm.store %{{.+}}, %[[L]]
  llvm.func @store(%p: !llvm.ptr, %x: i32) {
    %two = llvm.mlir.constant(2 : i32) : i32
    %one = llvm.mlir.constant(1 : i32) : i32
    %i = llvm.shl %x, %two : i32
    %xm = llvm.sub %x, %one : i32
    %j = llvm.shl %xm, %two : i32
    %jm = llvm.sub %j, %two : i32
    %jmm = llvm.sub %jm, %two : i32
    %a = llvm.getelementptr %p[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %v = llvm.load %a : !llvm.ptr -> f32
    %b = llvm.getelementptr %p[%jmm] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    llvm.store %v, %b : f32, !llvm.ptr
    %c = llvm.getelementptr %p[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    llvm.store %v, %c : f32, !llvm.ptr
    llvm.return
  }

  // x, x + 3, x + 6: the third from the anchor x (6), not from x + 3; a
  // block the first dominates takes its addresses from it too.
  // CHECK-LABEL: llvm.func @chain
  // CHECK: %[[C0:.+]] = llvm.getelementptr %{{.+}}[%{{.+}}] : (!llvm.ptr, i32) -> !llvm.ptr, i8
  // CHECK: llvm.getelementptr %[[C0]][3]
  // CHECK: llvm.getelementptr %[[C0]][6]
  // CHECK: ^bb1:
  // CHECK: llvm.getelementptr %[[C0]][9]
  llvm.func @chain(%p: !llvm.ptr, %x: i32, %c: i1) -> i8 {
    %three = llvm.mlir.constant(3 : i32) : i32
    %six = llvm.mlir.constant(6 : i32) : i32
    %nine = llvm.mlir.constant(9 : i32) : i32
    %x3 = llvm.add %x, %three : i32
    %x6 = llvm.add %x, %six : i32
    %x9 = llvm.add %x, %nine : i32
    %g0 = llvm.getelementptr %p[%x] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    %v0 = llvm.load %g0 : !llvm.ptr -> i8
    %g3 = llvm.getelementptr %p[%x3] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    %v3 = llvm.load %g3 : !llvm.ptr -> i8
    %g6 = llvm.getelementptr %p[%x6] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    %v6 = llvm.load %g6 : !llvm.ptr -> i8
    %s0 = llvm.add %v0, %v3 : i8
    %s1 = llvm.add %s0, %v6 : i8
    llvm.cond_br %c, ^bb1, ^bb2(%s1 : i8)
  ^bb1:
    %g9 = llvm.getelementptr %p[%x9] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    %v9 = llvm.load %g9 : !llvm.ptr -> i8
    %s2 = llvm.add %s1, %v9 : i8
    llvm.br ^bb2(%s2 : i8)
  ^bb2(%r: i8):
    llvm.return %r : i8
  }

  // Two copies of one pure operation on operands of equal polynomials (a
  // select of x + 1 and of 1 + x, as a mirrored index computed for two
  // points) are one value: the second tap is the first plus 3.
  // CHECK-LABEL: llvm.func @same_leaf
  // CHECK: %[[L0:.+]] = llvm.getelementptr %{{.+}}[%{{.+}}] : (!llvm.ptr, i32) -> !llvm.ptr, i8
  // CHECK: llvm.getelementptr %[[L0]][3]
  llvm.func @same_leaf(%p: !llvm.ptr, %x: i32, %y: i32, %c: i1) -> i8 {
    %one = llvm.mlir.constant(1 : i32) : i32
    %three = llvm.mlir.constant(3 : i32) : i32
    %a = llvm.add %x, %one : i32
    %b = llvm.add %one, %x : i32
    %s1 = llvm.select %c, %a, %y : i1, i32
    %s2 = llvm.select %c, %b, %y : i1, i32
    %i2 = llvm.add %s2, %three : i32
    %g1 = llvm.getelementptr %p[%s1] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    %v1 = llvm.load %g1 : !llvm.ptr -> i8
    %g2 = llvm.getelementptr %p[%i2] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    %v2 = llvm.load %g2 : !llvm.ptr -> i8
    %r = llvm.add %v1, %v2 : i8
    llvm.return %r : i8
  }

  // Left alone: another base; a difference of two values, or of twice a
  // value; an address not accessed in its own block (that access may not
  // happen when the other does).
  // CHECK-LABEL: llvm.func @left_alone
  // CHECK: llvm.getelementptr %{{.+}}[%{{.+}}] : (!llvm.ptr, i32) -> !llvm.ptr, i8
  // CHECK: llvm.getelementptr %{{.+}}[%{{.+}}] : (!llvm.ptr, i32) -> !llvm.ptr, i8
  // CHECK: llvm.getelementptr %{{.+}}[%{{.+}}] : (!llvm.ptr, i32) -> !llvm.ptr, i8
  // CHECK: llvm.getelementptr %{{.+}}[%{{.+}}] : (!llvm.ptr, i32) -> !llvm.ptr, i8
  // CHECK: llvm.getelementptr %{{.+}}[%{{.+}}] : (!llvm.ptr, i32) -> !llvm.ptr, i8
  // CHECK-NOT: llvm.getelementptr %{{.+}}[{{-?[0-9]+}}]
  llvm.func @left_alone(%p: !llvm.ptr, %q: !llvm.ptr, %x: i32, %a: i32, %b: i32, %c: i1) -> i8 {
    %one = llvm.mlir.constant(1 : i32) : i32
    %x1 = llvm.add %x, %one : i32
    %g0 = llvm.getelementptr %p[%x] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    %v0 = llvm.load %g0 : !llvm.ptr -> i8
    %g1 = llvm.getelementptr %q[%x1] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    %v1 = llvm.load %g1 : !llvm.ptr -> i8
    %xab = llvm.add %x, %a : i32
    %xab2 = llvm.add %xab, %b : i32
    %g2 = llvm.getelementptr %p[%xab2] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    %v2 = llvm.load %g2 : !llvm.ptr -> i8
    %a2 = llvm.add %a, %a : i32
    %xa2 = llvm.add %x, %a2 : i32
    %g3 = llvm.getelementptr %p[%xa2] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    %v3 = llvm.load %g3 : !llvm.ptr -> i8
    %g4 = llvm.getelementptr %p[%x1] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    llvm.cond_br %c, ^then, ^done
  ^then:
    %v4 = llvm.load %g4 : !llvm.ptr -> i8
    llvm.br ^done
  ^done:
    %s0 = llvm.add %v0, %v1 : i8
    %s1 = llvm.add %v2, %v3 : i8
    %s = llvm.add %s0, %s1 : i8
    llvm.return %s : i8
  }
}
