"""arvr with PyTorch CUDA tensors, on a machine with a GPU (issue 20):
tensors in and out without copies (DLPack, __cuda_array_interface__), on
torch's current stream, outputs identical to the CPU target's; and the
per-call overhead of a kernel called from Python over its bare GPU time.

    python3 tests/python/gpu_torch.py EXAMPLES_DIR
Prints its findings; exits 1 if an output differs.
"""
import os
import sys
import time

import numpy as np
import torch

import arvr

examples = sys.argv[1]
ok = True


def check(what, good):
    global ok
    ok = ok and good
    print("%-62s %s" % (what, "ok" if good else "FAILED"))


rng = np.random.default_rng(7)
photo = rng.integers(0, 256, (1080, 1920, 3), np.uint8)
blur_gpu = arvr.compile(os.path.join(examples, "gaussian_blur.arvr"),
                        target="cuda")
blur_cpu = arvr.compile(os.path.join(examples, "gaussian_blur.arvr"),
                        target="cpu")
expected = blur_cpu(photo)

# A torch CUDA tensor in, a DeviceArray out, taken by torch without a copy.
src = torch.from_numpy(photo).cuda()
out = blur_gpu(src)
as_torch = torch.from_dlpack(out)
check("gaussian_blur: torch tensor in, DLPack out, == CPU target",
      isinstance(out, arvr.DeviceArray) and as_torch.is_cuda and
      np.array_equal(as_torch.cpu().numpy(), expected))
check("the output tensor shares the DeviceArray's memory (no copy)",
      as_torch.data_ptr() == out.ptr)
check("torch.as_tensor through __cuda_array_interface__",
      np.array_equal(torch.as_tensor(out, device="cuda").cpu().numpy(),
                     expected))
check("numpy in, numpy out on the GPU target == CPU target",
      np.array_equal(blur_gpu(photo), expected))

# On a side stream: torch's current stream is the one arvr launches on.
side = torch.cuda.Stream()
with torch.cuda.stream(side):
    src2 = (src.to(torch.int32) + 1).clamp(0, 255).to(torch.uint8)
    out2 = torch.from_dlpack(blur_gpu(src2))
    result = out2.cpu().numpy()
check("on torch's current (side) stream, ordered after its producer",
      np.array_equal(result, blur_cpu(np.clip(photo.astype(np.int32) + 1, 0,
                                              255).astype(np.uint8))))

nv = arvr.compile(os.path.join(examples, "nv12_to_rgb.arvr"), target="cuda")
nv_cpu = arvr.compile(os.path.join(examples, "nv12_to_rgb.arvr"),
                      target="cpu")
frame = torch.randint(0, 256, (1080 * 3 // 2, 1920), dtype=torch.uint8,
                      device="cuda")
rgb = torch.from_dlpack(nv(frame))
check("nv12_to_rgb: one (H*3/2) x W CUDA tensor == CPU target",
      np.array_equal(rgb.cpu().numpy(), nv_cpu(frame.cpu().numpy())))

# Per-call overhead: many calls on a small frame, where the GPU's own time
# per call is a few microseconds; the bare kernel time from CUDA events
# around the same calls' launches alone is not separable, so the GPU time
# is measured as torch's event time over a loop of calls whose host time
# is hidden (a long frame first), and the host time per call as wall time.
for name, kernel, tensor in (
        ("nv12_to_rgb 64x64", nv,
         torch.randint(0, 256, (96, 64), dtype=torch.uint8, device="cuda")),
        ("nv12_to_rgb 1080p", nv, frame),
        ("gaussian_blur 1080p", blur_gpu, src)):
    for _ in range(20):
        kernel(tensor)
    torch.cuda.synchronize()
    n = 500
    start = time.perf_counter()
    for _ in range(n):
        kernel(tensor)
    torch.cuda.synchronize()
    per_call = (time.perf_counter() - start) / n * 1e6
    begin, end = torch.cuda.Event(enable_timing=True), \
        torch.cuda.Event(enable_timing=True)
    torch.cuda._sleep(50_000_000)  # the GPU busy while calls are queued
    begin.record()
    for _ in range(n):
        kernel(tensor)
    end.record()
    torch.cuda.synchronize()
    gpu = begin.elapsed_time(end) / n * 1e3
    print("%-22s %8.1f us a call from Python (wall), %8.1f us of GPU time "
          "a call; overhead %.1f us" % (name, per_call, gpu,
                                        max(per_call - gpu, 0.0)))
# Where a call's host time goes (64x64 NV12 frame on the GPU).
small = torch.randint(0, 256, (96, 64), dtype=torch.uint8, device="cuda")
kept = nv(small)  # keeps the output bound by the last call alive
parts = {
    "the whole call": lambda: nv(small),
    "arvr_kernel_launch alone (bound)": lambda: nv._first.launch(
        torch.cuda.current_stream().cuda_stream),
    "torch.cuda.current_stream()": lambda: torch.cuda.current_stream(),
    "tensor.__cuda_array_interface__": lambda: small.__cuda_array_interface__,
    "DeviceArray alloc + free": lambda: arvr.DeviceArray((64, 64, 3),
                                                         np.uint8),
}
for what, fn in parts.items():
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(2000):
        fn()
    torch.cuda.synchronize()
    print("  %-36s %7.1f us" % (what, (time.perf_counter() - start) / 2000
                                * 1e6))
print("all ok" if ok else "SOME FAILED")
sys.exit(0 if ok else 1)
