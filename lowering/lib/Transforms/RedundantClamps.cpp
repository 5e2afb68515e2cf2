//===- RedundantClamps.cpp - Clamps a range analysis proves do nothing ----===//
//
// An interval analysis of the f32 values of the loops: constants, integers
// widened to floats (a u8 read is in [0, 255]), sums, differences,
// products, fused multiply-adds, quotients by a divisor of one sign,
// negations, absolute values, minima, maxima and selects, and the loads of
// an intermediate buffer (a stage's), whose values are those its stores
// write. Each result is widened by the most f32 rounding can move it (a
// relative 2^-20, never across zero), so the interval holds the value on
// every target. A value whose range is not found (a parameter, a kernel's
// float image, a loop's carried value, anything else) is unknown: it may
// be NaN or infinite.
//
// Some values have a range but may also be NaN: a bilinear sample's
// fraction `x - floor(x)` is in [0, 1] for every finite x and NaN for an
// infinite or NaN one, and a lerp `fma(t, b - a, a)` with such a t in
// [0, 1] lies between a and b (widened as above by b - a's rounding) or
// is NaN. The branches of an `scf.if` (a sample's taps, read or the
// border's constant) give its results the union of their ranges. maxnumf
// and minnumf with a constant turn NaN into that constant: a value that
// may be NaN, clamped by one, has a range again.
//
// With the ranges, clamps that change nothing go:
//   - `min(x, c)` with x <= c and `max(x, c)` with x >= c become x (not
//     where x may be c = 0: a -0 would stay where the clamp gives +0);
//   - under `roundeven` (the rounding of `u8_sat` and its kin), the clamps
//     `min(x, c)` and `max(x, c)` with c an integer go when x rounds inside
//     them anyway (x < c + 1/2, x > c - 1/2) and the rounded value is only
//     converted to an integer (so a -0 for +0 is the same); a chain's
//     clamps go from the outermost in, up to the first one not proved
//     idle, which stays with those inside it (the rounded value of each
//     clamp that goes is its operand's).
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

#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <cmath>

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRREDUNDANTCLAMPS
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// A closed interval of finite values (never NaN).
struct Range {
  double lo, hi;
};

/// The largest magnitude kept: beyond it, a result might overflow f32.
constexpr double kLargest = 1e37;

/// [lo, hi] widened by the most one f32 rounding can move a value (a
/// relative 2^-20, far above f32's 2^-24 and double's error), never across
/// zero (rounding keeps a value's sign); nothing when it may overflow.
static std::optional<Range> rounded(double lo, double hi) {
  if (!(std::abs(lo) < kLargest) || !(std::abs(hi) < kLargest))
    return std::nullopt;
  constexpr double eps = 0x1p-20, tiny = 0x1p-140;
  auto down = [&](double v) {
    return v >= 0 ? std::max(0.0, v - v * eps) : v + v * eps - tiny;
  };
  auto up = [&](double v) {
    return v <= 0 ? std::min(0.0, v - v * eps) : v + v * eps + tiny;
  };
  return Range{down(lo), up(hi)};
}

