//===- Parser.cpp - Recursive-descent parser for .arvr --------------------===//

#include "arvr/Frontend/Parser.h"

#include "llvm/ADT/StringExtras.h"

#include <cerrno>
#include <cstdlib>

using namespace arvr;

/// Deeper expressions are refused rather than risking the stack.
static constexpr unsigned kMaxExprDepth = 256;

Parser::Parser(Lexer &lexer, DiagnosticEngine &diags)
    : lexer(lexer), diags(diags) {
  tok = lexer.lex();
  previous = tok;
}

void Parser::errorExpected(llvm::StringRef what) {
  if (tok.is(TokenKind::error))
    return; // The lexer has already said what is wrong here.
  std::string found = tok.is(TokenKind::eof) ? std::string("end of file")
                                             : "'" + tok.spelling.str() + "'";
  diags.error(tok.getLoc(), "expected " + what + ", but found " + found,
              tok.getRange());
}

bool Parser::expect(TokenKind kind, llvm::StringRef what) {
  if (consumeIf(kind))
    return true;
  errorExpected(what);
  return false;
}

void Parser::skipUntil(TokenKind kind) {
  while (!tok.is(TokenKind::eof)) {
    if (tok.is(kind)) {
      consume();
      return;
    }
    if (tok.is(TokenKind::r_brace) || tok.is(TokenKind::kw_func) ||
        tok.is(TokenKind::kw_kernel))
      return;
    consume();
  }
}

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

ModuleAST Parser::parseModule() {
  ModuleAST module;
  while (!tok.is(TokenKind::eof)) {
    if (!tok.is(TokenKind::kw_kernel)) {
      errorExpected("'kernel'");
      // Skip to the next kernel.
      while (!tok.is(TokenKind::eof) && !tok.is(TokenKind::kw_kernel))
        consume();
      continue;
    }
    KernelDecl kernel;
    if (parseKernel(kernel))
      module.kernels.push_back(std::move(kernel));
  }
  return module;
}

/// kernel := 'kernel' identifier '(' (param (',' param)*)? ')' '->' outputs
///           '{' ('const' binding | func)* schedule? '}'
/// outputs := output | '(' identifier ':' output (',' identifier ':' output)*
///            ')'
bool Parser::parseKernel(KernelDecl &kernel) {
  consume(); // 'kernel'
  kernel.nameRange = tok.getRange();
  if (!tok.is(TokenKind::identifier)) {
    errorExpected("a kernel name");
    while (!tok.is(TokenKind::eof) && !tok.is(TokenKind::kw_kernel))
      consume();
    return false;
  }
  kernel.name = tok.spelling.str();
  consume();

  bool ok = expect(TokenKind::l_paren, "'(' to begin the parameter list");
  if (ok && !tok.is(TokenKind::r_paren)) {
    do {
      Param param;
      if (!parseParam(param)) {
        ok = false;
        break;
      }
      kernel.params.push_back(std::move(param));
    } while (consumeIf(TokenKind::comma));
  }
  ok = ok && expect(TokenKind::r_paren, "')' or ',' in the parameter list");
  ok = ok && expect(TokenKind::arrow, "'->' and the output type");
  if (ok && consumeIf(TokenKind::l_paren)) {
    // `-> (name: type, ...)`: several outputs, each computed by the
    // function of its name.
    kernel.namedOutputs = true;
    do {
      OutputDecl output;
      output.nameRange = tok.getRange();
      if (tok.is(TokenKind::identifier) &&
          (tok.spelling == "image" || tok.spelling == "nv12")) {
        diags.error(tok.getLoc(),
                    "the outputs in a list are named: write '(name: "
                    "image<...>, ...)', and define 'func name(x, y, c)'",
                    tok.getRange());
        ok = false;
        break;
      }
      if (!tok.is(TokenKind::identifier)) {
        errorExpected("an output name");
        ok = false;
        break;
      }
      output.name = tok.spelling.str();
      consume();
      ok = expect(TokenKind::colon, "':' and the output's type") &&
           parseOutput(output);
      if (!ok)
        break;
      kernel.outputs.push_back(std::move(output));
    } while (consumeIf(TokenKind::comma));
    ok = ok && expect(TokenKind::r_paren, "')' or ',' in the output list");
  } else if (ok) {
    OutputDecl output;
    output.name = "out";
    output.nameRange = tok.getRange();
    ok = parseOutput(output);
    if (ok)
      kernel.outputs.push_back(std::move(output));
  }
  if (!ok) {
    // Resynchronise at the body, if there is one.
    while (!tok.is(TokenKind::eof) && !tok.is(TokenKind::l_brace) &&
           !tok.is(TokenKind::kw_kernel))
      consume();
  }
  if (!expect(TokenKind::l_brace, "'{' to begin the kernel body"))
    return false;
  llvm::SMLoc scheduleLoc;
  while (!tok.is(TokenKind::r_brace) && !tok.is(TokenKind::eof) &&
         !tok.is(TokenKind::kw_kernel)) {
    if (tok.is(TokenKind::kw_const)) {
      consume();
      Binding constant;
      if (parseBinding(constant, "a constant name"))
        kernel.consts.push_back(std::move(constant));
      else
        ok = false;
      continue;
    }
    if (tok.is(TokenKind::kw_schedule)) {
      if (scheduleLoc.isValid()) {
        diags.error(tok.getLoc(), "a kernel has only one schedule",
                    tok.getRange());
        diags.note(scheduleLoc, "the first schedule is here");
        ok = false;
      } else {
        scheduleLoc = tok.getLoc();
        kernel.hasSchedule = true;
      }
      if (!parseSchedule(kernel))
        ok = false;
      continue;
    }
    if (!tok.is(TokenKind::kw_func)) {
      errorExpected("'func', 'const', 'schedule' or '}'");
      consume();
      skipUntil(TokenKind::semicolon);
      ok = false;
      continue;
    }
    FuncDef func;
    if (parseFunc(func))
      kernel.funcs.push_back(std::move(func));
    else
      ok = false;
  }
  if (!expect(TokenKind::r_brace, "'}' to end the kernel body"))
    return false;
  return ok;
}

