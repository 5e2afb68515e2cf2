//===- MLIRGen.cpp - From the checked AST to the arvr dialect -------------===//
//
// Each kernel becomes an `arvr.kernel`; each function it uses becomes an
// `arvr.stage` whose region is the function at one point (`inline` unless
// the schedule computes it at the root: arvr-inline-stages inlines those),
// and a call of a function an `arvr.access` of its stage. Expressions
// become `arith`/`math` ops on the scalar types (u8 -> i8, u16 -> i16, i32,
// f32, bool -> i1), and each language rule that MLIR leaves undefined is
// made defined here: integer division by zero gives 0, float-to-int
// conversions saturate and send NaN to 0 (docs/language.md states these
// rules).
//
//===----------------------------------------------------------------------===//

#include "arvr/Frontend/MLIRGen.h"

#include "arvr/Dialect/ArvrDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"

#include <functional>

using namespace mlir;
using ::arvr::BinaryExpr;
using ::arvr::BoolLitExpr;
using ::arvr::BoundaryMode;
using ::arvr::CallExpr;
using ::arvr::Expr;
using ::arvr::ExprPtr;
using ::arvr::FloatLitExpr;
using ::arvr::FuncDef;
using ::arvr::IntLitExpr;
using ::arvr::KernelDecl;
using ::arvr::MemberExpr;
using ::arvr::ModuleAST;
using ::arvr::OutputDecl;
using ::arvr::Param;
using ::arvr::ScalarType;
using ::arvr::TypeSpec;
using ::arvr::UnaryExpr;
using ::arvr::VarExpr;
using mlir::arvr::AccessOp;
using mlir::arvr::Boundary;
using mlir::arvr::DimOp;
using mlir::arvr::ImageType;
using mlir::arvr::KernelOp;
using mlir::arvr::NV12Type;
using mlir::arvr::PlaneOp;
using mlir::arvr::ReturnOp;
using mlir::arvr::SampleOp;
using mlir::arvr::StageOp;
using mlir::arvr::YieldOp;
namespace arvrDim = mlir::arvr;

namespace {

class MLIRGenImpl {
public:
  MLIRGenImpl(MLIRContext &context, const llvm::SourceMgr &sourceMgr)
      : builder(&context), sourceMgr(sourceMgr) {}

  OwningOpRef<ModuleOp> gen(const ModuleAST &ast) {
    OwningOpRef<ModuleOp> module = ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(module->getBody());
    for (const KernelDecl &kernel : ast.kernels)
      genKernel(kernel);
    if (failed(verify(*module))) {
      module->emitError("internal compiler error: the generated arvr IR does "
                        "not verify");
      return nullptr;
    }
    return module;
  }

private:
  //===--------------------------------------------------------------------===//
  // Helpers
  //===--------------------------------------------------------------------===//

  Location loc(llvm::SMLoc smloc) {
    unsigned buffer = sourceMgr.FindBufferContainingLoc(smloc);
    if (!buffer)
      return builder.getUnknownLoc();
    auto [line, col] = sourceMgr.getLineAndColumn(smloc, buffer);
    return FileLineColLoc::get(
        builder.getStringAttr(
            sourceMgr.getMemoryBuffer(buffer)->getBufferIdentifier()),
        line, col);
  }

  /// The type a value of `type` has in the IR.
  Type getScalarType(ScalarType type) {
    switch (type) {
    case ScalarType::Bool:
      return builder.getI1Type();
    case ScalarType::U8:
      return builder.getI8Type();
    case ScalarType::U16:
      return builder.getI16Type();
    case ScalarType::I32:
      return builder.getI32Type();
    case ScalarType::F32:
      return builder.getF32Type();
    }
    llvm_unreachable("unknown scalar type");
  }

  Type getImageType(const TypeSpec &spec) {
    Type element;
    switch (spec.scalar) {
    case ScalarType::U8:
      element = builder.getIntegerType(8, /*isSigned=*/false);
      break;
    case ScalarType::U16:
      element = builder.getIntegerType(16, /*isSigned=*/false);
      break;
    case ScalarType::I32:
      element = builder.getI32Type();
      break;
    case ScalarType::F32:
    case ScalarType::Bool: // Refused by Sema.
      element = builder.getF32Type();
      break;
    }
    int64_t channels = spec.channels ? spec.channels : ShapedType::kDynamic;
    return ImageType::get(builder.getContext(), element, channels);
  }

  Value constI32(Location l, int64_t v) {
    return arith::ConstantIntOp::create(builder, l, builder.getI32Type(), v);
  }
  Value constF32(Location l, double v) {
    return arith::ConstantFloatOp::create(builder, l, builder.getF32Type(),
                                          llvm::APFloat(static_cast<float>(v)));
  }

  /// Converts `value` of type `from` to i32: unsigned types and bool
  /// zero-extend; f32 rounds toward zero, saturating, with NaN -> 0.
  Value toI32(Value value, ScalarType from, Location l) {
    switch (from) {
    case ScalarType::I32:
      return value;
    case ScalarType::Bool:
    case ScalarType::U8:
    case ScalarType::U16:
      return arith::ExtUIOp::create(builder, l, builder.getI32Type(), value);
    case ScalarType::F32: {
      // 2147483520 is the largest f32 below 2^31.
      Value low = arith::MaxNumFOp::create(builder, l, value,
                                           constF32(l, -2147483648.0));
      Value clamped =
          arith::MinNumFOp::create(builder, l, low, constF32(l, 2147483520.0));
      Value converted =
          arith::FPToSIOp::create(builder, l, builder.getI32Type(), clamped);
      Value isNaN = arith::CmpFOp::create(builder, l, arith::CmpFPredicate::UNO,
                                          value, value);
      return arith::SelectOp::create(builder, l, isNaN, constI32(l, 0),
                                     converted);
    }
    }
    llvm_unreachable("unknown scalar type");
  }

