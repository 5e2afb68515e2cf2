//===- Manifest.cpp - How to launch the PTX of a kernel without arvrc -----===//
//
// Reads the host side of a lowered kernel into a LaunchPlan (Manifest.h):
// every value a launch needs becomes one definition, after the values it
// uses, so a reader evaluates them in order; then writes the plan as the
// text manifest (docs/manifest.md) or as JSON (docs/launch-plan.md).
//
//===----------------------------------------------------------------------===//

#include "Manifest.h"
#include "Image.h"

#include "arvr/Frontend/AST.h"

#include "arvr/Dialect/ArvrDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/JSON.h"

using namespace mlir;

namespace {

class PlanBuilder {
public:
  /// Values and buffers numbered after those `plan` defines already.
  PlanBuilder(arvrc::LaunchPlan &plan, std::string &error)
      : plan(plan), error(error) {
    for (const arvrc::LaunchPlan::Definition &def : plan.definitions)
      ++(def.op.empty() ? numBuffers : numValues);
  }

  /// The name of an operand in the plan: `aN` for the host function's
  /// argument N, `bN` for a stage buffer, `vN` for a computed value;
  /// empty (error set) if it cannot be described.
  std::string ref(Value value) {
    if (auto arg = dyn_cast<BlockArgument>(value))
      return "a" + std::to_string(arg.getArgNumber());
    auto it = names.find(value);
    if (it != names.end())
      return it->second;
    Operation *op = value.getDefiningOp();
    arvrc::LaunchPlan::Definition def;
    auto operand = [&](Value v) -> bool {
      std::string name = ref(v);
      def.operands.push_back(name);
      return !name.empty();
    };
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      MemRefType type = alloc.getType();
      unsigned dynamic = 0;
      if (type.getRank() != 3)
        return fail(op);
      for (int64_t dim = 0; dim < 3; ++dim)
        if ((def.sizes[dim] = type.isDynamicDim(dim)
                                  ? ref(alloc.getDynamicSizes()[dynamic++])
                                  : std::to_string(type.getDimSize(dim)))
                .empty())
          return fail(op);
      def.id = "b" + std::to_string(numBuffers++);
      def.elementBytes = type.getElementTypeBitWidth() / 8;
      plan.definitions.push_back(def);
      return names[value] = def.id;
    }

    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      def.op = "const";
      if (auto real = dyn_cast<FloatAttr>(constant.getValue());
          real && real.getType().isF32()) {
        def.f32 = true;
        def.number = real.getValueAsDouble();
      } else if (auto integer = dyn_cast<IntegerAttr>(constant.getValue())) {
        def.literal = integer.getValue().getSExtValue();
      } else {
        return fail(op);
      }
    } else if (std::string name = floatOpName(op); !name.empty()) {
      // f32 arithmetic of the parameters (arvr-host-uniforms).
      def.op = name;
      def.f32 = true;
      for (Value v : op->getOperands())
        if (!operand(v))
          return "";
    } else if (auto dim = dyn_cast<memref::DimOp>(op)) {
      std::optional<int64_t> index = dim.getConstantIndex();
      auto arg = dyn_cast<BlockArgument>(dim.getSource());
      if (!index || !arg)
        return fail(op);
      def.op = "dim";
      def.operands.push_back("a" + std::to_string(arg.getArgNumber()));
      def.literal = *index;
    } else if (auto dim = dyn_cast<mlir::arvr::DimOp>(op)) {
      auto arg = dyn_cast<BlockArgument>(dim.getImage());
      if (!arg)
        return fail(op);
      // The dimension in memref order: (height, width, channels).
      def.op = "dim";
      def.operands.push_back("a" + std::to_string(arg.getArgNumber()));
      def.literal = dim.getDim() == mlir::arvr::Dim::height  ? 0
                    : dim.getDim() == mlir::arvr::Dim::width ? 1
                                                             : 2;
    } else if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(op)) {
      def.op = "cast";
      if (!operand(op->getOperand(0)))
        return "";
    } else if (auto select = dyn_cast<arith::SelectOp>(op)) {
      // (Of integers: arvr-host-uniforms moves no f32 select.)
      if (value.getType().isF32())
        return fail(op);
      def.op = "select";
      if (!operand(select.getCondition()) || !operand(select.getTrueValue()) ||
          !operand(select.getFalseValue()))
        return "";
    } else if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
      def.op = "cmp";
      def.predicate = arith::stringifyCmpIPredicate(cmp.getPredicate()).str();
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
      def.op = name.str();
      if (!operand(op->getOperand(0)) || !operand(op->getOperand(1)))
        return "";
    }
    def.id = "v" + std::to_string(numValues++);
    def.bits = bitWidth(value.getType());
    plan.definitions.push_back(def);
    return names[value] = def.id;
  }

  /// ref(), or "" without an error where `value` is not computed on the
  /// host (a bound that depends on a point).
  std::string tryRef(Value value) {
    std::string before = error;
    std::string name = ref(value);
    if (name.empty())
      error = before;
    return name;
  }

  std::string fail(Operation *op) {
    if (error.empty())
      error = "internal compiler error: the launch plan cannot describe '" +
              op->getName().getStringRef().str() + "'";
    return "";
  }

  /// The plan's name of an f32 operation it computes on the host, or "".
  static std::string floatOpName(Operation *op) {
    if (op->getNumResults() != 1 || !op->getResult(0).getType().isF32())
      return "";
    return llvm::TypeSwitch<Operation *, std::string>(op)
        .Case([](arith::AddFOp) { return "fadd"; })
        .Case([](arith::SubFOp) { return "fsub"; })
        .Case([](arith::MulFOp) { return "fmul"; })
        .Case([](arith::DivFOp) { return "fdiv"; })
        .Case([](arith::NegFOp) { return "fneg"; })
        .Case([](math::FmaOp) { return "fma"; })
        .Default([](Operation *) { return ""; });
  }

  static unsigned bitWidth(Type type) {
    return type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  }

  /// The plan's name of an element type.
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
  arvrc::LaunchPlan &plan;
  std::string &error;
  llvm::DenseMap<Value, std::string> names;
  unsigned numValues = 0, numBuffers = 0;
};

} // namespace