/// schedule := 'schedule' '{' (identifier '.' identifier
///             '(' (integer (',' integer)*)? ')' ';')* '}'
bool Parser::parseSchedule(KernelDecl &kernel) {
  llvm::SMLoc start = tok.getLoc();
  consume(); // 'schedule'
  if (!expect(TokenKind::l_brace, "'{' to begin the schedule"))
    return false;
  bool ok = true;
  while (!tok.is(TokenKind::r_brace) && !tok.is(TokenKind::eof) &&
         !tok.is(TokenKind::kw_kernel) && !tok.is(TokenKind::kw_func)) {
    ScheduleDirective directive;
    directive.funcRange = tok.getRange();
    if (!tok.is(TokenKind::identifier)) {
      errorExpected("a function name in the schedule");
      skipUntil(TokenKind::semicolon);
      ok = false;
      continue;
    }
    directive.func = tok.spelling.str();
    consume();
    if (!expect(TokenKind::period, "'.' and a scheduling directive")) {
      skipUntil(TokenKind::semicolon);
      ok = false;
      continue;
    }
    directive.directiveRange = tok.getRange();
    if (!tok.is(TokenKind::identifier)) {
      errorExpected("a scheduling directive");
      skipUntil(TokenKind::semicolon);
      ok = false;
      continue;
    }
    directive.directive = tok.spelling.str();
    consume();
    bool lineOk = expect(TokenKind::l_paren, "'(' after the directive");
    if (lineOk && !tok.is(TokenKind::r_paren)) {
      do {
        if (!tok.is(TokenKind::integer)) {
          errorExpected("an integer argument");
          lineOk = false;
          break;
        }
        int64_t value = 0;
        if (tok.spelling.getAsInteger(10, value) || value > INT32_MAX) {
          diags.error(tok.getLoc(),
                      "integer '" + tok.spelling.str() +
                          "' is too large for a directive",
                      tok.getRange());
          lineOk = false;
        }
        directive.args.push_back({value, tok.getRange()});
        consume();
      } while (consumeIf(TokenKind::comma));
    }
    lineOk =
        lineOk && expect(TokenKind::r_paren, "')' or ',' after an argument");
    lineOk = lineOk && expect(TokenKind::semicolon, "';' after the directive");
    if (!lineOk) {
      skipUntil(TokenKind::semicolon);
      ok = false;
      continue;
    }
    kernel.schedule.push_back(std::move(directive));
  }
  if (!expect(TokenKind::r_brace, "'}' to end the schedule"))
    return false;
  if (ok && kernel.schedule.empty())
    diags.warning(start, "empty schedule: every function is inlined");
  return ok;
}

