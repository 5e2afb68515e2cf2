//===- AST.cpp - Names of types and operators, and the AST printer --------===//

#include "arvr/Frontend/AST.h"
#include "arvr/Frontend/Diagnostics.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"

using namespace arvr;

llvm::StringRef arvr::getScalarTypeName(ScalarType type) {
  switch (type) {
  case ScalarType::Bool:
    return "bool";
  case ScalarType::U8:
    return "u8";
  case ScalarType::U16:
    return "u16";
  case ScalarType::I32:
    return "i32";
  case ScalarType::F32:
    return "f32";
  }
  llvm_unreachable("unknown scalar type");
}

std::optional<ScalarType> arvr::parseScalarTypeName(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<ScalarType>>(name)
      .Case("bool", ScalarType::Bool)
      .Case("u8", ScalarType::U8)
      .Case("u16", ScalarType::U16)
      .Case("i32", ScalarType::I32)
      .Case("f32", ScalarType::F32)
      .Default(std::nullopt);
}

llvm::StringRef arvr::getBoundaryModeName(BoundaryMode mode) {
  switch (mode) {
  case BoundaryMode::None:
    return "";
  case BoundaryMode::Clamp:
    return "clamp";
  case BoundaryMode::Mirror:
    return "mirror";
  case BoundaryMode::Wrap:
    return "wrap";
  case BoundaryMode::Constant:
    return "constant";
  }
  llvm_unreachable("unknown boundary mode");
}

std::optional<BoundaryMode> arvr::parseBoundaryModeName(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<BoundaryMode>>(name)
      .Case("clamp", BoundaryMode::Clamp)
      .Case("mirror", BoundaryMode::Mirror)
      .Case("wrap", BoundaryMode::Wrap)
      .Case("constant", BoundaryMode::Constant)
      .Default(std::nullopt);
}

std::string TypeSpec::str() const {
  if (isNv12)
    return "nv12";
  if (!isImage)
    return getScalarTypeName(scalar).str();
  std::string s = "image<" + getScalarTypeName(scalar).str();
  if (channels)
    s += ", " + std::to_string(channels);
  return s + ">";
}

llvm::StringRef BinaryExpr::getSpelling(Op op) {
  switch (op) {
  case Op::Add:
    return "+";
  case Op::Sub:
    return "-";
  case Op::Mul:
    return "*";
  case Op::Div:
    return "/";
  case Op::Rem:
    return "%";
  case Op::Lt:
    return "<";
  case Op::Le:
    return "<=";
  case Op::Gt:
    return ">";
  case Op::Ge:
    return ">=";
  case Op::Eq:
    return "==";
  case Op::Ne:
    return "!=";
  case Op::And:
    return "&&";
  case Op::Or:
    return "||";
  }
  llvm_unreachable("unknown binary operator");
}

llvm::StringRef ReduceExpr::getName(Op op) {
  switch (op) {
  case Op::Sum:
    return "sum";
  case Op::Min:
    return "min";
  case Op::Max:
    return "max";
  case Op::Argmin:
    return "argmin";
  case Op::Argmax:
    return "argmax";
  case Op::Product:
    return "product";
  }
  llvm_unreachable("unknown reduction");
}

namespace {
/// Prints one node per line, indented by depth, with its location.
class ASTPrinter {
public:
  ASTPrinter(const DiagnosticEngine &diags, llvm::raw_ostream &os)
      : diags(diags), os(os) {}

  void print(const ModuleAST &module) {
    for (const KernelDecl &kernel : module.kernels)
      print(kernel);
  }

private:
  void line(llvm::SMLoc loc) {
    os.indent(depth * 2);
    auto [row, col] = diags.getLineAndColumn(loc);
    os << "@" << row << ":" << col << " ";
  }

