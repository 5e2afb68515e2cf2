//===- BlockProofs.cpp - Sample tests proved per block, by a launch -------===//
//
// A bilinear sample under a boundary tests, at every point, whether its
// four pixels are inside the image: `scf.if (llvm.intr.expect(%inside,
// true))`, convert-arvr-to-loops's plain reads or their boundary handling.
// Where the coordinates come from floats (the lens's distortion, a
// perspective warp), arvr-specialize-interior cannot prove the test for a
// block, and the test, its branch and the block boundary around it stay in
// every point's path (the lens at 4K: 10% of its time, measured with the
// tests deleted). Proving it needs interval arithmetic over the block's
// points, several f32 operations for each of the coordinates' own: more
// than the block's work if each block did it. So a launch of its own does
// it, before the kernel: one thread for each of the kernel's blocks
// evaluates, by the rules of FloatIntervals.h over InteriorBounds.h's
// integer ranges (thread ids over the block size, loop variables over
// their ranges, block ids those of the block it proves for), the condition
// under which every such test of the launch holds at every point of that
// block, and stores it as a byte in a table of one byte a block
// (`memref<1 x grid y x grid x x i8>`, allocated before the proof launch
// and freed after the kernel, marked `arvr.parameter_table`: the launch
// plan calls the proof launch reusable, and the runtime library skips it
// where it ran before with the same arguments).
//
// The kernel loads its block's byte at its start (the load marked
// `arvr.block_proof`, which arvr-specialize-interior takes for a value
// fixed over the block), and each test becomes `byte != 0 || test`, its
// `scf.if` marked `arvr.boundary`: arvr-specialize-interior's interior
// version, for blocks whose byte is set, reads without the tests, and the
// border version tests as before. Values do not change: a byte is set only
// where every test holds for the whole block.
//
// The table is one row high, so arvr-batch-frames keeps it unstacked and
// the proof launch (which reads no image) frame-free: its blocks of a grid
// z other than 0 (other frames' copies) return at once, as every frame's
// bytes are the same. A launch whose grid z is not 1, or whose tests'
// bounds would need a thread's own values, is left as it is.
//
// Preconditions: gpu.launch ops from arvr-map-to-gpu, before
// arvr-specialize-interior.
//
//===----------------------------------------------------------------------===//

#include "../Utils/FloatIntervals.h"
#include "../Utils/Likely.h"
#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRGPUBLOCKPROOFS
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;
using namespace mlir::arvr::interior;