/// output := type ('[' expr ',' expr ']')?
bool Parser::parseOutput(OutputDecl &output) {
  if (!parseType(output.type))
    return false;
  if (!consumeIf(TokenKind::l_square))
    return true;
  output.width = parseExpr();
  if (!output.width || !expect(TokenKind::comma, "',' and the height"))
    return false;
  output.height = parseExpr();
  return output.height &&
         expect(TokenKind::r_square, "']' after the output's size");
}

/// param := identifier ':' type ('=' expr)?
bool Parser::parseParam(Param &param) {
  param.nameRange = tok.getRange();
  if (!tok.is(TokenKind::identifier)) {
    errorExpected("a parameter name");
    return false;
  }
  param.name = tok.spelling.str();
  consume();
  if (!expect(TokenKind::colon, "':' and the parameter's type") ||
      !parseType(param.type))
    return false;
  if (consumeIf(TokenKind::equal)) {
    param.defaultValue = parseExpr();
    if (!param.defaultValue)
      return false;
  }
  return true;
}

/// type := scalar-type
///         | 'image' '<' scalar-type (',' integer)? '>' boundary
///         | 'nv12' boundary
bool Parser::parseType(TypeSpec &type) {
  llvm::SMLoc start = tok.getLoc();
  if (!tok.is(TokenKind::identifier)) {
    errorExpected("a type");
    return false;
  }
  if (tok.spelling == "nv12") {
    consume();
    type.isImage = type.isNv12 = true;
    type.scalar = ScalarType::U8;
    if (!parseBoundary(type))
      return false;
  } else if (tok.spelling == "image") {
    consume();
    type.isImage = true;
    if (!expect(TokenKind::less, "'<' after 'image'"))
      return false;
    std::optional<ScalarType> element = tok.is(TokenKind::identifier)
                                            ? parseScalarTypeName(tok.spelling)
                                            : std::nullopt;
    if (!element) {
      errorExpected("an element type (u8, u16, i32 or f32)");
      return false;
    }
    type.scalar = *element;
    consume();
    if (consumeIf(TokenKind::comma)) {
      unsigned channels = 0;
      if (!tok.is(TokenKind::integer) ||
          tok.spelling.getAsInteger(10, channels)) {
        errorExpected("a channel count");
        return false;
      }
      if (channels < 1 || channels > 4) {
        diags.error(tok.getLoc(),
                    "an image has 1 to 4 channels, not " + tok.spelling,
                    tok.getRange());
        return false;
      }
      type.channels = static_cast<int>(channels);
      consume();
    }
    if (!expect(TokenKind::greater, "'>' to end the image type"))
      return false;
    if (!parseBoundary(type))
      return false;
  } else {
    std::optional<ScalarType> scalar = parseScalarTypeName(tok.spelling);
    if (!scalar) {
      diags.error(tok.getLoc(),
                  "unknown type '" + tok.spelling +
                      "'; expected image<...>, nv12, f32, i32, bool, u8 or u16",
                  tok.getRange());
      return false;
    }
    type.scalar = *scalar;
    consume();
  }
  type.range = {start, previous.getEndLoc()};
  return true;
}

/// boundary := ('clamp' | 'mirror' | 'wrap' | 'constant' ('(' '-'? number
/// ')')?)? after an image type; true unless malformed.
bool Parser::parseBoundary(TypeSpec &type) {
  return parseBoundary(type.boundary, type.padding, type.boundaryRange);
}

