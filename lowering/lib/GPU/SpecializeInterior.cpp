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
// In a launch without a barrier, each thread tests its own points (its
// thread ids are then fixed like the block's): a block the image's edge
// cuts through runs the interior version on the threads inside it, and
// only the others take the border version. In a launch whose barriers are
// ops of its body itself, each phase between them is versioned on its own,
// per thread as well, the barriers staying outside the versions: a block
// at the image's edge whose staged input needed mirroring still computes
// from its tiles with the interior version. Where a barrier is nested in
// another op, or a phase's value is used by a later phase, the whole body
// is versioned with a condition the same for all threads of a block, so
// the branch does not diverge and the barrier stays legal. Per thread, a
// thread's values are followed through integer arithmetic only, not
// through floats. Values do not change: an op replaced computes, for the
// points it is proved for, what it computed before.
//
// Then the loops over a thread's points arvr-map-to-gpu made (marked
// `arvr.thread_points`) are unrolled, but a nest of at least 16 points in a
// border version, which keeps one copy of the body and its boundary
// handling for all of the thread's points.
//
//===----------------------------------------------------------------------===//

#include "../Utils/InteriorBounds.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/SCF/Utils/Utils.h"
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

/// Whether `op`, at the start of a phase, may stay before the phase's
/// versions, shared by both: pure arithmetic and views, nothing a version
/// would change.
bool sharedByVersions(Operation *op) {
  return op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
         !op->hasAttr(arvr::kBoundaryAttrName) &&
         !isSignedDivisionByPositive(op);
}

/// The phases of a launch body with barriers: the ops before each barrier
/// and after the last, each as [first, end), `end` the barrier or the
/// terminator, `first` past the leading ops the versions share. Empty when
/// a barrier is nested in another op (the body is then versioned whole) or
/// a phase defines a value a later phase uses.
SmallVector<std::pair<Operation *, Operation *>> phasesOf(Block &body) {
  SmallVector<std::pair<Operation *, Operation *>> phases;
  unsigned barriers = 0, topLevel = 0;
  body.getParentOp()->walk([&](gpu::BarrierOp) { ++barriers; });
  Operation *start = &body.front();
  for (Operation &op : body) {
    bool isBarrier = isa<gpu::BarrierOp>(op);
    topLevel += isBarrier;
    if (!isBarrier && &op != body.getTerminator())
      continue;
    Operation *first = start;
    while (first != &op && sharedByVersions(first))
      first = first->getNextNode();
    phases.push_back({first, &op});
    start = op.getNextNode();
  }
  if (barriers != topLevel)
    return {};
  for (auto [first, end] : phases)
    for (Operation *op = first; op != end; op = op->getNextNode())
      for (Operation *user : op->getUsers()) {
        Operation *top = body.findAncestorOpInBlock(*user);
        if (top && (top == end || end->isBeforeInBlock(top)))
          return {};
      }
  return phases;
}

/// Splits `launch` into its interior and border versions, when some of its
/// boundary handling can be proved unneeded.
void specialize(gpu::LaunchOp launch) {
  Block &body = launch.getBody().front();
  if (&body.front() == body.getTerminator())
    return;
  Operation *first = &body.front();
  OpBuilder b(first);
  bool hasBarrier =
      launch.getBody()
          .walk([](gpu::BarrierOp) { return WalkResult::interrupt(); })
          .wasInterrupted();
  // Between its barriers, each phase is versioned apart, by each thread:
  // no barrier is then inside a version, and a block at the image's edge
  // runs the interior version of the phases that need no boundary
  // handling there (a stencil's input staged with mirrored rows, then
  // both passes inside). Otherwise, without a barrier, nothing forbids
  // threads of a block to take different versions; with one (nested), the
  // whole body is versioned per block.
  SmallVector<std::pair<Operation *, Operation *>> phases;
  if (hasBarrier)
    phases = phasesOf(body);
  bool perThread = !hasBarrier || !phases.empty();
  gpu::KernelDim3 threads = launch.getThreadIds();
  gpu::KernelDim3 sizes = launch.getBlockSize();
  InteriorBounds bounds(
      launch.getBody(), launch.getLoc(), b,
      {{threads.x, sizes.x}, {threads.y, sizes.y}, {threads.z, sizes.z}},
      perThread);
  if (phases.empty()) {
    versionInterior(first, bounds, b);
    return;
  }
  for (auto [phaseFirst, end] : phases)
    if (phaseFirst != end)
      versionInterior(phaseFirst, bounds, b, end);
}

