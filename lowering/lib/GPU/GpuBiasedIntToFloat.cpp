//===- GpuBiasedIntToFloat.cpp - byte to float without a conversion -------===//
//
// A u8 or u16 value x converted to f32 (`uitofp`) is a conversion
// instruction on the GPU (I2F, on the SM's narrow conversion pipe: a
// sixteenth of the FMA pipe's rate on sm_90). The f32 whose bits are
// 0x4B000000 | x is exactly 2^23 + x (2^23's exponent, x in the low
// mantissa bits), built by an integer `or`. Where the converted value only
// meets a constant or another such value in an addition or subtraction,
// the bias folds into that operation, exactly:
//
//   uitofp(x) - K  ==  (2^23 + x) - (2^23 + K)
//   uitofp(x) + K  ==  (2^23 + x) - (2^23 - K)
//   K - uitofp(x)  ==  (2^23 + K) - (2^23 + x)
//   uitofp(x) - uitofp(y)  ==  (2^23 + x) - (2^23 + y)
//
// for every integral K with |K| < 2^23: each side's exact result is an
// integer below 2^24 in magnitude, so both round to it (and a zero result
// is +0 on both). The conversion becomes an `or` and the operation keeps
// its count: no instruction more, one conversion fewer. A conversion with
// any other use (a product, a compare) is left alone, and so is a
// subtraction whose other operand is such a conversion. The CPU keeps
// `uitofp`: the same results.
//
// Where x is a constant element of a vector of u8 or u16 filling whole
// words (the bytes of a vector load), one `prmt` builds 0x4B000000 | x
// from x's word and the constant 0x4B000000, instead of a byte
// extraction (a `prmt` itself) and the `or`: an instruction fewer per
// value (NV12: 64 a thread).
//
// Preconditions: the gpu.module is in the LLVM dialect (after
// convert-gpu-to-nvvm).
//
//===----------------------------------------------------------------------===//

#include "arvr/Lowering/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>

namespace mlir::arvr {
#define GEN_PASS_DEF_ARVRGPUBIASEDINTTOFLOAT
#include "arvr/Lowering/Passes.h.inc"
} // namespace mlir::arvr

using namespace mlir;