/// "file:line:col: " of `loc`, or "".
static std::string locationPrefix(Location loc) {
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    return fileLoc.getFilename().str() + ":" +
           std::to_string(fileLoc.getLine()) + ":" +
           std::to_string(fileLoc.getColumn()) + ": ";
  return "";
}

/// The plan's checks of `source`: each reduction whose bounds the host can
/// compute ranges over at most arvr::kMaxReductionRange values; each stage
/// of a function with extents is 1 to kMaxImageSide points a side.
static void addChecks(mlir::arvr::KernelOp source, PlanBuilder &builder,
                      const arvrc::BoundedFunctions &bounded,
                      arvrc::LaunchPlan &plan) {
  source.walk([&](mlir::arvr::ReduceOp reduce) {
    std::string lower = builder.tryRef(reduce.getLower());
    std::string upper = lower.empty() ? "" : builder.tryRef(reduce.getUpper());
    if (upper.empty())
      return;
    plan.checks.push_back(
        {true,
         {lower, upper},
         ::arvr::kMaxReductionRange,
         locationPrefix(reduce.getLoc()) + "'" +
             mlir::arvr::stringifyReductionKind(reduce.getKind()).str() + "'"});
  });
  source.walk([&](mlir::arvr::StageOp stage) {
    auto func = llvm::find_if(
        bounded, [&](const auto &f) { return f.first == stage.getName(); });
    if (stage.isOutput() || !stage.hasSizes() || func == bounded.end())
      return;
    arvrc::LaunchPlan::Check check{false,
                                   {},
                                   arvrc::kMaxImageSide,
                                   locationPrefix(stage.getLoc()) +
                                       "the extents of '" +
                                       stage.getName().str() + "'"};
    for (Value size : stage.getSizes().take_front(func->second)) {
      check.operands.push_back(builder.tryRef(size));
      if (check.operands.back().empty())
        return;
    }
    plan.checks.push_back(check);
  });
}

/// Whether `source` does work for every band of rows that does not shrink
/// with the band: a stage other than its outputs reducing over a range set
/// by an image's width or height (a histogram), or a function whose
/// declared extents are (each band computes all of it, as its readers may
/// read anywhere in it: Harris's products, read mirrored).
static bool wholeImageWork(mlir::arvr::KernelOp source,
                           const arvrc::BoundedFunctions &bounded) {
  auto sizedByImage = [](Value bound) {
    SmallVector<Value> work{bound};
    DenseSet<Operation *> seen;
    while (!work.empty()) {
      Operation *op = work.pop_back_val().getDefiningOp();
      if (!op || !seen.insert(op).second)
        continue;
      if (auto dim = dyn_cast<mlir::arvr::DimOp>(op))
        if (dim.getDim() != mlir::arvr::Dim::channels)
          return true;
      llvm::append_range(work, op->getOperands());
    }
    return false;
  };
  bool reduces = source
                     .walk([&](mlir::arvr::ReduceOp reduce) {
                       auto stage =
                           reduce->getParentOfType<mlir::arvr::StageOp>();
                       return (!stage || !stage.isOutput()) &&
                                      (sizedByImage(reduce.getLower()) ||
                                       sizedByImage(reduce.getUpper()))
                                  ? WalkResult::interrupt()
                                  : WalkResult::advance();
                     })
                     .wasInterrupted();
  bool extents =
      source
          .walk([&](mlir::arvr::StageOp stage) {
            bool declared = llvm::any_of(
                bounded, [&](auto &f) { return f.first == stage.getName(); });
            return declared && !stage.isOutput() && stage.hasSizes() &&
                           llvm::any_of(stage.getSizes(), sizedByImage)
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          })
          .wasInterrupted();
  return reduces || extents;
}

