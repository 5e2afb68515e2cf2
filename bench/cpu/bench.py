"""The CPU bench (issue 18): arvrc's CPU target against OpenCV, in one run.

For the three examples and the other kernels of examples/ at 1080p and
4K (the stereo pair at a quarter of each: 960x540, 1920x1080), on frames
made from
photos (tests/data/baboon.jpg, aloeL/aloeR, resized): the median of RUNS
timings of each,
after a warm-up. arvrc's time is what `arvrc run --target cpu --repeat
RUNS` reports as a frame's running time (the median of RUNS runs of its
kernel through the runtime library after a first, all cores, no file
being read or written meanwhile); OpenCV's is the call's wall time with
cv2.setNumThreads(cores). The same parameters for both: the
Gaussian r=4 sigma 2 with reflect-101 borders (cv2.GaussianBlur), the lens
with the bench's calibration scaled to the frame and no chromatic
aberration (cv2.undistort, its maps included, as a user calls it), NV12
to RGB (cv2.cvtColor COLOR_YUV2RGB_NV12).

    python3 bench/cpu/bench.py ARVRC SOURCE_DIR OUT_DIR [RUNS]

Writes OUT_DIR/cpu-bench.csv and OUT_DIR/cpu-bench.md and prints the
table. Exit 0, or 1 if arvrc fails.
"""
import os
import re
import statistics
import subprocess
import sys
import time

import cv2
import numpy as np

SIZES = [("1080p", 1920, 1080), ("4K", 3840, 2160)]


def lens_params(width, height):
    # OpenCV's sample calibration (640x480), scaled to the frame, as the GPU
    # bench does (bench/arvr_bench.cu, lensFor); no chromatic aberration.
    sx, sy = width / 640.0, height / 480.0
    return {"fx": 535.915733961632 * sx, "fy": 535.915733961632 * sy,
            "cx": 342.283154737084 * sx, "cy": 235.570829097882 * sy,
            "k1": -0.266372609096607, "k2": -0.0385888989223047,
            "p1": 0.00178319470428530, "p2": -0.000281221004411155,
            "k3": 0.238391530808785, "ca_red": 1.0, "ca_blue": 1.0}


def arvrc_ms(arvrc, kernel_file, frame_globs, out_dir, params, runs):
    """The median over `runs` of arvrc's running time for one frame: one
    process, the kernel compiled (or read from the cache) and run once,
    then `runs` times (`--repeat`), as OpenCV's call is timed warm."""
    command = [arvrc, "run", kernel_file, "-o", out_dir,
               "--target", "cpu", "--repeat", str(runs)]
    for frame_glob in frame_globs:
        command += ["-i", frame_glob]
    for name, value in params.items():
        command += ["-p", f"{name}={value!r}" if isinstance(value, float)
                    else f"{name}={value}"]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"cpu bench: {' '.join(command)} failed:\n{result.stderr}")
    found = re.search(r"ms reading, ([0-9.]+) ms running", result.stdout)
    if not found:
        sys.exit(f"cpu bench: no running time in:\n{result.stdout}")
    return float(found.group(1))


def opencv_ms(call, runs):
    call()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(1e3 * (time.perf_counter() - start))
    return statistics.median(times)


