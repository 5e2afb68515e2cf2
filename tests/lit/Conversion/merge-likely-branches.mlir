// arvr-merge-likely-branches: a run of ifs on tests expected true (a
// point's bilinear samples, each "all four pixels inside"), with no write
// between them, becomes one if on the conjunction of their tests: its then
// branch the plain branches in order, its else branch the original ifs.
// The later tests (and the arithmetic they come from) move before the
// first if; the arithmetic on the first if's results stays after.
// RUN: arvr-opt %s --split-input-file --arvr-merge-likely-branches | FileCheck %s

// Two samples: the second's coordinate (u * 2) moves up; the sum of the
// first's value stays after the merged if.
// CHECK-LABEL: func.func @two
// CHECK: %[[U2:.+]] = arith.mulf %[[U:.+]], %{{.+}} : f32
// CHECK: %[[C2:.+]] = arith.cmpf olt, %[[U2]]
// CHECK: %[[ALL:.+]] = arith.andi %[[C1:.+]], %[[C2]] : i1
// CHECK: %[[E:.+]] = llvm.intr.expect %[[ALL]], %{{.+}} : i1
// CHECK: %[[R:.+]]:2 = scf.if %[[E]] -> (f32, f32) {
// CHECK: memref.load %arg0
// CHECK: memref.load %arg0
// CHECK: scf.yield
// CHECK: } else {
// CHECK: %[[O1:.+]] = scf.if %{{.+}} -> (f32) {
// CHECK: %[[O2:.+]] = scf.if %{{.+}} -> (f32) {
// CHECK: scf.yield %[[O1]], %[[O2]] : f32, f32
// CHECK: }
// CHECK: arith.addf %[[R]]#0, %[[R]]#0
// CHECK: arith.addf %{{.+}}, %[[R]]#1
// CHECK: memref.store
// CHECK-NOT: scf.if
// CHECK: gpu.terminator
func.func @two(%in: memref<?xf32>, %out: memref<?xf32>, %u: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %lim = arith.constant 100.0 : f32
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %t1 = arith.cmpf olt, %u, %lim : f32
    %e1 = llvm.intr.expect %t1, %true : i1
    %a = scf.if %e1 -> (f32) {
      %v = memref.load %in[%c0] : memref<?xf32>
      scf.yield %v : f32
    } else {
      scf.yield %zero : f32
    }
    %a2 = arith.addf %a, %a : f32
    %u2 = arith.mulf %u, %two : f32
    %t2 = arith.cmpf olt, %u2, %lim : f32
    %e2 = llvm.intr.expect %t2, %true : i1
    %b = scf.if %e2 -> (f32) {
      %v = memref.load %in[%c1] : memref<?xf32>
      scf.yield %v : f32
    } else {
      scf.yield %zero : f32
    }
    %s = arith.addf %a2, %b : f32
    memref.store %s, %out[%c0] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// Left alone: a store between the ifs ends the run; a test that depends on
// the previous if's result ends it too; a test not expected true, or
// expected false, is no part of one.
// CHECK-LABEL: func.func @apart
// CHECK-NOT: arith.andi
// CHECK-COUNT-5: scf.if
// CHECK-NOT: scf.if
// CHECK: gpu.terminator
func.func @apart(%in: memref<?xf32>, %out: memref<?xf32>, %u: f32, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %false = arith.constant false
  %lim = arith.constant 100.0 : f32
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %t1 = arith.cmpf olt, %u, %lim : f32
    %e1 = llvm.intr.expect %t1, %true : i1
    %a = scf.if %e1 -> (f32) {
      %v = memref.load %in[%c0] : memref<?xf32>
      scf.yield %v : f32
    } else {
      scf.yield %zero : f32
    }
    memref.store %a, %out[%c0] : memref<?xf32>
    // After the store: a new run, whose second test depends on its first.
    %b = scf.if %e1 -> (f32) {
      %v = memref.load %in[%c1] : memref<?xf32>
      scf.yield %v : f32
    } else {
      scf.yield %zero : f32
    }
    %t3 = arith.cmpf olt, %b, %lim : f32
    %e3 = llvm.intr.expect %t3, %true : i1
    %d = scf.if %e3 -> (f32) {
      %v = memref.load %in[%c0] : memref<?xf32>
      scf.yield %v : f32
    } else {
      scf.yield %zero : f32
    }
    // A plain test, and one expected false.
    %f = scf.if %c -> (f32) {
      %v = memref.load %in[%c0] : memref<?xf32>
      scf.yield %v : f32
    } else {
      scf.yield %zero : f32
    }
    %e5 = llvm.intr.expect %t1, %false : i1
    %g = scf.if %e5 -> (f32) {
      %v = memref.load %in[%c1] : memref<?xf32>
      scf.yield %v : f32
    } else {
      scf.yield %zero : f32
    }
    %s1 = arith.addf %d, %f : f32
    %s2 = arith.addf %s1, %g : f32
    memref.store %s2, %out[%c1] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// A branch that writes is no part of a run.
// CHECK-LABEL: func.func @writes
// CHECK-NOT: arith.andi
// CHECK: gpu.terminator
func.func @writes(%in: memref<?xf32>, %out: memref<?xf32>, %u: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %lim = arith.constant 100.0 : f32
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %t1 = arith.cmpf olt, %u, %lim : f32
    %e1 = llvm.intr.expect %t1, %true : i1
    %a = scf.if %e1 -> (f32) {
      %v = memref.load %in[%c0] : memref<?xf32>
      memref.store %v, %out[%c1] : memref<?xf32>
      scf.yield %v : f32
    } else {
      scf.yield %zero : f32
    }
    %b = scf.if %e1 -> (f32) {
      %v = memref.load %in[%c1] : memref<?xf32>
      scf.yield %v : f32
    } else {
      scf.yield %zero : f32
    }
    %s = arith.addf %a, %b : f32
    memref.store %s, %out[%c0] : memref<?xf32>
    gpu.terminator
  }
  return
}
