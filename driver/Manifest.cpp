//===- Manifest.cpp - How to launch the PTX of a kernel without arvrc -----===//
//
// Serialises the host side of a lowered kernel (see Manifest.h and
// docs/manifest.md): every value a launch needs becomes one `value` line,
// after the values it uses, so a reader evaluates the file top to bottom.
//
//===----------------------------------------------------------------------===//

#include "Manifest.h"

#include "arvr/Dialect/ArvrDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace {

class ManifestWriter {
public:
  ManifestWriter(llvm::raw_ostream &os, std::string &error)
      : os(os), error(error) {}

  /// The name of an operand in the manifest: `aN` for the host function's
  /// argument N, `bN` for a stage buffer, `vN` for a computed value;
  /// empty (error set) if it cannot be described.
  std::string ref(Value value) {
    if (auto arg = dyn_cast<BlockArgument>(value))
      return "a" + std::to_string(arg.getArgNumber());
    auto it = names.find(value);
    if (it != names.end())
      return it->second;
    Operation *op = value.getDefiningOp();
    std::string line;
    llvm::raw_string_ostream text(line);
    auto operand = [&](Value v) -> bool {
      std::string name = ref(v);
      text << " " << name;
      return !name.empty();
    };
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      MemRefType type = alloc.getType();
      std::string sizes[3];
      unsigned dynamic = 0;
      for (int64_t dim = 0; dim < 3; ++dim)
        sizes[dim] = type.isDynamicDim(dim)
                         ? ref(alloc.getDynamicSizes()[dynamic++])
                         : std::to_string(type.getDimSize(dim));
      if (type.getRank() != 3 || sizes[0].empty() || sizes[1].empty() ||
          sizes[2].empty())
        return fail(op);
      std::string name = "b" + std::to_string(numBuffers++);
      os << "buffer " << name << " " << type.getElementTypeBitWidth() / 8 << " "
         << sizes[0] << " " << sizes[1] << " " << sizes[2] << "\n";
      return names[value] = name;
    }

    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto integer = dyn_cast<IntegerAttr>(constant.getValue());
      if (!integer)
        return fail(op);
      text << "const " << integer.getValue().getSExtValue();
    } else if (auto dim = dyn_cast<memref::DimOp>(op)) {
      std::optional<int64_t> index = dim.getConstantIndex();
      auto arg = dyn_cast<BlockArgument>(dim.getSource());
      if (!index || !arg)
        return fail(op);
      text << "dim a" << arg.getArgNumber() << " " << *index;
    } else if (auto dim = dyn_cast<arvr::DimOp>(op)) {
      auto arg = dyn_cast<BlockArgument>(dim.getImage());
      if (!arg)
        return fail(op);
      // The dimension in memref order: (height, width, channels).
      int index = dim.getDim() == arvr::Dim::height  ? 0
                  : dim.getDim() == arvr::Dim::width ? 1
                                                     : 2;
      text << "dim a" << arg.getArgNumber() << " " << index;
    } else if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(op)) {
      text << "cast";
      if (!operand(op->getOperand(0)))
        return "";
    } else if (auto select = dyn_cast<arith::SelectOp>(op)) {
      text << "select";
      if (!operand(select.getCondition()) || !operand(select.getTrueValue()) ||
          !operand(select.getFalseValue()))
        return "";
    } else if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
      text << "cmp " << arith::stringifyCmpIPredicate(cmp.getPredicate());
      if (!operand(cmp.getLhs()) || !operand(cmp.getRhs()))
        return "";
    } else {
      llvm::StringRef name =
          llvm::TypeSwitch<Operation *, llvm::StringRef>(op)
              .Case([](arith::AddIOp) { return "add"; })
              .Case([](arith::SubIOp) { return "sub"; })
              .Case([](arith::MulIOp) { return "mul"; })
              .Case([](arith::CeilDivSIOp) { return "ceildiv"; })
              .Case([](arith::FloorDivSIOp) { return "floordiv"; })
              .Case([](arith::DivSIOp) { return "div"; })
              .Case([](arith::RemSIOp) { return "rem"; })
              .Case([](arith::MinSIOp) { return "min"; })
              .Case([](arith::MaxSIOp) { return "max"; })
              .Case([](arith::AndIOp) { return "and"; })
              .Case([](arith::OrIOp) { return "or"; })
              .Case([](arith::XOrIOp) { return "xor"; })
              .Default([](Operation *) { return ""; });
      if (name.empty() || op->getNumOperands() != 2)
        return fail(op);
      text << name;
      if (!operand(op->getOperand(0)) || !operand(op->getOperand(1)))
        return "";
    }
    std::string name = "v" + std::to_string(numValues++);
    os << "value " << name << " " << bitWidth(value.getType()) << " " << line
       << "\n";
    return names[value] = name;
  }

  std::string fail(Operation *op) {
    if (error.empty())
      error = "internal compiler error: the launch manifest cannot describe '" +
              op->getName().getStringRef().str() + "'";
    return "";
  }

  static unsigned bitWidth(Type type) {
    return type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  }

  /// The manifest's name of an element type.
  static std::string typeName(Type type) {
    if (type.isF32())
      return "f32";
    if (type.isInteger(1))
      return "i1";
    if (type.isIndex())
      return "index";
    unsigned width = type.getIntOrFloatBitWidth();
    return (type.isUnsignedInteger() ? "u" : "i") + std::to_string(width);
  }

