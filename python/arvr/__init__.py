"""arvr: .arvr kernels on numpy arrays and CUDA tensors.

    import arvr, cv2
    blur = arvr.compile("examples/gaussian_blur.arvr", target="cpu")
    out = blur(cv2.imread("photo.jpg"), sigma=3.0)

`compile` runs the arvrc compiler (`arvrc build`) on a kernel and opens
what it wrote through the runtime library (libarvr_runtime, the same launch
plan any program reads); calling the kernel binds the arrays and scalars,
sizes the outputs and runs it, with the GIL released. Numpy arrays in give
numpy arrays out; objects with `__cuda_array_interface__` (PyTorch CUDA
tensors, CuPy arrays) are read in place, on the caller's stream, and give
`DeviceArray` outputs, which torch.from_dlpack and torch.as_tensor take
without copies.
"""

import collections
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import threading

try:
    import numpy as np
except ImportError:  # `import arvr` works; arrays need numpy.
    np = None

from . import _arvr

__all__ = ["compile", "Kernel", "DeviceArray", "CompileError"]


class CompileError(Exception):
    """An error in a .arvr file (or in compiling it): the message is arvrc's,
    `file:line:col: error: ...` with the source line and a caret."""


def _arvrc():
    """The arvrc to compile with: $ARVRC, else the build's, else PATH's."""
    if os.environ.get("ARVRC"):
        return os.environ["ARVRC"]
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.path.join(here, "..", "..", "bin", "arvrc"),
                      os.path.join(here, "_bin", "arvrc")):
        if os.path.isfile(candidate):
            return os.path.normpath(candidate)
    found = shutil.which("arvrc")
    if not found:
        raise CompileError("arvrc is not found: set ARVRC to its path")
    return found


_DTYPES = {"u8": "uint8", "u16": "uint16", "i32": "int32", "f32": "float32"}
_DTYPE_OBJECTS = {k: np.dtype(v) for k, v in _DTYPES.items()} if np else {}


def _need_numpy():
    if np is None:
        raise ImportError("arvr's kernels take and give numpy arrays: "
                          "install numpy (Debian: python3-numpy)")


def _cuda_available():
    try:
        _arvr.device_free(_arvr.device_alloc(1))
        return True
    except RuntimeError:
        return False


def compile(path, kernel=None, target="auto", specialize=None,
            fast_math=False):
    """Compiles kernel `kernel` of the .arvr file at `path` (the file's only
    kernel when None) for `target`: "cpu", "cuda", or "auto" (the GPU when
    there is one). `specialize` maps scalar parameters (and `image.channels`)
    to values known now: the kernel is compiled for them, and a call may
    not pass others. Returns a callable Kernel; raises CompileError."""
    _need_numpy()
    if target not in ("auto", "cpu", "cuda"):
        raise ValueError("target must be 'auto', 'cpu' or 'cuda', not %r"
                         % (target,))
    if target == "auto":
        target = "cuda" if _cuda_available() else "cpu"
    specialize = dict(specialize or {})
    folder = tempfile.mkdtemp(prefix="arvr-")
    try:
        output = os.path.join(folder, "k.o" if target == "cpu" else "k.ptx")
        command = [_arvrc(), "build", os.fspath(path), "-o", output]
        if target == "cpu":
            command += ["--target", "cpu", "--emit=obj"]
        if kernel:
            command += ["--kernel", kernel]
        for name, value in specialize.items():
            if isinstance(value, bool):
                value = "true" if value else "false"
            command += ["--specialize", "%s=%s" % (name, value)]
        if fast_math:
            command.append("--fast-math")
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            raise CompileError(result.stderr.strip())
        with open(os.path.join(folder, "k.plan.json")) as f:
            plan_text = f.read()
        plan = json.loads(plan_text)
        if target == "cpu":
            library = os.path.join(folder, "k.so")
            linker = os.environ.get("CXX", "c++")
            linked = subprocess.run([linker, "-shared", "-o", library, output],
                                    capture_output=True, text=True)
            if linked.returncode != 0:
                raise CompileError("cannot link the kernel's object: "
                                   + linked.stderr.strip())
            handle = _arvr.Kernel(plan_text, library=library,
                                  entry=plan["binary"]["entry"])
        else:
            with open(output, "rb") as f:
                handle = _arvr.Kernel(plan_text, binary=f.read())
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return Kernel(plan, handle, target, specialize)