  void print(const KernelDecl &kernel) {
    line(kernel.nameRange.Start);
    os << "Kernel '" << kernel.name << "'";
    if (!kernel.namedOutputs)
      os << " -> " << kernel.outputs.front().type.str();
    os << "\n";
    ++depth;
    for (const Param &param : kernel.params) {
      line(param.nameRange.Start);
      os << "Param '" << param.name << "' : " << param.type.str();
      if (param.type.boundary != BoundaryMode::None)
        os << " " << getBoundaryModeName(param.type.boundary);
      if (param.type.boundary == BoundaryMode::Constant)
        os << "(" << llvm::format("%g", param.type.padding) << ")";
      os << "\n";
      if (param.defaultValue) {
        ++depth;
        print(*param.defaultValue);
        --depth;
      }
    }
    for (const OutputDecl &output : kernel.outputs) {
      if (!kernel.namedOutputs && !output.width)
        continue;
      line(output.nameRange.Start);
      os << "Output '" << output.name << "' : " << output.type.str() << "\n";
      if (output.width) {
        ++depth;
        print(*output.width);
        print(*output.height);
        --depth;
      }
    }
    for (const Binding &constant : kernel.consts) {
      line(constant.nameRange.Start);
      os << "Const '" << constant.name << "'\n";
      ++depth;
      print(*constant.value);
      --depth;
    }
    for (const FuncDef &func : kernel.funcs) {
      line(func.nameRange.Start);
      os << "Func '" << func.name << "' (";
      llvm::interleaveComma(func.vars, os,
                            [&](const auto &var) { os << var.first; });
      os << ")\n";
      ++depth;
      for (const Binding &let : func.lets) {
        line(let.nameRange.Start);
        os << "Let '" << let.name << "'\n";
        ++depth;
        print(*let.value);
        --depth;
      }
      print(*func.body);
      --depth;
    }
    for (const ScheduleDirective &directive : kernel.schedule) {
      line(directive.funcRange.Start);
      os << "Schedule '" << directive.func << "' " << directive.directive
         << "(";
      llvm::interleaveComma(directive.args, os,
                            [&](const auto &arg) { os << arg.first; });
      os << ")\n";
    }
    --depth;
  }

  void print(const Expr &expr) {
    line(expr.getLoc());
    llvm::StringRef type = getScalarTypeName(expr.type);
    if (auto *e = llvm::dyn_cast<IntLitExpr>(&expr)) {
      os << "Int " << e->value << " : " << type << "\n";
    } else if (auto *e = llvm::dyn_cast<FloatLitExpr>(&expr)) {
      os << "Float " << llvm::format("%g", e->value) << " : " << type << "\n";
    } else if (auto *e = llvm::dyn_cast<BoolLitExpr>(&expr)) {
      os << "Bool " << (e->value ? "true" : "false") << "\n";
    } else if (auto *e = llvm::dyn_cast<VarExpr>(&expr)) {
      os << "Var '" << e->name << "' : " << type << "\n";
    } else if (auto *e = llvm::dyn_cast<UnaryExpr>(&expr)) {
      os << "Unary '" << (e->op == UnaryExpr::Op::Neg ? "-" : "!")
         << "' : " << type << "\n";
      ++depth;
      print(*e->operand);
      --depth;
    } else if (auto *e = llvm::dyn_cast<BinaryExpr>(&expr)) {
      os << "Binary '" << BinaryExpr::getSpelling(e->op) << "' : " << type
         << "\n";
      ++depth;
      print(*e->lhs);
      print(*e->rhs);
      --depth;
    } else if (auto *e = llvm::dyn_cast<CallExpr>(&expr)) {
      os << "Call '" << e->callee;
      if (!e->method.empty())
        os << "." << e->method;
      os << "' : " << type;
      if (e->builtin == CallExpr::Builtin::ReadImage ||
          e->builtin == CallExpr::Builtin::Sample)
        os << " boundary "
           << (e->boundary == BoundaryMode::None
                   ? llvm::StringRef("in_bounds")
                   : getBoundaryModeName(e->boundary));
      os << "\n";
      ++depth;
      for (auto [i, arg] : llvm::enumerate(e->args)) {
        // sample(image, u, v[, c], interpolation): the first and last are
        // names, not values.
        auto *name = llvm::dyn_cast<VarExpr>(arg.get());
        bool isSample = e->builtin == CallExpr::Builtin::Sample;
        if (isSample && name && (i == 0 || i + 1 == e->args.size())) {
          line(name->getLoc());
          os << (i == 0 ? "Image '" : "Interpolation '") << name->name << "'\n";
          continue;
        }
        print(*arg);
      }
      --depth;
    } else if (auto *e = llvm::dyn_cast<ReduceExpr>(&expr)) {
      os << "Reduce '" << ReduceExpr::getName(e->op) << "' over '" << e->var
         << "' : " << type << "\n";
      ++depth;
      print(*e->lo);
      print(*e->hi);
      for (const Binding &let : e->lets) {
        line(let.nameRange.Start);
        os << "Let '" << let.name << "'\n";
        ++depth;
        print(*let.value);
        --depth;
      }
      print(*e->body);
      --depth;
    } else if (auto *e = llvm::dyn_cast<MemberExpr>(&expr)) {
      os << "Member '" << e->base << "." << e->member << "' : " << type << "\n";
    }
  }

  const DiagnosticEngine &diags;
  llvm::raw_ostream &os;
  unsigned depth = 0;
};
} // namespace

void arvr::dumpAST(const ModuleAST &module, const DiagnosticEngine &diags,
                   llvm::raw_ostream &os) {
  ASTPrinter(diags, os).print(module);
}