  /// Converts `value` of type `from` to f32 (exactly, for every type but
  /// large i32 values, which round to nearest).
  Value toF32(Value value, ScalarType from, Location l) {
    switch (from) {
    case ScalarType::F32:
      return value;
    case ScalarType::I32:
      return arith::SIToFPOp::create(builder, l, builder.getF32Type(), value);
    case ScalarType::Bool:
    case ScalarType::U8:
    case ScalarType::U16:
      return arith::UIToFPOp::create(builder, l, builder.getF32Type(), value);
    }
    llvm_unreachable("unknown scalar type");
  }

  Value convert(Value value, ScalarType from, ScalarType to, Location l) {
    if (from == to)
      return value;
    if (to == ScalarType::F32)
      return toF32(value, from, l);
    if (to == ScalarType::I32)
      return toI32(value, from, l);
    llvm_unreachable("operands convert only to i32 or f32");
  }

  //===--------------------------------------------------------------------===//
  // Kernels
  //===--------------------------------------------------------------------===//

  void genKernel(const KernelDecl &kernel) {
    // One argument per parameter; an NV12 frame is read through its planes
    // (arvr.plane), made at the kernel's entry.
    SmallVector<Type> inputs;
    SmallVector<Location> argLocs;
    SmallVector<std::string> argNames;
    for (const Param &param : kernel.params) {
      Location paramLoc = loc(param.nameRange.Start);
      inputs.push_back(param.type.isNv12 ? NV12Type::get(builder.getContext())
                       : param.type.isImage ? getImageType(param.type)
                                            : getScalarType(param.type.scalar));
      argLocs.push_back(paramLoc);
      argNames.push_back(param.name);
    }
    SmallVector<Type> outputTypes;
    for (const OutputDecl &output : kernel.outputs)
      outputTypes.push_back(getImageType(output.type));
    Location kernelLoc = loc(kernel.nameRange.Start);
    auto op = KernelOp::create(builder, kernelLoc, kernel.name,
                               builder.getFunctionType(inputs, outputTypes));
    for (auto [index, name] : llvm::enumerate(argNames))
      op.setArgAttr(index, "arvr.name", builder.getStringAttr(name));
    op.setAutoSchedule(!kernel.hasSchedule);
    // Named outputs keep their names (a single output is simply `out`).
    if (kernel.namedOutputs)
      for (auto [index, output] : llvm::enumerate(kernel.outputs))
        op.setResultAttr(index, "arvr.name",
                         builder.getStringAttr(output.name));

    OpBuilder::InsertionGuard guard(builder);
    Block *entry = builder.createBlock(&op.getBody(), {}, inputs, argLocs);
    currentKernel = &kernel;
    paramValues.clear();
    for (auto [index, param] : llvm::enumerate(kernel.params)) {
      Value arg = entry->getArgument(index);
      if (!param.type.isNv12) {
        paramValues.push_back({arg});
        continue;
      }
      Location l = loc(param.nameRange.Start);
      Type u8 = builder.getIntegerType(8, /*isSigned=*/false);
      paramValues.push_back(
          {PlaneOp::create(builder, l,
                           ImageType::get(builder.getContext(), u8, 1), arg,
                           mlir::arvr::Plane::y),
           PlaneOp::create(builder, l,
                           ImageType::get(builder.getContext(), u8, 2), arg,
                           mlir::arvr::Plane::uv)});
    }

    // The functions computing the outputs, in the outputs' order.
    SmallVector<const FuncDef *> outputFuncs(kernel.outputs.size());
    for (const FuncDef &func : kernel.funcs)
      if (func.isOutput())
        outputFuncs[func.outputIndex] = &func;
    assert(llvm::all_of(outputFuncs, [](const FuncDef *f) { return f; }) &&
           "Sema guarantees a function per output");

    // The functions the outputs call, each before its readers, then the
    // outputs.
    funcStages.assign(kernel.funcs.size(), Value());
    std::vector<bool> visited(kernel.funcs.size(), false);
    for (const FuncDef *func : outputFuncs)
      for (unsigned index : calleeOrder(kernel, visited, *func))
        genFuncStage(kernel.funcs[index]);
    SmallVector<Value> results;
    for (auto [output, func] : llvm::zip(kernel.outputs, outputFuncs))
      results.push_back(genOutputStage(kernel, output, *func));
    ReturnOp::create(builder, kernelLoc, results);
  }

