//===- ScatterReductions.cpp - A histogram in one pass over its domain ----===//
//
// A histogram written as the language allows,
//
//   func hist(v)[256] = sum(y in 0..src.height - 1, x in 0..src.width - 1,
//                           select(i32(src(x, y)) == v, 1, 0));
//
// is a stage of one coordinate whose every point sums over the whole image
// the terms whose key equals the point: 256 passes over the image. The sum
// is the same when each element of the domain adds its term to the point
// its key names, in one pass:
//
//   hist[v] = 0 for every v;
//   for each (y, x): k = key(y, x); if 0 <= k - v0 < N: hist[k - v0] += term
//
// Integer sums (i32, wrapping) do not depend on their order, so the
// result is the same bits; the adds are atomic (memref.atomic_rmw), since
// the loop over the domain is parallel (a GPU launch), or, with the option
// atomic=false (the CPU's, where one thread runs a kernel call and its
// buffers are its own), a load, an add and a store.
//
// Matched, on the loops of convert-arvr-to-loops: an scf.parallel over a
// stage of one row, (0, 0) to (1, N) by 1 (or one-dimensional, 0 to N),
// whose body stores the result of a nest of one or two scf.for loops (the
// reduction's ranges, step 1, bounds that do not depend on the point or an
// outer range) that sum i32 terms from 0,
// the innermost term being `select(k == p, t, 0)` or `extui(k == p)` (t =
// 1), where p is the point (index_cast of the loop's index, plus a value
// fixed for the stage) and nothing of k, t or the loops' other work
// depends on the point. Anything else is left as it is.
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRSCATTERREDUCTIONS
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// A histogram stage found in a loop over a stage's points.
struct Scatter {
  scf::ParallelOp points;
  Value row;                        // The stage's row index (0), or null.
  memref::StoreOp store;            // Of the sum, at the point.
  SmallVector<scf::ForOp, 2> loops; // The reduction's, outermost first.
  Operation *term;                  // select(k == p, t, 0) or extui(k == p).
  arith::CmpIOp compare;
  Value key, value; // k and t (t null for extui: 1).
  Value pointShift; // p = point + pointShift, i32 or index (null: 0).
};

/// Whether `v` is the i32 constant 0.
static bool isZero(Value v) { return matchPattern(v, m_Zero()); }

/// The other operand of `add` if one of its operands is `acc`, or null.
static Value addend(Operation *add, Value acc) {
  auto addi = dyn_cast_or_null<arith::AddIOp>(add);
  if (!addi)
    return {};
  if (addi.getLhs() == acc)
    return addi.getRhs();
  if (addi.getRhs() == acc)
    return addi.getLhs();
  return {};
}

/// If `p` is the point of `points` as an i32 (`index_cast(iv)` plus an
/// i32, or `index_cast(iv + o)` with an index o, o defined outside
/// `points`), sets `shift` (the i32 or the index; null for none) and
/// returns true.
static bool isPoint(Value p, scf::ParallelOp points, Value &shift) {
  Value iv = points.getInductionVars().back();
  auto outside = [&](Value v) {
    return !points->isAncestor(v.getParentBlock()->getParentOp());
  };
  if (auto cast = p.getDefiningOp<arith::IndexCastOp>()) {
    if (cast.getIn() == iv) {
      shift = {};
      return true;
    }
    // index_cast(iv + o): the window's origin added as an index.
    auto add = cast.getIn().getDefiningOp<arith::AddIOp>();
    if (!add)
      return false;
    for (auto [a, b] : {std::pair(add.getLhs(), add.getRhs()),
                        std::pair(add.getRhs(), add.getLhs())}) {
      if (a == iv && outside(b)) {
        shift = b;
        return true;
      }
    }
    return false;
  }
  auto add = p.getDefiningOp<arith::AddIOp>();
  if (!add)
    return false;
  for (auto [a, b] : {std::pair(add.getLhs(), add.getRhs()),
                      std::pair(add.getRhs(), add.getLhs())}) {
    auto cast = a.getDefiningOp<arith::IndexCastOp>();
    if (cast && cast.getIn() == iv && outside(b)) {
      shift = b;
      return true;
    }
  }
  return false;
}

