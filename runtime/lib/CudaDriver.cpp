//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//
//
// The few driver entry points arvrc uses, declared here with the driver
// API's C signatures (cuda.h is not needed to build arvrc) and looked up
// with dlsym under their versioned names.
//
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"

#include <dlfcn.h>

using namespace arvrc;

namespace {
// Opaque driver types, as in cuda.h.
using CUresult = int;
using CUdevice = int;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUstream = void *;
using CUevent = void *;
using CUdeviceptr = unsigned long long;
using CUjit_option = int;

constexpr int kAttrComputeCapabilityMajor = 75;
constexpr int kAttrComputeCapabilityMinor = 76;
constexpr CUjit_option kJitErrorLogBuffer = 5;
/// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES.
constexpr int kFuncMaxDynamicSharedBytes = 8;
constexpr CUjit_option kJitErrorLogBufferSize = 6;
} // namespace

struct CudaDriver::Api {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int *);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned,
                                 CUjit_option *, void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuFuncGetAttribute)(int *, int, CUfunction);
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *, CUfunction,
                                                          int, size_t);
  CUresult (*cuMemAllocHost)(void **, size_t);
  CUresult (*cuMemFreeHost)(void *);
  /// Stream-ordered allocation (CUDA 11.2 on); null where the driver lacks
  /// it.
  CUresult (*cuMemAllocAsync)(CUdeviceptr *, size_t, CUstream) = nullptr;
  CUresult (*cuMemFreeAsync)(CUdeviceptr, CUstream) = nullptr;
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
  CUresult (*cuMemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
};

/// Looks up `name` in `library` into `fn`; false if it is missing.
template <typename Fn>
static bool lookup(void *library, const char *name, Fn &fn) {
  fn = reinterpret_cast<Fn>(dlsym(library, name));
  return fn != nullptr;
}

std::unique_ptr<CudaDriver> CudaDriver::open(std::string &whyNot) {
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *reason = dlerror();
    whyNot = std::string("no CUDA driver on this machine (") +
             (reason ? reason : "libcuda.so.1 not found") + ")";
    return nullptr;
  }
  std::unique_ptr<CudaDriver> driver(new CudaDriver());
  driver->library = library;
  driver->api = std::make_unique<Api>();
  Api &api = *driver->api;
  bool found =
      lookup(library, "cuInit", api.cuInit) &&
      lookup(library, "cuDriverGetVersion", api.cuDriverGetVersion) &&
      lookup(library, "cuDeviceGetCount", api.cuDeviceGetCount) &&
      lookup(library, "cuDeviceGet", api.cuDeviceGet) &&
      lookup(library, "cuDeviceGetName", api.cuDeviceGetName) &&
      lookup(library, "cuDeviceGetAttribute", api.cuDeviceGetAttribute) &&
      lookup(library, "cuDevicePrimaryCtxRetain",
             api.cuDevicePrimaryCtxRetain) &&
      lookup(library, "cuDevicePrimaryCtxRelease_v2",
             api.cuDevicePrimaryCtxRelease) &&
      lookup(library, "cuCtxSetCurrent", api.cuCtxSetCurrent) &&
      lookup(library, "cuCtxSynchronize", api.cuCtxSynchronize) &&
      lookup(library, "cuMemAlloc_v2", api.cuMemAlloc) &&
      lookup(library, "cuMemFree_v2", api.cuMemFree) &&
      lookup(library, "cuMemcpyHtoD_v2", api.cuMemcpyHtoD) &&
      lookup(library, "cuMemcpyDtoH_v2", api.cuMemcpyDtoH) &&
      lookup(library, "cuModuleLoadDataEx", api.cuModuleLoadDataEx) &&
      lookup(library, "cuModuleUnload", api.cuModuleUnload) &&
      lookup(library, "cuModuleGetFunction", api.cuModuleGetFunction) &&
      lookup(library, "cuLaunchKernel", api.cuLaunchKernel) &&
      lookup(library, "cuFuncSetAttribute", api.cuFuncSetAttribute) &&
      lookup(library, "cuFuncGetAttribute", api.cuFuncGetAttribute) &&
      lookup(library, "cuOccupancyMaxActiveBlocksPerMultiprocessor",
             api.cuOccupancyMaxActiveBlocksPerMultiprocessor) &&
      lookup(library, "cuMemAllocHost_v2", api.cuMemAllocHost) &&
      lookup(library, "cuMemFreeHost", api.cuMemFreeHost) &&
      lookup(library, "cuMemcpyHtoDAsync_v2", api.cuMemcpyHtoDAsync) &&
      lookup(library, "cuMemcpyDtoHAsync_v2", api.cuMemcpyDtoHAsync) &&
      lookup(library, "cuStreamCreate", api.cuStreamCreate) &&
      lookup(library, "cuStreamDestroy_v2", api.cuStreamDestroy) &&
      lookup(library, "cuStreamSynchronize", api.cuStreamSynchronize) &&
      lookup(library, "cuEventCreate", api.cuEventCreate) &&
      lookup(library, "cuEventDestroy_v2", api.cuEventDestroy) &&
      lookup(library, "cuEventRecord", api.cuEventRecord) &&
      lookup(library, "cuEventElapsedTime", api.cuEventElapsedTime) &&
      lookup(library, "cuGetErrorName", api.cuGetErrorName) &&
      lookup(library, "cuGetErrorString", api.cuGetErrorString);
  lookup(library, "cuMemAllocAsync", api.cuMemAllocAsync);
  lookup(library, "cuMemFreeAsync", api.cuMemFreeAsync);
  if (!found) {
    whyNot = "the CUDA driver (libcuda.so.1) lacks an entry point arvrc "
             "needs; it is too old";
    return nullptr;
  }
  int count = 0;
  if (!driver->check(api.cuInit(0), "cuInit") ||
      !driver->check(api.cuDriverGetVersion(&driver->driverVersion),
                     "cuDriverGetVersion") ||
      !driver->check(api.cuDeviceGetCount(&count), "cuDeviceGetCount")) {
    whyNot = "the CUDA driver did not start: " + driver->lastError;
    return nullptr;
  }
  if (count == 0) {
    whyNot = "the CUDA driver found no GPU";
    return nullptr;
  }
  char name[256] = {0};
  int major = 0, minor = 0;
  if (!driver->check(api.cuDeviceGet(&driver->device, 0), "cuDeviceGet") ||
      !driver->check(
          api.cuDeviceGetName(name, sizeof(name) - 1, driver->device),
          "cuDeviceGetName") ||
      !driver->check(api.cuDeviceGetAttribute(
                         &major, kAttrComputeCapabilityMajor, driver->device),
                     "cuDeviceGetAttribute") ||
      !driver->check(api.cuDeviceGetAttribute(
                         &minor, kAttrComputeCapabilityMinor, driver->device),
                     "cuDeviceGetAttribute") ||
      !driver->check(
          api.cuDevicePrimaryCtxRetain(&driver->context, driver->device),
          "cuDevicePrimaryCtxRetain") ||
      !driver->check(api.cuCtxSetCurrent(driver->context), "cuCtxSetCurrent")) {
    whyNot = "could not open GPU 0: " + driver->lastError;
    return nullptr;
  }
  driver->deviceName = name;
  driver->computeCapability = major * 10 + minor;
  return driver;
}

