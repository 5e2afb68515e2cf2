// arvr-split-planes replaces each use of a frame by its planes: a use that
// is not an arvr.plane (no arvr op takes a frame otherwise; here an op of
// another dialect) is an error at that op.
// RUN: arvr-opt %s --arvr-split-planes -verify-diagnostics -allow-unregistered-dialect

arvr.kernel @other_use(%cam: !arvr.nv12 {arvr.name = "cam"}) -> !arvr.image<ui8, 1> {
  %y = arvr.plane %cam y : !arvr.image<ui8, 1>
  // expected-error @+1 {{an NV12 frame is used other than through 'arvr.plane'}}
  "other.use"(%cam) : (!arvr.nv12) -> ()
  %w = arvr.dim %y width : !arvr.image<ui8, 1>
  %one = arith.constant 1 : index
  %out = arvr.stage "out" [%w, %w, %one] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %yy: index, %c: index):
    %v = arvr.access %y[%x, %yy, %c] clamp : !arvr.image<ui8, 1>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, 1>
}