namespace {

constexpr double kBias = 8388608.0; // 2^23
constexpr int64_t kBiasBits = 0x4B000000;

/// Whether `convert` turns a u8 or u16 (or a vector of them) into f32s.
static bool isNarrowToF32(LLVM::UIToFPOp convert) {
  Type from = getElementTypeOrSelf(convert.getArg().getType());
  Type to = getElementTypeOrSelf(convert.getType());
  return to.isF32() && (from.isInteger(8) || from.isInteger(16));
}

/// The value of `v` if it is an f32 constant (or a splat of one) that is
/// an integer of magnitude below 2^23, other than -0.
static std::optional<double> smallIntegralConstant(Value v) {
  Attribute attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  FloatAttr value = dyn_cast<FloatAttr>(attr);
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    value = dyn_cast<FloatAttr>(splat.getSplatValue<Attribute>());
  if (!value || !value.getType().isF32())
    return std::nullopt;
  double k = value.getValueAsDouble();
  // Not -0: -0 - x is -0 for x = 0, where (2^23 - 0) - (2^23 + 0) is +0.
  if (std::trunc(k) != k || std::fabs(k) >= kBias ||
      (k == 0 && std::signbit(k)))
    return std::nullopt;
  return k;
}

/// The operand of `op` other than `used` (the operand at the other index).
static Value otherOperand(Operation *op, OpOperand &used) {
  return op->getOperand(1 - used.getOperandNumber());
}

/// Whether every use of `convert` folds the bias, given the conversions
/// still in `folding`.
static bool allUsesFold(LLVM::UIToFPOp convert,
                        const llvm::SetVector<Operation *> &folding) {
  for (OpOperand &use : convert->getUses()) {
    Operation *user = use.getOwner();
    if (!isa<LLVM::FSubOp, LLVM::FAddOp>(user))
      return false;
    Value other = otherOperand(user, use);
    if (smallIntegralConstant(other))
      continue;
    auto partner = other.getDefiningOp<LLVM::UIToFPOp>();
    if (!isa<LLVM::FSubOp>(user) || !partner || !folding.contains(partner))
      return false;
  }
  return true;
}

/// 0x4B000000 | x as one byte permutation, where x is element k (a
/// constant) of a vector of u8 or u16 that fills whole 32-bit words (a
/// vector load's bytes): `prmt` takes x's byte(s) from its word and the
/// exponent's bytes from the constant 0x4B000000, where a zero-extension
/// and an `or` would take two instructions (a byte extraction, itself a
/// `prmt`, and the `or`). Null otherwise.
static Value permutedBits(RewriterBase &rewriter, Location loc, Value x) {
  auto extract = x.getDefiningOp<LLVM::ExtractElementOp>();
  APInt position;
  if (!extract ||
      !matchPattern(extract.getPosition(), m_ConstantInt(&position)))
    return {};
  auto vector = dyn_cast<VectorType>(extract.getVector().getType());
  if (!vector)
    return {};
  unsigned width = vector.getElementTypeBitWidth();
  int64_t count = vector.getNumElements();
  int64_t perWord = 32 / width;
  if (vector.isScalable() || count % perWord != 0 ||
      position.getZExtValue() >= static_cast<uint64_t>(count))
    return {};
  int64_t k = position.getZExtValue();
  Type i32 = rewriter.getI32Type();
  auto constant = [&](Type type, int64_t value) -> Value {
    return LLVM::ConstantOp::create(rewriter, loc, type,
                                    rewriter.getIntegerAttr(type, value));
  };
  Value words = LLVM::BitcastOp::create(rewriter, loc,
                                        VectorType::get({count / perWord}, i32),
                                        extract.getVector());
  Value word = LLVM::ExtractElementOp::create(
      rewriter, loc, words, constant(rewriter.getI64Type(), k / perWord));
  // Result bytes 0 (and 1, for u16) from x's bytes in its word (0-3);
  // bytes 2 and 3 from the exponent's word (4-7): 0x00 and 0x4B.
  int64_t first = (k % perWord) * (width / 8);
  int64_t selector =
      width == 8 ? 0x7540 | first : 0x7400 | (first + 1) << 4 | first;
  return LLVM::CallIntrinsicOp::create(
             rewriter, loc, i32, rewriter.getStringAttr("llvm.nvvm.prmt"),
             ValueRange{word, constant(i32, kBiasBits),
                        constant(i32, selector)})
      .getResult(0);
}

/// 2^23 + x as an f32, for x the operand of `convert`.
static Value biased(RewriterBase &rewriter, LLVM::UIToFPOp convert) {
  Location loc = convert.getLoc();
  Type type = convert.getType();
  rewriter.setInsertionPoint(convert);
  if (Value bits = permutedBits(rewriter, loc, convert.getArg()))
    return LLVM::BitcastOp::create(rewriter, loc, type, bits);
  Type bits = rewriter.getI32Type();
  Attribute pattern = rewriter.getI32IntegerAttr(kBiasBits);
  if (auto vector = dyn_cast<VectorType>(type)) {
    bits = vector.clone(bits);
    pattern = SplatElementsAttr::get(cast<ShapedType>(bits), pattern);
  }
  Value wide = LLVM::ZExtOp::create(rewriter, loc, bits, convert.getArg());
  Value exponent =
      LLVM::ConstantOp::create(rewriter, loc, bits, cast<TypedAttr>(pattern));
  Value word = LLVM::OrOp::create(rewriter, loc, wide, exponent);
  return LLVM::BitcastOp::create(rewriter, loc, type, word);
}

/// The f32 constant (or splat) `value` of `type`, before `op`.
static Value floatConstant(RewriterBase &rewriter, Operation *op, Type type,
                           double value) {
  Attribute attr = rewriter.getF32FloatAttr(static_cast<float>(value));
  if (auto vector = dyn_cast<VectorType>(type))
    attr = SplatElementsAttr::get(vector, attr);
  return LLVM::ConstantOp::create(rewriter, op->getLoc(), type,
                                  cast<TypedAttr>(attr));
}

/// `user` (an fadd or fsub of a folding conversion) as one subtraction of
/// biased values; `biasedOf` gives a folding conversion's biased value.
static void rewriteUser(RewriterBase &rewriter, Operation *user,
                        llvm::function_ref<Value(Value)> biasedOf) {
  rewriter.setInsertionPoint(user);
  Type type = user->getResult(0).getType();
  Value lhs = user->getOperand(0), rhs = user->getOperand(1);
  // An operand's biased value: its conversion's, or for the constant K,
  // 2^23 + K (2^23 - K added).
  bool add = isa<LLVM::FAddOp>(user);
  auto side = [&](Value v) -> Value {
    if (std::optional<double> k = smallIntegralConstant(v))
      return floatConstant(rewriter, user, type, add ? kBias - *k : kBias + *k);
    return biasedOf(v);
  };
  Value a = side(lhs), b = side(rhs);
  // K + uitofp(x) is uitofp(x) + K.
  if (add && smallIntegralConstant(lhs))
    std::swap(a, b);
  auto flags = cast<LLVM::FastmathFlagsInterface>(user).getFastmathAttr();
  Value difference =
      LLVM::FSubOp::create(rewriter, user->getLoc(), a, b, flags.getValue());
  rewriter.replaceOp(user, difference);
}

struct ArvrGpuBiasedIntToFloatPass
    : public arvr::impl::ArvrGpuBiasedIntToFloatBase<
          ArvrGpuBiasedIntToFloatPass> {
  void runOnOperation() override {
    llvm::SetVector<Operation *> folding;
    getOperation().walk([&](LLVM::UIToFPOp convert) {
      if (isNarrowToF32(convert) && !convert->use_empty())
        folding.insert(convert);
    });
    // Drop conversions with a use that does not fold until none is left:
    // a subtraction of two conversions folds only if both do.
    for (bool changed = true; changed;) {
      SmallVector<Operation *> dropped;
      for (Operation *op : folding)
        if (!allUsesFold(cast<LLVM::UIToFPOp>(op), folding))
          dropped.push_back(op);
      for (Operation *op : dropped)
        folding.remove(op);
      changed = !dropped.empty();
    }
    IRRewriter rewriter(&getContext());
    DenseMap<Value, Value> biasedValues;
    for (Operation *op : folding)
      biasedValues[op->getResult(0)] =
          biased(rewriter, cast<LLVM::UIToFPOp>(op));
    llvm::SetVector<Operation *> users;
    for (Operation *op : folding)
      users.insert_range(op->getUsers());
    for (Operation *user : users)
      rewriteUser(rewriter, user,
                  [&](Value v) { return biasedValues.lookup(v); });
    for (Operation *op : folding)
      rewriter.eraseOp(op);
  }
};

} // namespace
