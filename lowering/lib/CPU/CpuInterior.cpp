//===- CpuInterior.cpp - Runs of columns without boundary handling --------===//
//
// arvr-cpu-interior: each outermost 2-D scf.parallel (y, x) of a function
// becomes (y, x0) stepping x0 by `columns`, with an scf.for over the run's
// columns [x0, min(x0 + columns, end)) inside, versioned by
// interior::versionInterior: where every boundary test of the body is
// proved to pass over the run (the row fixed), a copy without them runs.
//
//===----------------------------------------------------------------------===//

#include "../Utils/InteriorBounds.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRCPUINTERIOR
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// `loop` over (y, x) with step 1 in x, as runs of `columns` columns, its
/// body in an scf.for over a run's columns; that loop versioned.
void splitRuns(scf::ParallelOp loop, int64_t columns) {
  if (loop.getNumLoops() != 2 || loop.getNumResults() != 0)
    return;
  std::optional<int64_t> step = getConstantIntValue(loop.getStep()[1]);
  if (!step || *step != 1)
    return;
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value run = arith::ConstantIndexOp::create(b, loc, columns);
  Value xEnd = loop.getUpperBound()[1];
  auto runs = scf::ParallelOp::create(b, loc, loop.getLowerBound(),
                                      loop.getUpperBound(),
                                      ValueRange{loop.getStep()[0], run});
  Block *body = runs.getBody();
  b.setInsertionPointToStart(body);
  Value x0 = runs.getInductionVars()[1];
  Value end = arith::MinSIOp::create(
      b, loc, arith::AddIOp::create(b, loc, x0, run), xEnd);
  auto columnsLoop = scf::ForOp::create(
      b, loc, x0, end, arith::ConstantIndexOp::create(b, loc, 1));
  // The old body, its x the column loop's, its y the runs' row.
  Block *old = loop.getBody();
  Block *inner = columnsLoop.getBody();
  old->getArgument(0).replaceAllUsesWith(runs.getInductionVars()[0]);
  old->getArgument(1).replaceAllUsesWith(columnsLoop.getInductionVar());
  inner->getOperations().splice(Block::iterator(inner->getTerminator()),
                                old->getOperations(), old->begin(),
                                Block::iterator(old->getTerminator()));
  if (std::optional<NamedAttribute> schedule =
          loop->getAttrDictionary().getNamed(
              arvr::ArvrDialect::kScheduleAttrName))
    runs->setAttr(schedule->getName(), schedule->getValue());
  loop.erase();

  // The row and the run's start are fixed over the run; its columns range
  // over [x0, end - 1].
  arvr::interior::InteriorBounds bounds(runs.getRegion(), loc, b);
  arvr::interior::versionInterior(columnsLoop, bounds, b);
}

struct ArvrCpuInteriorPass
    : public arvr::impl::ArvrCpuInteriorBase<ArvrCpuInteriorPass> {
  using ArvrCpuInteriorBase::ArvrCpuInteriorBase;

  void runOnOperation() override {
    if (columns < 1) {
      getOperation().emitError("columns must be at least 1");
      return signalPassFailure();
    }
    SmallVector<scf::ParallelOp> loops;
    getOperation().walk([&](scf::ParallelOp loop) {
      if (!loop->getParentOfType<scf::ParallelOp>())
        loops.push_back(loop);
    });
    for (scf::ParallelOp loop : loops)
      splitRuns(loop, columns);
    // The marks have done their work (in the versioned loops too).
    getOperation().walk(
        [](Operation *op) { op->removeAttr(arvr::kBoundaryAttrName); });
  }
};

} // namespace
