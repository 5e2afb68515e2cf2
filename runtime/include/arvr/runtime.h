/*===- arvr/runtime.h - Run kernels compiled by arvrc -------------*- C -*-===*
 *
 * The arvr runtime's C API: load a kernel that `arvrc build` compiled (its
 * launch plan, NAME.plan.json, and the PTX or cubin beside it), bind device
 * buffers and scalars to its arguments, and launch it on the caller's CUDA
 * stream; or run a kernel compiled to a CPU object on host memory. libcuda
 * is loaded when a GPU kernel is first launched; the caller's current
 * context is used (the device's primary context if there is none).
 * Every call returns a status; on failure arvr_last_error() says why, for
 * the calling thread. Nothing is allocated on the caller's behalf but the
 * intermediate buffers a kernel's plan asks for, kept until it is closed.
 * docs/runtime.md has a complete example.
 *
 *===----------------------------------------------------------------------===*/

#ifndef ARVR_RUNTIME_H
#define ARVR_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define ARVR_API __attribute__((visibility("default")))
#else
#define ARVR_API
#endif

typedef enum arvr_status {
  ARVR_OK = 0,
  /** A null pointer, an argument index out of range, a scalar bound to an
   *  image argument, sizes that are not positive. */
  ARVR_ERROR_INVALID_ARGUMENT = 1,
  /** The plan or its binary cannot be read. */
  ARVR_ERROR_IO = 2,
  /** The plan is not a launch plan of this version, or is malformed. */
  ARVR_ERROR_PLAN = 3,
  /** The arguments bound do not make a launch: one is unbound, an image has
   *  the wrong channels, a size computed from them is out of range. */
  ARVR_ERROR_BINDING = 4,
  /** No CUDA driver, or a driver call failed (the binary does not load, a
   *  launch fails). */
  ARVR_ERROR_CUDA = 5,
} arvr_status;

typedef struct arvr_kernel arvr_kernel;

typedef struct arvr_arg_info {
  const char *name; /**< As in the kernel; valid while it is open. */
  const char *type; /**< u8 u16 i32 f32 (images); i32 f32 i1 (scalars). */
  int is_image;     /**< Else a scalar. */
  int is_output;
  int channels; /**< Images: 1-4, or 0 when any. */
} arvr_arg_info;

/** Why the last call on this thread that failed did; "" if none did. */
ARVR_API const char *arvr_last_error(void);

/** Reads the plan at `plan_path` and the binary it names (relative to the
 *  plan). The binary is loaded into the current CUDA context at the first
 *  launch. */
ARVR_API arvr_status arvr_kernel_open(const char *plan_path,
                                      arvr_kernel **kernel);
/** The same from memory: the plan's text and the PTX (or cubin) it goes
 *  with, `bytes` long (the library keeps a copy of both). */
ARVR_API arvr_status arvr_kernel_open_data(const char *plan, const void *binary,
                                           size_t bytes, arvr_kernel **kernel);

/** The entry of a kernel compiled to a CPU object (`arvrc build --target cpu
 *  --emit=obj`): a pointer to each argument. */
typedef void (*arvr_cpu_entry)(void **args);

/** Opens a kernel compiled to a CPU object linked into the program, from
 *  its plan's text and entry (the generated header's arvr_open_NAME does
 *  this). Its images are host memory; arvr_kernel_launch runs it on the
 *  calling thread and as many others as the machine has cores, and returns
 *  when it is done. */
ARVR_API arvr_status arvr_kernel_open_cpu(const char *plan,
                                          arvr_cpu_entry entry,
                                          arvr_kernel **kernel);
/** 1 for a CPU object's kernel, 0 for a GPU binary's (or null). */
ARVR_API int arvr_kernel_is_cpu(const arvr_kernel *kernel);

/** Frees the kernel's module and buffers; null is ignored. */
ARVR_API void arvr_kernel_close(arvr_kernel *kernel);

/** The kernel's name in its .arvr file. */
ARVR_API const char *arvr_kernel_name(const arvr_kernel *kernel);
/** Its arguments, inputs then outputs, as the plan lists them. */
ARVR_API int arvr_kernel_num_args(const arvr_kernel *kernel);
ARVR_API arvr_status arvr_kernel_arg_info(const arvr_kernel *kernel, int index,
                                          arvr_arg_info *info);