/// Whether `op` is in the border version (the else branch) of one of its
/// launch's splits.
bool inBorder(Operation *op, gpu::LaunchOp launch) {
  for (Operation *parent = op->getParentOp(); parent != launch;
       parent = parent->getParentOp())
    if (auto split = dyn_cast<scf::IfOp>(parent);
        split && split->hasAttr(arvr::kInteriorAttrName) &&
        split.getElseRegion().isAncestor(op->getParentRegion()))
      return true;
  return false;
}

/// The fewest points a thread's nest of point loops must have to stay a
/// loop in a border version: a loop over fewer saves little code and costs
/// its overhead, and LLVM compiles the kernel around it less well (the
/// lens's 4 points: 177.2 -> 180.5 instructions a pixel executed in its
/// interior, 1.4% slower; pyr_down 1.3% slower with loops for its levels'
/// 2 rows and its half's and quarter's 8 points, and still 1.3% with the
/// latter only; NV12's 32 and the Gaussian reader's 16 as fast as
/// unrolled: H100, 2026-12-06 04:26 and 05:27).
constexpr int64_t kMinBorderLoopPoints = 16;

/// The points of the nest of point loops `outer` heads (the product of
/// their trip counts).
int64_t pointsOf(scf::ForOp outer) {
  int64_t points = 1;
  outer.walk([&](scf::ForOp loop) {
    if (!loop->hasAttr(arvr::ArvrDialect::kThreadPointsAttrName))
      return;
    std::optional<APInt> trips = loop.getStaticTripCount();
    points *= trips ? trips->getSExtValue() : kMinBorderLoopPoints;
  });
  return points;
}

/// Unrolls the loops over a thread's points (arvr-map-to-gpu's, marked
/// `arvr.thread_points`) of `launch` but those of its border versions
/// over at least kMinBorderLoopPoints points: a point's copy in the
/// interior, without its boundary handling, shares its reads and their
/// addresses with its neighbours' (which arvr-reuse-loads and
/// arvr-wide-access then merge); a border version keeps its loops, one
/// copy of the body and its boundary handling for all the points. Inner
/// loops first.
void unrollPoints(gpu::LaunchOp launch) {
  SmallVector<scf::ForOp> loops;
  DenseSet<Operation *> keep;
  launch.walk([&](scf::ForOp loop) {
    if (!loop->hasAttr(arvr::ArvrDialect::kThreadPointsAttrName))
      return;
    loops.push_back(loop);
    auto outer = loop->getParentOfType<scf::ForOp>();
    while (outer && !outer->hasAttr(arvr::ArvrDialect::kThreadPointsAttrName))
      outer = outer->getParentOfType<scf::ForOp>();
    if (!outer && inBorder(loop, launch) &&
        pointsOf(loop) >= kMinBorderLoopPoints)
      loop.walk([&](scf::ForOp inner) { keep.insert(inner); });
  });
  for (scf::ForOp loop : loops) {
    loop->removeAttr(arvr::ArvrDialect::kThreadPointsAttrName);
    if (!keep.contains(loop))
      (void)loopUnrollFull(loop);
  }
}

struct ArvrSpecializeInteriorPass
    : public arvr::impl::ArvrSpecializeInteriorBase<
          ArvrSpecializeInteriorPass> {
  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk(
        [&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches) {
      specialize(launch);
      unrollPoints(launch);
    }
    // Marks outside any launch (a CPU pipeline's loops) are dropped too,
    // so that no later pass mistakes them for anything.
    getOperation().walk(
        [](Operation *op) { op->removeAttr(arvr::kBoundaryAttrName); });
  }
};

} // namespace