CudaDriver::~CudaDriver() {
  if (api && context)
    api->cuDevicePrimaryCtxRelease(device);
  if (library)
    dlclose(library);
}

bool CudaDriver::check(int result, const char *call) {
  if (result == 0)
    return true;
  const char *name = nullptr, *description = nullptr;
  if (api->cuGetErrorName)
    api->cuGetErrorName(result, &name);
  if (api->cuGetErrorString)
    api->cuGetErrorString(result, &description);
  lastError = std::string(call) + ": " +
              (description ? description : "unknown error") + " (" +
              (name ? name : "error " + std::to_string(result)) + ")";
  return false;
}

bool CudaDriver::allocate(size_t bytes, DevicePtr &ptr) {
  return check(api->cuMemAlloc(&ptr, bytes ? bytes : 1), "cuMemAlloc");
}
bool CudaDriver::free(DevicePtr ptr) {
  return check(api->cuMemFree(ptr), "cuMemFree");
}
bool CudaDriver::allocateAsync(size_t bytes, DevicePtr &ptr, void *stream) {
  if (!api->cuMemAllocAsync)
    return allocate(bytes, ptr);
  return check(api->cuMemAllocAsync(&ptr, bytes ? bytes : 1,
                                    static_cast<CUstream>(stream)),
               "cuMemAllocAsync");
}
bool CudaDriver::freeAsync(DevicePtr ptr, void *stream) {
  if (!api->cuMemFreeAsync)
    return free(ptr);
  return check(api->cuMemFreeAsync(ptr, static_cast<CUstream>(stream)),
               "cuMemFreeAsync");
}
bool CudaDriver::copyToDevice(DevicePtr dst, const void *src, size_t bytes) {
  return check(api->cuMemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD");
}
bool CudaDriver::copyToHost(void *dst, DevicePtr src, size_t bytes) {
  return check(api->cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH");
}

bool CudaDriver::loadModule(const std::string &ptx, void *&module) {
  std::vector<char> log(8192, 0);
  CUjit_option options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSize};
  void *values[] = {log.data(), reinterpret_cast<void *>(log.size() - 1)};
  if (check(api->cuModuleLoadDataEx(&module, ptx.c_str(), 2, options, values),
            "cuModuleLoadDataEx"))
    return true;
  if (log[0])
    lastError += "\n" + std::string(log.data());
  return false;
}
bool CudaDriver::unloadModule(void *module) {
  return check(api->cuModuleUnload(module), "cuModuleUnload");
}
bool CudaDriver::getFunction(void *module, const std::string &name,
                             void *&function) {
  return check(api->cuModuleGetFunction(&function, module, name.c_str()),
               "cuModuleGetFunction");
}
bool CudaDriver::allocateHost(size_t bytes, void *&ptr) {
  return check(api->cuMemAllocHost(&ptr, bytes ? bytes : 1), "cuMemAllocHost");
}
bool CudaDriver::freeHost(void *ptr) {
  return check(api->cuMemFreeHost(ptr), "cuMemFreeHost");
}
bool CudaDriver::copyToDeviceAsync(DevicePtr dst, const void *src, size_t bytes,
                                   void *stream) {
  return check(api->cuMemcpyHtoDAsync(dst, src, bytes, stream),
               "cuMemcpyHtoDAsync");
}
bool CudaDriver::copyToHostAsync(void *dst, DevicePtr src, size_t bytes,
                                 void *stream) {
  return check(api->cuMemcpyDtoHAsync(dst, src, bytes, stream),
               "cuMemcpyDtoHAsync");
}
bool CudaDriver::createStream(void *&stream) {
  return check(api->cuStreamCreate(&stream, /*CU_STREAM_NON_BLOCKING=*/1),
               "cuStreamCreate");
}
bool CudaDriver::destroyStream(void *stream) {
  return check(api->cuStreamDestroy(stream), "cuStreamDestroy");
}
bool CudaDriver::synchronizeStream(void *stream) {
  return check(api->cuStreamSynchronize(stream), "cuStreamSynchronize");
}
bool CudaDriver::createEvent(void *&event) {
  return check(api->cuEventCreate(&event, /*CU_EVENT_DEFAULT=*/0),
               "cuEventCreate");
}
bool CudaDriver::destroyEvent(void *event) {
  return check(api->cuEventDestroy(event), "cuEventDestroy");
}
bool CudaDriver::recordEvent(void *event, void *stream) {
  return check(api->cuEventRecord(event, stream), "cuEventRecord");
}
bool CudaDriver::elapsedSeconds(void *start, void *end, double &seconds) {
  float ms = 0;
  if (!check(api->cuEventElapsedTime(&ms, start, end), "cuEventElapsedTime"))
    return false;
  seconds = ms / 1e3;
  return true;
}

bool CudaDriver::launch(void *function, const unsigned grid[3],
                        const unsigned block[3], unsigned sharedBytes,
                        std::vector<void *> &params, void *stream) {
  // Beyond 48 KiB of dynamic shared memory, a kernel must opt in.
  if (sharedBytes > 48 * 1024 &&
      !check(api->cuFuncSetAttribute(function, kFuncMaxDynamicSharedBytes,
                                     static_cast<int>(sharedBytes)),
             "cuFuncSetAttribute (shared memory of a tile)"))
    return false;
  return check(api->cuLaunchKernel(function, grid[0], grid[1], grid[2],
                                   block[0], block[1], block[2], sharedBytes,
                                   stream, params.data(), nullptr),
               "cuLaunchKernel");
}
bool CudaDriver::functionFacts(void *function, unsigned blockThreads,
                               unsigned sharedBytes, int &registers,
                               int &localBytes, int &blocksPerSm) {
  constexpr int kNumRegs = 4, kLocalSizeBytes = 3; // CU_FUNC_ATTRIBUTE_*
  if (sharedBytes > 48 * 1024 &&
      !check(api->cuFuncSetAttribute(function, kFuncMaxDynamicSharedBytes,
                                     static_cast<int>(sharedBytes)),
             "cuFuncSetAttribute (shared memory of a tile)"))
    return false;
  return check(api->cuFuncGetAttribute(&registers, kNumRegs, function),
               "cuFuncGetAttribute") &&
         check(api->cuFuncGetAttribute(&localBytes, kLocalSizeBytes, function),
               "cuFuncGetAttribute") &&
         check(api->cuOccupancyMaxActiveBlocksPerMultiprocessor(
                   &blocksPerSm, function, static_cast<int>(blockThreads),
                   sharedBytes),
               "cuOccupancyMaxActiveBlocksPerMultiprocessor");
}
bool CudaDriver::synchronize() {
  return check(api->cuCtxSynchronize(), "cuCtxSynchronize");
}