  /// The stage of an output: computed by `func` over the size written after
  /// the output's type, or else the size of the kernel's size-source image.
  Value genOutputStage(const KernelDecl &kernel, const OutputDecl &output,
                       const FuncDef &func) {
    Location outLoc = loc(func.nameRange.Start);
    Value source = param(kernel.sizeSource);
    Value width, height;
    if (output.width) {
      auto toIndex = [&](const Expr &size) -> Value {
        Location l = loc(size.getLoc());
        return arith::IndexCastOp::create(builder, l, builder.getIndexType(),
                                          toI32(genExpr(size), size.type, l));
      };
      width = toIndex(*output.width);
      height = toIndex(*output.height);
    } else {
      width = DimOp::create(builder, outLoc, source, arvrDim::Dim::width);
      height = DimOp::create(builder, outLoc, source, arvrDim::Dim::height);
    }
    Value channels = output.type.channels
                         ? Value(arith::ConstantIndexOp::create(
                               builder, outLoc, output.type.channels))
                         : Value(DimOp::create(builder, outLoc, source,
                                               arvrDim::Dim::channels));
    auto stage = StageOp::create(builder, outLoc, getImageType(output.type),
                                 func.name, width, height, channels);
    if (func.gpuTileX)
      stage.setGpuBlock(ArrayRef<int64_t>{func.gpuTileX, func.gpuTileY});
    if (func.gpuPixels > 1)
      stage.setGpuPixels(func.gpuPixels);
    genStageBody(stage, func);
    return stage.getResult();
  }

  /// The functions `func` calls, directly or not, each after the ones it
  /// calls.
  SmallVector<unsigned> calleeOrder(const KernelDecl &kernel,
                                    std::vector<bool> &visited,
                                    const FuncDef &func) {
    SmallVector<unsigned> order;
    std::function<void(const Expr &)> visit = [&](const Expr &expr) {
      if (auto *call = llvm::dyn_cast<CallExpr>(&expr)) {
        for (const ExprPtr &arg : call->args)
          visit(*arg);
        if (call->builtin != CallExpr::Builtin::CallFunc ||
            visited[call->funcIndex])
          return;
        visited[call->funcIndex] = true;
        const FuncDef &callee = kernel.funcs[call->funcIndex];
        order.append(calleeOrder(kernel, visited, callee));
        order.push_back(call->funcIndex);
      } else if (auto *unary = llvm::dyn_cast<UnaryExpr>(&expr)) {
        visit(*unary->operand);
      } else if (auto *binary = llvm::dyn_cast<BinaryExpr>(&expr)) {
        visit(*binary->lhs);
        visit(*binary->rhs);
      } else if (auto *reduce = llvm::dyn_cast<::arvr::ReduceExpr>(&expr)) {
        visit(*reduce->lo);
        visit(*reduce->hi);
        for (const ::arvr::Binding &let : reduce->lets)
          visit(*let.value);
        visit(*reduce->body);
      }
    };
    for (const ::arvr::Binding &let : func.lets)
      visit(*let.value);
    visit(*func.body);
    return order;
  }

  /// The image type storing the values of `func`: its scalar type; one
  /// channel unless it takes (x, y, c). A function of one coordinate is a
  /// row (a table indexed by x), one of none a single element.
  Type getStageType(const FuncDef &func) {
    ::arvr::TypeSpec spec;
    spec.isImage = true;
    spec.scalar = func.type;
    spec.channels = func.vars.size() == 3 ? 0 : 1;
    return getImageType(spec);
  }

  /// A function that is not an output: an inline stage, or for one
  /// scheduled compute_root a stage whose window arvr-infer-bounds finds
  /// from its readers.
  void genFuncStage(const FuncDef &func) {
    // A function of more than three coordinates has no stage: each call
    // is its body, generated at the call (genInlineCall).
    if (func.vars.size() > 3)
      return;
    Location l = loc(func.nameRange.Start);
    StageOp stage;
    if (func.hasDomain()) {
      // Computed over its extents (a missing coordinate: one point).
      SmallVector<Value, 3> sizes;
      for (const ExprPtr &extent : func.extents)
        sizes.push_back(arith::IndexCastOp::create(
            builder, l, builder.getIndexType(),
            toI32(genExpr(*extent), extent->type, l)));
      while (sizes.size() < 3)
        sizes.push_back(arith::ConstantIndexOp::create(builder, l, 1));
      stage = StageOp::create(builder, l, getStageType(func), func.name,
                              sizes[0], sizes[1], sizes[2]);
    } else {
      stage = StageOp::create(builder, l, getStageType(func), func.name);
    }
    if (!func.computeRoot) {
      stage.setInlined(true);
    } else {
      if (func.gpuTileX)
        stage.setGpuBlock(ArrayRef<int64_t>{func.gpuTileX, func.gpuTileY});
      if (func.gpuPixels > 1)
        stage.setGpuPixels(func.gpuPixels);
      stage.setGpuShared(func.computeShared);
    }
    genStageBody(stage, func);
    funcStages[&func - currentKernel->funcs.data()] = stage.getResult();
  }

