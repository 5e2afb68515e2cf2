// convert-arvr-to-loops needs every stage to have its window: it says so,
// at the stage, when arvr-infer-bounds has not run.
// RUN: arvr-opt %s --convert-arvr-to-loops -verify-diagnostics

arvr.kernel @unsized(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  // The conversion then fails on the stage it could not lower.
  // expected-error @+2 {{stage 't' has no window; run arvr-infer-bounds first}}
  // expected-error @+1 {{failed to legalize operation 'arvr.stage'}}
  %t = arvr.stage "t" : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %src[%x, %y, %ch] clamp : !arvr.image<ui8, ?>
    arvr.yield %v : i8
  }
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %ch: index):
    %v = arvr.access %t[%x, %y, %ch] in_bounds : !arvr.image<ui8, ?>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}
