//===- Plan.cpp - A launch plan read, checked and evaluated ---------------===//
//
// parsePlan reads the JSON of docs/launch-plan.md with llvm::json and checks
// it whole: the format and version, each key's type, each operation, and
// that every reference names an argument, buffer or earlier value that
// exists (so evaluation never looks anything up that is not there).
// Evaluation computes the values as signed integers wrapped to their
// widths, as the generated code would, and lays out each launch's
// parameters: an image as the nine fields of a memref descriptor.
//
//===----------------------------------------------------------------------===//

#include "Plan.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/JSON.h"

#include <cfenv>
#include <cmath>
#include <optional>
#if defined(__x86_64__) || defined(__SSE__)
#include <xmmintrin.h>
#endif

using namespace arvr::runtime;
namespace json = llvm::json;

namespace {

/// Reads one plan, keeping the path of what it reads for errors.
class Reader {
public:
  Reader(Plan &plan, std::string &error) : plan(plan), error(error) {}
  bool read(const json::Object &root);

private:
  bool fail(const std::string &where, const std::string &what) {
    error = "launch plan: " + where + ": " + what;
    return false;
  }
  bool string(const json::Object &o, llvm::StringRef key,
              const std::string &where, std::string &out) {
    std::optional<llvm::StringRef> s = o.getString(key);
    if (!s)
      return fail(where, "'" + key.str() + "' must be a string");
    out = s->str();
    return true;
  }
  bool integer(const json::Object &o, llvm::StringRef key,
               const std::string &where, int64_t low, int64_t high,
               int64_t &out) {
    std::optional<int64_t> n = o.getInteger(key);
    if (!n || *n < low || *n > high)
      return fail(where, "'" + key.str() + "' must be an integer in [" +
                             std::to_string(low) + ", " + std::to_string(high) +
                             "]");
    out = *n;
    return true;
  }
  /// An operand, which may refer to arguments, the first `buffers`
  /// buffers and the first `values` values.
  bool operand(const json::Value &v, const std::string &where, Operand &out,
               size_t buffers, size_t values);
  bool operands(const json::Object &o, llvm::StringRef key,
                const std::string &where, size_t count,
                std::vector<Operand> &out, size_t buffers, size_t values);
  /// Whether `o` is f32: a value of type f32 or an f32 scalar argument.
  bool isF32(const Operand &o) const {
    return (o.kind == Operand::Value && plan.values[o.number].f32) ||
           (o.kind == Operand::Argument && !plan.arguments[o.number].image &&
            plan.arguments[o.number].type == "f32");
  }
  /// False (failing) if an f32 value is among `ops`, which are sizes.
  bool integers(llvm::ArrayRef<Operand> ops, const std::string &where) {
    for (const Operand &o : ops)
      if (o.kind == Operand::Value && plan.values[o.number].f32)
        return fail(where, "an f32 value cannot be a size or a bound");
    return true;
  }
  /// Whether the operands of `v` have the types its operation takes.
  bool typed(const PlanValue &v, const std::string &where);
  bool argument(const json::Object &o, const std::string &where);
  bool value(const json::Object &o, const std::string &where);
  bool buffer(const json::Object &o, const std::string &where);
  bool launch(const json::Object &o, const std::string &where);
  bool check(const json::Object &o, const std::string &where);
  /// Each object of the array `key` of `root`, read by `each`.
  template <typename Each>
  bool array(const json::Object &root, llvm::StringRef key, Each each) {
    const json::Array *items = root.getArray(key);
    if (!items)
      return fail(key.str(), "must be an array");
    for (size_t i = 0; i < items->size(); ++i) {
      std::string where = key.str() + "[" + std::to_string(i) + "]";
      const json::Object *o = (*items)[i].getAsObject();
      if (!o)
        return fail(where, "must be an object");
      if (!each(*o, where))
        return false;
    }
    return true;
  }