  /// The region of `stage`: `func` at the point (x, y, c).
  void genStageBody(StageOp stage, const FuncDef &func) {
    OpBuilder::InsertionGuard guard(builder);
    Location l = stage.getLoc();
    Type index = builder.getIndexType();
    Block *body = builder.createBlock(&stage.getBody(), {},
                                      {index, index, index}, {l, l, l});
    coordinates.assign(body->getArguments().begin(),
                       body->getArguments().end());
    // The coordinates are cast to i32 when first used.
    Scope stageScope;
    stageScope.coords.assign(func.vars.size(), Value());
    scope = &stageScope;
    reduceVars.clear();
    reduceLets.clear();
    unroll = func.unroll;
    for (const ::arvr::Binding &let : func.lets)
      stageScope.lets.push_back(genExpr(*let.value));
    Value value = genExpr(*func.body);
    YieldOp::create(builder, loc(func.body->getLoc()), value);
    scope = nullptr;
  }

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  Value genExpr(const Expr &expr) {
    Location l = loc(expr.getLoc());
    switch (expr.getKind()) {
    case Expr::Kind::IntLit: {
      int64_t value = llvm::cast<IntLitExpr>(expr).value;
      if (expr.type == ScalarType::F32)
        return constF32(l, static_cast<double>(value));
      return arith::ConstantIntOp::create(builder, l, getScalarType(expr.type),
                                          value);
    }
    case Expr::Kind::FloatLit:
      return constF32(l, llvm::cast<FloatLitExpr>(expr).value);
    case Expr::Kind::BoolLit:
      return arith::ConstantIntOp::create(builder, l, builder.getI1Type(),
                                          llvm::cast<BoolLitExpr>(expr).value);
    case Expr::Kind::Var:
      return genVar(llvm::cast<VarExpr>(expr));
    case Expr::Kind::Unary:
      return genUnary(llvm::cast<UnaryExpr>(expr), l);
    case Expr::Kind::Binary:
      return genBinary(llvm::cast<BinaryExpr>(expr), l);
    case Expr::Kind::Call:
      return genCall(llvm::cast<CallExpr>(expr), l);
    case Expr::Kind::Member: {
      auto &member = llvm::cast<MemberExpr>(expr);
      arvrDim::Dim dim = member.member == "width"    ? arvrDim::Dim::width
                         : member.member == "height" ? arvrDim::Dim::height
                                                     : arvrDim::Dim::channels;
      Value size = DimOp::create(builder, l, param(member.imageParam), dim);
      return arith::IndexCastOp::create(builder, l, builder.getI32Type(), size);
    }
    case Expr::Kind::Reduce:
      return genReduce(llvm::cast<::arvr::ReduceExpr>(expr), l);
    }
    llvm_unreachable("unknown expression kind");
  }

  Value genVar(const VarExpr &var) {
    switch (var.binding) {
    case VarExpr::Binding::Param:
      return param(var.index);
    case VarExpr::Binding::Let:
      return scope->lets[var.index];
    case VarExpr::Binding::Const:
      return genExpr(*currentKernel->consts[var.index].value);
    case VarExpr::Binding::ReduceVar:
      return reduceVars[var.index];
    case VarExpr::Binding::ReduceLet:
      return reduceLets[var.index][var.let];
    case VarExpr::Binding::Coordinate:
      break;
    case VarExpr::Binding::Unresolved:
      llvm_unreachable("unresolved name reached MLIRGen");
    }
    Value &coordinate = scope->coords[var.index];
    if (!coordinate) {
      // `out`'s: cast the stage's index to i32 once, at the top of the stage.
      OpBuilder::InsertionGuard guard(builder);
      Value index = coordinates[var.index];
      builder.setInsertionPointToStart(cast<BlockArgument>(index).getOwner());
      coordinate = arith::IndexCastOp::create(builder, index.getLoc(),
                                              builder.getI32Type(), index);
    }
    return coordinate;
  }

  /// A call of a kernel function: a read of its stage at the arguments
  /// (as index values; a table's row and channel, a single value's point:
  /// 0).
  Value genFuncCall(const CallExpr &call, Location l) {
    if (currentKernel->funcs[call.funcIndex].vars.size() > 3)
      return genInlineCall(call, l);
    Value stage = funcStages[call.funcIndex];
    assert(stage && "callees are generated before their callers");
    SmallVector<Value, 3> indices;
    for (const ExprPtr &arg : call.args)
      indices.push_back(
          arith::IndexCastOp::create(builder, l, builder.getIndexType(),
                                     toI32(genExpr(*arg), arg->type, l)));
    while (indices.size() < 3)
      indices.push_back(arith::ConstantIndexOp::create(builder, l, 0));
    // A function with extents: read under its boundary mode (or the read's).
    const FuncDef &callee = currentKernel->funcs[call.funcIndex];
    auto [boundary, padding] = getBoundary(call.boundary, callee.boundary,
                                           callee.padding, callee.type);
    return AccessOp::create(builder, l, stage, indices[0], indices[1],
                            indices[2], boundary, padding);
  }

  /// A call of a function of more than three coordinates: its lets and
  /// body, generated here with its coordinates bound to the call's
  /// arguments, in a scope of its own (the caller's reductions hidden).
  Value genInlineCall(const CallExpr &call, Location l) {
    const FuncDef &callee = currentKernel->funcs[call.funcIndex];
    Scope calleeScope;
    for (const ExprPtr &arg : call.args)
      calleeScope.coords.push_back(toI32(genExpr(*arg), arg->type, l));
    Scope *callerScope = scope;
    SmallVector<Value> callerReduceVars;
    SmallVector<SmallVector<Value>> callerReduceLets;
    callerReduceVars.swap(reduceVars);
    callerReduceLets.swap(reduceLets);
    int64_t callerUnroll = unroll;
    if (callee.unroll)
      unroll = callee.unroll;
    scope = &calleeScope;
    for (const ::arvr::Binding &let : callee.lets)
      calleeScope.lets.push_back(genExpr(*let.value));
    Value value = genExpr(*callee.body);
    scope = callerScope;
    reduceVars.swap(callerReduceVars);
    reduceLets.swap(callerReduceLets);
    unroll = callerUnroll;
    return value;
  }

