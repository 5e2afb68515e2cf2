//===- SpecializeInterior.cpp - Interior blocks without boundary handling -===//
//
// Splits each gpu.launch into a version for the blocks whose every boundary
// test is known to pass (the interior) and the original for the others
// (the border). Boundary handling is what convert-arvr-to-loops and
// arvr-map-to-gpu mark `arvr.boundary`: the clamp of an index
// (`maxsi(minsi(i, hi), lo)`), the test of an index against its dimension
// before a mirror or wrap (`scf.if`), the choice between a pixel and the
// padding (`arith.select`), and the guard of a thread's point against the
// loop's range (`scf.if`).
//
// For each marked op, the pass bounds every integer it tests over the whole
// block, as two values computed once at the start of the block: block ids,
// grid and block sizes and values from above the launch are fixed; a
// thread id ranges over [0, block size - 1]; the variable of an scf.for
// with a positive constant step over [lower, upper - 1]; +, -, products by
// a constant, division by a positive constant, unsigned division and
// remainder by a value fixed for the block (the first only where the
// dividend is >= 0, which the block's condition then checks), min, max,
// select and casts combine ranges. A test `a < b` (or <=, >, >=, unsigned <)
// with one side fixed then holds for the whole block when the other side's
// bound does; a test built with `and` when both parts do. Ops whose operands
// escape this arithmetic (a coordinate computed from floats, say) are left as
// they are. The launch body becomes
//
//   scf.if (every provable test holds over this block) {
//     the body, each proved op replaced by its value inside
//   } else {
//     the body as it was
//   }
//
// In the interior version, too, a signed division or remainder by a
// positive constant of a value whose low end is >= 0 over the block (a
// coordinate's x / 2) becomes the unsigned one, a shift or a mask for a
// power of two: the block's condition includes that low end's test.
//
// In a launch with a barrier, the condition is the same for all threads
// of a block, so the branch does not diverge and the barrier stays legal.
// In a launch without one, each thread tests its own points instead (its
// thread ids are then fixed like the block's): a block the image's edge
// cuts through runs the interior version on the threads inside it, and
// only the others take the border version. A thread's values are then
// followed through integer arithmetic only, not through floats. Values do not
// change: an op replaced computes, for the points it is proved for, what it
// computed before.
//
//===----------------------------------------------------------------------===//

#include "../Utils/InteriorBounds.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRSPECIALIZEINTERIOR
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

using namespace mlir::arvr::interior;

/// Splits `launch` into its interior and border versions, when some of its
/// boundary handling can be proved unneeded for whole blocks.
void specialize(gpu::LaunchOp launch) {
  Block &body = launch.getBody().front();
  if (&body.front() == body.getTerminator())
    return;
  Operation *first = &body.front();
  OpBuilder b(first);
  // Without a barrier, nothing forbids threads of a block to take
  // different versions.
  bool perThread =
      !launch.getBody()
           .walk([](gpu::BarrierOp) { return WalkResult::interrupt(); })
           .wasInterrupted();
  gpu::KernelDim3 threads = launch.getThreadIds();
  gpu::KernelDim3 sizes = launch.getBlockSize();
  InteriorBounds bounds(
      launch.getBody(), launch.getLoc(), b,
      {{threads.x, sizes.x}, {threads.y, sizes.y}, {threads.z, sizes.z}},
      perThread);
  versionInterior(first, bounds, b);
}

struct ArvrSpecializeInteriorPass
    : public arvr::impl::ArvrSpecializeInteriorBase<
          ArvrSpecializeInteriorPass> {
  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk(
        [&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches)
      specialize(launch);
    // Marks outside any launch (a CPU pipeline's loops) are dropped too,
    // so that no later pass mistakes them for anything.
    getOperation().walk(
        [](Operation *op) { op->removeAttr(arvr::kBoundaryAttrName); });
  }
};

} // namespace