namespace {

/// Threads of a proof launch's block, each proving one kernel block.
constexpr int64_t kProofThreads = 64;

/// The tests expected true (`scf.if` on `llvm.intr.expect(%c, true)`) of
/// `launch`, outermost only.
SmallVector<scf::IfOp> likelyTests(gpu::LaunchOp launch) {
  SmallVector<scf::IfOp> tests;
  launch.getBody().walk<WalkOrder::PreOrder>([&](scf::IfOp branch) {
    if (!arvr::likelyTest(branch))
      return WalkResult::advance();
    tests.push_back(branch);
    return WalkResult::skip();
  });
  return tests;
}

/// The box of a block's image reads in its likely branches: the image,
/// the reads (marked `arvr.boxed` once the proof is built) and the ends of
/// their columns and rows (index values, ends included).
struct Box {
  Value image;
  SmallVector<memref::LoadOp> loads;
  SmallVector<Value, 4> ends; // column low, column high, row low, row high
};

/// The ends of the index `idx` over the block: an integer range, or a
/// float's interval through `fptosi`, index casts and added constants.
std::optional<arvr::interior::Range> indexEnds(Value idx, InteriorBounds &ints,
                                               FloatIntervals &floats,
                                               OpBuilder &b, Location loc) {
  Operation *op = idx.getDefiningOp();
  if (auto cast = dyn_cast_if_present<arith::IndexCastOp>(op)) {
    std::optional<arvr::interior::Range> in =
        indexEnds(cast.getIn(), ints, floats, b, loc);
    if (!in)
      return std::nullopt;
    Type type = idx.getType();
    return arvr::interior::Range{
        arith::IndexCastOp::create(b, loc, type, in->low),
        arith::IndexCastOp::create(b, loc, type, in->high)};
  }
  if (auto add = dyn_cast_if_present<arith::AddIOp>(op)) {
    std::optional<int64_t> c = getConstantIntValue(add.getRhs());
    std::optional<arvr::interior::Range> in =
        c ? indexEnds(add.getLhs(), ints, floats, b, loc) : std::nullopt;
    if (!in)
      return ints.range(idx);
    Value low = arith::AddIOp::create(b, loc, in->low, add.getRhs());
    return arvr::interior::Range{
        low, arith::AddIOp::create(b, loc, in->high, add.getRhs())};
  }
  if (auto convert = dyn_cast_if_present<arith::FPToSIOp>(op)) {
    std::optional<Interval> in = floats.interval(convert.getIn());
    if (!in)
      return std::nullopt;
    Type type = idx.getType();
    Value low = arith::FPToSIOp::create(b, loc, type, in->lo);
    return arvr::interior::Range{low,
                                 arith::FPToSIOp::create(b, loc, type, in->hi)};
  }
  return ints.range(idx);
}

/// The box of the image reads in `tests`' likely branches, when they all
/// read one image of bytes (rows, columns and a fixed number of channels)
/// at places whose ends can be built; nothing otherwise.
std::optional<Box> readBox(gpu::LaunchOp launch, ArrayRef<scf::IfOp> tests,
                           InteriorBounds &ints, FloatIntervals &floats,
                           OpBuilder &b) {
  Box box;
  box.ends.resize(4);
  bool ok = true;
  for (scf::IfOp test : tests)
    test.getThenRegion().walk([&](memref::LoadOp load) {
      auto type = cast<MemRefType>(load.getMemRef().getType());
      if (launch->isAncestor(load.getMemRef().getParentRegion()->getParentOp()))
        return;
      ok = ok && type.getElementType().isInteger(8) && !type.getMemorySpace() &&
           (type.getRank() == 2 ||
            (type.getRank() == 3 && !type.isDynamicDim(2))) &&
           (!box.image || box.image == load.getMemRef());
      box.image = load.getMemRef();
      box.loads.push_back(load);
    });
  if (!ok || box.loads.empty())
    return std::nullopt;
  Location loc = launch.getLoc();
  for (memref::LoadOp load : box.loads) {
    for (int dim : {1, 0}) {
      std::optional<arvr::interior::Range> r =
          indexEnds(load.getIndices()[dim], ints, floats, b, loc);
      if (!r)
        return std::nullopt;
      Value &low = box.ends[dim == 1 ? 0 : 2];
      Value &high = box.ends[dim == 1 ? 1 : 3];
      low = low ? arith::MinSIOp::create(b, loc, low, r->low) : r->low;
      high = high ? arith::MaxSIOp::create(b, loc, high, r->high) : r->high;
    }
  }
  return box;
}

/// The condition, built at the start of `launch`'s body, under which every
/// test of `tests` holds for the whole block; null if none can be built.
/// Only what it needs is added to the body. `box`: the box of the tests'
/// image reads, where it can be built.
Value blockCondition(gpu::LaunchOp launch, ArrayRef<scf::IfOp> tests,
                     OpBuilder &b, std::optional<Box> &box) {
  gpu::KernelDim3 threads = launch.getThreadIds();
  gpu::KernelDim3 sizes = launch.getBlockSize();
  InteriorBounds ints(
      launch.getBody(), launch.getLoc(), b,
      {{threads.x, sizes.x}, {threads.y, sizes.y}, {threads.z, sizes.z}});
  FloatIntervals floats(ints, b, launch.getLoc());
  Value all;
  for (scf::IfOp test : tests) {
    Value holds = floats.alwaysTrue(arvr::likelyTest(test));
    if (!holds)
      return {};
    all = all ? arith::AndIOp::create(b, launch.getLoc(), all, holds) : holds;
  }
  // A box that needs assumptions of its own (a dividend >= 0) is not
  // built: the proof would have to take them, and a weaker proof is not
  // worth a box.
  size_t assumed = ints.assumptions.size();
  box = readBox(launch, tests, ints, floats, b);
  if (ints.assumptions.size() != assumed) {
    ints.assumptions.resize(assumed);
    box.reset();
  }
  for (Value assumption : ints.assumptions)
    all = arith::AndIOp::create(b, launch.getLoc(), all, assumption);
  return all;
}

/// Whether the ops before `end` in `body` use, of the body's own values,
/// only each other's results and the block's ids and sizes.
bool blockOnly(gpu::LaunchOp launch, Block &body, Operation *end) {
  gpu::KernelDim3 threads = launch.getThreadIds();
  for (Operation &op : llvm::make_range(body.begin(), Block::iterator(end)))
    for (Value operand : op.getOperands()) {
      if (operand == threads.x || operand == threads.y || operand == threads.z)
        return false;
      if (auto arg = dyn_cast<BlockArgument>(operand)) {
        if (arg.getOwner() != &body &&
            launch.getBody().isAncestor(arg.getParentRegion()))
          return false;
        continue;
      }
      Operation *def = operand.getDefiningOp();
      if (!launch->isAncestor(def))
        continue;
      Operation *top = body.findAncestorOpInBlock(*def);
      if (!top || top == end || !top->isBeforeInBlock(end))
        return false;
    }
  return true;
}

/// A table before `launch` of one row of `perBlock` elements of `element`
/// for each of its blocks (sizes static where the grid's are, as
/// canonicalization would make them, which would put a cast between the
/// table and its launches), freed after it; marked a parameter table.
Value tableFor(gpu::LaunchOp launch, Type element, int64_t perBlock,
               OpBuilder &b) {
  Location loc = launch.getLoc();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(launch);
  SmallVector<int64_t> shape{1};
  SmallVector<Value> dynamic;
  // Rows by grid y, columns by grid x times perBlock.
  for (auto [size, per] :
       {std::pair<Value, int64_t>{launch.getGridSizeY(), 1},
        std::pair<Value, int64_t>{launch.getGridSizeX(), perBlock}}) {
    std::optional<int64_t> known = getConstantIntValue(size);
    shape.push_back(known ? *known * per : ShapedType::kDynamic);
    if (known)
      continue;
    dynamic.push_back(size);
    if (per != 1)
      dynamic.back() = arith::MulIOp::create(
          b, loc, size, arith::ConstantIndexOp::create(b, loc, per));
  }
  auto alloc =
      memref::AllocOp::create(b, loc, MemRefType::get(shape, element), dynamic);
  alloc->setAttr(arvr::ArvrDialect::kParameterTableAttrName, b.getUnitAttr());
  b.setInsertionPointAfter(launch);
  memref::DeallocOp::create(b, loc, alloc);
  return alloc;
}

/// The tables a proof launch fills: a byte a block, and where the likely
/// branches' reads have a box, its four ends a block (i32).
struct Tables {
  Value proofs, boxes;
};

/// Before `launch`: its tables and a launch that fills them by moving the
/// ops before `end` in its body (which compute `holds`, and `box`'s ends,
/// for one block) into a thread of its own for each block.
Tables buildProofLaunch(gpu::LaunchOp launch, Operation *end, Value holds,
                        const std::optional<Box> &box, OpBuilder &b) {
  Location loc = launch.getLoc();
  Tables tables;
  tables.proofs = tableFor(launch, b.getI8Type(), 1, b);
  if (box)
    tables.boxes = tableFor(launch, b.getI32Type(), 4, b);
  b.setInsertionPoint(launch);
  Value gridX = launch.getGridSizeX(), gridY = launch.getGridSizeY();
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  Value width = arith::ConstantIndexOp::create(b, loc, kProofThreads);
  Value proofGridX = arith::CeilDivSIOp::create(b, loc, gridX, width);
  FlatSymbolRefAttr kernel;
  if (FlatSymbolRefAttr name = launch.getFunctionAttr())
    kernel = FlatSymbolRefAttr::get(b.getContext(),
                                    name.getValue().str() + "_proof");
  auto proof = gpu::LaunchOp::create(
      b, loc, proofGridX, gridY, c1, width, c1, c1, nullptr, nullptr, {}, {},
      {}, nullptr, nullptr, nullptr, launch.getModuleAttr(), kernel);
  b.setInsertionPointToStart(&proof.getBody().front());
  Value blockX = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, proof.getBlockIds().x, width),
      proof.getThreadIds().x);
  Value firstFrame = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           proof.getBlockIds().z, c0);
  Value inGrid = arith::AndIOp::create(
      b, loc, firstFrame,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, blockX, gridX));
  auto guard = scf::IfOp::create(b, loc, inGrid);
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPoint(guard.thenBlock()->getTerminator());
  IRMapping mapping;
  gpu::KernelDim3 ids = launch.getBlockIds(), sizes = launch.getBlockSize();
  gpu::KernelDim3 grid = launch.getGridSize();
  mapping.map(ids.x, blockX);
  mapping.map(ids.y, proof.getBlockIds().y);
  mapping.map(ids.z, c0);
  mapping.map(sizes.x, launch.getBlockSizeX());
  mapping.map(sizes.y, launch.getBlockSizeY());
  mapping.map(sizes.z, launch.getBlockSizeZ());
  mapping.map(grid.x, gridX);
  mapping.map(grid.y, gridY);
  mapping.map(grid.z, launch.getGridSizeZ());
  Block &body = launch.getBody().front();
  for (Operation &op : llvm::make_range(body.begin(), Block::iterator(end)))
    b.clone(op, mapping);
  Value byte =
      arith::ExtUIOp::create(b, loc, b.getI8Type(), mapping.lookup(holds));
  memref::StoreOp::create(b, loc, byte, tables.proofs,
                          ValueRange{c0, proof.getBlockIds().y, blockX});
  for (auto [k, value] :
       llvm::enumerate(box ? ArrayRef<Value>(box->ends) : ArrayRef<Value>())) {
    Value first = arith::MulIOp::create(
        b, loc, blockX, arith::ConstantIndexOp::create(b, loc, 4));
    Value at = arith::AddIOp::create(b, loc, first,
                                     arith::ConstantIndexOp::create(b, loc, k));
    Value end32 = arith::IndexCastOp::create(b, loc, b.getI32Type(),
                                             mapping.lookupOrDefault(value));
    memref::StoreOp::create(b, loc, end32, tables.boxes,
                            ValueRange{c0, proof.getBlockIds().y, at});
  }
  // The ops computing `holds` in the kernel, gone.
  while (&body.front() != end) {
    Operation *last = end->getPrevNode();
    last->dropAllUses();
    last->erase();
  }
  return tables;
}