  /// argmin/argmax(i in a..b, j in c..d, term) -> one arvr.reduce over the
  /// pairs' positions k from 0, i = a + k / n and j = c + k % n for the n
  /// values of j (k never negative: a floor division and an unsigned
  /// remainder, which bounds analysis keeps in [0, n - 1]).
  Value genPairReduce(const ::arvr::ReduceExpr &outer, Location l) {
    const auto &inner = llvm::cast<::arvr::ReduceExpr>(*outer.body);
    auto i32 = [&](const Expr &e) {
      return toI32(genExpr(e), e.type, loc(e.getLoc()));
    };
    Value a = i32(*outer.lo), b = i32(*outer.hi);
    Value c = i32(*inner.lo), d = i32(*inner.hi);
    Value zero = constI32(l, 0), one = constI32(l, 1);
    auto count = [&](Value lo, Value hi) -> Value {
      Value n = arith::AddIOp::create(
          builder, l, arith::SubIOp::create(builder, l, hi, lo), one);
      return arith::MaxSIOp::create(builder, l, n, zero);
    };
    Value rows = count(a, b), columns = count(c, d);
    Value last = arith::SubIOp::create(
        builder, l, arith::MulIOp::create(builder, l, rows, columns), one);
    auto op = mlir::arvr::ReduceOp::create(
        builder, l, builder.getI32Type(),
        outer.op == ::arvr::ReduceExpr::Op::Argmin
            ? mlir::arvr::ReductionKind::argmin
            : mlir::arvr::ReductionKind::argmax,
        zero, last, unroll ? builder.getI64IntegerAttr(unroll) : IntegerAttr());
    OpBuilder::InsertionGuard guard(builder);
    Block *body =
        builder.createBlock(&op.getBody(), {}, {builder.getI32Type()}, {l});
    Value k = body->getArgument(0);
    Value step = arith::MaxSIOp::create(builder, l, columns, one);
    reduceVars.push_back(arith::AddIOp::create(
        builder, l, a, arith::FloorDivSIOp::create(builder, l, k, step)));
    reduceLets.emplace_back();
    reduceVars.push_back(arith::AddIOp::create(
        builder, l, c, arith::RemUIOp::create(builder, l, k, step)));
    reduceLets.emplace_back();
    genTerm(inner, l);
    reduceVars.pop_back_n(2);
    reduceLets.pop_back_n(2);
    return op.getResult();
  }

  /// sum/min/max(i in lo..hi, body) -> arvr.reduce.
  Value genReduce(const ::arvr::ReduceExpr &reduce, Location l) {
    if (reduce.overPairs)
      return genPairReduce(reduce, l);
    Value lo = toI32(genExpr(*reduce.lo), reduce.lo->type, l);
    Value hi = toI32(genExpr(*reduce.hi), reduce.hi->type, l);
    mlir::arvr::ReductionKind kind = mlir::arvr::ReductionKind::sum;
    switch (reduce.op) {
    case ::arvr::ReduceExpr::Op::Sum:
      kind = mlir::arvr::ReductionKind::sum;
      break;
    case ::arvr::ReduceExpr::Op::Min:
      kind = mlir::arvr::ReductionKind::min;
      break;
    case ::arvr::ReduceExpr::Op::Max:
      kind = mlir::arvr::ReductionKind::max;
      break;
    case ::arvr::ReduceExpr::Op::Argmin:
      kind = mlir::arvr::ReductionKind::argmin;
      break;
    case ::arvr::ReduceExpr::Op::Argmax:
      kind = mlir::arvr::ReductionKind::argmax;
      break;
    case ::arvr::ReduceExpr::Op::Product:
      kind = mlir::arvr::ReductionKind::product;
      break;
    }
    auto op = mlir::arvr::ReduceOp::create(
        builder, l, getScalarType(reduce.type), kind, lo, hi,
        unroll ? builder.getI64IntegerAttr(unroll) : IntegerAttr());
    OpBuilder::InsertionGuard guard(builder);
    Block *body =
        builder.createBlock(&op.getBody(), {}, {builder.getI32Type()}, {l});
    reduceVars.push_back(body->getArgument(0));
    reduceLets.emplace_back();
    genTerm(reduce, l);
    reduceVars.pop_back();
    reduceLets.pop_back();
    return op.getResult();
  }

  /// The term of the innermost reduction `reduce` (its variable and its
  /// lets' slot pushed already): its lets, for each i, in order (a let
  /// reads the ones before), then its body as i32 or f32, yielded.
  void genTerm(const ::arvr::ReduceExpr &reduce, Location l) {
    size_t depth = reduceLets.size() - 1;
    for (const ::arvr::Binding &let : reduce.lets) {
      // Generated first: a let's value may hold reductions, which push onto
      // reduceLets.
      Value value = genExpr(*let.value);
      reduceLets[depth].push_back(value);
    }
    // Terms are i32 or f32: the result's type, or for argmin the terms'.
    ScalarType termType = reduce.body->type == ScalarType::F32
                              ? ScalarType::F32
                              : ScalarType::I32;
    Value term = convert(genExpr(*reduce.body), reduce.body->type, termType,
                         loc(reduce.body->getLoc()));
    YieldOp::create(builder, l, term);
  }