/// `v` where the domain loop is built: itself if defined outside
/// `points`, else a copy (into `mapping`, at `b`) of the pure ops it is
/// computed by, none of them reading the point or a loop's index or sum
/// (`row`, the stage's row index, stands for 0 through `mapping`). Null if
/// it cannot be; with `b` null, only says whether it can.
static Value materialize(Value v, scf::ParallelOp points, OpBuilder *b,
                         IRMapping &mapping, int depth = 0) {
  if (Value known = mapping.lookupOrNull(v))
    return known;
  if (!points->isAncestor(v.getParentBlock()->getParentOp()))
    return v;
  Operation *op = v.getDefiningOp();
  if (!op || depth > 32 || !isPure(op) || op->getNumRegions() != 0)
    return {};
  for (Value operand : op->getOperands())
    if (!materialize(operand, points, b, mapping, depth + 1))
      return {};
  if (!b)
    return v;
  Operation *copy = b->clone(*op, mapping);
  return copy->getResult(cast<OpResult>(v).getResultNumber());
}

/// Whether `materialize` can compute `v` before the domain loop (`row`,
/// the stage's row index or null, standing for 0).
static bool canMaterialize(Value v, scf::ParallelOp points, Value row) {
  IRMapping probe;
  if (row)
    probe.map(row, row);
  return static_cast<bool>(materialize(v, points, nullptr, probe));
}

/// The reduction loops' chain from the stored sum: each an scf.for of
/// step 1 summing from 0 (one iter_arg), its yield `acc + x`, x the next
/// loop's result or (innermost) the term.
static FailureOr<Operation *> findChain(Value sum, scf::ParallelOp points,
                                        Value rowIndex,
                                        SmallVector<scf::ForOp, 2> &loops) {
  Value x = sum;
  while (auto loop = x.getDefiningOp<scf::ForOp>()) {
    if (loops.size() == 2 || loop.getNumRegionIterArgs() != 1 ||
        !isZero(loop.getInitArgs()[0]) ||
        !loop.getResult(0).getType().isInteger(32) ||
        !matchPattern(loop.getStep(), m_One()))
      return failure();
    for (Value bound : {loop.getLowerBound(), loop.getUpperBound()})
      if (!canMaterialize(bound, points, rowIndex))
        return failure();
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    x = addend(yield.getOperand(0).getDefiningOp(), loop.getRegionIterArg(0));
    if (!x)
      return failure();
    loops.push_back(loop);
  }
  if (loops.empty() || !x.getDefiningOp() ||
      x.getDefiningOp()->getBlock() != loops.back().getBody())
    return failure();
  return x.getDefiningOp();
}

/// Whether anything in the loops' bodies other than `compare` reads the
/// point or values of the enclosing stage's body, or writes memory.
static bool independentOfPoint(Scatter &s) {
  Block *stageBody = s.points.getBody();
  bool independent = true;
  s.loops.front()->walk([&](Operation *op) {
    if (op == s.compare.getOperation())
      return;
    if (!isMemoryEffectFree(op) &&
        !isa<memref::LoadOp, scf::ForOp, scf::YieldOp, scf::IfOp>(op))
      independent = false;
    for (Value operand : op->getOperands())
      if (operand.getParentBlock() == stageBody &&
          !canMaterialize(operand, s.points, s.row))
        independent = false;
  });
  return independent;
}