bool arvrc::buildKernelPlan(ModuleOp arvrModule, const std::string &kernel,
                            const BoundedFunctions &bounded, LaunchPlan &plan,
                            std::string &error) {
  auto source = arvrModule.lookupSymbol<mlir::arvr::KernelOp>(kernel);
  if (!source || source.getBody().empty()) {
    error = "internal compiler error: no kernel '" + kernel + "'";
    return false;
  }
  plan.kernel = kernel;
  // The arguments: the kernel's (NV12 frames as their planes), then its
  // outputs; named as in the .arvr file, a single output out0.
  unsigned numInputs = source.getNumArguments();
  unsigned numArgs = numInputs + source.getNumResults();
  for (unsigned index = 0; index < numArgs; ++index) {
    bool isOutput = index >= numInputs;
    Type type = isOutput ? source.getResultTypes()[index - numInputs]
                         : source.getArgumentTypes()[index];
    auto name = isOutput
                    ? source.getResultAttrOfType<StringAttr>(index - numInputs,
                                                             "arvr.name")
                    : source.getArgAttrOfType<StringAttr>(index, "arvr.name");
    LaunchPlan::Argument argument{index,
                                  isOutput,
                                  name ? name.getValue().str()
                                       : "out" +
                                             std::to_string(index - numInputs),
                                  false,
                                  "",
                                  std::nullopt};
    if (auto image = dyn_cast<mlir::arvr::ImageType>(type)) {
      argument.image = true;
      argument.type = PlanBuilder::typeName(image.getElementType());
      if (image.hasStaticChannels())
        argument.channels = image.getChannels();
    } else {
      argument.type = PlanBuilder::typeName(type);
    }
    plan.arguments.push_back(argument);
  }

  PlanBuilder builder(plan, error);
  // The output's size (width, height, channels): the sizes of the stage it
  // returns.
  auto ret =
      cast<mlir::arvr::ReturnOp>(source.getBody().front().getTerminator());
  for (auto [index, operand] : llvm::enumerate(ret.getOperands())) {
    auto stage = operand.getDefiningOp<mlir::arvr::StageOp>();
    if (!stage || !stage.hasSizes()) {
      error = "internal compiler error: an output of '" + kernel +
              "' is not a stage with sizes";
      return false;
    }
    std::vector<std::string> size(3);
    for (int dim = 0; dim < 3; ++dim)
      if ((size[dim] = builder.ref(stage.getSizes()[dim])).empty())
        return false;
    plan.outputSizes.push_back({numInputs + unsigned(index), size});
  }
  addChecks(source, builder, bounded, plan);
  plan.cpuBandRows = wholeImageWork(source, bounded) ? 0 : kCpuBandRows;
  return true;
}