  Value genUnary(const UnaryExpr &unary, Location l) {
    Value operand = genExpr(*unary.operand);
    if (unary.op == UnaryExpr::Op::Not)
      return arith::XOrIOp::create(
          builder, l, operand,
          arith::ConstantIntOp::create(builder, l, builder.getI1Type(), 1));
    if (unary.type == ScalarType::F32)
      return arith::NegFOp::create(builder, l, operand);
    operand = toI32(operand, unary.operand->type, l);
    return arith::SubIOp::create(builder, l, constI32(l, 0), operand);
  }

  Value genBinary(const BinaryExpr &binary, Location l) {
    using Op = BinaryExpr::Op;
    ScalarType type = binary.operandType;
    Value lhs = genExpr(*binary.lhs);
    Value rhs = genExpr(*binary.rhs);
    if (type != ScalarType::Bool) {
      lhs = convert(lhs, binary.lhs->type, type, l);
      rhs = convert(rhs, binary.rhs->type, type, l);
    }
    bool isFloat = type == ScalarType::F32;
    switch (binary.op) {
    case Op::Add:
      return isFloat ? Value(arith::AddFOp::create(builder, l, lhs, rhs))
                     : Value(arith::AddIOp::create(builder, l, lhs, rhs));
    case Op::Sub:
      return isFloat ? Value(arith::SubFOp::create(builder, l, lhs, rhs))
                     : Value(arith::SubIOp::create(builder, l, lhs, rhs));
    case Op::Mul:
      return isFloat ? Value(arith::MulFOp::create(builder, l, lhs, rhs))
                     : Value(arith::MulIOp::create(builder, l, lhs, rhs));
    case Op::Div:
      return isFloat ? Value(arith::DivFOp::create(builder, l, lhs, rhs))
                     : genIntDivRem(lhs, rhs, /*remainder=*/false, l);
    case Op::Rem:
      return genIntDivRem(lhs, rhs, /*remainder=*/true, l);
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge:
    case Op::Eq:
    case Op::Ne:
      return genCompare(binary.op, isFloat, lhs, rhs, l);
    case Op::And:
      return arith::AndIOp::create(builder, l, lhs, rhs);
    case Op::Or:
      return arith::OrIOp::create(builder, l, lhs, rhs);
    }
    llvm_unreachable("unknown binary operator");
  }

  Value genCompare(BinaryExpr::Op op, bool isFloat, Value lhs, Value rhs,
                   Location l) {
    using Op = BinaryExpr::Op;
    if (isFloat) {
      // Ordered comparisons: false when either side is NaN, but for '!='.
      arith::CmpFPredicate predicate =
          op == Op::Lt   ? arith::CmpFPredicate::OLT
          : op == Op::Le ? arith::CmpFPredicate::OLE
          : op == Op::Gt ? arith::CmpFPredicate::OGT
          : op == Op::Ge ? arith::CmpFPredicate::OGE
          : op == Op::Eq ? arith::CmpFPredicate::OEQ
                         : arith::CmpFPredicate::UNE;
      return arith::CmpFOp::create(builder, l, predicate, lhs, rhs);
    }
    arith::CmpIPredicate predicate = op == Op::Lt   ? arith::CmpIPredicate::slt
                                     : op == Op::Le ? arith::CmpIPredicate::sle
                                     : op == Op::Gt ? arith::CmpIPredicate::sgt
                                     : op == Op::Ge ? arith::CmpIPredicate::sge
                                     : op == Op::Eq ? arith::CmpIPredicate::eq
                                                    : arith::CmpIPredicate::ne;
    return arith::CmpIOp::create(builder, l, predicate, lhs, rhs);
  }

  /// Floored i32 division and its remainder (the remainder has the sign of
  /// the divisor), defined everywhere: x / 0 == x % 0 == 0, and
  /// INT_MIN / -1 wraps to INT_MIN.
  Value genIntDivRem(Value lhs, Value rhs, bool remainder, Location l) {
    auto eq = [&](Value a, int64_t v) {
      return arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq, a,
                                   constI32(l, v));
    };
    Value zero = constI32(l, 0);
    Value byZero = eq(rhs, 0);
    Value byMinusOne = eq(rhs, -1);
    Value unsafe = arith::OrIOp::create(builder, l, byZero, byMinusOne);
    Value divisor =
        arith::SelectOp::create(builder, l, unsafe, constI32(l, 1), rhs);
    if (!remainder) {
      Value quotient = arith::FloorDivSIOp::create(builder, l, lhs, divisor);
      Value negated = arith::SubIOp::create(builder, l, zero, lhs);
      quotient =
          arith::SelectOp::create(builder, l, byMinusOne, negated, quotient);
      return arith::SelectOp::create(builder, l, byZero, zero, quotient);
    }
    // With the unsafe divisors replaced by 1, the remainder is already 0.
    Value rem = arith::RemSIOp::create(builder, l, lhs, divisor);
    Value remNegative =
        arith::CmpIOp::create(builder, l, arith::CmpIPredicate::slt, rem, zero);
    Value divisorNegative = arith::CmpIOp::create(
        builder, l, arith::CmpIPredicate::slt, divisor, zero);
    Value signsDiffer =
        arith::XOrIOp::create(builder, l, remNegative, divisorNegative);
    Value nonZero =
        arith::CmpIOp::create(builder, l, arith::CmpIPredicate::ne, rem, zero);
    Value adjust = arith::AndIOp::create(builder, l, signsDiffer, nonZero);
    Value adjusted = arith::AddIOp::create(builder, l, rem, divisor);
    return arith::SelectOp::create(builder, l, adjust, adjusted, rem);
  }