static Range product(Range a, Range b) {
  double p[] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  return Range{*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
}

/// The ranges of the f32 values of a function, found in one walk in order
/// (an operand's range is known before its user's; a buffer's stores come
/// before its loads, each stage after the ones it reads).
class RangeAnalysis {
public:
  explicit RangeAnalysis(Operation *root) {
    // The stores of each buffer that only loads and stores touch: an
    // allocation, or a tile in a launch's dynamic shared memory (a view of
    // it; arvr-map-to-gpu lays tiles apart).
    root->walk([&](Operation *op) {
      auto view = dyn_cast<memref::ViewOp>(op);
      if (!isa<memref::AllocOp>(op) &&
          !(view &&
            view.getSource().getDefiningOp<gpu::DynamicSharedMemoryOp>()))
        return;
      int stores = 0;
      for (Operation *user : op->getUsers()) {
        if (auto store = dyn_cast<memref::StoreOp>(user)) {
          if (store.getMemRef() != op->getResult(0))
            return;
          ++stores;
        } else if (!isa<memref::LoadOp, memref::DeallocOp, memref::DimOp>(
                       user)) {
          return;
        }
      }
      buffers[op->getResult(0)] = {stores, 0, true, Range{0, 0}};
    });
    root->walk([&](Operation *op) { visit(op); });
  }

  std::optional<Range> of(Value v) const {
    auto it = ranges.find(v);
    if (it == ranges.end())
      return std::nullopt;
    return it->second;
  }

private:
  /// What the stores seen so far have written to a buffer (`range`: the
  /// union of their values while all are `known`).
  struct Buffer {
    int stores, seen;
    bool known;
    Range range;
  };

  void visit(Operation *op) {
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      auto it = buffers.find(store.getMemRef());
      if (it == buffers.end())
        return;
      Buffer &b = it->second;
      std::optional<Range> r = of(store.getValue());
      if (!r)
        b.known = false;
      else if (b.seen == 0)
        b.range = *r;
      else
        b.range = {std::min(b.range.lo, r->lo), std::max(b.range.hi, r->hi)};
      ++b.seen;
      return;
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      visitIf(branch);
      return;
    }
    if (op->getNumResults() != 1 || !op->getResult(0).getType().isF32())
      return;
    if (std::optional<Range> r = compute(op))
      ranges[op->getResult(0)] = *r;
    else if (std::optional<Range> r = computeMaybeNaN(op))
      maybeNaN[op->getResult(0)] = *r;
  }

  /// A range of `v` and whether `v` may also be NaN.
  std::optional<std::pair<Range, bool>> withNaN(Value v) const {
    if (std::optional<Range> r = of(v))
      return std::make_pair(*r, false);
    auto it = maybeNaN.find(v);
    if (it == maybeNaN.end())
      return std::nullopt;
    return std::make_pair(it->second, true);
  }

  /// Each f32 result of an `scf.if` with both branches: the union of what
  /// they yield.
  void visitIf(scf::IfOp branch) {
    if (branch.getElseRegion().empty())
      return;
    auto thenYield = branch.thenYield(), elseYield = branch.elseYield();
    for (auto [i, result] : llvm::enumerate(branch.getResults())) {
      if (!result.getType().isF32())
        continue;
      auto a = withNaN(thenYield.getOperand(i));
      auto b = withNaN(elseYield.getOperand(i));
      if (!a || !b)
        continue;
      Range r{std::min(a->first.lo, b->first.lo),
              std::max(a->first.hi, b->first.hi)};
      (a->second || b->second ? maybeNaN : ranges)[result] = r;
    }
  }

  /// `x - floor(x)`: in [0, 1] for a finite x (exact below 2^24, 0 above;
  /// a tiny negative x gives 1 rounded), NaN for an infinite or NaN one.
  static bool isFraction(Operation *op) {
    auto sub = dyn_cast<arith::SubFOp>(op);
    if (!sub)
      return false;
    auto floor = sub.getRhs().getDefiningOp<math::FloorOp>();
    return floor && floor.getOperand() == sub.getLhs();
  }

  /// A lerp `fma(t, b - a, a)` with t in [0, 1] (or NaN): a + t (b - a)
  /// lies between a and b; b - a's rounding moves it by at most
  /// |b - a| 2^-24 and the fma's by half an ulp, both below the 2^-20 of
  /// the larger end added here. Its range, and whether it may be NaN.
  std::optional<std::pair<Range, bool>> lerp(Operation *op) const {
    auto fma = dyn_cast<math::FmaOp>(op);
    if (!fma)
      return std::nullopt;
    auto diff = fma.getB().getDefiningOp<arith::SubFOp>();
    if (!diff || diff.getRhs() != fma.getC())
      return std::nullopt;
    auto t = withNaN(fma.getA()), a = withNaN(fma.getC()),
         b = withNaN(diff.getLhs());
    if (!t || !a || !b || t->first.lo < 0 || t->first.hi > 1)
      return std::nullopt;
    double lo = std::min(a->first.lo, b->first.lo),
           hi = std::max(a->first.hi, b->first.hi);
    double slack = std::max(std::abs(lo), std::abs(hi)) * 0x1p-20;
    std::optional<Range> r = rounded(lo - slack, hi + slack);
    if (!r)
      return std::nullopt;
    return std::make_pair(*r, t->second || a->second || b->second);
  }

  /// What may be NaN: a fraction of an unknown value, a lerp by one.
  std::optional<Range> computeMaybeNaN(Operation *op) const {
    if (isFraction(op))
      return Range{0, 1};
    if (auto r = lerp(op))
      return r->first;
    return std::nullopt;
  }

  /// maxnumf / minnumf of a value that may be NaN and a constant: NaN
  /// gives the constant.
  std::optional<Range> clampOfMaybeNaN(Operation *op) const {
    if (!isa<arith::MaxNumFOp, arith::MinNumFOp>(op))
      return std::nullopt;
    for (unsigned i = 0; i < 2; ++i) {
      FloatAttr constant;
      if (!matchPattern(op->getOperand(i), m_Constant(&constant)))
        continue;
      double c = constant.getValueAsDouble();
      auto x = withNaN(op->getOperand(1 - i));
      if (!std::isfinite(c) || !x)
        return std::nullopt;
      if (isa<arith::MaxNumFOp>(op))
        return Range{std::max(x->first.lo, c), std::max(x->first.hi, c)};
      return Range{std::min(x->first.lo, c), std::min(x->first.hi, c)};
    }
    return std::nullopt;
  }

  std::optional<Range> compute(Operation *op) {
    FloatAttr constant;
    if (matchPattern(op->getResult(0), m_Constant(&constant))) {
      double v = constant.getValueAsDouble();
      if (!std::isfinite(v))
        return std::nullopt;
      return Range{v, v};
    }
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      auto it = buffers.find(load.getMemRef());
      if (it == buffers.end())
        return std::nullopt;
      const Buffer &b = it->second;
      if (!b.known || b.stores == 0 || b.seen != b.stores)
        return std::nullopt;
      return b.range;
    }
    if (isFraction(op) && of(op->getOperand(0)))
      return Range{0, 1};
    if (auto r = lerp(op); r && !r->second)
      return r->first;
    if (auto r = clampOfMaybeNaN(op))
      return r;
    if (isa<arith::UIToFPOp, arith::SIToFPOp>(op)) {
      unsigned width = op->getOperand(0).getType().getIntOrFloatBitWidth();
      if (width > 62)
        return std::nullopt;
      double span = std::ldexp(1.0, width);
      if (isa<arith::UIToFPOp>(op))
        return rounded(0, span - 1);
      return rounded(-span / 2, span / 2 - 1);
    }
    SmallVector<Range, 3> in;
    for (Value operand : op->getOperands()) {
      if (operand.getType().isInteger(1))
        continue; // A select's condition.
      std::optional<Range> r = of(operand);
      if (!r)
        return std::nullopt;
      in.push_back(*r);
    }
    return llvm::TypeSwitch<Operation *, std::optional<Range>>(op)
        .Case([&](arith::AddFOp) {
          return rounded(in[0].lo + in[1].lo, in[0].hi + in[1].hi);
        })
        .Case([&](arith::SubFOp) {
          return rounded(in[0].lo - in[1].hi, in[0].hi - in[1].lo);
        })
        .Case([&](arith::MulFOp) {
          Range p = product(in[0], in[1]);
          return rounded(p.lo, p.hi);
        })
        .Case([&](math::FmaOp) {
          Range p = product(in[0], in[1]);
          return rounded(p.lo + in[2].lo, p.hi + in[2].hi);
        })
        .Case([&](arith::DivFOp) -> std::optional<Range> {
          if (in[1].lo <= 0 && in[1].hi >= 0)
            return std::nullopt;
          Range p = product(in[0], Range{1 / in[1].hi, 1 / in[1].lo});
          return rounded(p.lo, p.hi);
        })
        .Case([&](arith::NegFOp) {
          return Range{-in[0].hi, -in[0].lo};
        })
        .Case([&](math::AbsFOp) {
          if (in[0].lo >= 0)
            return in[0];
          if (in[0].hi <= 0)
            return Range{-in[0].hi, -in[0].lo};
          return Range{0, std::max(-in[0].lo, in[0].hi)};
        })
        .Case<arith::MaxNumFOp, arith::MaximumFOp>([&](auto) {
          return Range{std::max(in[0].lo, in[1].lo),
                       std::max(in[0].hi, in[1].hi)};
        })
        .Case<arith::MinNumFOp, arith::MinimumFOp>([&](auto) {
          return Range{std::min(in[0].lo, in[1].lo),
                       std::min(in[0].hi, in[1].hi)};
        })
        .Case([&](arith::SelectOp) {
          return Range{std::min(in[0].lo, in[1].lo),
                       std::max(in[0].hi, in[1].hi)};
        })
        .Default([](Operation *) { return std::nullopt; });
  }

  DenseMap<Value, Range> ranges;
  /// Values whose range is known but which may also be NaN.
  DenseMap<Value, Range> maybeNaN;
  DenseMap<Value, Buffer> buffers;
};

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

/// The clamps under `round` (a roundeven only converted to an integer),
/// from the outermost in, while its rounding keeps the value inside each:
/// the value the last of them clamps (what the rounding may read instead),
/// or null if not even the outermost is idle.
static Value unclampedUnderRounding(math::RoundEvenOp round,
                                    const RangeAnalysis &ranges) {
  if (!onlyConverted(round.getResult()))
    return {};
  Value v = round.getOperand();
  bool any = false;
  while (std::optional<Clamp> clamp = clampOf(v)) {
    std::optional<Range> r = ranges.of(clamp->x);
    if (!r || clamp->c != std::round(clamp->c))
      break;
    if (clamp->above ? !(r->hi < clamp->c + 0.5) : !(r->lo > clamp->c - 0.5))
      break;
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
      // A chain under a rounding goes from the outside in (above).
      if (underRounding(op))
        return;
      // x = c = 0 would leave a -0 where the clamp may give +0.
      std::optional<Range> r = ranges.of(clamp->x);
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
