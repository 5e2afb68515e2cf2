// The discardable arvr.* attributes lowering passes put on scf, arith and
// func ops are verified by the dialect: a stage loop's #arvr.loop schedule,
// a reduction loop's unroll factor, the passes' marks and the arguments'
// names; anything else under arvr. is an error.
// RUN: arvr-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @good
// CHECK: {arvr.schedule = #arvr.loop<stage = "out" block = [64, 4] pixels = 2>}
// CHECK: {arvr.schedule = #arvr.loop<stage = "row" shared = true>}
// CHECK: {arvr.unroll = 4 : i64}
// CHECK: arith.maxsi %{{.+}} {arvr.boundary}
func.func @good(%out: memref<?x?x1xi8> {arvr.output = 0 : i64}, %h: index {arvr.name = "h"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %h) step (%c1, %c1) {
    scf.reduce
  } {arvr.schedule = #arvr.loop<stage = "out" block = [64, 4] pixels = 2>}
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %h) step (%c1, %c1) {
    scf.reduce
  } {arvr.schedule = #arvr.loop<stage = "row" shared = true>}
  scf.for %i = %c0 to %h step %c1 {
  } {arvr.unroll = 4 : i64}
  %m = arith.maxsi %h, %c0 {arvr.boundary} : index
  return
}

// -----

func.func @too_many_threads(%h: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+3 {{block must be two positive sizes of at most 1024 threads in all}}
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %h) step (%c1, %c1) {
    scf.reduce
  } {arvr.schedule = #arvr.loop<stage = "out" block = [64, 32]>}
  return
}

// -----

func.func @pixels(%h: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+3 {{pixels must be 1 to 16, not 17}}
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %h) step (%c1, %c1) {
    scf.reduce
  } {arvr.schedule = #arvr.loop<stage = "out" pixels = 17>}
  return
}

// -----

func.func @shared_with_block(%h: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+3 {{a stage in shared memory is computed in its reader's blocks: no block or pixels of its own}}
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %h) step (%c1, %c1) {
    scf.reduce
  } {arvr.schedule = #arvr.loop<stage = "row" block = [32, 8] shared = true>}
  return
}

// -----

func.func @schedule_on_for(%h: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'arvr.schedule' is a #arvr.loop on an scf.parallel}}
  scf.for %i = %c0 to %h step %c1 {
  } {arvr.schedule = #arvr.loop<stage = "out">}
  return
}

// -----

func.func @unroll(%h: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'arvr.unroll' is an integer from 1 to 64 on an scf.for}}
  scf.for %i = %c0 to %h step %c1 {
  } {arvr.unroll = 65 : i64}
  return
}

// -----

// A thread's points loop (arvr-map-to-gpu) is an scf.for, the mark a unit.
func.func @thread_points(%h: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %h step %c1 {
  } {arvr.thread_points}
  // expected-error @+1 {{'arvr.thread_points' is a unit attribute on an scf.for}}
  %m = arith.maxsi %h, %h {arvr.thread_points} : index
  return
}

// -----

func.func @mark(%h: index) {
  // expected-error @+1 {{'arvr.boundary' is a unit attribute (a mark)}}
  %m = arith.maxsi %h, %h {arvr.boundary = 1 : i64} : index
  return
}

// -----

func.func @unknown(%h: index) {
  // expected-error @+1 {{unknown attribute 'arvr.gpu_block'}}
  %m = arith.maxsi %h, %h {arvr.gpu_block = array<i64: 32, 8>} : index
  return
}

// -----

// expected-error @+1 {{'arvr.nmae' on an argument: arvr.name (a string) and arvr.output (an integer) are known}}
func.func @argument(%h: index {arvr.nmae = "h"}) {
  return
}