  Value genCall(const CallExpr &call, Location l) {
    using Builtin = CallExpr::Builtin;
    if (call.builtin == Builtin::ReadImage)
      return genImageRead(call, l);
    if (call.builtin == Builtin::Sample)
      return genSample(call, l);
    if (call.builtin == Builtin::CallFunc)
      return genFuncCall(call, l);

    SmallVector<Value, 3> args;
    for (const ExprPtr &arg : call.args)
      args.push_back(genExpr(*arg));
    ScalarType argType = call.args[0]->type;
    switch (call.builtin) {
    case Builtin::CastF32:
      return toF32(args[0], argType, l);
    case Builtin::CastI32:
      return toI32(args[0], argType, l);
    case Builtin::CastU8:
      if (argType == ScalarType::U8)
        return args[0];
      return arith::TruncIOp::create(builder, l, builder.getI8Type(),
                                     toI32(args[0], argType, l));
    case Builtin::CastU8Sat:
      return genSaturate(args[0], argType, ScalarType::U8, l);
    case Builtin::CastU16:
      if (argType == ScalarType::U16)
        return args[0];
      return arith::TruncIOp::create(builder, l, builder.getI16Type(),
                                     toI32(args[0], argType, l));
    case Builtin::CastU16Sat:
      return genSaturate(args[0], argType, ScalarType::U16, l);
    case Builtin::Abs:
      if (call.type == ScalarType::F32)
        return math::AbsFOp::create(builder, l, args[0]);
      return math::AbsIOp::create(builder, l, toI32(args[0], argType, l));
    case Builtin::Min:
    case Builtin::Max:
    case Builtin::Clamp: {
      for (auto [value, arg] : llvm::zip(args, call.args))
        value = convert(value, arg->type, call.type, l);
      bool isFloat = call.type == ScalarType::F32;
      auto min = [&](Value a, Value b) -> Value {
        return isFloat ? Value(arith::MinNumFOp::create(builder, l, a, b))
                       : Value(arith::MinSIOp::create(builder, l, a, b));
      };
      auto max = [&](Value a, Value b) -> Value {
        return isFloat ? Value(arith::MaxNumFOp::create(builder, l, a, b))
                       : Value(arith::MaxSIOp::create(builder, l, a, b));
      };
      if (call.builtin == Builtin::Min)
        return min(args[0], args[1]);
      if (call.builtin == Builtin::Max)
        return max(args[0], args[1]);
      return min(max(args[0], args[1]), args[2]);
    }
    case Builtin::Select: {
      Value a = args[1], b = args[2];
      if (call.args[1]->type != call.args[2]->type) {
        a = convert(a, call.args[1]->type, call.type, l);
        b = convert(b, call.args[2]->type, call.type, l);
      }
      return arith::SelectOp::create(builder, l, args[0], a, b);
    }
    case Builtin::Sqrt:
      return math::SqrtOp::create(builder, l, args[0]);
    case Builtin::Exp:
      return math::ExpOp::create(builder, l, args[0]);
    case Builtin::Log:
      return math::LogOp::create(builder, l, args[0]);
    case Builtin::Pow:
      return math::PowFOp::create(builder, l, args[0], args[1]);
    case Builtin::Sin:
      return math::SinOp::create(builder, l, args[0]);
    case Builtin::Cos:
      return math::CosOp::create(builder, l, args[0]);
    case Builtin::Tan:
      return math::TanOp::create(builder, l, args[0]);
    case Builtin::Atan2:
      return math::Atan2Op::create(builder, l, args[0], args[1]);
    case Builtin::Floor:
      return math::FloorOp::create(builder, l, args[0]);
    case Builtin::Ceil:
      return math::CeilOp::create(builder, l, args[0]);
    case Builtin::Round:
      return math::RoundEvenOp::create(builder, l, args[0]);
    case Builtin::Lerp: {
      // a (1 - t) + b t
      Value oneMinusT =
          arith::SubFOp::create(builder, l, constF32(l, 1.0), args[2]);
      Value a = arith::MulFOp::create(builder, l, args[0], oneMinusT);
      Value b = arith::MulFOp::create(builder, l, args[1], args[2]);
      return arith::AddFOp::create(builder, l, a, b);
    }
    case Builtin::Unresolved:
    case Builtin::ReadImage:
    case Builtin::Sample:
    case Builtin::CallFunc:
      break;
    }
    llvm_unreachable("unresolved call reached MLIRGen");
  }

  /// u8_sat: clamp to [0, 255] (NaN -> 0), round half to even, convert.
  /// u8_sat / u16_sat: f32 clamped to [0, max], rounded to nearest even,
  /// converted; integers clamped and truncated.
  Value genSaturate(Value value, ScalarType from, ScalarType to, Location l) {
    if (from == to)
      return value;
    bool is16 = to == ScalarType::U16;
    Type type = is16 ? builder.getI16Type() : builder.getI8Type();
    int64_t max = is16 ? 65535 : 255;
    if (from == ScalarType::F32) {
      Value low = arith::MaxNumFOp::create(builder, l, value, constF32(l, 0));
      Value clamped =
          arith::MinNumFOp::create(builder, l, low, constF32(l, float(max)));
      Value rounded = math::RoundEvenOp::create(builder, l, clamped);
      return arith::FPToUIOp::create(builder, l, type, rounded);
    }
    Value wide = toI32(value, from, l);
    Value low = arith::MaxSIOp::create(builder, l, wide, constI32(l, 0));
    Value clamped =
        arith::MinSIOp::create(builder, l, low, constI32(l, int32_t(max)));
    return arith::TruncIOp::create(builder, l, type, clamped);
  }

