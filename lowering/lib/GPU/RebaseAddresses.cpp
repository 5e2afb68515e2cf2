//===- RebaseAddresses.cpp - neighbouring accesses addressed from one -----===//
//
// A kernel reads the four pixels of a bilinear sample, or the taps of a
// stencil, at indices that differ by a constant or by a row stride. After
// the lowering each access computes its own 32-bit linear index and the
// NVPTX backend its own 64-bit address (an add, a widening and a 64-bit
// add: three SASS instructions a tap), since a 32-bit index plus 3 may
// wrap where the address plus 3 does not.
//
// This pass writes each such access's address from an earlier one's in
// the same block: `gep base[i1]` becomes `gep (gep base[i0])[d]` where
// `i1 - i0` is, as polynomials over the values the indices are computed
// from (sums, differences and products, distributed modulo 2^n), a
// constant or a single value. The constant then folds into the load's
// immediate offset (`ld.global.nc.u8 [%rd + 3]`), and a row stride is one
// 64-bit add.
//
// Why the addresses are the same: both GEPs feed a load or a store of
// their block, so both accesses happen, and both addresses lie in one
// buffer of fewer than 2^31 elements (the runner refuses larger images).
// Their sign-extended indices then differ by less than 2^31, and the only
// such difference congruent to d modulo 2^32 is d sign-extended: exactly
// what `gep ...[d]` adds.
//
// Preconditions: the gpu.module is in the LLVM/NVVM dialects (after
// convert-gpu-to-nvvm). GEPs with one index and their users are handled;
// anything else is left as it is.
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

#include "mlir/IR/Matchers.h"

#include <map>

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRREBASEADDRESSES
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

/// A polynomial over SSA values with coefficients modulo 2^width: each
/// monomial is a sorted list of values (empty: the constant term).
struct Polynomial {
  using Monomial = SmallVector<void *, 2>;
  std::map<Monomial, uint64_t> terms;
  unsigned width = 64;

  uint64_t mask(uint64_t v) const {
    return width >= 64 ? v : v & ((uint64_t(1) << width) - 1);
  }
  void add(const Monomial &m, uint64_t c) {
    uint64_t &slot = terms[m];
    slot = mask(slot + c);
    if (slot == 0)
      terms.erase(m);
  }
};

/// Bounds on the polynomials built: beyond them a value is a leaf.
constexpr unsigned kMaxTerms = 16, kMaxDegree = 3;

/// Builds (and remembers) the polynomial of integer values.
class PolynomialBuilder {
public:
  /// A copy: building one polynomial may grow the memo.
  Polynomial get(Value v) {
    auto found = memo.find(v);
    if (found != memo.end())
      return found->second;
    Polynomial p = build(v);
    memo.try_emplace(v, p);
    return p;
  }

private:
  DenseMap<Value, Polynomial> memo;

  static Polynomial leaf(Value v, unsigned width) {
    Polynomial p;
    p.width = width;
    p.add({v.getAsOpaquePointer()}, 1);
    return p;
  }

  static Polynomial constant(uint64_t c, unsigned width) {
    Polynomial p;
    p.width = width;
    p.add({}, c);
    return p;
  }

  static std::optional<Polynomial> product(const Polynomial &a,
                                           const Polynomial &b) {
    Polynomial p;
    p.width = a.width;
    for (const auto &[ma, ca] : a.terms)
      for (const auto &[mb, cb] : b.terms) {
        Polynomial::Monomial m(ma);
        m.append(mb.begin(), mb.end());
        if (m.size() > kMaxDegree)
          return std::nullopt;
        llvm::sort(m);
        p.add(m, ca * cb);
      }
    if (p.terms.size() > kMaxTerms)
      return std::nullopt;
    return p;
  }

  Polynomial build(Value v) {
    auto type = dyn_cast<IntegerType>(v.getType());
    unsigned width = type ? type.getWidth() : 64;
    APInt value;
    if (type && matchPattern(v, m_ConstantInt(&value)))
      return constant(value.getZExtValue(), width);
    Operation *op = v.getDefiningOp();
    if (!type || !op || width > 64)
      return leaf(v, width);
    auto sum = [&](Value a, Value b, bool negate) {
      Polynomial p = get(a), q = get(b);
      for (const auto &[m, c] : q.terms)
        p.add(m, negate ? uint64_t(0) - c : c);
      return p;
    };
    std::optional<Polynomial> result;
    if (auto add = dyn_cast<LLVM::AddOp>(op))
      result = sum(add.getLhs(), add.getRhs(), false);
    else if (auto sub = dyn_cast<LLVM::SubOp>(op))
      result = sum(sub.getLhs(), sub.getRhs(), true);
    else if (auto mul = dyn_cast<LLVM::MulOp>(op)) {
      Polynomial lhs = get(mul.getLhs());
      result = product(lhs, get(mul.getRhs()));
    } else if (auto shl = dyn_cast<LLVM::ShlOp>(op);
               shl && matchPattern(shl.getRhs(), m_ConstantInt(&value)) &&
               value.ult(width))
      result = product(get(shl.getLhs()),
                       constant(uint64_t(1) << value.getZExtValue(), width));
    if (!result || result->terms.size() > kMaxTerms)
      return leaf(v, width);
    return *result;
  }
};