/// The histogram of `points`, if it is one.
static std::optional<Scatter> match(scf::ParallelOp points) {
  unsigned dims = points.getNumLoops();
  if ((dims != 1 && dims != 2) || points.getNumResults() != 0 ||
      (dims == 2 && !matchPattern(points.getUpperBound()[0], m_One())) ||
      !llvm::all_of(points.getLowerBound(),
                    [](Value v) { return matchPattern(v, m_Zero()); }) ||
      !llvm::all_of(points.getStep(),
                    [](Value v) { return matchPattern(v, m_One()); }))
    return std::nullopt;
  Scatter s;
  s.points = points;
  if (dims == 2)
    s.row = points.getInductionVars()[0];
  for (Operation &op : points.getBody()->without_terminator()) {
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      if (s.store)
        return std::nullopt;
      s.store = store;
    }
  }
  if (!s.store)
    return std::nullopt;
  FailureOr<Operation *> term =
      findChain(s.store.getValueToStore(), points, s.row, s.loops);
  if (failed(term))
    return std::nullopt;
  s.term = *term;
  Value condition;
  if (auto select = dyn_cast<arith::SelectOp>(s.term)) {
    if (!isZero(select.getFalseValue()))
      return std::nullopt;
    condition = select.getCondition();
    s.value = select.getTrueValue();
  } else if (auto extend = dyn_cast<arith::ExtUIOp>(s.term)) {
    condition = extend.getIn();
  } else {
    return std::nullopt;
  }
  s.compare = condition.getDefiningOp<arith::CmpIOp>();
  if (!s.compare || s.compare.getPredicate() != arith::CmpIPredicate::eq ||
      !s.compare->hasOneUse() || !s.term->hasOneUse() ||
      !s.compare.getLhs().getType().isInteger(32))
    return std::nullopt;
  if (isPoint(s.compare.getRhs(), points, s.pointShift))
    s.key = s.compare.getLhs();
  else if (isPoint(s.compare.getLhs(), points, s.pointShift))
    s.key = s.compare.getRhs();
  else
    return std::nullopt;
  // The stored place: the point in the buffer's x, the rest fixed.
  auto indices = s.store.getIndices();
  Value iv = points.getInductionVars().back();
  if (indices.size() != 3 || indices[1] != iv ||
      !canMaterialize(indices[0], points, s.row) ||
      !canMaterialize(indices[2], points, s.row) || !independentOfPoint(s))
    return std::nullopt;
  return s;
}

/// Copies the work of `loop`'s body (all but the accumulation, its yield
/// and `skip`) at the builder's point, `mapping` giving the index.
static void cloneWork(OpBuilder &b, scf::ForOp loop, ArrayRef<Operation *> skip,
                      IRMapping &mapping) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  Operation *accumulate = yield.getOperand(0).getDefiningOp();
  for (Operation &op : loop.getBody()->without_terminator())
    if (&op != accumulate && !llvm::is_contained(skip, &op))
      b.clone(op, mapping);
}