bool Parser::parseBoundary(BoundaryMode &boundary, double &padding,
                           llvm::SMRange &boundaryRange) {
  if (tok.is(TokenKind::identifier)) {
    std::optional<BoundaryMode> mode = parseBoundaryModeName(tok.spelling);
    if (!mode) {
      diags.error(tok.getLoc(),
                  "unknown boundary mode '" + tok.spelling +
                      "'; expected clamp, mirror, wrap or constant(v)",
                  tok.getRange());
      return false;
    }
    boundary = *mode;
    llvm::SMLoc modeStart = tok.getLoc();
    consume();
    if (*mode == BoundaryMode::Constant && consumeIf(TokenKind::l_paren)) {
      bool negative = consumeIf(TokenKind::minus);
      if (!tok.is(TokenKind::integer) && !tok.is(TokenKind::number)) {
        errorExpected("the constant's value, a number");
        return false;
      }
      std::string text = tok.spelling.str();
      padding = (negative ? -1 : 1) * std::strtod(text.c_str(), nullptr);
      consume();
      if (!expect(TokenKind::r_paren, "')' after the constant's value"))
        return false;
    }
    boundaryRange = {modeStart, previous.getEndLoc()};
  }
  return true;
}

/// domain := '[' expr (',' expr)* ']' boundary, after a function's
/// coordinates; the boundary mode is required.
bool Parser::parseDomain(FuncDef &func) {
  llvm::SMLoc start = tok.getLoc();
  consume(); // '['
  do {
    ExprPtr extent = parseExpr();
    if (!extent)
      return false;
    func.extents.push_back(std::move(extent));
  } while (consumeIf(TokenKind::comma));
  if (!expect(TokenKind::r_square, "',' or ']' after the function's extents"))
    return false;
  func.extentsRange = {start, previous.getEndLoc()};
  if (!tok.is(TokenKind::identifier)) {
    errorExpected("the boundary mode of reads outside the extents (clamp, "
                  "mirror, wrap or constant(v))");
    return false;
  }
  return parseBoundary(func.boundary, func.padding, func.boundaryRange);
}

/// func := 'func' identifier '(' (identifier (',' identifier)*)? ')'
///         domain? ('=' expr ';' | func-block)
bool Parser::parseFunc(FuncDef &func) {
  consume(); // 'func'
  func.nameRange = tok.getRange();
  bool ok = true;
  if (tok.is(TokenKind::identifier)) {
    func.name = tok.spelling.str();
    consume();
  } else {
    errorExpected("a function name");
    ok = false;
  }
  if (ok && expect(TokenKind::l_paren, "'(' and the function's coordinates")) {
    // `func norm() = ...` has no coordinates.
    if (!tok.is(TokenKind::r_paren))
      do {
        if (!tok.is(TokenKind::identifier)) {
          errorExpected("a coordinate name");
          ok = false;
          break;
        }
        func.vars.emplace_back(tok.spelling.str(), tok.getRange());
        consume();
      } while (consumeIf(TokenKind::comma));
    ok = ok && expect(TokenKind::r_paren, "')' or ',' in the coordinates");
    if (ok && tok.is(TokenKind::l_square))
      ok = parseDomain(func);
    if (ok && consumeIf(TokenKind::l_brace))
      return parseFuncBlock(func);
    ok = ok &&
         expect(TokenKind::equal, "'=' or '{' and the function's definition");
    if (ok) {
      func.body = parseExpr();
      ok = func.body != nullptr;
    }
    ok = ok && expect(TokenKind::semicolon, "';' after the definition");
  } else {
    ok = false;
  }
  if (!ok)
    skipUntil(TokenKind::semicolon);
  return ok;
}

/// func-block := '{' ('let' binding)* 'return' expr ';' '}'
bool Parser::parseFuncBlock(FuncDef &func) {
  while (consumeIf(TokenKind::kw_let)) {
    Binding let;
    if (!parseBinding(let, "a name after 'let'")) {
      skipUntil(TokenKind::r_brace);
      return false;
    }
    func.lets.push_back(std::move(let));
  }
  if (!expect(TokenKind::kw_return, "'let' or 'return'")) {
    skipUntil(TokenKind::r_brace);
    return false;
  }
  func.body = parseExpr();
  if (!func.body || !expect(TokenKind::semicolon, "';' after the return") ||
      !expect(TokenKind::r_brace, "'}' to end the function")) {
    skipUntil(TokenKind::r_brace);
    return false;
  }
  return true;
}