class DeviceArray:
    """A kernel's output in GPU memory (C-contiguous, GPU 0), freed with the
    last reference to it. Exposes `__cuda_array_interface__` and DLPack
    (`torch.from_dlpack(a)`), and `numpy()` copies it to the host."""

    def __init__(self, shape, dtype, stream=0):
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.nbytes = math.prod(self.shape) * self.dtype.itemsize
        # Stream-ordered: its memory is returned to the pool after the work
        # queued on `stream` before the last reference goes.
        self.stream = stream
        self.ptr = _arvr.device_alloc(max(self.nbytes, 1), stream)

    def __del__(self):
        ptr, self.ptr = getattr(self, "ptr", 0), 0
        if ptr:
            _arvr.device_free(ptr, self.stream)

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "typestr": self.dtype.str,
                "data": (self.ptr, False), "version": 3, "strides": None,
                # The stream its kernel ran on (1: the legacy default one),
                # for a consumer to wait for.
                "stream": self.stream or 1}

    def __dlpack__(self, stream=None):
        # The consumer's stream may not be ours: the kernel is finished
        # first (DLPack leaves the ordering to the producer).
        if stream != -1:
            _arvr.synchronize(self.stream)
        return _arvr.dlpack_capsule(self, self.ptr, list(self.shape),
                                    self.dtype.kind, self.dtype.itemsize * 8)

    def __dlpack_device__(self):
        return (2, 0)

    def numpy(self):
        host = np.empty(self.shape, self.dtype)
        _arvr.copy_to_host(host, self.ptr, self.stream)
        return host

    def __repr__(self):
        return "DeviceArray(shape=%s, dtype=%s)" % (self.shape, self.dtype)


def _current_stream(views):
    """The stream a call runs on: PyTorch's current stream when torch is in
    use, else the stream the first CUDA array's interface names, else the
    default one."""
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_initialized():
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        if raw is not None:  # A microsecond, against 8 for the public call.
            return raw(torch.cuda.current_device())
        return torch.cuda.current_stream().cuda_stream
    for view in views:
        if view.stream and view.stream not in (1, 2):
            return view.stream
    return 0


class _View:
    """An image argument's memory: its address, shape, dtype, whether it is
    C-contiguous, the numpy array when it is in host memory (else None: a
    CUDA array) and the stream a CUDA array interface names."""
    __slots__ = ("address", "shape", "dtype", "contiguous", "host", "stream")

    def __init__(self, address, shape, dtype, contiguous, host, stream=None):
        self.address, self.shape, self.dtype = address, shape, dtype
        self.contiguous, self.host, self.stream = contiguous, host, stream


_TORCH_DTYPES = {}


def _view(value, name):
    """The _View of `value`: a numpy array, a PyTorch tensor (read directly:
    its __cuda_array_interface__ costs microseconds) or any object with
    __cuda_array_interface__; TypeError naming the parameter otherwise."""
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(value, torch.Tensor):
        if not value.is_cuda:
            value = value.numpy()
        else:
            dtype = _TORCH_DTYPES.get(value.dtype)
            if dtype is None:
                dtype = np.dtype(str(value.dtype).replace("torch.", ""))
                _TORCH_DTYPES[value.dtype] = dtype
            return _View(value.data_ptr(), tuple(value.shape), dtype,
                         value.is_contiguous(), None)
    if isinstance(value, np.ndarray):
        return _View(value.__array_interface__["data"][0], value.shape,
                     value.dtype, value.flags["C_CONTIGUOUS"], value)
    interface = getattr(value, "__cuda_array_interface__", None)
    if interface is None:
        raise TypeError("parameter %r takes a numpy array or a CUDA array, "
                        "not %s" % (name, type(value).__name__))
    shape, dtype = tuple(interface["shape"]), np.dtype(interface["typestr"])
    strides = interface.get("strides")
    contiguous = strides is None or tuple(strides) == tuple(
        math.prod(shape[i + 1:]) * dtype.itemsize for i in range(len(shape)))
    return _View(interface["data"][0], shape, dtype, contiguous, None,
                 interface.get("stream"))


