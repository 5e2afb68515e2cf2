//===- arvr/runtime.hpp - C++ wrapper of the arvr runtime -------*- C++ -*-===//
//
// RAII over arvr/runtime.h: arvr::Kernel closes its kernel when it goes,
// and each failing call throws arvr::Error (the status and the message).
// Arguments are named as in the .arvr kernel.
//
//   arvr::Kernel k("blur.plan.json");
//   k.image("src", d_src, w, h, 3).scalar("sigma", 2.0f);
//   auto [ow, oh, oc] = k.outputSize("out0");
//   k.image("out0", d_dst, ow, oh, oc).launch(stream);
//
// A kernel compiled to a CPU object opens through its header, and runs on
// host memory: `arvr::Kernel k(arvr_open_blur);`.
//
//===----------------------------------------------------------------------===//

#ifndef ARVR_RUNTIME_HPP
#define ARVR_RUNTIME_HPP

#include "arvr/runtime.h"

#include <array>
#include <stdexcept>
#include <string>

namespace arvr {

class Error : public std::runtime_error {
public:
  Error(arvr_status status, const std::string &message)
      : std::runtime_error(message), status(status) {}
  arvr_status status;
};

class Kernel {
public:
  explicit Kernel(const std::string &planPath) {
    check(arvr_kernel_open(planPath.c_str(), &kernel));
  }
  /// A kernel compiled to a CPU object, by its header's opener:
  /// `arvr::Kernel k(arvr_open_blur);`.
  explicit Kernel(arvr_status (*open)(arvr_kernel **)) { check(open(&kernel)); }
  ~Kernel() { arvr_kernel_close(kernel); }
  Kernel(const Kernel &) = delete;
  Kernel &operator=(const Kernel &) = delete;
  Kernel(Kernel &&other) noexcept : kernel(other.kernel) {
    other.kernel = nullptr;
  }

  std::string name() const { return arvr_kernel_name(kernel); }
  int numArgs() const { return arvr_kernel_num_args(kernel); }
  arvr_arg_info arg(int index) const {
    arvr_arg_info info;
    check(arvr_kernel_arg_info(kernel, index, &info));
    return info;
  }
  /// The index of the argument `name`; throws if there is none.
  int index(const std::string &name) const {
    int i = arvr_kernel_find_arg(kernel, name.c_str());
    if (i < 0)
      throw Error(ARVR_ERROR_INVALID_ARGUMENT, "kernel '" + this->name() +
                                                   "' has no argument '" +
                                                   name + "'");
    return i;
  }

  Kernel &image(const std::string &name, uint64_t devicePtr, int width,
                int height, int channels) {
    check(arvr_kernel_bind_image(kernel, index(name), devicePtr, width, height,
                                 channels));
    return *this;
  }
  Kernel &image(const std::string &name, const void *devicePtr, int width,
                int height, int channels) {
    return image(name, reinterpret_cast<uint64_t>(devicePtr), width, height,
                 channels);
  }
  Kernel &scalar(const std::string &name, float value) {
    check(arvr_kernel_bind_f32(kernel, index(name), value));
    return *this;
  }
  Kernel &scalar(const std::string &name, int32_t value) {
    check(arvr_kernel_bind_i32(kernel, index(name), value));
    return *this;
  }
  Kernel &scalar(const std::string &name, bool value) {
    check(arvr_kernel_bind_bool(kernel, index(name), value));
    return *this;
  }
  /// (width, height, channels) of the output `name` for what is bound.
  std::array<int, 3> outputSize(const std::string &name) {
    std::array<int, 3> whc{};
    check(arvr_kernel_output_size(kernel, index(name), &whc[0], &whc[1],
                                  &whc[2]));
    return whc;
  }
  void launch(void *stream = nullptr, int frames = 1) {
    check(arvr_kernel_launch(kernel, stream, frames));
  }
  arvr_kernel *get() const { return kernel; }

private:
  static void check(arvr_status status) {
    if (status != ARVR_OK)
      throw Error(status, arvr_last_error());
  }
  arvr_kernel *kernel = nullptr;
};

} // namespace arvr

#endif // ARVR_RUNTIME_HPP