/// binding := identifier '=' expr ';'
bool Parser::parseBinding(Binding &binding, llvm::StringRef what) {
  binding.nameRange = tok.getRange();
  if (!tok.is(TokenKind::identifier)) {
    errorExpected(what);
    skipUntil(TokenKind::semicolon);
    return false;
  }
  binding.name = tok.spelling.str();
  consume();
  if (!expect(TokenKind::equal, "'=' and a value")) {
    skipUntil(TokenKind::semicolon);
    return false;
  }
  binding.value = parseExpr();
  if (!binding.value || !expect(TokenKind::semicolon, "';' after the value")) {
    skipUntil(TokenKind::semicolon);
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// The binary operator a token spells, and its precedence (higher binds
/// tighter); precedence 0 for tokens that are not binary operators.
static std::pair<BinaryExpr::Op, int> getBinaryOp(TokenKind kind) {
  using Op = BinaryExpr::Op;
  switch (kind) {
  case TokenKind::pipe_pipe:
    return {Op::Or, 1};
  case TokenKind::amp_amp:
    return {Op::And, 2};
  case TokenKind::equal_equal:
    return {Op::Eq, 3};
  case TokenKind::not_equal:
    return {Op::Ne, 3};
  case TokenKind::less:
    return {Op::Lt, 4};
  case TokenKind::less_equal:
    return {Op::Le, 4};
  case TokenKind::greater:
    return {Op::Gt, 4};
  case TokenKind::greater_equal:
    return {Op::Ge, 4};
  case TokenKind::plus:
    return {Op::Add, 5};
  case TokenKind::minus:
    return {Op::Sub, 5};
  case TokenKind::star:
    return {Op::Mul, 6};
  case TokenKind::slash:
    return {Op::Div, 6};
  case TokenKind::percent:
    return {Op::Rem, 6};
  default:
    return {Op::Add, 0};
  }
}

/// expr := unary (binary-op unary)*   (precedence climbing, left-assoc)
ExprPtr Parser::parseExpr() {
  if (depth >= kMaxExprDepth) {
    diags.error(tok.getLoc(), "expression is nested too deeply (more than " +
                                  llvm::Twine(kMaxExprDepth) + " levels)");
    return nullptr;
  }
  ++depth;
  ExprPtr lhs = parseUnary();
  ExprPtr result = lhs ? parseBinaryRHS(1, std::move(lhs)) : nullptr;
  --depth;
  return result;
}

ExprPtr Parser::parseBinaryRHS(int minPrecedence, ExprPtr lhs) {
  while (true) {
    auto [op, precedence] = getBinaryOp(tok.kind);
    if (precedence < minPrecedence || precedence == 0)
      return lhs;
    llvm::SMLoc opLoc = tok.getLoc();
    consume();
    ExprPtr rhs = parseUnary();
    if (!rhs)
      return nullptr;
    // Let tighter operators on the right take `rhs` first.
    while (getBinaryOp(tok.kind).second > precedence) {
      rhs = parseBinaryRHS(precedence + 1, std::move(rhs));
      if (!rhs)
        return nullptr;
    }
    llvm::SMRange range(lhs->getRange().Start, rhs->getRange().End);
    lhs = std::make_unique<BinaryExpr>(range, op, opLoc, std::move(lhs),
                                       std::move(rhs));
  }
}

/// unary := ('-' | '!') unary | primary
ExprPtr Parser::parseUnary() {
  if (tok.is(TokenKind::minus) || tok.is(TokenKind::exclaim)) {
    if (depth >= kMaxExprDepth) {
      diags.error(tok.getLoc(), "expression is nested too deeply (more than " +
                                    llvm::Twine(kMaxExprDepth) + " levels)");
      return nullptr;
    }
    UnaryExpr::Op op =
        tok.is(TokenKind::minus) ? UnaryExpr::Op::Neg : UnaryExpr::Op::Not;
    llvm::SMLoc start = tok.getLoc();
    consume();
    ++depth;
    ExprPtr operand = parseUnary();
    --depth;
    if (!operand)
      return nullptr;
    llvm::SMRange range(start, operand->getRange().End);
    return std::make_unique<UnaryExpr>(range, op, std::move(operand));
  }
  return parsePrimary();
}

/// reduction := ('sum' | 'product' | 'min' | 'max' | 'argmin' | 'argmax')
///              '(' range ',' (range ',')* term ')'
/// range := identifier 'in' expr '..' expr
/// term := expr | '{' ('let' binding)* 'return' expr ';' '}'
/// (called with the name and the variable already parsed, at 'in').
ExprPtr Parser::parseReduction(const Token &start, const std::string &name,
                               ExprPtr var) {
  auto *variable = llvm::dyn_cast<VarExpr>(var.get());
  if (!variable) {
    diags.error(var->getLoc(),
                "a reduction variable must be a name, as in 'sum(i in 0..3, "
                "...)'",
                var->getRange());
    return nullptr;
  }
  consume(); // 'in'
  ExprPtr lo = parseExpr();
  if (!lo || !expect(TokenKind::dot_dot, "'..' between the range's bounds"))
    return nullptr;
  ExprPtr hi = parseExpr();
  if (!hi || !expect(TokenKind::comma, "',' and the reduced expression"))
    return nullptr;
  std::vector<Binding> lets;
  ExprPtr body =
      tok.is(TokenKind::l_brace) ? parseReductionBlock(lets) : parseExpr();
  if (!body)
    return nullptr;
  // A second range, `sum(i in a..b, j in c..d, expr)`: the same reduction
  // over j inside the one over i.
  bool overPairs = false;
  if (tok.is(TokenKind::kw_in) && lets.empty()) {
    // argmin/argmax over two ranges: one reduction over the pairs.
    overPairs = name == "argmin" || name == "argmax";
    body = parseReduction(start, name, std::move(body));
    if (body && overPairs && llvm::cast<ReduceExpr>(body.get())->overPairs) {
      diags.error(body->getLoc(), "'" + name + "' takes at most two ranges",
                  body->getRange());
      return nullptr;
    }
    if (!body)
      return nullptr;
    // The inner call consumed the ')'.
  } else if (!expect(TokenKind::r_paren, "')' to end the reduction")) {
    return nullptr;
  }
  ReduceExpr::Op op = name == "sum"       ? ReduceExpr::Op::Sum
                      : name == "product" ? ReduceExpr::Op::Product
                      : name == "min"     ? ReduceExpr::Op::Min
                      : name == "max"     ? ReduceExpr::Op::Max
                      : name == "argmin"  ? ReduceExpr::Op::Argmin
                                          : ReduceExpr::Op::Argmax;
  auto reduce = std::make_unique<ReduceExpr>(
      llvm::SMRange(start.getLoc(), previous.getEndLoc()), op, variable->name,
      variable->getRange(), std::move(lo), std::move(hi), std::move(body));
  reduce->lets = std::move(lets);
  reduce->overPairs = overPairs;
  return reduce;
}

/// '{' ('let' binding)* 'return' expr ';' '}' as a reduction's term: the
/// returned expression, the lets into `lets`.
ExprPtr Parser::parseReductionBlock(std::vector<Binding> &lets) {
  consume(); // '{'
  // On an error, past the block's '}', so that the function's own recovery
  // starts after it.
  auto fail = [&]() -> ExprPtr {
    skipUntil(TokenKind::r_brace);
    consumeIf(TokenKind::r_brace);
    return nullptr;
  };
  while (consumeIf(TokenKind::kw_let)) {
    Binding let;
    if (!parseBinding(let, "a name after 'let'"))
      return fail();
    lets.push_back(std::move(let));
  }
  if (!expect(TokenKind::kw_return, "'let' or 'return'"))
    return fail();
  ExprPtr term = parseExpr();
  if (!term || !expect(TokenKind::semicolon, "';' after the return") ||
      !expect(TokenKind::r_brace, "'}' to end the reduction's term"))
    return fail();
  return term;
}

/// call-args := '(' (expr (',' expr)*)? ')'
bool Parser::parseCallArgs(std::vector<ExprPtr> &args, llvm::SMLoc &end,
                           const Token *callee) {
  consume(); // '('
  if (!tok.is(TokenKind::r_paren)) {
    do {
      ExprPtr arg = parseExpr();
      if (!arg)
        return false;
      // `f(i in lo..hi, ...)`: a reduction the language does not have.
      if (callee && args.empty() && tok.is(TokenKind::kw_in)) {
        diags.error(
            callee->getLoc(),
            "'" + callee->spelling +
                "' is not a reduction: the "
                "reductions are sum, product, min, max, argmin and argmax",
            callee->getRange());
        diags.note(tok.getLoc(), "a range ('i in lo..hi') is only allowed "
                                 "in a reduction");
        return false;
      }
      args.push_back(std::move(arg));
    } while (consumeIf(TokenKind::comma));
  }
  if (!expect(TokenKind::r_paren, "')' or ',' in the argument list"))
    return false;
  end = previous.getEndLoc();
  return true;
}

/// primary := integer | number | 'true' | 'false' | '(' expr ')'
///          | identifier
///          | identifier call-args | reduction
///          | identifier '.' identifier call-args?
ExprPtr Parser::parsePrimary() {
  Token start = tok;
  switch (tok.kind) {
  case TokenKind::integer: {
    consume();
    uint64_t value = 0;
    if (start.spelling.getAsInteger(10, value) || value > INT64_MAX) {
      diags.error(start.getLoc(),
                  "integer literal '" + start.spelling + "' is too large",
                  start.getRange());
      return nullptr;
    }
    return std::make_unique<IntLitExpr>(start.getRange(),
                                        static_cast<int64_t>(value));
  }
  case TokenKind::number: {
    consume();
    std::string text = start.spelling.str();
    errno = 0;
    double value = std::strtod(text.c_str(), nullptr);
    if (errno == ERANGE && std::abs(value) > 1.0) {
      diags.error(start.getLoc(),
                  "number '" + start.spelling + "' is too large",
                  start.getRange());
      return nullptr;
    }
    return std::make_unique<FloatLitExpr>(start.getRange(), value);
  }
  case TokenKind::kw_true:
  case TokenKind::kw_false:
    consume();
    return std::make_unique<BoolLitExpr>(start.getRange(),
                                         start.is(TokenKind::kw_true));
  case TokenKind::l_paren: {
    consume();
    ExprPtr inner = parseExpr();
    if (!inner)
      return nullptr;
    if (!expect(TokenKind::r_paren, "')'"))
      return nullptr;
    return inner;
  }
  case TokenKind::identifier: {
    consume();
    std::string name = start.spelling.str();
    if (tok.is(TokenKind::l_paren)) {
      std::vector<ExprPtr> args;
      llvm::SMLoc end;
      if (name == "sum" || name == "product" || name == "min" ||
          name == "max" || name == "argmin" || name == "argmax") {
        // A reduction, `sum(i in lo..hi, expr)`, or the call `min(a, b)`.
        consume(); // '('
        ExprPtr first = parseExpr();
        if (!first)
          return nullptr;
        if (tok.is(TokenKind::kw_in))
          return parseReduction(start, name, std::move(first));
        args.push_back(std::move(first));
        while (consumeIf(TokenKind::comma)) {
          ExprPtr arg = parseExpr();
          if (!arg)
            return nullptr;
          args.push_back(std::move(arg));
        }
        if (!expect(TokenKind::r_paren, "')' or ',' in the argument list"))
          return nullptr;
        return std::make_unique<CallExpr>(
            llvm::SMRange(start.getLoc(), previous.getEndLoc()), name,
            start.getRange(), "", std::move(args));
      }
      if (!parseCallArgs(args, end, &start))
        return nullptr;
      return std::make_unique<CallExpr>(llvm::SMRange(start.getLoc(), end),
                                        name, start.getRange(), "",
                                        std::move(args));
    }
    if (consumeIf(TokenKind::period)) {
      Token member = tok;
      if (!expect(TokenKind::identifier,
                  "a member name after '.' (width, height, channels or a "
                  "boundary mode)"))
        return nullptr;
      if (tok.is(TokenKind::l_paren)) {
        std::vector<ExprPtr> args;
        llvm::SMLoc end;
        if (!parseCallArgs(args, end))
          return nullptr;
        return std::make_unique<CallExpr>(
            llvm::SMRange(start.getLoc(), end), name, start.getRange(),
            member.spelling.str(), std::move(args));
      }
      return std::make_unique<MemberExpr>(
          llvm::SMRange(start.getLoc(), member.getEndLoc()), name,
          member.spelling.str(), member.getRange());
    }
    return std::make_unique<VarExpr>(start.getRange(), name);
  }
  default:
    errorExpected("an expression");
    return nullptr;
  }
}