/// Rewrites the histogram `s`: its points stored as 0, then one parallel
/// loop over the reduction's domain adding each term at its key (with an
/// atomic add where `atomic`).
static void rewrite(Scatter &s, bool atomic) {
  OpBuilder b(s.points);
  Location loc = s.points.getLoc();
  // The domain, from 0 in each dimension (two: an outer of one iteration
  // for a single range), for the GPU mapping of two-dimensional loops.
  b.setInsertionPointAfter(s.points);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  // What the loops read of the stage's body (their bounds, the image's
  // sizes), computed again before the domain loop.
  IRMapping mapping;
  if (s.row)
    mapping.map(s.row, zero);
  SmallVector<Value, 2> lowers, uppers;
  for (scf::ForOp loop : s.loops) {
    lowers.push_back(materialize(loop.getLowerBound(), s.points, &b, mapping));
    uppers.push_back(arith::SubIOp::create(
        b, loc, materialize(loop.getUpperBound(), s.points, &b, mapping),
        lowers.back()));
  }
  Block *stageBody = s.points.getBody();
  s.loops.front()->walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (operand.getParentBlock() == stageBody) // Not the point's.
        (void)materialize(operand, s.points, &b, mapping);
  });
  auto indices = s.store.getIndices();
  Value row = materialize(indices[0], s.points, &b, mapping);
  Value channel = materialize(indices[2], s.points, &b, mapping);
  if (uppers.size() == 1)
    uppers.insert(uppers.begin(), one);
  auto domain = scf::ParallelOp::create(b, loc, ValueRange{zero, zero}, uppers,
                                        ValueRange{one, one});
  b.setInsertionPointToStart(domain.getBody());
  SmallVector<Value> ivs = domain.getInductionVars();
  for (auto [loop, iv, lower] :
       llvm::zip(s.loops, ArrayRef(ivs).take_back(s.loops.size()), lowers))
    mapping.map(loop.getInductionVar(),
                arith::AddIOp::create(b, loc, iv, lower));
  // Each loop's own work, the inner loop's replaced by the next body.
  for (size_t d = 0; d < s.loops.size(); ++d) {
    SmallVector<Operation *, 3> skip;
    if (d + 1 < s.loops.size())
      skip.push_back(s.loops[d + 1]);
    else
      skip.append({s.term, s.compare});
    cloneWork(b, s.loops[d], skip, mapping);
  }
  // The key's place in the stage's window; the term added there.
  Value key = mapping.lookupOrDefault(s.key);
  if (Value shift = s.pointShift) {
    if (shift.getType().isIndex())
      shift = arith::IndexCastOp::create(b, loc, b.getI32Type(), shift);
    key = arith::SubIOp::create(b, loc, key, shift);
  }
  Type i32 = b.getI32Type();
  Value zeroI32 = arith::ConstantIntOp::create(b, loc, i32, 0);
  Value size =
      arith::IndexCastOp::create(b, loc, i32, s.points.getUpperBound().back());
  Value inside = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, key, zeroI32),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, key, size));
  auto ifInside = scf::IfOp::create(b, loc, inside, false);
  b.setInsertionPointToStart(ifInside.thenBlock());
  Value term = s.value ? mapping.lookupOrDefault(s.value)
                       : arith::ConstantIntOp::create(b, loc, i32, 1);
  SmallVector<Value, 3> at = {
      row, arith::IndexCastOp::create(b, loc, b.getIndexType(), key), channel};
  if (atomic) {
    memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi, term,
                                s.store.getMemRef(), at);
  } else {
    Value old = memref::LoadOp::create(b, loc, s.store.getMemRef(), at);
    memref::StoreOp::create(b, loc, arith::AddIOp::create(b, loc, old, term),
                            s.store.getMemRef(), at);
  }
  // Named after the stage, for its kernel.
  if (auto schedule = s.points->getAttrOfType<arvr::LoopScheduleAttr>(
          arvr::ArvrDialect::kScheduleAttrName))
    domain->setAttr(
        arvr::ArvrDialect::kScheduleAttrName,
        arvr::LoopScheduleAttr::get(b.getContext(),
                                    (schedule.getStage() + "_scatter").str(),
                                    {}, std::nullopt, false));
  // The points: 0 each.
  b.setInsertionPoint(s.store);
  s.store.getValueMutable().assign(
      arith::ConstantIntOp::create(b, loc, i32, 0));
  s.loops.front()->erase();
}

struct ArvrScatterReductionsPass
    : public arvr::impl::ArvrScatterReductionsBase<ArvrScatterReductionsPass> {
  using ArvrScatterReductionsBase::ArvrScatterReductionsBase;

  void runOnOperation() override {
    SmallVector<scf::ParallelOp> stages;
    getOperation()->walk([&](scf::ParallelOp points) {
      if (!points->getParentOfType<scf::ParallelOp>())
        stages.push_back(points);
    });
    for (scf::ParallelOp points : stages)
      if (std::optional<Scatter> s = match(points))
        rewrite(*s, atomic);
  }
};

} // namespace
