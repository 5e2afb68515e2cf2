//===- ArvrDialect.cpp - The arvr dialect, its types and attributes -------===//
//
// Registers the dialect and implements `!arvr.image`'s syntax and rules,
// `#arvr.loop`'s rules, and the checks of the discardable `arvr.*`
// attributes lowering passes put on other dialects' ops.
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

#define GET_ATTRDEF_CLASSES
#include "arvr/Dialect/ArvrAttrs.cpp.inc"

void ArvrDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "arvr/Dialect/ArvrOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "arvr/Dialect/ArvrTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "arvr/Dialect/ArvrAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// LoopScheduleAttr and the discardable attributes
//===----------------------------------------------------------------------===//

LogicalResult
LoopScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         StringRef stage, ArrayRef<int64_t> block,
                         std::optional<int64_t> pixels, bool shared) {
  if (stage.empty())
    return emitError() << "a stage loop's schedule names its stage";
  if (!block.empty() && (block.size() != 2 || block[0] < 1 || block[1] < 1 ||
                         block[0] * block[1] > 1024))
    return emitError() << "block must be two positive sizes of at most 1024 "
                          "threads in all";
  if (pixels && (*pixels < 1 || *pixels > 16))
    return emitError() << "pixels must be 1 to 16, not " << *pixels;
  if (shared && (!block.empty() || pixels))
    return emitError() << "a stage in shared memory is computed in its "
                          "reader's blocks: no block or pixels of its own";
  return success();
}

/// Marks a pass leaves on ops for a later one: present or not.
static bool isMark(StringRef name) {
  return name == ArvrDialect::kBoundaryAttrName ||
         name == ArvrDialect::kInteriorAttrName ||
         name == ArvrDialect::kChannelInRangeAttrName ||
         name == ArvrDialect::kBlockProofAttrName ||
         name == ArvrDialect::kBlockBoxAttrName ||
         name == ArvrDialect::kBoxedAttrName ||
         name == ArvrDialect::kParameterTableAttrName;
}

LogicalResult ArvrDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  StringRef opName = op->getName().getStringRef();
  if (name == kScheduleAttrName) {
    if (!isa<LoopScheduleAttr>(attr.getValue()) || opName != "scf.parallel")
      return op->emitError("'") << name
                                << "' is a #arvr.loop on an "
                                   "scf.parallel";
    return success();
  }
  if (name == kUnrollAttrName) {
    auto factor = dyn_cast<IntegerAttr>(attr.getValue());
    if (!factor || opName != "scf.for" || factor.getInt() < 1 ||
        factor.getInt() > 64)
      return op->emitError("'") << name
                                << "' is an integer from 1 to 64 on "
                                   "an scf.for";
    return success();
  }
  if (name == kFramesInGridZAttrName) {
    if (!isa<UnitAttr>(attr.getValue()) || opName != "func.func")
      return op->emitError("'")
             << name << "' is a unit attribute on a func.func";
    return success();
  }
  if (name == kThreadPointsAttrName) {
    if (!isa<UnitAttr>(attr.getValue()) || opName != "scf.for")
      return op->emitError("'")
             << name << "' is a unit attribute on an scf.for";
    return success();
  }
  if (isMark(name)) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError("'") << name << "' is a unit attribute (a mark)";
    return success();
  }
  return op->emitError("unknown attribute '") << name << "'";
}

LogicalResult ArvrDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                    unsigned,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == "arvr.name" && isa<StringAttr>(attr.getValue()))
    return success();
  if (name == "arvr.output" && isa<IntegerAttr>(attr.getValue()))
    return success();
  return op->emitError("'") << name
                            << "' on an argument: arvr.name (a string) and "
                               "arvr.output (an integer) are known";
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
