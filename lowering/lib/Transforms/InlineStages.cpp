//===- InlineStages.cpp - Replace reads of inline stages by their values --===//
//
// MLIRGen gives every function of a kernel a stage; the ones the schedule
// leaves inline (the default) are marked `inline`. This pass replaces each
// read of an inline stage (an `arvr.access ... in_bounds`) by a copy of the
// stage's region, its coordinates being the read's, and erases the stage.
// Stages are taken in program order: a stage is defined before its readers,
// so when a stage is copied, the inline stages it reads have already been
// inlined into it.
//
//===----------------------------------------------------------------------===//

#include "arvr/Dialect/ArvrDialect.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/IR/IRMapping.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRINLINESTAGES
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;
using namespace mlir::arvr;

namespace {

/// Replaces `access`, a read of the inline `stage`, by a copy of the
/// stage's region at the access's coordinates.
void inlineRead(StageOp stage, AccessOp access) {
  OpBuilder builder(access);
  IRMapping coordinates;
  coordinates.map(stage.getX(), access.getX());
  coordinates.map(stage.getY(), access.getY());
  coordinates.map(stage.getC(), access.getC());
  Block &body = stage.getBody().front();
  for (Operation &op : body.without_terminator())
    builder.clone(op, coordinates);
  auto yield = cast<YieldOp>(body.getTerminator());
  access.replaceAllUsesWith(coordinates.lookupOrDefault(yield.getValue()));
  access.erase();
}

struct ArvrInlineStagesPass
    : public arvr::impl::ArvrInlineStagesBase<ArvrInlineStagesPass> {
  void runOnOperation() override {
    SmallVector<StageOp> stages;
    getOperation().walk([&](StageOp stage) {
      if (stage.getInlined())
        stages.push_back(stage);
    });
    // Stages are siblings in a kernel's body, so the walk meets them in
    // program order: each before its readers, which may be inline stages.
    for (StageOp stage : stages) {
      // The verifier guarantees that every user is an in_bounds access.
      SmallVector<Operation *> readers(stage.getResult().getUsers());
      for (Operation *reader : readers)
        inlineRead(stage, cast<AccessOp>(reader));
      stage.erase();
    }
  }
};

} // namespace