private:
  llvm::raw_ostream &os;
  std::string &error;
  llvm::DenseMap<Value, std::string> names;
  unsigned numValues = 0, numBuffers = 0;
};

} // namespace

bool arvrc::writeLaunchManifest(ModuleOp lowered, ModuleOp arvrModule,
                                const std::string &kernel,
                                const std::string &ptxFile, bool cubin,
                                llvm::raw_ostream &os, std::string &error) {
  auto host = lowered.lookupSymbol<func::FuncOp>(kernel);
  auto source = arvrModule.lookupSymbol<arvr::KernelOp>(kernel);
  if (!host || !source || source.getBody().empty()) {
    error = "internal compiler error: no host code for kernel '" + kernel + "'";
    return false;
  }
  os << "arvrc-launch-manifest 1\n";
  os << "kernel " << kernel << "\n";
  os << (cubin ? "cubin " : "ptx ") << ptxFile << "\n";
  // The PTX's index arithmetic (and so its index and memref size
  // parameters) is 32-bit: see buildCudaPipeline.
  os << "index-bits 32\n";
  // Frames of a batch may be stacked and run as one launch per kernel, the
  // frame as the grid's z (arvr-batch-frames).
  if (host->hasAttr(arvr::ArvrDialect::kFramesInGridZAttrName))
    os << "batch grid-z\n";

  // The arguments: the kernel's (source types, so u8 stays unsigned), then
  // its outputs.
  unsigned numInputs = source.getNumArguments();
  for (BlockArgument arg : host.getArguments()) {
    unsigned index = arg.getArgNumber();
    bool isOutput = index >= numInputs;
    Type type = isOutput ? source.getResultTypes()[index - numInputs]
                         : source.getArgumentTypes()[index];
    // Named outputs keep their .arvr names; a single output is out0.
    auto name = isOutput
                    ? source.getResultAttrOfType<StringAttr>(index - numInputs,
                                                             "arvr.name")
                    : host.getArgAttrOfType<StringAttr>(index, "arvr.name");
    os << (isOutput ? "output" : "param") << " a" << index << " "
       << (name ? name.getValue().str()
                : "out" + std::to_string(index - numInputs));
    if (auto image = dyn_cast<arvr::ImageType>(type)) {
      os << " image " << ManifestWriter::typeName(image.getElementType())
         << " ";
      if (image.hasStaticChannels())
        os << image.getChannels();
      else
        os << "?";
    } else {
      os << " scalar " << ManifestWriter::typeName(type);
    }
    os << "\n";
  }

  ManifestWriter writer(os, error);
  // The output's size (width, height, channels), from the arvr kernel: the
  // sizes of the stage it returns.
  auto ret = cast<arvr::ReturnOp>(source.getBody().front().getTerminator());
  std::string size[3];
  for (auto [index, operand] : llvm::enumerate(ret.getOperands())) {
    auto stage = operand.getDefiningOp<arvr::StageOp>();
    if (!stage || !stage.hasSizes()) {
      error = "internal compiler error: an output of '" + kernel +
              "' is not a stage with sizes";
      return false;
    }
    for (int dim = 0; dim < 3; ++dim)
      if ((size[dim] = writer.ref(stage.getSizes()[dim])).empty())
        return false;
    os << "output-size a" << numInputs + index << " " << size[0] << " "
       << size[1] << " " << size[2] << "\n";
  }

  for (gpu::LaunchFuncOp launch : host.getOps<gpu::LaunchFuncOp>()) {
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    Value geometry[6] = {grid.x, grid.y, grid.z, block.x, block.y, block.z};
    std::string refs[7];
    for (int i = 0; i < 6; ++i)
      if ((refs[i] = writer.ref(geometry[i])).empty())
        return false;
    refs[6] = "0";
    if (Value shared = launch.getDynamicSharedMemorySize())
      if ((refs[6] = writer.ref(shared)).empty())
        return false;
    std::vector<std::string> args;
    for (Value operand : launch.getKernelOperands()) {
      std::string name = writer.ref(operand);
      if (name.empty())
        return false;
      args.push_back(name);
    }
    os << "launch " << launch.getKernelName().getValue() << " grid " << refs[0]
       << " " << refs[1] << " " << refs[2] << " block " << refs[3] << " "
       << refs[4] << " " << refs[5] << " shared " << refs[6] << " args";
    for (const std::string &arg : args)
      os << " " << arg;
    os << "\n";
  }
  return true;
}