class Kernel:
    """A compiled kernel. Call it with its images (positionally, in order,
    or by name) and scalars (by name; defaults as in the kernel): numpy
    arrays H x W x C (or H x W for one channel) of the parameter's type,
    C-contiguous. An nv12 parameter takes a (Y, UV) pair of planes, or one
    (H * 3 / 2) x W array. Returns the output, or a named tuple of them,
    named as in the kernel."""

    def __init__(self, plan, handle, target, specialize):
        self.name = plan["kernel"]
        self.target = target
        # Runtime kernels not in use: a call takes one, or a clone of the
        # first (its plan and code, bindings of its own) when all are busy:
        # calls from several threads each bind their own arrays.
        self._first = handle
        self._idle = [handle]
        self._lock = threading.Lock()
        self._specialized = specialize
        self._args = plan["arguments"]
        self._inputs = [a for a in self._args if a["role"] == "input"]
        self._outputs = [a for a in self._args if a["role"] == "output"]
        # Parameters as the kernel declares them: an NV12 frame's two
        # planes (f_y, f_uv) are one parameter, f.
        self.images, self._nv12 = [], set()
        for a in self._inputs:
            if a["kind"] != "image":
                continue
            if a["name"].endswith("_uv") and self.images and \
                    self.images[-1] == a["name"][:-3] + "_y":
                self.images[-1] = a["name"][:-3]
                self._nv12.add(a["name"][:-3])
                continue
            self.images.append(a["name"])
        self._outputs_at = [i for i, a in enumerate(self._args)
                            if a["role"] == "output"]
        self._output_dtypes = [_DTYPE_OBJECTS[a["type"]]
                               for a in self._outputs]
        self.scalars = [a["name"] for a in self._inputs
                        if a["kind"] == "scalar"]
        self.outputs = [a["name"] for a in self._outputs]
        if len(self._outputs) > 1:
            self._result = collections.namedtuple(self.name + "_outputs",
                                                  self.outputs)

    def __repr__(self):
        return "<arvr.Kernel %s(%s) on %s>" % (
            self.name, ", ".join(self.images + self.scalars), self.target)

    def __call__(self, *images, stream=None, **named):
        if len(images) > len(self.images):
            raise TypeError("%s takes %d image%s (%s), but %d were given" % (
                self.name, len(self.images),
                "" if len(self.images) == 1 else "s",
                ", ".join(self.images), len(images)))
        given = dict(zip(self.images, images))
        for name, value in named.items():
            if name not in self.images and name not in self.scalars:
                raise TypeError("%s has no parameter %r; its parameters are "
                                "%s" % (self.name, name,
                                        ", ".join(self.images + self.scalars)))
            if name in given:
                raise TypeError("%s: image %r given twice" % (self.name, name))
            given[name] = value
        if len(given) < len(self.images) or \
                any(n not in given for n in self.images):
            raise TypeError("%s: no image for %s" % (self.name, ", ".join(
                repr(n) for n in self.images if n not in given)))
        views = self._planes(given)
        on_gpu = [v for v in views.values() if v.host is None]
        if on_gpu and self.target == "cpu":
            raise TypeError("%s was compiled for the CPU, but a CUDA array "
                            "was given; compile with target='cuda'"
                            % self.name)
        if stream is None:
            stream = _current_stream(on_gpu) if self.target == "cuda" else 0
        return self._run(views, given, stream)

    def _planes(self, given):
        """The _View of each image argument of the plan, by its name: an
        NV12 frame's planes from a pair, or split from one array."""
        views = {}
        for name in self.images:
            value = given[name]
            if name not in self._nv12:
                views[name] = _view(value, name)
                continue
            if isinstance(value, (tuple, list)) and len(value) == 2:
                views[name + "_y"] = _view(value[0], name + "_y")
                views[name + "_uv"] = _view(value[1], name + "_uv")
                continue
            whole = _view(value, name)
            shape = whole.shape
            if len(shape) != 2 or shape[0] % 3 or shape[0] < 3 or \
                    shape[1] % 2 or not whole.contiguous:
                raise ValueError(
                    "%s: parameter %r is an NV12 frame: a (Y, UV) pair or "
                    "one C-contiguous (H * 3 / 2) x W array of an even size, "
                    "not %s" % (self.name, name, shape))
            h, w = shape[0] * 2 // 3, shape[1]
            if whole.host is not None:
                views[name + "_y"] = _view(whole.host[:h], name)
                views[name + "_uv"] = _view(
                    whole.host[h:].reshape(h // 2, w // 2, 2), name)
                continue
            views[name + "_y"] = _View(whole.address, (h, w), whole.dtype,
                                       True, None, whole.stream)
            views[name + "_uv"] = _View(
                whole.address + h * w * whole.dtype.itemsize,
                (h // 2, w // 2, 2), whole.dtype, True, None, whole.stream)
        return views

    def _run(self, views, given, stream):
        with self._lock:
            handle = self._idle.pop() if self._idle else None
        if handle is None:
            handle = self._first.clone()
        try:
            return self._run_on(handle, views, given, stream)
        finally:
            with self._lock:
                self._idle.append(handle)

    def _run_on(self, handle, views, given, stream):
        uploads = []
        cuda = self.target == "cuda"
        for index, arg in enumerate(self._args):
            if arg["role"] == "output":
                break
            name = arg["name"]
            if arg["kind"] == "scalar":
                handle.bind_scalar(index, arg["type"],
                                   self._scalar(arg, given.get(name)))
                continue
            view = views[name]
            h, w, c = _image(view, name, arg, self.name)
            address = view.address
            if cuda and view.host is not None:
                staged = DeviceArray(view.shape, view.dtype, stream)
                uploads.append((staged, view.host))
                address = staged.ptr
            handle.bind_image(index, address, w, h, c)
        for staged, host in uploads:
            _arvr.copy_to_device(staged.ptr, host, stream)
        results = []
        for index, arg in enumerate(self._outputs_at):
            w, h, c = handle.output_size(arg)
            shape = (h, w) if c == 1 else (h, w, c)
            dtype = self._output_dtypes[index]
            out = DeviceArray(shape, dtype, stream) if cuda else \
                np.empty(shape, dtype)
            handle.bind_image(arg, out.ptr if cuda else
                              out.__array_interface__["data"][0], w, h, c)
            results.append(out)
        handle.launch(stream)
        if cuda and uploads:
            # Numpy in, numpy out.
            results = [r.numpy() for r in results]
        del uploads
        if len(results) == 1:
            return results[0]
        return self._result(*results)

    def _scalar(self, arg, value):
        name = arg["name"]
        fixed = self._specialized.get(name)
        if value is None:
            value = fixed if fixed is not None else arg.get("default")
            if value is None:
                raise TypeError("%s: parameter %r has no default; give it, "
                                "e.g. %s=..." % (self.name, name, name))
        elif fixed is not None and value != fixed:
            raise ValueError("%s: parameter %r was specialised to %r when "
                             "compiling, so it cannot be %r"
                             % (self.name, name, fixed, value))
        kinds = {"f32": (int, float, np.integer, np.floating),
                 "i32": (int, np.integer), "i1": (bool, np.bool_)}
        if not isinstance(value, kinds[arg["type"]]) or \
                (arg["type"] == "i32" and isinstance(value, bool)):
            raise TypeError("%s: parameter %r is %s, not %s" % (
                self.name, name, arg["type"], type(value).__name__))
        return value


def _image(view, name, arg, kernel):
    """(height, width, channels) of `view`, an image for plan argument
    `arg`; TypeError or ValueError naming the parameter if it does not
    fit."""
    want = _DTYPE_OBJECTS[arg["type"]]
    shape = view.shape
    if view.dtype != want:
        raise TypeError("%s: parameter %r is %s (%s), but the array is %s"
                        % (kernel, name, arg["type"], want, view.dtype))
    if len(shape) not in (2, 3) or 0 in shape:
        raise ValueError("%s: parameter %r takes an H x W x C (or H x W) "
                         "array, not shape %s" % (kernel, name, shape))
    c = shape[2] if len(shape) == 3 else 1
    if arg.get("channels") and c != arg["channels"]:
        raise ValueError("%s: parameter %r has %d channel%s, but the array "
                         "has %d" % (kernel, name, arg["channels"],
                                     "" if arg["channels"] == 1 else "s", c))
    if not 1 <= c <= 4:
        raise ValueError("%s: parameter %r: images have 1 to 4 channels, not "
                         "%d" % (kernel, name, c))
    if not view.contiguous:
        raise ValueError("%s: parameter %r: the array is not C-contiguous "
                         "(np.ascontiguousarray or .contiguous() makes one)"
                         % (kernel, name))
    return shape[0], shape[1], c
