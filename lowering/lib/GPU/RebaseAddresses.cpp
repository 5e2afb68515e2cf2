//===- RebaseAddresses.cpp - neighbouring accesses addressed from one -----===//
//
// A kernel reads the four pixels of a bilinear sample, or the taps of a
// stencil, at indices that differ by a constant or by a row stride. After
// the lowering each access computes its own 32-bit linear index and the
// NVPTX backend its own 64-bit address (an add, a widening and a 64-bit
// add: three SASS instructions a tap), since a 32-bit index plus 3 may
// wrap where the address plus 3 does not.
//
// This pass writes each such access's address from an earlier one's (in
// its block, or in a block that dominates it): `gep base[i1]` becomes
// `gep (gep base[i0])[d]` where `i1 - i0` is, as polynomials over the
// values the indices are computed from (sums, differences and products,
// distributed modulo 2^n; other pure operations on operands of equal
// polynomials count as one value), a constant. The constant then folds
// into the load's immediate offset (`ld.global.nc.u8 [%rd + 3]`). The
// earlier address is always an anchor, a GEP left as it was: were an
// address that two points read reached as anchor + 3 by one and anchor'
// - 3 by the other, LLVM would no longer see one address and merge their
// loads (pyr_down read each shared tap twice that way). A row stride
// away is no constant: the next row keeps its own address.
//
// Why the addresses are the same: both GEPs feed a load or a store of
// their block, and the earlier one's block runs whenever the later one's
// does, so both accesses happen, and both addresses lie in one
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

#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/DepthFirstIterator.h"