/** The index of the argument named `name`, or -1. */
ARVR_API int arvr_kernel_find_arg(const arvr_kernel *kernel, const char *name);

/** Binds image argument `index` to `width` x `height` pixels of `channels`
 *  interleaved elements at `device_ptr` (a CUdeviceptr; for a CPU object's
 *  kernel, a host address), rows unpadded.
 *  With several frames (arvr_kernel_launch), the first frame: the others
 *  follow it, each of the same size. */
ARVR_API arvr_status arvr_kernel_bind_image(arvr_kernel *kernel, int index,
                                            uint64_t device_ptr, int width,
                                            int height, int channels);
ARVR_API arvr_status arvr_kernel_bind_f32(arvr_kernel *kernel, int index,
                                          float value);
ARVR_API arvr_status arvr_kernel_bind_i32(arvr_kernel *kernel, int index,
                                          int32_t value);
ARVR_API arvr_status arvr_kernel_bind_bool(arvr_kernel *kernel, int index,
                                           int value);

/** The size output `index` has for the inputs and scalars bound so far. */
ARVR_API arvr_status arvr_kernel_output_size(arvr_kernel *kernel, int index,
                                             int *width, int *height,
                                             int *channels);

/** Evaluates the plan for what is bound and `frames` frames, and readies
 *  its launches (the module loaded, the intermediate buffers allocated)
 *  without launching: arvr_kernel_launch then reuses them until a binding
 *  changes, and arvr_kernel_launch_info describes them. Optional. */
ARVR_API arvr_status arvr_kernel_prepare(arvr_kernel *kernel, int frames);

/** Launches the kernel on `frames` frames (1 or more) on `stream` (a
 *  CUstream or cudaStream_t; null: the default stream) and returns without
 *  waiting. Every argument must be bound, outputs at their sizes. A kernel
 *  that takes batches runs them stacked: each image's frames together must
 *  have fewer than 2^31 elements (ARVR_ERROR_BINDING otherwise, from
 *  arvr_kernel_prepare too). A CPU object's kernel ignores `stream` and
 *  returns when it is done. */
ARVR_API arvr_status arvr_kernel_launch(arvr_kernel *kernel, void *stream,
                                        int frames);

/** 1 if one launch runs a batch of frames (the plan's `batch: grid-z`),
 *  0 if a batch is launched frame by frame (or the kernel is null). */
ARVR_API int arvr_kernel_takes_batches(const arvr_kernel *kernel);

typedef struct arvr_launch_info {
  const char *entry; /**< The PTX entry; valid until the next bind. */
  unsigned grid[3], block[3], shared_bytes;
  int registers;     /**< A thread's. */
  int local_bytes;   /**< A thread's local memory (spills, arrays). */
  int blocks_per_sm; /**< Blocks an SM holds at once (occupancy). */
} arvr_launch_info;

/** The GPU launches prepared (arvr_kernel_prepare or a launch) for the
 *  arguments bound: how many (0 if none are), and each one's geometry and
 *  what the driver says of its function. */
ARVR_API int arvr_kernel_num_launches(const arvr_kernel *kernel);
ARVR_API arvr_status arvr_kernel_launch_info(arvr_kernel *kernel, int index,
                                             arvr_launch_info *info);

/** Device memory and copies for a program without CUDA of its own (the
 *  Python module), in GPU 0's primary context, made current on the calling
 *  thread (where a framework such as PyTorch works too). Memory is
 *  stream-ordered: usable by work queued on `stream` (null: the default
 *  stream) after the allocation, released once the work queued before the
 *  free is done. The copies return when done, after the work queued
 *  before them on `stream`. */
ARVR_API arvr_status arvr_device_alloc(size_t bytes, void *stream,
                                       uint64_t *device_ptr);
ARVR_API arvr_status arvr_device_free(uint64_t device_ptr, void *stream);
ARVR_API arvr_status arvr_copy_to_device(uint64_t device_ptr, const void *host,
                                         size_t bytes, void *stream);
ARVR_API arvr_status arvr_copy_to_host(void *host, uint64_t device_ptr,
                                       size_t bytes, void *stream);
/** Waits for the work queued on `stream` (null: the default stream). */
ARVR_API arvr_status arvr_stream_synchronize(void *stream);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ARVR_RUNTIME_H */
