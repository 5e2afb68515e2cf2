"""Type stubs of the arvr package: .arvr kernels on numpy arrays and CUDA
tensors (see arvr/__init__.py)."""

from typing import Any, Mapping, Optional, Tuple, Union

import numpy as np

class CompileError(Exception):
    """An error in a .arvr file, `file:line:col: error: ...` with a caret."""

class DeviceArray:
    """A kernel's output in GPU memory: `__cuda_array_interface__`, DLPack."""
    shape: Tuple[int, ...]
    dtype: np.dtype
    nbytes: int
    ptr: int
    def __init__(self, shape: Tuple[int, ...], dtype: Any) -> None: ...
    @property
    def __cuda_array_interface__(self) -> dict: ...
    def __dlpack__(self, stream: Optional[int] = ...) -> Any: ...
    def __dlpack_device__(self) -> Tuple[int, int]: ...
    def numpy(self) -> np.ndarray: ...

Image = Union[np.ndarray, Any]  # numpy, or anything with __cuda_array_interface__

class Kernel:
    """A compiled kernel: call it with its images and scalars."""
    name: str
    target: str
    images: list[str]
    scalars: list[str]
    outputs: list[str]
    def __call__(self, *images: Union[Image, Tuple[Image, Image]],
                 stream: Optional[int] = ...,
                 **named: Union[Image, float, int, bool]) -> Any: ...

def compile(path: Union[str, "os.PathLike[str]"], kernel: Optional[str] = ...,
            target: str = ..., specialize: Optional[Mapping[str, Any]] = ...,
            fast_math: bool = ...) -> Kernel:
    """Compiles a kernel of a .arvr file for "cpu", "cuda" or "auto"."""
    ...

import os