#include <map>
#include <vector>

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
  /// One value for each leaf computation: an operation without memory
  /// effects, keyed by its name, attributes and its operands' polynomials.
  std::map<std::vector<const void *>, Value> leaves;

  /// `v` as a leaf: the first value computed as `v` is (the same
  /// operation on operands of the same polynomials: a mirrored index
  /// computed for two points), so that equal addresses compare equal.
  Polynomial leaf(Value v, unsigned width) {
    Value representative = v;
    Operation *op = v.getDefiningOp();
    if (op && op->getNumResults() == 1 && op->getNumRegions() == 0 &&
        isMemoryEffectFree(op)) {
      std::vector<const void *> key = {
          op->getName().getAsOpaquePointer(),
          op->getAttrDictionary().getAsOpaquePointer(),
          v.getType().getAsOpaquePointer()};
      for (Value operand : op->getOperands()) {
        Polynomial p = get(operand);
        key.push_back(reinterpret_cast<const void *>(
            static_cast<uintptr_t>(p.terms.size())));
        for (const auto &[m, c] : p.terms) {
          key.push_back(
              reinterpret_cast<const void *>(static_cast<uintptr_t>(m.size())));
          key.insert(key.end(), m.begin(), m.end());
          key.push_back(
              reinterpret_cast<const void *>(static_cast<uintptr_t>(c)));
        }
      }
      representative = leaves.try_emplace(key, v).first->second;
    }
    Polynomial p;
    p.width = width;
    p.add({representative.getAsOpaquePointer()}, 1);
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

/// `later - earlier` as a constant (sign-extended from the index width),
/// if it is one.
static std::optional<int64_t> difference(const Polynomial &later,
                                         const Polynomial &earlier) {
  Polynomial d = later;
  for (const auto &[m, c] : earlier.terms)
    d.add(m, uint64_t(0) - c);
  if (d.terms.empty())
    return 0;
  if (d.terms.size() != 1 || !d.terms.begin()->first.empty())
    return std::nullopt;
  uint64_t c = d.terms.begin()->second;
  return d.width >= 64 ? int64_t(c) : llvm::SignExtend64(c, d.width);
}

/// An access's address, with what it was computed from; an anchor's
/// address is its own GEP's, the others' an anchor's plus a constant.
struct Access {
  Value address, base, index;
  Type elementType;
  bool anchor = true;
};

/// The nearest of `earlier` with the same index, else the nearest anchor
/// whose index differs from `index` by a constant; with that difference.
/// Only from anchors: an address one point reaches as anchor + 3 and
/// another as anchor' - 3 would be two values, and LLVM would no longer
/// merge their loads.
static std::optional<std::pair<Access, int64_t>>
nearest(ArrayRef<Access> earlier, LLVM::GEPOp gep, Value index,
        PolynomialBuilder &polynomials) {
  std::optional<std::pair<Access, int64_t>> best;
  Polynomial mine = polynomials.get(index);
  for (const Access &other : llvm::reverse(earlier)) {
    if (other.base != gep.getBase() || other.elementType != gep.getElemType() ||
        other.address.getType() != gep.getType() ||
        other.index.getType() != index.getType())
      continue;
    std::optional<int64_t> d = difference(mine, polynomials.get(other.index));
    if (!d || *d > INT32_MAX || *d < INT32_MIN)
      continue;
    if (*d == 0)
      return std::make_pair(other, *d);
    if (!best && other.anchor)
      best = std::make_pair(other, *d);
  }
  return best;
}

/// Rebases the candidate GEPs of `block`, from `earlier` (the accesses of
/// the blocks that dominate it, nearest last) and its own; returns its own.
static SmallVector<Access> rebaseBlock(Block &block,
                                       PolynomialBuilder &polynomials,
                                       SmallVector<Access> earlier) {
  size_t inherited = earlier.size();
  for (Operation &op : llvm::make_early_inc_range(block)) {
    auto gep = dyn_cast<LLVM::GEPOp>(&op);
    if (!gep || !isRebaseCandidate(gep))
      continue;
    Value index = gep.getDynamicIndices()[0];
    auto found = nearest(earlier, gep, index, polynomials);
    Access access{gep.getResult(), gep.getBase(), index, gep.getElemType()};
    if (found) {
      auto &[from, d] = *found;
      access.anchor = d == 0 && from.anchor;
      if (d == 0) {
        access.address = from.address;
      } else {
        OpBuilder builder(gep);
        access.address = LLVM::GEPOp::create(
            builder, gep.getLoc(), gep.getType(), gep.getElemType(),
            from.address, {LLVM::GEPArg(static_cast<int32_t>(d))});
      }
      gep.getResult().replaceAllUsesWith(access.address);
      gep.erase();
    }
    earlier.push_back(access);
  }
  return SmallVector<Access>(earlier.begin() + inherited, earlier.end());
}

struct ArvrRebaseAddressesPass
    : public arvr::impl::ArvrRebaseAddressesBase<ArvrRebaseAddressesPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>()) {
      if (func.isExternal())
        continue;
      // Blocks in dominance order; a block also takes its addresses from
      // the accesses of the blocks that dominate it (they happened when it
      // runs), so that one address reached in two blocks is one value and
      // LLVM still merges its loads.
      PolynomialBuilder polynomials;
      Region &body = func.getBody();
      if (body.hasOneBlock()) {
        rebaseBlock(body.front(), polynomials, {});
        continue;
      }
      DominanceInfo dominance(func);
      auto &tree = dominance.getDomTree(&func.getBody());
      DenseMap<Block *, SmallVector<Access>> own;
      for (auto *node : llvm::depth_first(tree.getRootNode())) {
        SmallVector<DominanceInfoNode *> chain;
        for (DominanceInfoNode *up = node->getIDom(); up; up = up->getIDom())
          chain.push_back(up);
        SmallVector<Access> earlier;
        for (DominanceInfoNode *up : llvm::reverse(chain)) {
          auto found = own.find(up->getBlock());
          if (found != own.end())
            earlier.append(found->second);
        }
        own[node->getBlock()] =
            rebaseBlock(*node->getBlock(), polynomials, std::move(earlier));
      }
    }
  }
};

} // namespace
