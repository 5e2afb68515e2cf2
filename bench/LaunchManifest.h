//===- LaunchManifest.h - Reads an arvrc launch manifest --------*- C++ -*-===//
//
// Plain C++ (no CUDA, no MLIR): parses the manifest `arvrc build` writes
// beside the PTX (docs/manifest.md) and evaluates its host program for given
// image sizes and scalars, giving each launch's geometry and the bytes of
// its parameter block. bench/arvr_bench.cu launches with it; the unit test
// tests/unit/LaunchManifestTest.cpp checks it on a real manifest.
//
//===----------------------------------------------------------------------===//

#ifndef ARVRC_BENCH_LAUNCHMANIFEST_H
#define ARVRC_BENCH_LAUNCHMANIFEST_H

#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace arvrbench {

struct ManifestArg {
  std::string name;
  bool isImage = false, isOutput = false;
  std::string type; ///< u8, u16, i32, f32, i1
  int channels = 0; ///< 0: any
};

struct ManifestLaunch {
  std::string entry;
  std::array<std::string, 3> grid, block;
  std::string shared;
  std::vector<std::string> args;
};

struct ManifestBuffer {
  std::string name;
  int elementBytes = 0;
  std::array<std::string, 3> shape; ///< H, W, C
};

/// One value line: `value vK BITS OP OPERANDS...`.
struct ManifestValue {
  std::string name, op;
  int bits = 64;
  std::vector<std::string> operands;
};

/// The bound arguments of one run: image shapes (H, W, C) and device
/// pointers, and scalars as raw bits.
struct Binding {
  std::array<int64_t, 3> shape = {0, 0, 0};
  uint64_t pointer = 0;
  uint64_t scalarBits = 0;
};

/// A launch ready to go: geometry and the parameter block (cuLaunchKernel's
/// kernelParams point into `storage`, one 8-byte word per parameter, the
/// value in its low bytes: the driver reads `sizes[i]` bytes of each).
struct ResolvedLaunch {
  std::string entry;
  unsigned grid[3], block[3], shared;
  std::vector<uint64_t> storage;
  std::vector<int> sizes; ///< Bytes of each parameter (8, 4 or 1).
};

class LaunchManifest {
public:
  std::string kernel, ptx;
  int indexBits = 64; ///< Of index values and memref offsets, sizes, strides.
  /// `batch grid-z`: frames stacked, one launch per kernel for a batch.
  bool batchGridZ = false;
  std::vector<ManifestArg> args;
  std::vector<ManifestValue> values;
  std::vector<ManifestBuffer> buffers;
  std::vector<ManifestLaunch> launches;
  /// Output argument -> (W, H, C) operands.
  std::map<int, std::array<std::string, 3>> outputSizes;

