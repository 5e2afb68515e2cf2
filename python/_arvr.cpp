//===- _arvr.cpp - The Python module's bindings of the runtime library ----===//
//
// arvr._arvr: what the pure-Python package `arvr` (python/arvr) needs from
// the runtime library (arvr/runtime.h), through pybind11: a kernel opened
// from its launch plan (a GPU binary, or a CPU object's shared library and
// entry), its arguments, binding, output sizes and launches on a stream
// with the GIL released; device memory and copies; and DLPack capsules
// over device buffers, so that torch.from_dlpack takes arvr's outputs.
//
//===----------------------------------------------------------------------===//

#include "arvr/runtime.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <dlfcn.h>
#include <memory>
#include <string>

namespace py = pybind11;

namespace {

/// Raises RuntimeError with the runtime's message unless `status` is OK.
void check(arvr_status status, const char *what) {
  if (status != ARVR_OK)
    throw std::runtime_error(std::string(what) + ": " + arvr_last_error());
}

/// A kernel of the runtime library, open while this lives. A CPU kernel
/// keeps its shared library loaded (shared with its clones). Its bindings
/// are its own: concurrent calls each take a clone.
class Kernel {
public:
  Kernel(const std::string &plan, py::object binary, py::object library,
         py::object entry)
      : plan(plan) {
    if (!library.is_none()) {
      std::string path = library.cast<std::string>();
      void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!handle)
        throw std::runtime_error(path + ": " + dlerror());
      this->library = std::shared_ptr<void>(handle, dlclose);
      std::string name = entry.cast<std::string>();
      function = reinterpret_cast<arvr_cpu_entry>(dlsym(handle, name.c_str()));
      if (!function)
        throw std::runtime_error(path + ": no entry " + name);
    } else {
      this->binary = binary.cast<std::string>();
    }
    open();
  }
  ~Kernel() { arvr_kernel_close(kernel); }
  Kernel(const Kernel &) = delete;
  Kernel &operator=(const Kernel &) = delete;

  /// Another kernel of the same plan and code, with bindings of its own.
  std::unique_ptr<Kernel> clone() const {
    return std::unique_ptr<Kernel>(new Kernel(*this, 0));
  }

  void bindImage(int index, uint64_t address, int width, int height,
                 int channels) {
    check(
        arvr_kernel_bind_image(kernel, index, address, width, height, channels),
        "cannot bind an image");
  }
  void bindScalar(int index, const std::string &type, py::handle value) {
    arvr_status status =
        type == "f32" ? arvr_kernel_bind_f32(kernel, index, value.cast<float>())
        : type == "i32"
            ? arvr_kernel_bind_i32(kernel, index, value.cast<int32_t>())
            : arvr_kernel_bind_bool(kernel, index, value.cast<bool>() ? 1 : 0);
    check(status, "cannot bind a scalar");
  }
  py::tuple outputSize(int index) {
    int width = 0, height = 0, channels = 0;
    check(arvr_kernel_output_size(kernel, index, &width, &height, &channels),
          "cannot size an output");
    return py::make_tuple(width, height, channels);
  }
  /// Launches on `stream` (a CUstream as an integer; 0 the default one),
  /// the GIL released: a CPU kernel runs to the end meanwhile.
  void launch(uint64_t stream) {
    arvr_status status;
    {
      py::gil_scoped_release release;
      status = arvr_kernel_launch(kernel, reinterpret_cast<void *>(stream), 1);
    }
    check(status, "cannot run the kernel");
  }

private:
  Kernel(const Kernel &other, int)
      : plan(other.plan), binary(other.binary), library(other.library),
        function(other.function) {
    open();
  }
  void open() {
    check(function ? arvr_kernel_open_cpu(plan.c_str(), function, &kernel)
                   : arvr_kernel_open_data(plan.c_str(), binary.data(),
                                           binary.size(), &kernel),
          "cannot open the kernel");
  }
  std::string plan, binary;
  std::shared_ptr<void> library;
  arvr_cpu_entry function = nullptr;
  arvr_kernel *kernel = nullptr;
};

// DLPack's C structures (its version 0.8 ABI), for capsules of device
// buffers.
struct DLDevice {
  int32_t device_type; // 2: CUDA
  int32_t device_id;
};
struct DLDataType {
  uint8_t code; // 0 int, 1 uint, 2 float
  uint8_t bits;
  uint16_t lanes;
};
struct DLTensor {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides;
  uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(DLManagedTensor *self);
};

