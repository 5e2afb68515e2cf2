//===- Parser.h - Recursive-descent parser for .arvr ------------*- C++ -*-===//
//
// Builds the AST of a .arvr file. Each parseX() documents its grammar rule.
// On a syntax error the parser reports it and skips to the end of the
// current definition, so one run reports every broken definition.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_FRONTEND_PARSER_H
#define ARVR_FRONTEND_PARSER_H

#include "arvr/Frontend/AST.h"
#include "arvr/Frontend/Lexer.h"

namespace arvr {

class Parser {
public:
  Parser(Lexer &lexer, DiagnosticEngine &diags);

  /// module := kernel* eof
  ModuleAST parseModule();

  /// Exposed for unit tests: expr (see parseExpr).
  ExprPtr parseExpression() { return parseExpr(); }

private:
  // Declarations.
  bool parseKernel(KernelDecl &kernel);
  bool parseParam(Param &param);
  bool parseType(TypeSpec &type);
  bool parseOutput(OutputDecl &output);
  bool parseBoundary(TypeSpec &type);
  bool parseBoundary(BoundaryMode &boundary, double &padding,
                     llvm::SMRange &boundaryRange);
  bool parseDomain(FuncDef &func);
  bool parseFunc(FuncDef &func);
  bool parseFuncBlock(FuncDef &func);
  bool parseSchedule(KernelDecl &kernel);
  bool parseBinding(Binding &binding, llvm::StringRef what);

  // Expressions, by decreasing precedence of their operators.
  ExprPtr parseExpr();
  ExprPtr parseBinaryRHS(int minPrecedence, ExprPtr lhs);
  ExprPtr parseUnary();
  ExprPtr parsePrimary();
  /// `(arg, ...)`; `callee`, when given, names the call in the error for
  /// a range in its first argument (a reduction the language lacks).
  bool parseCallArgs(std::vector<ExprPtr> &args, llvm::SMLoc &end,
                     const Token *callee = nullptr);
  ExprPtr parseReduction(const Token &start, const std::string &name,
                         ExprPtr var);
  ExprPtr parseReductionBlock(std::vector<Binding> &lets);

  // Tokens.
  void consume() {
    previous = tok;
    tok = lexer.lex();
  }
  bool consumeIf(TokenKind kind) {
    if (!tok.is(kind))
      return false;
    consume();
    return true;
  }
  /// Consumes a `kind` token, or reports "expected <what>" and fails.
  bool expect(TokenKind kind, llvm::StringRef what);
  /// Reports "expected <what>, but found <token>" at the current token.
  void errorExpected(llvm::StringRef what);
  /// Skips to just after the next token of `kind` (or a `}` / eof).
  void skipUntil(TokenKind kind);

  Lexer &lexer;
  DiagnosticEngine &diags;
  Token tok, previous;
  unsigned depth = 0; ///< Expression nesting, limited to protect the stack.
};

} // namespace arvr

#endif // ARVR_FRONTEND_PARSER_H