bool arvrc::buildLaunchPlan(ModuleOp lowered, ModuleOp arvrModule,
                            const std::string &kernel,
                            const std::string &binaryFile, bool cubin,
                            LaunchPlan &plan, std::string &error,
                            const BoundedFunctions &bounded) {
  if (!buildKernelPlan(arvrModule, kernel, bounded, plan, error))
    return false;
  auto host = lowered.lookupSymbol<func::FuncOp>(kernel);
  if (!host || host.getNumArguments() != plan.arguments.size()) {
    error = "internal compiler error: no host code for kernel '" + kernel +
            "' taking its arguments";
    return false;
  }
  plan.binaryFile = binaryFile;
  plan.cubin = cubin;
  // The PTX's index arithmetic (and so its index and memref size
  // parameters) is 32-bit: see buildCudaPipeline.
  plan.indexBits = 32;
  // Frames of a batch may be stacked and run as one launch per kernel, the
  // frame as the grid's z (arvr-batch-frames).
  plan.batchGridZ =
      host->hasAttr(mlir::arvr::ArvrDialect::kFramesInGridZAttrName);

  PlanBuilder builder(plan, error);
  for (gpu::LaunchFuncOp launch : host.getOps<gpu::LaunchFuncOp>()) {
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    LaunchPlan::Launch planned;
    planned.entry = launch.getKernelName().getValue().str();
    Value geometry[6] = {grid.x, grid.y, grid.z, block.x, block.y, block.z};
    std::string *refs[6] = {&planned.grid[0],  &planned.grid[1],
                            &planned.grid[2],  &planned.block[0],
                            &planned.block[1], &planned.block[2]};
    for (int i = 0; i < 6; ++i)
      if ((*refs[i] = builder.ref(geometry[i])).empty())
        return false;
    planned.shared = "0";
    if (Value shared = launch.getDynamicSharedMemorySize())
      if ((planned.shared = builder.ref(shared)).empty())
        return false;
    bool tables = false, others = false;
    for (Value operand : launch.getKernelOperands()) {
      planned.args.push_back(builder.ref(operand));
      if (planned.args.back().empty())
        return false;
      if (!isa<MemRefType>(operand.getType()))
        continue;
      auto alloc = operand.getDefiningOp<memref::AllocOp>();
      bool table =
          alloc &&
          alloc->hasAttr(mlir::arvr::ArvrDialect::kParameterTableAttrName);
      tables |= table;
      others |= !table;
    }
    planned.reusable = tables && !others;
    plan.launches.push_back(planned);
  }
  return true;
}

void arvrc::writeManifestText(const LaunchPlan &plan, llvm::raw_ostream &os) {
  os << "arvrc-launch-manifest 1\n";
  os << "kernel " << plan.kernel << "\n";
  os << (plan.cubin ? "cubin " : "ptx ") << plan.binaryFile << "\n";
  os << "index-bits " << plan.indexBits << "\n";
  if (plan.batchGridZ)
    os << "batch grid-z\n";
  for (const LaunchPlan::Argument &arg : plan.arguments) {
    os << (arg.output ? "output" : "param") << " a" << arg.index << " "
       << arg.name << (arg.image ? " image " : " scalar ") << arg.type;
    if (arg.image)
      os << " "
         << (arg.channels ? std::to_string(*arg.channels) : std::string("?"));
    os << "\n";
  }
  // The output sizes' values first: each output-size line after them.
  size_t next = 0;
  auto definitionsUpTo = [&](size_t end) {
    for (; next < end; ++next) {
      const LaunchPlan::Definition &def = plan.definitions[next];
      if (def.op.empty()) {
        os << "buffer " << def.id << " " << def.elementBytes << " "
           << def.sizes[0] << " " << def.sizes[1] << " " << def.sizes[2]
           << "\n";
        continue;
      }
      os << "value " << def.id << " "
         << (def.f32 ? std::string("f32") : std::to_string(def.bits)) << " "
         << def.op;
      if (!def.predicate.empty())
        os << " " << def.predicate;
      if (def.op == "const" && def.f32)
        os << " " << llvm::formatv("{0:e9}", def.number).str();
      else if (def.op == "const")
        os << " " << *def.literal;
      for (const std::string &operand : def.operands)
        os << " " << operand;
      if (def.op == "dim")
        os << " " << *def.literal;
      os << "\n";
    }
  };
  // A definition is needed first by the earliest line naming it; the
  // builder made them in that order, so each line follows the definitions
  // made before its own operands were named.
  auto lastDefinition = [&](const std::vector<std::string> &refs) {
    size_t end = next;
    for (size_t i = 0; i < plan.definitions.size(); ++i)
      for (const std::string &ref : refs)
        if (plan.definitions[i].id == ref)
          end = std::max(end, i + 1);
    return end;
  };
  for (const auto &[arg, size] : plan.outputSizes) {
    definitionsUpTo(lastDefinition(size));
    os << "output-size a" << arg << " " << size[0] << " " << size[1] << " "
       << size[2] << "\n";
  }
  for (const LaunchPlan::Launch &launch : plan.launches) {
    std::vector<std::string> refs(launch.args);
    refs.insert(refs.end(), {launch.grid[0], launch.grid[1], launch.grid[2],
                             launch.block[0], launch.block[1], launch.block[2],
                             launch.shared});
    definitionsUpTo(lastDefinition(refs));
    os << "launch " << launch.entry << " grid " << launch.grid[0] << " "
       << launch.grid[1] << " " << launch.grid[2] << " block "
       << launch.block[0] << " " << launch.block[1] << " " << launch.block[2]
       << " shared " << launch.shared << (launch.reusable ? " reusable" : "")
       << " args";
    for (const std::string &arg : launch.args)
      os << " " << arg;
    os << "\n";
  }
  definitionsUpTo(plan.definitions.size());
}

