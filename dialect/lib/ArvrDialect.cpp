//===- ArvrDialect.cpp - The arvr dialect, its types and attributes -------===//
//
// Registers the dialect and implements `!arvr.image`'s syntax and rules.
//
//===----------------------------------------------------------------------===//

#include "arvr/Dialect/ArvrDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::arvr;

#include "arvr/Dialect/ArvrDialect.cpp.inc"
#include "arvr/Dialect/ArvrEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "arvr/Dialect/ArvrTypes.cpp.inc"

void ArvrDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "arvr/Dialect/ArvrOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "arvr/Dialect/ArvrTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// ImageType
//===----------------------------------------------------------------------===//

/// `!arvr.image<ui8, 3>` or `!arvr.image<f32, ?>`.
Type ImageType::parse(AsmParser &parser) {
  Type elementType;
  int64_t channels = ShapedType::kDynamic;
  if (parser.parseLess() || parser.parseType(elementType) ||
      parser.parseComma())
    return {};
  if (failed(parser.parseOptionalQuestion()) && parser.parseInteger(channels))
    return {};
  if (parser.parseGreater())
    return {};
  return parser.getChecked<ImageType>(parser.getContext(), elementType,
                                      channels);
}

void ImageType::print(AsmPrinter &printer) const {
  printer << '<' << getElementType() << ", ";
  if (hasStaticChannels())
    printer << getChannels();
  else
    printer << '?';
  printer << '>';
}

LogicalResult ImageType::verify(function_ref<InFlightDiagnostic()> emitError,
                                Type elementType, int64_t channels) {
  bool known = elementType.isUnsignedInteger(8) ||
               elementType.isUnsignedInteger(16) ||
               elementType.isSignlessInteger(32) || elementType.isF32();
  if (!known)
    return emitError() << "image element type must be ui8, ui16, i32 or f32, "
                          "but got "
                       << elementType;
  if (!ShapedType::isDynamic(channels) && (channels < 1 || channels > 4))
    return emitError() << "image channel count must be 1 to 4 or '?', but got "
                       << channels;
  return success();
}

Type ImageType::getScalarType() const {
  Type element = getElementType();
  if (auto integer = dyn_cast<IntegerType>(element))
    return IntegerType::get(getContext(), integer.getWidth());
  return element;
}

/// Folders (e.g. `arvr.dim` of static channels) produce `arith.constant`s.
Operation *ArvrDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}