  static LaunchManifest parse(std::istream &in) {
    LaunchManifest m;
    std::string line;
    if (!std::getline(in, line) || line != "arvrc-launch-manifest 1")
      throw std::runtime_error("not an arvrc launch manifest (version 1)");
    while (std::getline(in, line)) {
      std::istringstream words(line);
      std::string what;
      words >> what;
      if (what == "kernel") {
        words >> m.kernel;
      } else if (what == "ptx" || what == "cubin") {
        words >> m.ptx; // cuModuleLoadData takes either.
      } else if (what == "index-bits") {
        words >> m.indexBits;
      } else if (what == "batch") {
        std::string how;
        words >> how;
        if (how != "grid-z")
          throw std::runtime_error("unknown batch form: " + line);
        m.batchGridZ = true;
      } else if (what == "param" || what == "output") {
        std::string ref, kind;
        ManifestArg arg;
        words >> ref >> arg.name >> kind >> arg.type;
        arg.isOutput = what == "output";
        arg.isImage = kind == "image";
        if (arg.isImage) {
          std::string channels;
          words >> channels;
          arg.channels = channels == "?" ? 0 : std::stoi(channels);
        }
        if (ref != "a" + std::to_string(m.args.size()))
          throw std::runtime_error("arguments out of order: " + line);
        m.args.push_back(arg);
      } else if (what == "output-size") {
        std::string ref;
        std::array<std::string, 3> size;
        words >> ref >> size[0] >> size[1] >> size[2];
        m.outputSizes[std::stoi(ref.substr(1))] = size;
      } else if (what == "value") {
        ManifestValue v;
        words >> v.name >> v.bits >> v.op;
        for (std::string operand; words >> operand;)
          v.operands.push_back(operand);
        m.values.push_back(v);
      } else if (what == "buffer") {
        ManifestBuffer b;
        words >> b.name >> b.elementBytes >> b.shape[0] >> b.shape[1] >>
            b.shape[2];
        m.buffers.push_back(b);
      } else if (what == "launch") {
        ManifestLaunch l;
        std::string word;
        words >> l.entry >> word >> l.grid[0] >> l.grid[1] >> l.grid[2] >>
            word >> l.block[0] >> l.block[1] >> l.block[2] >> word >>
            l.shared >> word;
        for (std::string operand; words >> operand;)
          l.args.push_back(operand);
        m.launches.push_back(l);
      } else if (!what.empty()) {
        throw std::runtime_error("unknown manifest line: " + line);
      }
    }
    return m;
  }

  static LaunchManifest load(const std::string &path) {
    std::ifstream in(path);
    if (!in)
      throw std::runtime_error("cannot read " + path);
    return parse(in);
  }

  /// Evaluates every value for `bound` (one Binding per argument; buffers'
  /// pointers are filled in later). Throws on an unknown operation.
  void evaluate(const std::vector<Binding> &bound) {
    bindings = bound;
    computed.clear();
    for (const ManifestValue &v : values) {
      auto arg = [&](size_t i) { return operand(v.operands.at(i)); };
      int64_t r = 0;
      const std::string &op = v.op;
      if (op == "const") {
        r = std::stoll(v.operands.at(0));
      } else if (op == "dim") {
        r = bindings.at(std::stoi(v.operands.at(0).substr(1)))
                .shape.at(std::stoi(v.operands.at(1)));
      } else if (op == "cast") {
        r = arg(0);
      } else if (op == "select") {
        r = arg(0) ? arg(1) : arg(2);
      } else if (op == "cmp") {
        const std::string &p = v.operands.at(0);
        int64_t a = operand(v.operands.at(1)), b = operand(v.operands.at(2));
        r = p == "eq"    ? a == b
            : p == "ne"  ? a != b
            : p == "slt" ? a < b
            : p == "sle" ? a <= b
            : p == "sgt" ? a > b
            : p == "sge" ? a >= b
                         : throw std::runtime_error("unknown predicate " + p);
      } else {
        int64_t a = arg(0), b = arg(1);
        if (op == "add")
          r = a + b;
        else if (op == "sub")
          r = a - b;
        else if (op == "mul")
          r = a * b;
        else if (op == "min")
          r = a < b ? a : b;
        else if (op == "max")
          r = a > b ? a : b;
        else if (op == "and")
          r = a & b;
        else if (op == "or")
          r = a | b;
        else if (op == "xor")
          r = a ^ b;
        else if (b == 0)
          throw std::runtime_error("division by zero in " + v.name);
        else if (op == "ceildiv")
          r = a / b + ((a % b != 0) && ((a < 0) == (b < 0)));
        else if (op == "floordiv")
          r = a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
        else if (op == "div")
          r = a / b;
        else if (op == "rem")
          r = a % b;
        else
          throw std::runtime_error("unknown operation " + op);
      }
      // Wrap to the value's width, as the generated code would.
      if (v.bits == 1)
        r &= 1;
      else if (v.bits < 64)
        r = static_cast<int64_t>(static_cast<uint64_t>(r) << (64 - v.bits)) >>
            (64 - v.bits);
      computed[v.name] = r;
    }
  }