  Plan &plan;
  std::string &error;
};

bool Reader::operand(const json::Value &v, const std::string &where,
                     Operand &out, size_t buffers, size_t values) {
  if (std::optional<int64_t> n = v.getAsInteger()) {
    out = {Operand::Literal, *n};
    return true;
  }
  std::optional<llvm::StringRef> s = v.getAsString();
  int64_t index = 0;
  if (!s || s->size() < 2 || s->drop_front().getAsInteger(10, index) ||
      index < 0)
    return fail(where, "an operand must be an integer or \"aN\", \"bN\", "
                       "\"vN\"");
  char kind = s->front();
  size_t limit = kind == 'a'   ? plan.arguments.size()
                 : kind == 'b' ? buffers
                 : kind == 'v' ? values
                               : 0;
  if (static_cast<size_t>(index) >= limit)
    return fail(where, "'" + s->str() + "' is not defined before this use");
  out = {kind == 'a'   ? Operand::Argument
         : kind == 'b' ? Operand::Buffer
                       : Operand::Value,
         index};
  return true;
}

bool Reader::operands(const json::Object &o, llvm::StringRef key,
                      const std::string &where, size_t count,
                      std::vector<Operand> &out, size_t buffers,
                      size_t values) {
  const json::Array *items = o.getArray(key);
  if (!items || (count && items->size() != count))
    return fail(where, "'" + key.str() + "' must be an array" +
                           (count ? " of " + std::to_string(count) : ""));
  out.resize(items->size());
  for (size_t i = 0; i < items->size(); ++i)
    if (!operand((*items)[i], where + "." + key.str(), out[i], buffers, values))
      return false;
  return true;
}

bool Reader::argument(const json::Object &o, const std::string &where) {
  PlanArgument arg;
  std::string role, kind, id;
  if (!string(o, "id", where, id) || !string(o, "name", where, arg.name) ||
      !string(o, "role", where, role) || !string(o, "kind", where, kind) ||
      !string(o, "type", where, arg.type))
    return false;
  if (id != "a" + std::to_string(plan.arguments.size()))
    return fail(where, "arguments must be a0, a1, ... in order");
  if ((role != "input" && role != "output") ||
      (kind != "image" && kind != "scalar"))
    return fail(where, "role must be input or output, kind image or scalar");
  arg.output = role == "output";
  arg.image = kind == "image";
  bool known = arg.image ? llvm::is_contained({"u8", "u16", "i32", "f32"},
                                              llvm::StringRef(arg.type))
                         : llvm::is_contained({"i32", "f32", "i1"},
                                              llvm::StringRef(arg.type));
  if (!known || (arg.output && !arg.image))
    return fail(where, "no argument of type " + arg.type + " (" + kind + ")");
  if (arg.image) {
    const json::Value *channels = o.get("channels");
    int64_t c = 0;
    if (!channels ||
        (!channels->getAsNull() && !integer(o, "channels", where, 1, 4, c)))
      return fail(where, "'channels' must be 1 to 4 or null");
    arg.channels = static_cast<int>(c);
  }
  plan.arguments.push_back(arg);
  return true;
}

bool Reader::value(const json::Object &o, const std::string &where) {
  PlanValue v;
  std::string id;
  int64_t bits = 0;
  if (!string(o, "id", where, id) || !string(o, "op", where, v.op) ||
      !integer(o, "bits", where, 1, 64, bits))
    return false;
  if (id != "v" + std::to_string(plan.values.size()))
    return fail(where, "values must be v0, v1, ... in order");
  v.bits = static_cast<unsigned>(bits);
  if (const json::Value *type = o.get("type")) {
    if (type->getAsString() != "f32" || bits != 32)
      return fail(where, "'type' must be \"f32\", with 32 bits");
    v.f32 = true;
  }
  size_t arity = llvm::StringSwitch<size_t>(v.op)
                     .Case("const", 0)
                     .Cases({"dim", "cast", "fneg"}, 1)
                     .Cases({"select", "fma"}, 3)
                     .Cases({"add", "sub", "mul", "ceildiv", "floordiv", "div",
                             "rem", "min", "max", "and", "or", "xor", "cmp",
                             "fadd", "fsub", "fmul", "fdiv"},
                            2)
                     .Default(~size_t(0));
  if (arity == ~size_t(0))
    return fail(where, "unknown operation '" + v.op + "'");
  if (!operands(o, "operands", where, arity, v.operands, 0, plan.values.size()))
    return false;
  if (arity == 0 && !v.operands.empty())
    return fail(where, "const takes no operands");
  if (v.op == "const" && v.f32) {
    // A finite f32 (JSON has no infinities or NaN).
    std::optional<double> number = o.getNumber("value");
    if (!number || static_cast<double>(static_cast<float>(*number)) != *number)
      return fail(where, "an f32 const's 'value' must be an f32 number");
    v.number = static_cast<float>(*number);
  } else if (v.op == "const" &&
             !integer(o, "value", where, INT64_MIN, INT64_MAX, v.literal)) {
    return false;
  }
  if (!typed(v, where))
    return false;
  if (v.op == "dim") {
    const Operand &image = v.operands[0];
    if (image.kind != Operand::Argument || !plan.arguments[image.number].image)
      return fail(where, "dim takes an image argument");
    if (!integer(o, "dim", where, 0, 2, v.literal))
      return false;
  }
  if (v.op == "cmp" &&
      (!string(o, "predicate", where, v.predicate) ||
       !llvm::is_contained({"eq", "ne", "slt", "sle", "sgt", "sge"},
                           llvm::StringRef(v.predicate))))
    return fail(where, "cmp's predicate must be eq ne slt sle sgt sge");
  plan.values.push_back(std::move(v));
  return true;
}

bool Reader::typed(const PlanValue &v, const std::string &where) {
  bool floating = llvm::is_contained(
      {"fadd", "fsub", "fmul", "fdiv", "fneg", "fma"}, llvm::StringRef(v.op));
  if (floating != v.f32 && v.op != "const")
    return fail(where, "'" + v.op + "' takes and gives " +
                           (floating ? "f32" : "integers"));
  for (size_t i = 0; i < v.operands.size(); ++i)
    if (isF32(v.operands[i]) != v.f32 ||
        (v.f32 && v.operands[i].kind == Operand::Literal))
      return fail(where, "operand " + std::to_string(i) + " of '" + v.op +
                             "' must be " + (v.f32 ? "f32" : "an integer"));
  return true;
}

bool Reader::buffer(const json::Object &o, const std::string &where) {
  PlanBuffer b;
  std::string id;
  int64_t bytes = 0;
  std::vector<Operand> size;
  if (!string(o, "id", where, id) ||
      !integer(o, "elementBytes", where, 1, 8, bytes) ||
      !operands(o, "size", where, 3, size, 0, plan.values.size()))
    return false;
  if (id != "b" + std::to_string(plan.buffers.size()))
    return fail(where, "buffers must be b0, b1, ... in order");
  if (!integers(size, where))
    return false;
  b.elementBytes = static_cast<unsigned>(bytes);
  std::copy(size.begin(), size.end(), b.size.begin());
  plan.buffers.push_back(b);
  return true;
}

bool Reader::launch(const json::Object &o, const std::string &where) {
  PlanLaunch l;
  std::vector<Operand> grid, block, shared(1);
  size_t b = plan.buffers.size(), v = plan.values.size();
  if (!string(o, "entry", where, l.entry) ||
      !operands(o, "grid", where, 3, grid, b, v) ||
      !operands(o, "block", where, 3, block, b, v) ||
      !operands(o, "args", where, 0, l.args, b, v))
    return false;
  if (const json::Value *reusable = o.get("reusable")) {
    std::optional<bool> flag = reusable->getAsBoolean();
    if (!flag)
      return fail(where, "'reusable' must be true or false");
    l.reusable = *flag;
  }
  const json::Value *sharedBytes = o.get("sharedBytes");
  if (!sharedBytes ||
      !operand(*sharedBytes, where + ".sharedBytes", l.shared, b, v))
    return fail(where, "'sharedBytes' must be an operand");
  for (const Operand &geometry : llvm::concat<const Operand>(grid, block))
    if (geometry.kind == Operand::Argument || geometry.kind == Operand::Buffer)
      return fail(where, "a grid or block size must be a number or value");
  if (!integers(grid, where) || !integers(block, where) ||
      !integers(l.shared, where))
    return false;
  for (const Operand &arg : l.args)
    if (arg.kind == Operand::Literal)
      return fail(where, "an argument of a launch must be a reference");
  std::copy(grid.begin(), grid.end(), l.grid.begin());
  std::copy(block.begin(), block.end(), l.block.begin());
  plan.launches.push_back(std::move(l));
  return true;
}

bool Reader::check(const json::Object &o, const std::string &where) {
  PlanCheck c;
  std::string kind;
  size_t v = plan.values.size();
  if (!string(o, "kind", where, kind) || !string(o, "what", where, c.what) ||
      !integer(o, "max", where, 1, INT64_MAX, c.max) ||
      !operands(o, "operands", where, kind == "range" ? 2 : 0, c.operands, 0,
                v))
    return false;
  if (kind != "range" && kind != "extents")
    return fail(where, "'kind' must be range or extents");
  c.range = kind == "range";
  if (!integers(c.operands, where))
    return false;
  for (const Operand &operand : c.operands)
    if (operand.kind == Operand::Argument &&
        plan.arguments[operand.number].image)
      return fail(where, "a check's operand must be a number, a scalar or "
                         "a value");
  plan.checks.push_back(std::move(c));
  return true;
}

bool Reader::read(const json::Object &root) {
  std::string format;
  int64_t version = 0, indexBits = 0;
  if (!string(root, "format", "plan", format) || format != "arvrc-launch-plan")
    return fail("plan", "not an arvrc launch plan ('format')");
  if (!integer(root, "version", "plan", 1, 1, version) ||
      !string(root, "kernel", "plan", plan.kernel) ||
      !integer(root, "indexBits", "plan", 32, 64, indexBits))
    return false;
  if (indexBits != 32 && indexBits != 64)
    return fail("plan", "'indexBits' must be 32 or 64");
  plan.indexBits = static_cast<unsigned>(indexBits);
  const json::Object *binary = root.getObject("binary");
  std::string kind;
  if (!binary || !string(*binary, "kind", "binary", kind) ||
      !(kind == "cpu" ? string(*binary, "entry", "binary", plan.cpuEntry)
                      : string(*binary, "file", "binary", plan.binaryFile)) ||
      (kind != "ptx" && kind != "cubin" && kind != "cpu"))
    return fail("binary", "must be {\"kind\": \"ptx\" | \"cubin\", "
                          "\"file\": NAME} or {\"kind\": \"cpu\", "
                          "\"entry\": SYMBOL}");
  plan.cubin = kind == "cubin";
  if (kind == "cpu" &&
      !integer(*binary, "band_rows", "binary", 0, INT32_MAX, plan.cpuBandRows))
    return false;
  const json::Value *batch = root.get("batch");
  if (!batch || (!batch->getAsNull() && batch->getAsString() != "grid-z"))
    return fail("batch", "must be \"grid-z\" or null");
  plan.batchGridZ = !batch->getAsNull();
  return array(root, "arguments",
               [&](auto &o, auto &w) { return argument(o, w); }) &&
         array(root, "values", [&](auto &o, auto &w) { return value(o, w); }) &&
         array(root, "buffers",
               [&](auto &o, auto &w) { return buffer(o, w); }) &&
         array(root, "outputSizes",
               [&](auto &o, auto &w) {
                 std::vector<Operand> output(1), size;
                 const json::Value *ref = o.get("output");
                 if (!ref || !operand(*ref, w, output[0], 0, 0) ||
                     output[0].kind != Operand::Argument ||
                     !plan.arguments[output[0].number].output)
                   return fail(w, "'output' must name an output argument");
                 if (!operands(o, "size", w, 3, size, 0, plan.values.size()) ||
                     !integers(size, w))
                   return false;
                 plan.outputSizes.push_back(
                     {unsigned(output[0].number), {size[0], size[1], size[2]}});
                 return true;
               }) &&
         array(root, "launches",
               [&](auto &o, auto &w) { return launch(o, w); }) &&
         // Optional (plans of arvrc before 2026-12-04 have none).
         (!root.get("checks") ||
          array(root, "checks",
                [&](auto &o, auto &w) { return check(o, w); })) &&
         (plan.cpuEntry.empty() ||
          (plan.launches.empty() && plan.buffers.empty()) ||
          fail("plan", "a CPU object's plan has no launches or buffers"));
}

/// `r` wrapped to `bits` bits, sign-extended.
int64_t wrap(int64_t r, unsigned bits) {
  if (bits == 1)
    return r & 1;
  if (bits >= 64)
    return r;
  return static_cast<int64_t>(static_cast<uint64_t>(r) << (64 - bits)) >>
         (64 - bits);
}

/// `a op b` for the binary operations, false on a division by zero.
bool binary(const std::string &op, int64_t a, int64_t b, int64_t &r) {
  // Wrapping arithmetic, as the generated code's.
  auto ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  if (op == "add" || op == "sub" || op == "mul") {
    r = static_cast<int64_t>(op == "add"   ? ua + ub
                             : op == "sub" ? ua - ub
                                           : ua * ub);
    return true;
  }
  if (op == "min" || op == "max") {
    r = (op == "min") == (a < b) ? a : b;
    return true;
  }
  if (op == "and" || op == "or" || op == "xor") {
    r = op == "and" ? a & b : op == "or" ? a | b : a ^ b;
    return true;
  }
  if (b == 0 || (a == INT64_MIN && b == -1))
    return false;
  int64_t q = a / b, m = a % b;
  if (op == "ceildiv")
    r = q + (m != 0 && ((a < 0) == (b < 0)));
  else if (op == "floordiv")
    r = q - (m != 0 && ((a < 0) != (b < 0)));
  else
    r = op == "div" ? q : m;
  return true;
}

/// An f32 value's bits: `v` computed in IEEE binary32, rounded to nearest
/// even (as the GPU's div.rn, fma.rn, ...), from its operands' bits.
template <typename Arg> int64_t evaluateF32(const PlanValue &v, Arg arg) {
  auto real = [&](size_t k) {
    return llvm::bit_cast<float>(static_cast<uint32_t>(arg(k)));
  };
  float r = v.number; // const
  if (v.op == "fadd")
    r = real(0) + real(1);
  else if (v.op == "fsub")
    r = real(0) - real(1);
  else if (v.op == "fmul")
    r = real(0) * real(1);
  else if (v.op == "fdiv")
    r = real(0) / real(1);
  else if (v.op == "fneg")
    r = -real(0);
  else if (v.op == "fma")
    r = std::fma(real(0), real(1), real(2));
  return llvm::bit_cast<uint32_t>(r);
}

/// The default floating-point environment (rounding to nearest, subnormal
/// inputs and results kept) while it lives, whatever the caller had set
/// (a rounding mode, flush-to-zero from -ffast-math code): f32 values are
/// computed as the GPU computes them, not as the caller's environment
/// would. The caller's is restored after.
class DefaultFloatEnvironment {
public:
  DefaultFloatEnvironment() {
    std::fegetenv(&saved);
    std::fesetround(FE_TONEAREST);
#if defined(__x86_64__) || defined(__SSE__)
    _mm_setcsr(_mm_getcsr() & ~0x8040u); // FTZ (bit 15), DAZ (bit 6) off.
#elif defined(__aarch64__)
    __builtin_aarch64_set_fpcr(__builtin_aarch64_get_fpcr() & ~(1u << 24));
#endif
  }
  ~DefaultFloatEnvironment() { std::fesetenv(&saved); }
  DefaultFloatEnvironment(const DefaultFloatEnvironment &) = delete;
  DefaultFloatEnvironment &operator=(const DefaultFloatEnvironment &) = delete;

private:
  std::fenv_t saved;
};

bool compare(const std::string &p, int64_t a, int64_t b) {
  return p == "eq"    ? a == b
         : p == "ne"  ? a != b
         : p == "slt" ? a < b
         : p == "sle" ? a <= b
         : p == "sgt" ? a > b
                      : a >= b;
}

} // namespace

