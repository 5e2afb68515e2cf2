//===- UnrollReductions.cpp - Unroll the loops of scheduled reductions ----===//
//
// convert-arvr-to-loops marks the scf.for of a reduction whose arvr.reduce
// has `unroll n` (a schedule's `f.unroll(n)`) with `arvr.unroll = n`. This
// pass unrolls each such loop n times (scf's loopUnrollByFactor: a main loop
// doing n terms per iteration, then an epilogue for the remainder when the
// trip count is not a multiple of n). The terms are combined in the same
// order as before, so results do not change.
//
//===----------------------------------------------------------------------===//

#include "arvr/Dialect/ArvrDialect.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/SCF/Utils/Utils.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRUNROLLREDUCTIONS
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

struct ArvrUnrollReductionsPass
    : public arvr::impl::ArvrUnrollReductionsBase<ArvrUnrollReductionsPass> {
  void runOnOperation() override {
    // Innermost first, so that an outer loop unrolls copies of inner loops
    // already unrolled.
    SmallVector<std::pair<scf::ForOp, int64_t>> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (auto factor = loop->getAttrOfType<IntegerAttr>(
              arvr::ArvrDialect::kUnrollAttrName)) {
        loops.push_back({loop, factor.getInt()});
        loop->removeAttr(arvr::ArvrDialect::kUnrollAttrName);
      }
    });
    for (auto [loop, factor] : loops) {
      if (factor <= 1)
        continue;
      if (failed(loopUnrollByFactor(loop, factor))) {
        loop.emitError("cannot unroll this reduction ") << factor << " times";
        return signalPassFailure();
      }
    }
  }
};

} // namespace