  /// An operand's integer value: a computed value, a literal, or a scalar
  /// argument (sign-extended from 32 bits).
  int64_t operand(const std::string &ref) const {
    if (ref.empty())
      throw std::runtime_error("empty operand");
    if (ref[0] == 'v')
      return computed.at(ref);
    if (ref[0] == 'a')
      return static_cast<int32_t>(
          bindings.at(std::stoi(ref.substr(1))).scalarBits);
    return std::stoll(ref);
  }

  /// (H, W, C) of buffer `index`, after evaluate().
  std::array<int64_t, 3> bufferShape(size_t index) const {
    const ManifestBuffer &b = buffers.at(index);
    return {operand(b.shape[0]), operand(b.shape[1]), operand(b.shape[2])};
  }
  size_t bufferBytes(size_t index) const {
    auto s = bufferShape(index);
    return size_t(s[0]) * s[1] * s[2] * buffers[index].elementBytes;
  }
  /// (W, H, C) of output argument `arg`, after evaluate().
  std::array<int64_t, 3> outputSize(int arg) const {
    const auto &s = outputSizes.at(arg);
    return {operand(s[0]), operand(s[1]), operand(s[2])};
  }

  /// Each launch's geometry and parameters, for buffers at `bufferPointers`.
  /// With `frames` > 1 (a manifest with `batch grid-z`), the bindings are
  /// the first of `frames` frames stacked (each image and buffer followed
  /// by the others' at its own size): grid z and every image's height are
  /// multiplied by `frames`.
  std::vector<ResolvedLaunch>
  resolve(const std::vector<uint64_t> &bufferPointers, int frames = 1) const {
    if (frames > 1 && !batchGridZ)
      throw std::runtime_error("this kernel takes one frame per launch");
    std::vector<ResolvedLaunch> out;
    for (const ManifestLaunch &l : launches) {
      ResolvedLaunch r;
      r.entry = l.entry;
      for (int i = 0; i < 3; ++i) {
        r.grid[i] =
            static_cast<unsigned>(operand(l.grid[i])) * (i == 2 ? frames : 1);
        r.block[i] = static_cast<unsigned>(operand(l.block[i]));
      }
      r.shared = static_cast<unsigned>(operand(l.shared));
      for (const std::string &ref : l.args) {
        auto memref = [&](uint64_t ptr, std::array<int64_t, 3> s) {
          // allocated, aligned, offset, sizes (H, W, C), strides.
          uint64_t fields[9] = {ptr,
                                ptr,
                                0,
                                uint64_t(s[0] * frames),
                                uint64_t(s[1]),
                                uint64_t(s[2]),
                                uint64_t(s[1] * s[2]),
                                uint64_t(s[2]),
                                1};
          for (int f = 0; f < 9; ++f) {
            r.storage.push_back(fields[f]);
            r.sizes.push_back(f < 2 ? 8 : indexBits / 8);
          }
        };
        if (ref[0] == 'b') {
          size_t index = std::stoul(ref.substr(1));
          memref(bufferPointers.at(index), bufferShape(index));
        } else if (ref[0] == 'a') {
          size_t index = std::stoul(ref.substr(1));
          const ManifestArg &arg = args.at(index);
          if (arg.isImage) {
            memref(bindings.at(index).pointer, bindings.at(index).shape);
          } else {
            r.storage.push_back(bindings.at(index).scalarBits);
            r.sizes.push_back(arg.type == "i1" ? 1 : 4);
          }
        } else {
          r.storage.push_back(static_cast<uint64_t>(operand(ref)));
          r.sizes.push_back(indexBits / 8);
        }
      }
      out.push_back(r);
    }
    return out;
  }

private:
  std::vector<Binding> bindings;
  std::map<std::string, int64_t> computed;
};

} // namespace arvrbench

#endif // ARVRC_BENCH_LAUNCHMANIFEST_H
