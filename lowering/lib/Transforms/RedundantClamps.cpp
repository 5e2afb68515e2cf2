//===- RedundantClamps.cpp - Clamps a range analysis proves do nothing ----===//
//
// With the ranges of FloatRanges.h (an interval analysis of the f32 values
// of the loops; only values never NaN count here), clamps that change
// nothing go:
//   - `min(x, c)` with x <= c and `max(x, c)` with x >= c become x (not
//     where x may be c = 0: a -0 would stay where the clamp gives +0);
//   - under `roundeven` (the rounding of `u8_sat` and its kin), the clamps
//     `min(x, c)` and `max(x, c)` with c an integer go when x rounds inside
//     them anyway (x < c + 1/2, x > c - 1/2) and the rounded value is only
//     converted to an integer (so a -0 for +0 is the same); all the clamps
//     of such a chain go, or none.
// So a Gaussian's `u8_sat` of weights summing to 1 over bytes is one
// rounding conversion: on the GPU, `arvr-gpu-saturating-convert` then
// makes it one `cvt.rni.u32.f32` and no `min`. The results are those of
// the clamps, bit for bit, wherever the pass runs: CPU and CUDA outputs
// stay bit-identical. Runs once the weights of a specialised kernel are
// constants: on the GPU after arvr-map-to-gpu and a canonicalisation (the
// intermediate buffers are then tiles in shared memory, views of a
// launch's dynamic shared memory), on the CPU after arvr-contract-fma and
// a canonicalisation.
//
//===----------------------------------------------------------------------===//

#include "../Utils/FloatRanges.h"
#include "arvr/Lowering/Passes.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRREDUNDANTCLAMPS
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;
using mlir::arvr::float_ranges::RangeAnalysis;
using FloatRange = mlir::arvr::float_ranges::Range;

namespace {

/// A clamp `min(x, c)` or `max(x, c)` (either operand the constant c): x,
/// c and whether it bounds from above.
struct Clamp {
  Value x;
  double c;
  bool above;
};

static std::optional<Clamp> clampOf(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op || !isa<arith::MinNumFOp, arith::MinimumFOp, arith::MaxNumFOp,
                  arith::MaximumFOp>(op))
    return std::nullopt;
  bool above = isa<arith::MinNumFOp, arith::MinimumFOp>(op);
  FloatAttr c;
  for (unsigned i = 0; i < 2; ++i)
    if (matchPattern(op->getOperand(i), m_Constant(&c)))
      return Clamp{op->getOperand(1 - i), c.getValueAsDouble(), above};
  return std::nullopt;
}

/// Whether every use of `v` converts it to an integer.
static bool onlyConverted(Value v) {
  return llvm::all_of(v.getUsers(), [](Operation *user) {
    return isa<arith::FPToUIOp, arith::FPToSIOp>(user);
  });
}

/// Whether the clamp `op` is read by a roundeven, directly or through
/// other clamps.
static bool underRounding(Operation *op) {
  return llvm::any_of(op->getUsers(), [](Operation *user) {
    if (isa<math::RoundEvenOp>(user))
      return true;
    return user->getNumResults() == 1 && clampOf(user->getResult(0)) &&
           underRounding(user);
  });
}

/// The clamps under `round` (a roundeven only converted to an integer), if
/// its rounding keeps the value inside every one of them: then the value
/// clamped, else null.
static Value unclampedUnderRounding(math::RoundEvenOp round,
                                    const RangeAnalysis &ranges) {
  if (!onlyConverted(round.getResult()))
    return {};
  Value v = round.getOperand();
  bool any = false;
  while (std::optional<Clamp> clamp = clampOf(v)) {
    std::optional<FloatRange> r = ranges.of(clamp->x);
    if (!r || clamp->c != std::round(clamp->c))
      return {};
    if (clamp->above ? !(r->hi < clamp->c + 0.5) : !(r->lo > clamp->c - 0.5))
      return {};
    v = clamp->x;
    any = true;
  }
  return any ? v : Value();
}

struct ArvrRedundantClampsPass
    : public arvr::impl::ArvrRedundantClampsBase<ArvrRedundantClampsPass> {
  void runOnOperation() override {
    RangeAnalysis ranges(getOperation());
    SmallVector<std::pair<math::RoundEvenOp, Value>> rounds;
    SmallVector<Operation *> clamps;
    getOperation()->walk([&](Operation *op) {
      if (auto round = dyn_cast<math::RoundEvenOp>(op)) {
        if (Value x = unclampedUnderRounding(round, ranges))
          rounds.push_back({round, x});
        return;
      }
      if (op->getNumResults() != 1)
        return;
      std::optional<Clamp> clamp = clampOf(op->getResult(0));
      if (!clamp)
        return;
      // A chain under a rounding goes whole or stays whole.
      if (underRounding(op))
        return;
      // x = c = 0 would leave a -0 where the clamp may give +0.
      std::optional<FloatRange> r = ranges.of(clamp->x);
      if (!r)
        return;
      double bound = clamp->above ? r->hi : r->lo;
      bool inside = clamp->above ? bound <= clamp->c : bound >= clamp->c;
      if (inside && (bound != clamp->c || clamp->c != 0))
        clamps.push_back(op);
    });
    for (auto [round, x] : rounds) {
      Value old = round.getOperand();
      round.getOperandMutable().assign(x);
      // The chain's clamps, now unused (unless something else reads them).
      while (old != x && old.use_empty()) {
        Operation *def = old.getDefiningOp();
        old = clampOf(old)->x;
        def->erase();
      }
    }
    // The clamped value read again: a clamp of a clamp that went reads
    // what that one clamped now.
    for (Operation *op : clamps)
      op->getResult(0).replaceAllUsesWith(clampOf(op->getResult(0))->x);
    for (Operation *op : clamps)
      op->erase();
  }
};

} // namespace