bool arvr::runtime::parsePlan(llvm::StringRef text, Plan &plan,
                              std::string &error) {
  plan = Plan();
  llvm::Expected<json::Value> parsed = json::parse(text);
  if (!parsed) {
    error = "launch plan: not JSON: " + llvm::toString(parsed.takeError());
    return false;
  }
  const json::Object *root = parsed->getAsObject();
  if (!root) {
    error = "launch plan: not a JSON object";
    return false;
  }
  return Reader(plan, error).read(*root);
}

int64_t Evaluation::operand(const Operand &o) const {
  switch (o.kind) {
  case Operand::Literal:
    return o.number;
  case Operand::Value:
    return values[o.number];
  case Operand::Argument:
    return static_cast<int32_t>(bindings[o.number].scalarBits);
  case Operand::Buffer:
    break;
  }
  return 0;
}

bool Evaluation::evaluate(const Plan &p, const std::vector<Binding> &bound,
                          std::string &error) {
  plan = &p;
  bindings = bound;
  bindings.resize(p.arguments.size());
  for (size_t a = 0; a < p.arguments.size(); ++a)
    if (!p.arguments[a].output && !bindings[a].bound) {
      error = "argument '" + p.arguments[a].name + "' is not bound";
      return false;
    }
  values.assign(p.values.size(), 0);
  std::optional<DefaultFloatEnvironment> floatEnvironment;
  if (llvm::any_of(p.values, [](const PlanValue &v) { return v.f32; }))
    floatEnvironment.emplace();
  for (size_t i = 0; i < p.values.size(); ++i) {
    const PlanValue &v = p.values[i];
    int64_t r = 0;
    auto arg = [&](size_t k) { return operand(v.operands[k]); };
    if (v.f32) {
      values[i] = evaluateF32(v, arg);
      continue;
    }
    if (v.op == "const")
      r = v.literal;
    else if (v.op == "dim")
      r = bindings[v.operands[0].number].shape[v.literal];
    else if (v.op == "cast")
      r = arg(0);
    else if (v.op == "select")
      r = arg(0) ? arg(1) : arg(2);
    else if (v.op == "cmp")
      r = compare(v.predicate, arg(0), arg(1));
    else if (!binary(v.op, arg(0), arg(1), r)) {
      error = "launch plan: v" + std::to_string(i) + " divides by zero";
      return false;
    }
    values[i] = wrap(r, v.bits);
  }
  for (const PlanCheck &c : p.checks) {
    std::string sizes;
    bool outside = false;
    for (const Operand &o : c.operands) {
      int64_t n = operand(o);
      sizes += (sizes.empty() ? "" : "x") + std::to_string(n);
      outside |= n < 1 || n > c.max;
    }
    if (c.range) {
      int64_t lower = operand(c.operands[0]), upper = operand(c.operands[1]);
      // In 128 bits: the bounds are any 64-bit values.
      __int128 count = __int128(upper) - lower + 1;
      if (count <= c.max)
        continue;
      error = c.what + " ranges over " +
              (count > INT64_MAX ? std::string("more than 2^63")
                                 : std::to_string(int64_t(count))) +
              " values (" + std::to_string(lower) + " to " +
              std::to_string(upper) + ") with these parameters; at most " +
              std::to_string(c.max) + " are allowed";
      return false;
    }
    if (outside) {
      error = c.what + " would be " + sizes +
              " with these parameters and images, outside 1 to " +
              std::to_string(c.max) + " points a side";
      return false;
    }
  }
  return true;
}

