// arvr-cpu-row-bands sets the window of each returned stage: one that has
// an origin already (hand-written, or banded twice) is an error.
// RUN: arvr-opt %s --arvr-cpu-row-bands -verify-diagnostics

arvr.kernel @banded(%src: !arvr.image<ui8, 1>) -> !arvr.image<ui8, 1> {
  %w = arvr.dim %src width : !arvr.image<ui8, 1>
  %one = arith.constant 1 : index
  %zero = arith.constant 0 : index
  // expected-error @+1 {{a returned stage already has a window}}
  %out = arvr.stage "out" [%w, %w, %one] at [%zero, %one, %zero] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arvr.access %src[%x, %y, %c] clamp : !arvr.image<ui8, 1>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, 1>
}