/// An operand as JSON: a static size as a number, a reference as a string.
static llvm::json::Value operandJson(const std::string &operand) {
  int64_t number;
  if (!llvm::StringRef(operand).getAsInteger(10, number))
    return number;
  return operand;
}

void arvrc::writeLaunchPlanJson(const LaunchPlan &plan, llvm::raw_ostream &os) {
  namespace json = llvm::json;
  auto operands = [](const auto &refs) {
    json::Array array;
    for (const std::string &ref : refs)
      array.push_back(operandJson(ref));
    return array;
  };
  json::Array arguments, values, buffers, outputSizes, launches, checks;
  for (const LaunchPlan::Argument &arg : plan.arguments) {
    json::Object object{{"id", "a" + std::to_string(arg.index)},
                        {"name", arg.name},
                        {"role", arg.output ? "output" : "input"},
                        {"kind", arg.image ? "image" : "scalar"},
                        {"type", arg.type}};
    if (arg.image)
      object["channels"] =
          arg.channels ? json::Value(*arg.channels) : json::Value(nullptr);
    else if (arg.defaultValue && arg.type == "i1")
      object["default"] = *arg.defaultValue != 0;
    else if (arg.defaultValue && arg.type == "i32")
      object["default"] = static_cast<int64_t>(*arg.defaultValue);
    else if (arg.defaultValue)
      object["default"] = *arg.defaultValue;
    arguments.push_back(std::move(object));
  }
  for (const LaunchPlan::Definition &def : plan.definitions) {
    if (def.op.empty()) {
      buffers.push_back(json::Object{{"id", def.id},
                                     {"elementBytes", def.elementBytes},
                                     {"size", operands(std::vector<std::string>(
                                                  def.sizes, def.sizes + 3))}});
      continue;
    }
    json::Object object{{"id", def.id},
                        {"bits", def.bits},
                        {"op", def.op},
                        {"operands", operands(def.operands)}};
    if (def.f32)
      object["type"] = "f32";
    if (def.f32 && def.op == "const")
      object["value"] = def.number;
    else if (def.literal)
      object[def.op == "const" ? "value" : "dim"] = *def.literal;
    if (!def.predicate.empty())
      object["predicate"] = def.predicate;
    values.push_back(std::move(object));
  }
  for (const auto &[arg, size] : plan.outputSizes)
    outputSizes.push_back(json::Object{{"output", "a" + std::to_string(arg)},
                                       {"size", operands(size)}});
  for (const LaunchPlan::Launch &launch : plan.launches) {
    json::Object object{
        {"entry", launch.entry},
        {"grid",
         operands(std::vector<std::string>(launch.grid, launch.grid + 3))},
        {"block",
         operands(std::vector<std::string>(launch.block, launch.block + 3))},
        {"sharedBytes", operandJson(launch.shared)},
        {"args", operands(launch.args)}};
    if (launch.reusable)
      object["reusable"] = true;
    launches.push_back(std::move(object));
  }
  for (const LaunchPlan::Check &check : plan.checks)
    checks.push_back(json::Object{{"kind", check.range ? "range" : "extents"},
                                  {"operands", operands(check.operands)},
                                  {"max", check.max},
                                  {"what", check.what}});
  json::Object root{
      {"format", "arvrc-launch-plan"},
      {"version", 1},
      {"kernel", plan.kernel},
      {"binary", plan.cpuEntry.empty()
                     ? json::Object{{"kind", plan.cubin ? "cubin" : "ptx"},
                                    {"file", plan.binaryFile}}
                     : json::Object{{"kind", "cpu"},
                                    {"entry", plan.cpuEntry},
                                    {"band_rows", plan.cpuBandRows}}},
      {"indexBits", plan.indexBits},
      {"batch", plan.batchGridZ ? json::Value("grid-z") : json::Value(nullptr)},
      {"arguments", std::move(arguments)},
      {"values", std::move(values)},
      {"buffers", std::move(buffers)},
      {"outputSizes", std::move(outputSizes)},
      {"launches", std::move(launches)},
      {"checks", std::move(checks)}};
  os << llvm::formatv("{0:2}", json::Value(std::move(root))) << "\n";
}
