//===- IndexTables.cpp - Values of a loop's index alone, from a table ----===//
//
// A loop with bounds known when compiling may compute, in each iteration, a
// math function of its index and constants alone: a Gaussian's weight
// exp(-i * i / (2 sigma^2)) inside a reduction over i that is not unrolled.
// Unrolled, each copy of such a value folds to a constant; left in the loop,
// it is computed at run time, by the target's own functions (libdevice on
// the GPU, the C library on the CPU), which may differ from the folder in
// the last bit. So whether a reduction was unrolled (a matter of budget and
// schedule) would change the result.
//
// This pass folds those values for every iteration when compiling, with
// the same folders canonicalisation uses, into a constant vector (the
// table), and reads the table at the iteration's place instead: the result
// is the same bits as if the loop had been unrolled, on every target, and
// the loop no longer calls exp. It applies to scf.for loops of at most
// kMaxEntries iterations and one-dimensional scf.parallel loops (a stage's
// points) of at most kMaxStageEntries, to the largest such
// values (those read by the rest of the loop), when their computation holds
// an op of the math dialect.
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRINDEXTABLES
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// The most iterations a loop may have for its values to become a table:
/// a loop of a reduction (each iteration reads the table; on the GPU from
/// a constant global, arvr-gpu-constant-tables), and a stage's loop over
/// its points
/// (each point reads its own entry once: a table a bilateral filter reads
/// at the sum of three byte differences has 766).
constexpr int64_t kMaxEntries = 256;
constexpr int64_t kMaxStageEntries = 1024;

/// The constant `v` is, folding what it is made of (pure ops of constants,
/// as before canonicalisation `2.0 * sigma * sigma` with sigma known), or
/// null.
static Attribute constantOf(Value v, int depth = 0) {
  Attribute value;
  if (matchPattern(v, m_Constant(&value)))
    return value;
  Operation *op = v.getDefiningOp();
  if (!op || depth > 8 || op->getNumRegions() || op->getNumResults() != 1 ||
      !isMemoryEffectFree(op))
    return {};
  SmallVector<Attribute> operands;
  for (Value operand : op->getOperands()) {
    operands.push_back(constantOf(operand, depth + 1));
    if (!operands.back())
      return {};
  }
  SmallVector<OpFoldResult, 1> results;
  if (failed(op->fold(operands, results)) || results.size() != 1)
    return {};
  return dyn_cast<Attribute>(results[0]);
}

/// The values of a loop's body computed from its index and constants
/// alone (in program order), and whether each one's computation holds a
/// math op.
struct IndexOnly {
  SmallVector<Operation *> ops;
  DenseMap<Value, bool> heavy;
};

static IndexOnly findIndexOnly(Block &body, Value index,
                               const DenseMap<Value, Attribute> &fixed) {
  IndexOnly found;
  found.heavy[index] = false;
  for (auto [value, constant] : fixed)
    found.heavy[value] = false;
  body.walk([&](Operation *op) {
    if (op->getNumRegions() || op->getNumResults() != 1 ||
        !isMemoryEffectFree(op) ||
        !op->getResult(0).getType().isIntOrIndexOrFloat())
      return;
    bool heavy = op->getDialect() && op->getDialect()->getNamespace() == "math";
    for (Value operand : op->getOperands()) {
      auto it = found.heavy.find(operand);
      if (it != found.heavy.end())
        heavy |= it->second;
      else if (!constantOf(operand))
        return;
    }
    found.heavy[op->getResult(0)] = heavy;
    found.ops.push_back(op);
  });
  return found;
}

/// Folds the ops of `indexOnly` in order with the index at `at`; the value
/// of each, or nothing where one does not fold.
static std::optional<DenseMap<Value, Attribute>>
evaluate(const IndexOnly &indexOnly, DenseMap<Value, Attribute> values) {
  for (Operation *op : indexOnly.ops) {
    SmallVector<Attribute> operands;
    for (Value operand : op->getOperands()) {
      Attribute value = values.lookup(operand);
      if (!value)
        value = constantOf(operand);
      operands.push_back(value);
    }
    SmallVector<OpFoldResult, 1> results;
    if (failed(op->fold(operands, results)) || results.size() != 1) {
      return std::nullopt;
    }
    Attribute result = dyn_cast<Attribute>(results[0]);
    if (!result) {
      result = values.lookup(cast<Value>(results[0]));
      if (!result)
        result = constantOf(cast<Value>(results[0]));
    }
    if (!result)
      return std::nullopt;
    values[op->getResult(0)] = result;
  }
  return values;
}

