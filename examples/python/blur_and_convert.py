"""arvr from Python: a Gaussian blur on a photo (numpy, the CPU or the GPU)
and, where PyTorch has a GPU, NV12 to RGB on a CUDA tensor without copies.

    python3 examples/python/blur_and_convert.py tests/data/baboon.jpg out.png
"""
import os
import sys

import cv2
import numpy as np

import arvr

here = os.path.dirname(os.path.abspath(__file__))
examples = os.path.join(here, "..")

blur = arvr.compile(os.path.join(examples, "gaussian_blur.arvr"))
photo = cv2.imread(sys.argv[1] if len(sys.argv) > 1 else
                   os.path.join(here, "..", "..", "tests", "data", "baboon.jpg"))
blurred = blur(photo, sigma=3.0, radius=6)
cv2.imwrite(sys.argv[2] if len(sys.argv) > 2 else "blurred.png", blurred)
print("blurred %s on %s" % (photo.shape, blur.target))

try:
    import torch
except ImportError:
    torch = None
if torch is not None and torch.cuda.is_available():
    convert = arvr.compile(os.path.join(examples, "nv12_to_rgb.arvr"),
                           target="cuda")
    frame = torch.randint(0, 256, (1080 * 3 // 2, 1920), dtype=torch.uint8,
                          device="cuda")
    rgb = torch.from_dlpack(convert(frame))  # stays on the GPU
    print("NV12 -> RGB on the GPU:", tuple(rgb.shape), rgb.dtype)