/// What a capsule's tensor owns: its shape, and a reference to the Python
/// object whose buffer it is.
struct Managed {
  DLManagedTensor tensor;
  std::vector<int64_t> shape;
  PyObject *owner;
};

void deleteManaged(DLManagedTensor *self) {
  auto *managed = static_cast<Managed *>(self->manager_ctx);
  py::gil_scoped_acquire gil;
  Py_XDECREF(managed->owner);
  delete managed;
}

/// A "dltensor" capsule over `bytes` of device memory at `address`
/// (C-contiguous, `shape`, numpy type string `kind`+`bits` such as u8),
/// keeping `owner` alive until the consumer is done with it.
py::capsule dlpackCapsule(py::object owner, uint64_t address,
                          std::vector<int64_t> shape, char kind, int bits) {
  auto *managed = new Managed();
  managed->shape = std::move(shape);
  managed->owner = owner.release().ptr();
  DLTensor &t = managed->tensor.dl_tensor;
  t.data = reinterpret_cast<void *>(address);
  t.device = {2, 0};
  t.ndim = static_cast<int32_t>(managed->shape.size());
  t.dtype = {static_cast<uint8_t>(kind == 'f'   ? 2
                                  : kind == 'u' ? 1
                                                : 0),
             static_cast<uint8_t>(bits), 1};
  t.shape = managed->shape.data();
  t.strides = nullptr;
  t.byte_offset = 0;
  managed->tensor.manager_ctx = managed;
  managed->tensor.deleter = deleteManaged;
  // A consumer renames a used capsule; one never used frees its tensor.
  return py::capsule(&managed->tensor, "dltensor", [](PyObject *capsule) {
    if (PyCapsule_IsValid(capsule, "dltensor")) {
      auto *tensor = static_cast<DLManagedTensor *>(
          PyCapsule_GetPointer(capsule, "dltensor"));
      tensor->deleter(tensor);
    }
  });
}

} // namespace

PYBIND11_MODULE(_arvr, m) {
  m.doc() = "The runtime library of arvr (arvr/runtime.h), for the arvr "
            "package.";
  py::class_<Kernel>(m, "Kernel")
      .def(py::init<const std::string &, py::object, py::object, py::object>(),
           py::arg("plan"), py::arg("binary") = py::none(),
           py::arg("library") = py::none(), py::arg("entry") = py::none())
      .def("clone", &Kernel::clone)
      .def("bind_image", &Kernel::bindImage)
      .def("bind_scalar", &Kernel::bindScalar)
      .def("output_size", &Kernel::outputSize)
      .def("launch", &Kernel::launch);
  m.def(
      "device_alloc",
      [](size_t bytes, uint64_t stream) {
        uint64_t ptr = 0;
        check(arvr_device_alloc(bytes, reinterpret_cast<void *>(stream), &ptr),
              "cannot allocate GPU memory");
        return ptr;
      },
      py::arg("bytes"), py::arg("stream") = 0);
  m.def(
      "device_free",
      [](uint64_t ptr, uint64_t stream) {
        check(arvr_device_free(ptr, reinterpret_cast<void *>(stream)),
              "cannot free GPU memory");
      },
      py::arg("ptr"), py::arg("stream") = 0);
  m.def("copy_to_device", [](uint64_t dst, py::buffer src, uint64_t stream) {
    py::buffer_info info = src.request();
    size_t bytes = static_cast<size_t>(info.size * info.itemsize);
    py::gil_scoped_release release;
    check(arvr_copy_to_device(dst, info.ptr, bytes,
                              reinterpret_cast<void *>(stream)),
          "cannot copy to the GPU");
  });
  m.def("copy_to_host", [](py::buffer dst, uint64_t src, uint64_t stream) {
    py::buffer_info info = dst.request(true);
    size_t bytes = static_cast<size_t>(info.size * info.itemsize);
    py::gil_scoped_release release;
    check(arvr_copy_to_host(info.ptr, src, bytes,
                            reinterpret_cast<void *>(stream)),
          "cannot copy from the GPU");
  });
  m.def("synchronize", [](uint64_t stream) {
    py::gil_scoped_release release;
    check(arvr_stream_synchronize(reinterpret_cast<void *>(stream)),
          "cannot wait for the GPU");
  });
  m.def("dlpack_capsule", &dlpackCapsule);
}
