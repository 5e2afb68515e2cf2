//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// arvrc never links libcuda: this wrapper dlopen()s libcuda.so.1 when a
// kernel is to run on the GPU, so one arvrc binary builds and runs on
// machines without a GPU and says plainly why the GPU is unavailable.
// Every failing call is reported with the call's name and the driver's
// own description of the error.
//
//===----------------------------------------------------------------------===//

#ifndef ARVRC_DRIVER_CUDADRIVER_H
#define ARVRC_DRIVER_CUDADRIVER_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace arvrc {

/// A device address (CUdeviceptr).
using DevicePtr = unsigned long long;

class CudaDriver {
public:
  /// Loads the driver, initialises it and makes device 0's primary context
  /// current. Returns null and sets `whyNot` when that is impossible.
  static std::unique_ptr<CudaDriver> open(std::string &whyNot);
  ~CudaDriver();

  const std::string &getDeviceName() const { return deviceName; }
  int getComputeCapability() const { return computeCapability; }
  int getDriverVersion() const { return driverVersion; }

  /// Each call returns false and sets the last error on failure.
  bool allocate(size_t bytes, DevicePtr &ptr);
  bool free(DevicePtr ptr);
  /// Stream-ordered: usable by work queued on `stream` after the call, and
  /// freed once the work queued before the free is done (the plain
  /// allocation and free where the driver has no memory pools).
  bool allocateAsync(size_t bytes, DevicePtr &ptr, void *stream);
  bool freeAsync(DevicePtr ptr, void *stream);
  bool copyToDevice(DevicePtr dst, const void *src, size_t bytes);
  bool copyToHost(void *dst, DevicePtr src, size_t bytes);
  /// Loads PTX (JIT-compiled by the driver for this device).
  bool loadModule(const std::string &ptx, void *&module);
  bool unloadModule(void *module);
  bool getFunction(void *module, const std::string &name, void *&function);
  /// Launches `function` with `sharedBytes` of dynamic shared memory, on
  /// `stream` (null: the default stream).
  bool launch(void *function, const unsigned grid[3], const unsigned block[3],
              unsigned sharedBytes, std::vector<void *> &params,
              void *stream = nullptr);
  bool synchronize();
  /// A function's registers a thread, local (spill) bytes a thread, and
  /// the blocks of `blockThreads` threads with `sharedBytes` of dynamic
  /// shared memory an SM holds at once.
  bool functionFacts(void *function, unsigned blockThreads,
                     unsigned sharedBytes, int &registers, int &localBytes,
                     int &blocksPerSm);

  /// Page-locked host memory, which asynchronous copies need.
  bool allocateHost(size_t bytes, void *&ptr);
  bool freeHost(void *ptr);
  /// Copies queued on `stream` (host memory from allocateHost).
  bool copyToDeviceAsync(DevicePtr dst, const void *src, size_t bytes,
                         void *stream);
  bool copyToHostAsync(void *dst, DevicePtr src, size_t bytes, void *stream);
  /// Streams (non-blocking: independent of the default stream) and the
  /// events that time them.
  bool createStream(void *&stream);
  bool destroyStream(void *stream);
  bool synchronizeStream(void *stream);
  bool createEvent(void *&event);
  bool destroyEvent(void *event);
  bool recordEvent(void *event, void *stream);
  /// The time between two recorded events.
  bool elapsedSeconds(void *start, void *end, double &seconds);

  /// What the last failing call was and why, e.g.
  /// "cuMemAlloc: out of memory (CUDA_ERROR_OUT_OF_MEMORY)".
  const std::string &getLastError() const { return lastError; }

private:
  struct Api;
  CudaDriver() = default;
  bool check(int result, const char *call);

  void *library = nullptr;
  std::unique_ptr<Api> api;
  int device = 0;
  void *context = nullptr;
  std::string deviceName;
  int computeCapability = 0;
  int driverVersion = 0;
  std::string lastError;
};

} // namespace arvrc

#endif // ARVRC_DRIVER_CUDADRIVER_H
