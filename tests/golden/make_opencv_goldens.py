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

The five examples of issue 16, on small crops of the photos (odd sizes):
  building-251x187.png      building.jpg, rows 200.., columns 300..
  pyr{1,2,3}-building.png   cv2.pyrDown applied 1, 2, 3 times
  bilateral-building.png    cv2.bilateralFilter(d=9, 30, 5), reflect-101
  warp-building-cv.png      cv2.warpPerspective(.., H, INTER_LINEAR |
                            WARP_INVERSE_MAP, BORDER_CONSTANT 0), H = K R K^-1
                            for the parameters WARP below
  warp-building-f64.png     the same maths in float64 (bilinear, 0 outside)
  left01-241x181.png        left01.jpg, rows 100.., columns 150..
  harris-left01.pfm         cv2.cornerHarris(grey, 3, 3, 0.04) (f32 PFM)
  aloe{L,R}-320x277.png     the Aloe pair in grey at a quarter of its size
                            (cv2.INTER_AREA)
  stereo-aloe.png           7x7 SAD block matching, disparities 0..63,
                            edges clamped, first minimum (numpy)
  equalize-{aloeL,left01}.png  cv2.equalizeHist of aloeL-320x277.png and
                            left01-241x181.png

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


# 4. The five examples of issue 16.
building = cv2.imread(os.path.join(data, "building.jpg"), cv2.IMREAD_COLOR)
building = building[200:387, 300:551]
save("building-251x187.png", building)
level = building
for n in (1, 2, 3):
    level = cv2.pyrDown(level)
    save(f"pyr{n}-building.png", level)
save("bilateral-building.png",
     cv2.bilateralFilter(building, 9, 30, 5, borderType=cv2.BORDER_REFLECT_101))

# Rotational timewarp: the parameters the parity test passes.
WARP = dict(fx=200.0, fy=200.0, cx=125.0, cy=93.0, yaw=4.0, pitch=-2.5,
            roll=1.5)
yaw, pitch, roll = np.radians([WARP["yaw"], WARP["pitch"], WARP["roll"]])
cz, sz = np.cos(roll), np.sin(roll)
cx_, sx_ = np.cos(pitch), np.sin(pitch)
cy_, sy_ = np.cos(yaw), np.sin(yaw)
R = (np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]]) @
     np.array([[1, 0, 0], [0, cx_, -sx_], [0, sx_, cx_]]) @
     np.array([[cy_, 0, sy_], [0, 1, 0], [-sy_, 0, cy_]]))
K = np.array([[WARP["fx"], 0, WARP["cx"]], [0, WARP["fy"], WARP["cy"]],
              [0, 0, 1]])
H = K @ R @ np.linalg.inv(K)
h, w = building.shape[:2]
save("warp-building-cv.png",
     cv2.warpPerspective(building, H, (w, h),
                         flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=0))
ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
p = np.stack([xs, ys, np.ones_like(xs)], -1) @ H.T
u, v = p[..., 0] / p[..., 2], p[..., 1] / p[..., 2]
x0, y0 = np.floor(u), np.floor(v)
ax, ay = (u - x0)[..., None], (v - y0)[..., None]
src = building.astype(np.float64)


def at(x, y):
    inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
    xi = np.clip(x, 0, w - 1).astype(int)
    yi = np.clip(y, 0, h - 1).astype(int)
    return np.where(inside[..., None], src[yi, xi], 0.0)


top = at(x0, y0) * (1 - ax) + at(x0 + 1, y0) * ax
bottom = at(x0, y0 + 1) * (1 - ax) + at(x0 + 1, y0 + 1) * ax
save("warp-building-f64.png",
     np.clip(np.round(top * (1 - ay) + bottom * ay), 0, 255).astype(np.uint8))

left = left[100:281, 150:391]
save("left01-241x181.png", left)
harris = cv2.cornerHarris(left, 3, 3, 0.04).astype("<f4")
with open(os.path.join(out, "harris-left01.pfm"), "wb") as f:
    h, w = harris.shape
    f.write(b"Pf\n%d %d\n-1.0\n" % (w, h))
    f.write(harris[::-1].tobytes())  # PFM rows run bottom to top
print("wrote harris-left01.pfm")

aloe = []
for side in "LR":
    grey = cv2.imread(os.path.join(data, f"aloe{side}.jpg"), cv2.IMREAD_GRAYSCALE)
    size = (grey.shape[1] // 4, grey.shape[0] // 4)
    grey = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
    save(f"aloe{side}-{size[0]}x{size[1]}.png", grey)
    aloe.append(grey.astype(np.int64))
l, r = aloe
h, w = l.shape
ys, xs = np.mgrid[0:h, 0:w]


def clamped(image, x, y):
    return image[np.clip(y, 0, h - 1), np.clip(x, 0, w - 1)]


best = np.full((h, w), np.iinfo(np.int64).max)
disparity = np.zeros((h, w), np.uint8)
for d in range(64):
    cost = sum(np.abs(clamped(l, xs + i, ys + j) - clamped(r, xs + i - d, ys + j))
               for j in range(-3, 4) for i in range(-3, 4))
    better = cost < best
    best = np.where(better, cost, best)
    disparity[better] = d
save("stereo-aloe.png", disparity)
truth = cv2.imread(os.path.join(data, "aloeGT.png"), cv2.IMREAD_GRAYSCALE)
truth = cv2.resize(truth, (w, h), interpolation=cv2.INTER_NEAREST) / 4.0
known = truth > 0
error = np.abs(disparity - truth)[known]
print("stereo-aloe.png against the ground truth (/4), where known (%.1f%%): "
      "%.1f%% within 1 disparity, %.1f%% within 2"
      % (100 * known.mean(), 100 * (error <= 1).mean(), 100 * (error <= 2).mean()))

# 5. Histogram equalisation (issue 16, wall 4: a histogram as a scatter),
#    of the grey crops above.
save("equalize-aloeL.png", cv2.equalizeHist(l.astype(np.uint8)))
save("equalize-left01.png", cv2.equalizeHist(left))