/// Replaces the largest heavy index-only values of `body` (an iteration
/// at index `index`, from `lower` by `step`, `count` times; `fixed`: other
/// indices of the loop, of one value each) by reads of tables built before
/// `loop`.
static void tabulate(Operation *loop, Block &body, Value index, int64_t lower,
                     int64_t step, int64_t count,
                     const DenseMap<Value, Attribute> &fixed) {
  IndexOnly indexOnly = findIndexOnly(body, index, fixed);
  DenseSet<Operation *> inChain(indexOnly.ops.begin(), indexOnly.ops.end());
  SmallVector<Value> wanted;
  for (Operation *op : indexOnly.ops) {
    Value v = op->getResult(0);
    bool readElsewhere = llvm::any_of(
        v.getUsers(), [&](Operation *user) { return !inChain.contains(user); });
    if (indexOnly.heavy.lookup(v) && readElsewhere)
      wanted.push_back(v);
  }
  if (wanted.empty())
    return;
  Type indexType = index.getType();
  SmallVector<SmallVector<Attribute>> entries(wanted.size());
  for (int64_t k = 0; k < count; ++k) {
    DenseMap<Value, Attribute> start = fixed;
    start[index] = IntegerAttr::get(indexType, lower + k * step);
    std::optional<DenseMap<Value, Attribute>> values =
        evaluate(indexOnly, std::move(start));
    if (!values)
      return;
    for (auto [i, v] : llvm::enumerate(wanted)) {
      Attribute value = values->lookup(v);
      if (!value || !isa<IntegerAttr, FloatAttr>(value))
        return;
      entries[i].push_back(value);
    }
  }
  OpBuilder b(loop);
  Location loc = loop->getLoc();
  for (auto [v, values] : llvm::zip(wanted, entries)) {
    auto type = VectorType::get({count}, v.getType());
    b.setInsertionPoint(loop);
    Value table = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(type, ArrayRef<Attribute>(values)));
    b.setInsertionPoint(v.getDefiningOp());
    // The iteration's place in the table: (index - lower) / step.
    Value place = arith::SubIOp::create(
        b, loc, index,
        arith::ConstantOp::create(b, loc, IntegerAttr::get(indexType, lower)));
    if (step != 1)
      place = arith::DivUIOp::create(
          b, loc, place,
          arith::ConstantOp::create(b, loc, IntegerAttr::get(indexType, step)));
    if (!indexType.isIndex())
      place = arith::IndexCastOp::create(b, loc, b.getIndexType(), place);
    Value read =
        vector::ExtractOp::create(b, loc, table, ArrayRef<OpFoldResult>{place});
    v.replaceAllUsesWith(read);
  }
}

/// The bounds of a one-dimensional loop, if they are constants.
static std::optional<std::array<int64_t, 3>>
constantBounds(Value lower, Value upper, Value step) {
  auto l = dyn_cast_or_null<IntegerAttr>(constantOf(lower));
  auto u = dyn_cast_or_null<IntegerAttr>(constantOf(upper));
  auto s = dyn_cast_or_null<IntegerAttr>(constantOf(step));
  if (!l || !u || !s || s.getInt() <= 0)
    return std::nullopt;
  return std::array<int64_t, 3>{l.getInt(), u.getInt(), s.getInt()};
}

/// The loops this pass takes: an scf.for, or an scf.parallel whose
/// dimensions all run once but (at most) one, with constant bounds.
static void tabulateLoop(Operation *op) {
  SmallVector<Value> lowers, uppers, steps, indices;
  Block *body = nullptr;
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    lowers = {loop.getLowerBound()};
    uppers = {loop.getUpperBound()};
    steps = {loop.getStep()};
    indices = {loop.getInductionVar()};
    body = loop.getBody();
  } else if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
    lowers = loop.getLowerBound();
    uppers = loop.getUpperBound();
    steps = loop.getStep();
    indices = loop.getInductionVars();
    body = loop.getBody();
  } else {
    return;
  }
  DenseMap<Value, Attribute> fixed;
  std::optional<std::tuple<Value, int64_t, int64_t, int64_t>> varying;
  for (auto [lower, upper, step, index] :
       llvm::zip(lowers, uppers, steps, indices)) {
    std::optional<std::array<int64_t, 3>> bounds =
        constantBounds(lower, upper, step);
    if (!bounds)
      return;
    auto [l, u, s] = *bounds;
    int64_t count = u > l ? (u - l + s - 1) / s : 0;
    if (count < 1)
      return;
    if (count == 1) {
      fixed[index] = IntegerAttr::get(index.getType(), l);
      continue;
    }
    if (varying ||
        count > (isa<scf::ParallelOp>(op) ? kMaxStageEntries : kMaxEntries))
      return;
    varying = std::make_tuple(index, l, s, count);
  }
  if (varying) {
    auto [index, lower, step, count] = *varying;
    tabulate(op, *body, index, lower, step, count, fixed);
  }
}

struct ArvrIndexTablesPass
    : public arvr::impl::ArvrIndexTablesBase<ArvrIndexTablesPass> {
  void runOnOperation() override {
    getOperation()->walk([&](Operation *op) { tabulateLoop(op); });
  }
};

} // namespace
