#!/usr/bin/env python3
"""Makes the OpenCV golden images the parity tests compare arvrc against
(tests/golden/opencv-parity.test). Run it where python3-opencv is installed
(Debian: apt-get install python3-opencv); its outputs are committed, so the
tests need no OpenCV. The JPEG photos are first stored as PNG (baboon.png, left01.png, as
cv2.imread decodes them), and the tests give arvrc those PNGs: JPEG
decoders differ by a few levels, PNG is exact. Each output names the
OpenCV call that made it:

  undistort-left01.png      cv2.undistort(left01, K, dist), K and dist from
                            left_intrinsics.yml (OpenCV's sample camera)
  gauss-r{r}-s{sigma}.png   cv2.GaussianBlur(baboon, (2r+1, 2r+1), sigma,
                            borderType=cv2.BORDER_REFLECT_101)
  baboon_512x512.nv12       the photo as NV12: cv2.cvtColor(bgr,
                            cv2.COLOR_BGR2YUV_I420), U and V interleaved
  nv12-rgb.png              cv2.cvtColor(nv12, cv2.COLOR_YUV2RGB_NV12)

Usage: make_opencv_goldens.py DATA_DIR OUT_DIR"""
import os
import sys

import cv2
import numpy as np

data, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)

def save(name, image):
    # OpenCV holds colour as BGR and cv2.imwrite stores it as RGB files.
    cv2.imwrite(os.path.join(out, name), image)
    print("wrote", name)

# 1. Lens undistortion, the real calibration.
fs = cv2.FileStorage(os.path.join(data, "left_intrinsics.yml"),
                     cv2.FILE_STORAGE_READ)
K = fs.getNode("camera_matrix").mat()
dist = fs.getNode("distortion_coefficients").mat()
left = cv2.imread(os.path.join(data, "left01.jpg"), cv2.IMREAD_GRAYSCALE)
save("left01.png", left)
save("undistort-left01.png", cv2.undistort(left, K, dist))

# 2. Gaussian blur, three (radius, sigma) pairs, reflect-101 borders.
baboon = cv2.imread(os.path.join(data, "baboon.jpg"), cv2.IMREAD_COLOR)
save("baboon.png", baboon)
for r, sigma in [(2, 1.0), (4, 2.0), (7, 3.5)]:
    blurred = cv2.GaussianBlur(baboon, (2 * r + 1, 2 * r + 1), sigma,
                               borderType=cv2.BORDER_REFLECT_101)
    save(f"gauss-r{r}-s{sigma}.png", blurred)

# 3. NV12 from the photo, and OpenCV's conversion back to RGB.
h, w = baboon.shape[:2]
i420 = cv2.cvtColor(baboon, cv2.COLOR_BGR2YUV_I420)
y = i420[:h]
u = i420[h:h + h // 4].reshape(h // 2, w // 2)
v = i420[h + h // 4:].reshape(h // 2, w // 2)
uv = np.stack([u, v], axis=-1).reshape(h // 2, w)
nv12 = np.concatenate([y, uv])
nv12.tofile(os.path.join(out, f"baboon_{w}x{h}.nv12"))
print(f"wrote baboon_{w}x{h}.nv12")
rgb = cv2.cvtColor(nv12, cv2.COLOR_YUV2RGB_NV12)
cv2.imwrite(os.path.join(out, "nv12-rgb.png"), cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
print("wrote nv12-rgb.png")