/// Gives `launch` a proof launch when its likely tests can be proved per
/// block: each test then also passes where its block's byte is set.
void prove(gpu::LaunchOp launch) {
  if (!matchPattern(launch.getGridSizeZ(), m_One()))
    return;
  SmallVector<scf::IfOp> tests = likelyTests(launch);
  if (tests.empty())
    return;
  Block &body = launch.getBody().front();
  Operation *end = &body.front();
  OpBuilder b(end);
  std::optional<Box> box;
  Value holds = blockCondition(launch, tests, b, box);
  if (!holds || !blockOnly(launch, body, end)) {
    while (&body.front() != end)
      end->getPrevNode()->erase();
    return;
  }
  Tables tables = buildProofLaunch(launch, end, holds, box, b);
  b.setInsertionPointToStart(&body);
  Location loc = launch.getLoc();
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  gpu::KernelDim3 ids = launch.getBlockIds();
  auto byte = memref::LoadOp::create(b, loc, tables.proofs,
                                     ValueRange{c0, ids.y, ids.x});
  byte->setAttr(arvr::ArvrDialect::kBlockProofAttrName, b.getUnitAttr());
  Value proved = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne, byte,
      arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(0)));
  // The box's ends, for arvr-gpu-stage-samples (dead, and so gone, where it
  // stages nothing); the reads it bounds marked.
  for (int64_t k = 0; box && k < 4; ++k) {
    Value first = arith::MulIOp::create(
        b, loc, ids.x, arith::ConstantIndexOp::create(b, loc, 4));
    Value at = arith::AddIOp::create(b, loc, first,
                                     arith::ConstantIndexOp::create(b, loc, k));
    auto end32 =
        memref::LoadOp::create(b, loc, tables.boxes, ValueRange{c0, ids.y, at});
    end32->setAttr(arvr::ArvrDialect::kBlockBoxAttrName, b.getUnitAttr());
  }
  if (box)
    for (memref::LoadOp load : box->loads)
      load->setAttr(arvr::ArvrDialect::kBoxedAttrName, b.getUnitAttr());
  for (scf::IfOp test : tests) {
    auto expect = test.getCondition().getDefiningOp<LLVM::ExpectOp>();
    b.setInsertionPoint(expect);
    Value either = arith::OrIOp::create(b, loc, proved, expect.getVal());
    test.getConditionMutable().assign(LLVM::ExpectOp::create(
        b, expect.getLoc(), either, expect.getExpected()));
    test->setAttr(arvr::kBoundaryAttrName, b.getUnitAttr());
    if (expect->use_empty())
      expect->erase();
  }
}

struct ArvrGpuBlockProofsPass
    : public arvr::impl::ArvrGpuBlockProofsBase<ArvrGpuBlockProofsPass> {
  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk(
        [&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches)
      prove(launch);
  }
};

} // namespace