/// A GEP with one dynamic index whose address is loaded from or stored to
/// in its own block.
static bool isRebaseCandidate(LLVM::GEPOp gep) {
  if (gep.getDynamicIndices().size() != 1 ||
      gep.getRawConstantIndices().size() != 1 ||
      gep.getRawConstantIndices()[0] != LLVM::GEPOp::kDynamicIndex)
    return false;
  Block *block = gep->getBlock();
  return llvm::any_of(gep->getUses(), [&](OpOperand &use) {
    Operation *user = use.getOwner();
    if (user->getBlock() != block)
      return false;
    if (isa<LLVM::LoadOp>(user))
      return true;
    auto store = dyn_cast<LLVM::StoreOp>(user);
    return store && store.getAddr() == gep.getResult();
  });
}

/// What one index is from another: a constant, or one of the values the
/// indices are computed from.
struct Difference {
  std::optional<int64_t> constant;
  Value value;
};

/// `later - earlier` as a constant (sign-extended from the index width)
/// or a single value with coefficient 1, if it is one of those.
static std::optional<Difference> difference(const Polynomial &later,
                                            const Polynomial &earlier) {
  Polynomial d = later;
  for (const auto &[m, c] : earlier.terms)
    d.add(m, uint64_t(0) - c);
  if (d.terms.empty())
    return Difference{int64_t(0), {}};
  if (d.terms.size() != 1)
    return std::nullopt;
  const auto &[m, c] = *d.terms.begin();
  if (m.empty()) {
    int64_t signedC =
        d.width >= 64 ? int64_t(c) : llvm::SignExtend64(c, d.width);
    return Difference{signedC, {}};
  }
  if (m.size() == 1 && c == 1)
    return Difference{std::nullopt, Value::getFromOpaquePointer(m[0])};
  return std::nullopt;
}

/// An access's address, with what it was computed from.
struct Access {
  Value address, base, index;
  Type elementType;
};

/// The nearest of `earlier` with the same index, else the nearest whose
/// index differs from `index` by a constant, else the nearest differing
/// by one value; with that difference.
static std::optional<std::pair<Access, Difference>>
nearest(ArrayRef<Access> earlier, LLVM::GEPOp gep, Value index,
        PolynomialBuilder &polynomials) {
  std::optional<std::pair<Access, Difference>> best;
  Polynomial mine = polynomials.get(index);
  for (const Access &other : llvm::reverse(earlier)) {
    if (other.base != gep.getBase() || other.elementType != gep.getElemType() ||
        other.address.getType() != gep.getType() ||
        other.index.getType() != index.getType())
      continue;
    std::optional<Difference> d =
        difference(mine, polynomials.get(other.index));
    if (!d ||
        (d->constant && (*d->constant > INT32_MAX || *d->constant < INT32_MIN)))
      continue;
    if (d->constant && *d->constant == 0)
      return std::make_pair(other, *d);
    if (!best || (d->constant && !best->second.constant))
      best = std::make_pair(other, *d);
  }
  return best;
}

/// Rebases the candidate GEPs of `block`.
static void rebaseBlock(Block &block, PolynomialBuilder &polynomials) {
  SmallVector<Access> earlier;
  for (Operation &op : llvm::make_early_inc_range(block)) {
    auto gep = dyn_cast<LLVM::GEPOp>(&op);
    if (!gep || !isRebaseCandidate(gep))
      continue;
    Value index = gep.getDynamicIndices()[0];
    auto found = nearest(earlier, gep, index, polynomials);
    Access access{gep.getResult(), gep.getBase(), index, gep.getElemType()};
    if (found) {
      auto &[from, d] = *found;
      if (d.constant && *d.constant == 0) {
        access.address = from.address;
      } else {
        OpBuilder builder(gep);
        LLVM::GEPArg offset =
            d.constant ? LLVM::GEPArg(static_cast<int32_t>(*d.constant))
                       : LLVM::GEPArg(d.value);
        access.address =
            LLVM::GEPOp::create(builder, gep.getLoc(), gep.getType(),
                                gep.getElemType(), from.address, {offset});
      }
      gep.getResult().replaceAllUsesWith(access.address);
      gep.erase();
    }
    earlier.push_back(access);
  }
}

struct ArvrRebaseAddressesPass
    : public arvr::impl::ArvrRebaseAddressesBase<ArvrRebaseAddressesPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>()) {
      PolynomialBuilder polynomials;
      for (Block &block : func.getBody())
        rebaseBlock(block, polynomials);
    }
  }
};

} // namespace