def nv12_of(bgr):
    """The NV12 frame (Y plane, then interleaved UV) of a BGR image."""
    h, w = bgr.shape[:2]
    i420 = cv2.cvtColor(bgr, cv2.COLOR_BGR2YUV_I420)
    y = i420[:h]
    u = i420[h:h + h // 4].reshape(h // 2, w // 2)
    v = i420[h + h // 4:].reshape(h // 2, w // 2)
    uv = np.stack([u, v], axis=-1).reshape(h // 2, w)
    return np.concatenate([y, uv])


def other_examples(arvrc, src, out, photo, runs, name, width, height):
    """The other kernels of examples/ at one size (the stereo pair at a
    quarter of it, 64 disparities of 7x7 blocks), each against the OpenCV
    call doing its work (the same maths where OpenCV has it; the notes say
    where not)."""
    frames = os.path.join(out, "others-" + name)
    for sub in ("rgb", "grey", "left", "right", "out"):
        os.makedirs(os.path.join(frames, sub), exist_ok=True)
    bgr = cv2.resize(photo, (width, height), interpolation=cv2.INTER_LINEAR)
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    cv2.imwrite(os.path.join(frames, "rgb", "f.ppm"), bgr)
    cv2.imwrite(os.path.join(frames, "grey", "f.pgm"), grey)
    pair = [cv2.imread(os.path.join(src, "tests/data/golden", name + "-320x277.png"),
                       cv2.IMREAD_GRAYSCALE) for name in ("aloeL", "aloeR")]
    pair = [cv2.resize(p, (width // 2, height // 2),
                       interpolation=cv2.INTER_LINEAR) for p in pair]
    cv2.imwrite(os.path.join(frames, "left", "f.pgm"), pair[0])
    cv2.imwrite(os.path.join(frames, "right", "f.pgm"), pair[1])
    rgb = os.path.join(frames, "rgb", "*.ppm")
    grey_glob = os.path.join(frames, "grey", "*.pgm")
    # A 4-degree yaw about the frame's centre, as the timewarp computes it.
    f, cx, cy = width / 1.92, width / 2.0, height / 2.0
    K = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1]])
    yaw = np.radians(4.0)
    R = np.array([[np.cos(yaw), 0, np.sin(yaw)], [0, 1, 0],
                  [-np.sin(yaw), 0, np.cos(yaw)]])
    H = K @ R @ np.linalg.inv(K)
    stereo = cv2.StereoBM_create(numDisparities=64, blockSize=7)
    # kernel, inputs, parameters, OpenCV's call, its name.
    cases = [
        ("brightness_contrast", [rgb], {"gain": 1.25, "bias": 12.0},
         lambda: cv2.convertScaleAbs(bgr, alpha=1.25, beta=-20.0),
         "cv2.convertScaleAbs, the same affine map"),
        ("pyr_down", [rgb], {},
         lambda: cv2.pyrDown(cv2.pyrDown(cv2.pyrDown(bgr))),
         "cv2.pyrDown x3"),
        ("bilateral", [rgb], {"sigma_color": 30.0, "sigma_space": 5.0},
         lambda: cv2.bilateralFilter(bgr, 9, 30, 5,
                                     borderType=cv2.BORDER_REFLECT_101),
         "cv2.bilateralFilter d=9"),
        ("harris", [grey_glob], {"k": 0.04},
         lambda: cv2.cornerHarris(grey, 3, 3, 0.04), "cv2.cornerHarris"),
        ("warp_perspective", [rgb],
         {"fx": f, "fy": f, "cx": cx, "cy": cy, "yaw": 4.0, "pitch": 0.0,
          "roll": 0.0},
         lambda: cv2.warpPerspective(
             bgr, H, (width, height),
             flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
             borderMode=cv2.BORDER_CONSTANT, borderValue=0),
         "cv2.warpPerspective"),
        ("equalize_hist", [grey_glob], {},
         lambda: cv2.equalizeHist(grey), "cv2.equalizeHist"),
        ("stereo_sad",
         [os.path.join(frames, "left", "*.pgm"),
          os.path.join(frames, "right", "*.pgm")], {"max_d": 63},
         lambda: stereo.compute(pair[0], pair[1]),
         "cv2.StereoBM 64 disparities 7x7 (with its pre-filter and checks)"),
    ]
    rows = []
    for kernel, inputs, params, call, peer in cases:
        ours = arvrc_ms(arvrc, os.path.join(src, "examples", kernel + ".arvr"),
                        inputs, os.path.join(frames, "out"), params, runs)
        size = (f"{width // 2}x{height // 2}" if kernel == "stereo_sad"
                else name)
        rows.append((kernel, size, ours, opencv_ms(call, runs), peer))
    return rows



def table(rows):
    lines = ["| kernel | size | arvrc | OpenCV | arvrc / OpenCV |",
             "| --- | --- | ---: | ---: | ---: |"]
    for kernel, size, ours, theirs, peer in rows:
        lines.append(f"| {kernel} | {size} | {ours:.1f} | {theirs:.1f} ({peer}) "
                     f"| {ours / theirs:.1f}x |")
    return lines


def main():
    arvrc, src, out = sys.argv[1], sys.argv[2], sys.argv[3]
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    cores = os.cpu_count()
    cv2.setNumThreads(cores)
    photo = cv2.imread(os.path.join(src, "tests/data/baboon.jpg"))
    rows = []
    for name, width, height in SIZES:
        frames = os.path.join(out, name)
        os.makedirs(os.path.join(frames, "rgb"), exist_ok=True)
        os.makedirs(os.path.join(frames, "nv12"), exist_ok=True)
        bgr = cv2.resize(photo, (width, height), interpolation=cv2.INTER_LINEAR)
        cv2.imwrite(os.path.join(frames, "rgb", "f.ppm"), bgr)
        nv12 = nv12_of(bgr)
        nv12.tofile(os.path.join(frames, "nv12", f"f_{width}x{height}.nv12"))
        outputs = os.path.join(frames, "out")
        rgb_glob = os.path.join(frames, "rgb", "*.ppm")
        lens = lens_params(width, height)
        K = np.array([[lens["fx"], 0, lens["cx"]], [0, lens["fy"], lens["cy"]],
                      [0, 0, 1]])
        dist = np.array([lens["k1"], lens["k2"], lens["p1"], lens["p2"],
                         lens["k3"]])
        cases = [
            ("gaussian_blur", [rgb_glob], {"sigma": 2.0, "radius": 4},
             lambda: cv2.GaussianBlur(bgr, (9, 9), 2.0,
                                      borderType=cv2.BORDER_REFLECT_101),
             "cv2.GaussianBlur"),
            ("lens_undistort", [rgb_glob], lens,
             lambda: cv2.undistort(bgr, K, dist), "cv2.undistort"),
            ("nv12_to_rgb", [os.path.join(frames, "nv12", "*.nv12")], {},
             lambda: cv2.cvtColor(nv12, cv2.COLOR_YUV2RGB_NV12),
             "cv2.cvtColor"),
        ]
        for kernel, inputs, params, call, peer in cases:
            ours = arvrc_ms(arvrc, os.path.join(src, "examples", kernel + ".arvr"),
                            inputs, outputs, params, runs)
            theirs = opencv_ms(call, runs)
            rows.append((kernel, name, ours, theirs, peer))
    others = []
    for name, width, height in SIZES:
        others += other_examples(arvrc, src, out, photo, runs, name, width,
                                 height)
    with open(os.path.join(out, "cpu-bench.csv"), "w") as f:
        f.write("kernel,size,arvrc_ms,opencv_ms,ratio,opencv_call\n")
        for kernel, size, ours, theirs, peer in rows + others:
            f.write(f"{kernel},{size},{ours:.2f},{theirs:.2f},{ours / theirs:.2f},{peer}\n")
    lines = [f"CPU: {cores} cores ({os.uname().machine}), OpenCV {cv2.__version__} "
             f"with {cores} threads; median of {runs} runs, ms per frame", ""]
    lines += table(rows)
    lines += ["", "The other kernels of examples/:", ""] + table(others)
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "cpu-bench.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