std::array<int64_t, 3> Evaluation::bufferShape(size_t index) const {
  const PlanBuffer &b = plan->buffers[index];
  return {operand(b.size[0]), operand(b.size[1]), operand(b.size[2])};
}

size_t Evaluation::bufferBytes(size_t index) const {
  std::array<int64_t, 3> s = bufferShape(index);
  if (s[0] <= 0 || s[1] <= 0 || s[2] <= 0)
    return 0;
  return static_cast<size_t>(s[0]) * s[1] * s[2] *
         plan->buffers[index].elementBytes;
}

bool Evaluation::outputSize(unsigned arg, std::array<int64_t, 3> &whc) const {
  for (const auto &[output, size] : plan->outputSizes)
    if (output == arg) {
      whc = {operand(size[0]), operand(size[1]), operand(size[2])};
      return true;
    }
  return false;
}

bool Evaluation::resolve(const std::vector<uint64_t> &bufferAddresses,
                         int frames, std::vector<ResolvedLaunch> &launches,
                         std::string &error) const {
  if (frames < 1 || (frames > 1 && !plan->batchGridZ)) {
    error = "this kernel takes one frame per launch";
    return false;
  }
  unsigned indexBytes = plan->indexBits / 8;
  launches.clear();
  for (const PlanLaunch &l : plan->launches) {
    ResolvedLaunch r;
    r.entry = l.entry;
    r.reusable = l.reusable;
    for (int i = 0; i < 3; ++i) {
      int64_t grid = operand(l.grid[i]);
      if (i == 2 && grid > 0 && grid <= UINT32_MAX)
        grid *= frames;
      int64_t block = operand(l.block[i]);
      if (grid < 0 || grid > UINT32_MAX || block < 0 || block > 1024) {
        error = "launch " + l.entry + ": its geometry is out of range";
        return false;
      }
      r.grid[i] = static_cast<unsigned>(grid);
      r.block[i] = static_cast<unsigned>(block);
    }
    r.shared = static_cast<unsigned>(operand(l.shared));
    for (const Operand &arg : l.args) {
      auto memref = [&](uint64_t address, std::array<int64_t, 3> s) {
        // Unsigned: a damaged plan's sizes wrap rather than overflow.
        uint64_t fields[9] = {address,
                              address,
                              0,
                              uint64_t(s[0]) * uint64_t(frames),
                              uint64_t(s[1]),
                              uint64_t(s[2]),
                              uint64_t(s[1]) * uint64_t(s[2]),
                              uint64_t(s[2]),
                              1};
        for (int f = 0; f < 9; ++f) {
          r.storage.push_back(fields[f]);
          r.sizes.push_back(f < 2 ? 8 : indexBytes);
        }
      };
      if (arg.kind == Operand::Buffer) {
        if (static_cast<size_t>(arg.number) >= bufferAddresses.size()) {
          error = "launch " + l.entry + ": buffer b" +
                  std::to_string(arg.number) + " has no memory";
          return false;
        }
        memref(bufferAddresses[arg.number], bufferShape(arg.number));
      } else if (arg.kind == Operand::Argument &&
                 plan->arguments[arg.number].image) {
        const Binding &b = bindings[arg.number];
        if (!b.bound) {
          error =
              "image '" + plan->arguments[arg.number].name + "' is not bound";
          return false;
        }
        r.imageWords.push_back(
            {static_cast<unsigned>(r.storage.size()), arg.number});
        memref(b.address, b.shape);
      } else if (arg.kind == Operand::Argument) {
        r.storage.push_back(bindings[arg.number].scalarBits);
        r.sizes.push_back(plan->arguments[arg.number].type == "i1" ? 1 : 4);
      } else {
        // A value: an index, or an f32's bits.
        bool f32 = arg.kind == Operand::Value && plan->values[arg.number].f32;
        r.storage.push_back(static_cast<uint64_t>(operand(arg)));
        r.sizes.push_back(f32 ? 4 : indexBytes);
      }
    }
    launches.push_back(std::move(r));
  }
  return true;
}