  /// The arvr boundary of a read of parameter `image` in `mode`, and the
  /// padding value for the constant mode (the image's declared constant,
  /// else 0).
  std::pair<Boundary, TypedAttr> getBoundary(unsigned image,
                                             BoundaryMode mode) {
    const TypeSpec &type = currentKernel->params[image].type;
    return getBoundary(mode, type.boundary, type.padding, type.scalar);
  }

  /// The arvr boundary of a read in `mode` of values of type `scalarType`
  /// declared with `declared` and `declaredPadding` (the padding is the
  /// declared constant, else 0).
  std::pair<Boundary, TypedAttr> getBoundary(BoundaryMode mode,
                                             BoundaryMode declared,
                                             double declaredPadding,
                                             ScalarType scalarType) {
    switch (mode) {
    case BoundaryMode::None:
      return {Boundary::in_bounds, {}};
    case BoundaryMode::Clamp:
      return {Boundary::clamp, {}};
    case BoundaryMode::Mirror:
      return {Boundary::mirror, {}};
    case BoundaryMode::Wrap:
      return {Boundary::wrap, {}};
    case BoundaryMode::Constant: {
      double value = declared == BoundaryMode::Constant ? declaredPadding : 0.0;
      Type scalar = getScalarType(scalarType);
      if (scalar.isF32())
        return {Boundary::constant, builder.getF32FloatAttr(value)};
      return {Boundary::constant,
              builder.getIntegerAttr(scalar, static_cast<int64_t>(value))};
    }
    }
    llvm_unreachable("unknown boundary mode");
  }

  Value genImageRead(const CallExpr &call, Location l) {
    SmallVector<Value, 3> indices;
    for (const ExprPtr &arg : call.args) {
      Value coordinate = toI32(genExpr(*arg), arg->type, l);
      indices.push_back(arith::IndexCastOp::create(
          builder, l, builder.getIndexType(), coordinate));
    }
    if (indices.size() == 2)
      indices.push_back(arith::ConstantIndexOp::create(builder, l, 0));
    auto [boundary, padding] = getBoundary(call.imageParam, call.boundary);
    return AccessOp::create(builder, l, param(call.imageParam, call.plane),
                            indices[0], indices[1], indices[2], boundary,
                            padding);
  }

  /// sample(img, u, v[, c], mode): the image's boundary applies.
  Value genSample(const CallExpr &call, Location l) {
    Value u = genExpr(*call.args[1]);
    Value v = genExpr(*call.args[2]);
    Value c;
    if (call.args.size() == 5) {
      const Expr &channel = *call.args[3];
      c = arith::IndexCastOp::create(builder, l, builder.getIndexType(),
                                     toI32(genExpr(channel), channel.type, l));
    } else {
      c = arith::ConstantIndexOp::create(builder, l, 0);
    }
    auto [boundary, padding] = getBoundary(call.imageParam, call.boundary);
    return SampleOp::create(builder, l, builder.getF32Type(),
                            param(call.imageParam), u, v, c,
                            call.bilinear ? mlir::arvr::Interpolation::bilinear
                                          : mlir::arvr::Interpolation::nearest,
                            boundary, padding);
  }

  /// The value of parameter `index`: its kernel argument, or for an NV12
  /// frame the image of plane `plane`.
  Value param(unsigned index, unsigned plane = 0) {
    return paramValues[index][plane];
  }

  OpBuilder builder;
  const llvm::SourceMgr &sourceMgr;
  /// Per parameter: its argument, or an NV12 frame's two planes.
  SmallVector<SmallVector<Value, 2>> paramValues;
  const KernelDecl *currentKernel = nullptr;
  /// The values of one function activation: its coordinates (i32) and its
  /// lets, in order.
  struct Scope {
    SmallVector<Value, 3> coords;
    SmallVector<Value> lets;
  };
  /// The coordinates (index) of the stage being generated.
  SmallVector<Value, 3> coordinates;
  /// Per function of the kernel: its stage, once generated.
  SmallVector<Value> funcStages;
  Scope *scope = nullptr;        ///< The function being generated.
  SmallVector<Value> reduceVars; ///< Enclosing reductions' variables.
  /// Enclosing reductions' lets, computed in their bodies.
  SmallVector<SmallVector<Value>> reduceLets;
  /// The unroll factor of the reductions being generated: the schedule's
  /// `unroll(n)` of the function they are written in; 0 for none.
  int64_t unroll = 0;
};

} // namespace

OwningOpRef<ModuleOp>(::arvr::mlirGen)(MLIRContext &context,
                                       const ModuleAST &module,
                                       const llvm::SourceMgr &sourceMgr) {
  context.loadDialect<mlir::arvr::ArvrDialect, arith::ArithDialect,
                      math::MathDialect>();
  return MLIRGenImpl(context, sourceMgr).gen(module);
}
