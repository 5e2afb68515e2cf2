"""The Python module `arvr` (issue 20): kernels on numpy arrays (the CPU
target), parity with `arvrc run` on the same image, every error path; on a
machine with a GPU, CUDA arrays in and out (skipped, with the reason, where
there is none). Run by ctest (python-module) with build/python on the path.
"""
import os
import subprocess
import threading

import numpy as np
import pytest

import arvr

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
EXAMPLES = os.path.join(ROOT, "examples")
DATA = os.path.join(ROOT, "tests", "data")
INPUTS = os.path.join(ROOT, "tests", "lit", "Driver", "Inputs")
cv2 = pytest.importorskip("cv2")


@pytest.fixture(scope="module")
def blur():
    return arvr.compile(os.path.join(EXAMPLES, "gaussian_blur.arvr"),
                        target="cpu")


@pytest.fixture(scope="module")
def photo():
    # An odd size (641 x 479), lossless: the CLI reads the same pixels.
    return cv2.imread(os.path.join(DATA, "odd-641x479.png"))


def cli(kernel, inputs, tmp_path, *extra):
    out = str(tmp_path / "cli.png")
    command = [arvr._arvrc(), "run", kernel, "-o", out, "--target", "cpu",
               "--no-cache"]
    for path in inputs:
        command += ["-i", path]
    subprocess.run(command + list(extra), check=True, capture_output=True)
    return cv2.imread(out, cv2.IMREAD_UNCHANGED)


def test_blur_matches_the_cli(blur, photo, tmp_path):
    out = blur(photo, sigma=2.0)
    assert out.shape == photo.shape and out.dtype == np.uint8
    # The CLI reads RGB and writes RGB; OpenCV's BGR order on both sides of
    # a per-channel kernel compares alike.
    expected = cli(os.path.join(EXAMPLES, "gaussian_blur.arvr"),
                   [os.path.join(DATA, "odd-641x479.png")], tmp_path,
                   "-p", "sigma=2.0")
    assert np.array_equal(out, expected)
    assert not np.array_equal(out, photo)


def test_defaults_and_scalars(blur, photo):
    default = blur(photo)  # sigma 2, radius 4: the kernel's defaults
    assert np.array_equal(default, blur(photo, sigma=2.0, radius=4))
    assert not np.array_equal(default, blur(photo, sigma=1.0, radius=2))
    assert np.array_equal(blur(src=photo), default)


def test_grey_and_specialised(photo):
    k = arvr.compile(os.path.join(EXAMPLES, "gaussian_blur.arvr"),
                     target="cpu", specialize={"sigma": 1.5, "radius": 3})
    grey = np.ascontiguousarray(photo[:, :, 1])
    out = k(grey)
    assert out.shape == grey.shape
    generic = arvr.compile(os.path.join(EXAMPLES, "gaussian_blur.arvr"),
                           target="cpu")
    assert np.array_equal(out, generic(grey, sigma=1.5, radius=3))
    with pytest.raises(ValueError, match="'sigma' was specialised to 1.5"):
        k(grey, sigma=2.0)


def test_nv12_pair_and_single_array(tmp_path):
    k = arvr.compile(os.path.join(EXAMPLES, "nv12_to_rgb.arvr"), target="cpu")
    data = np.fromfile(os.path.join(DATA, "pattern_641x479.nv12"), np.uint8)
    y = data[:641 * 479].reshape(479, 641)
    uv = data[641 * 479:].reshape(240, 321, 2)
    out = k((y, uv))
    expected = cli(os.path.join(EXAMPLES, "nv12_to_rgb.arvr"),
                   [os.path.join(DATA, "pattern_641x479.nv12")], tmp_path)
    assert np.array_equal(out, cv2.cvtColor(expected, cv2.COLOR_BGR2RGB))
    even = np.random.default_rng(1).integers(0, 256, (12, 8), np.uint8)
    whole = k(even)
    assert whole.shape == (8, 8, 3)
    assert np.array_equal(whole, k((even[:8], even[8:].reshape(4, 4, 2))))


def test_named_outputs():
    k = arvr.compile(os.path.join(INPUTS, "three-outputs.arvr"), target="cpu")
    img = np.random.default_rng(2).integers(0, 256, (9, 7, 3), np.uint8)
    out = k(img)
    assert tuple(out._fields) == tuple(k.outputs) and len(k.outputs) == 3
    for field in out._fields:
        assert isinstance(getattr(out, field), np.ndarray)


def test_compile_error_has_location_and_caret(tmp_path):
    bad = tmp_path / "bad.arvr"
    bad.write_text("kernel k(src: image<u8>) -> image<u8> {\n"
                   "  func out(x, y, c) = src(x, y, c) + nope;\n}\n")
    with pytest.raises(arvr.CompileError) as caught:
        arvr.compile(str(bad), target="cpu")
    message = str(caught.value)
    assert "bad.arvr:2:" in message and "error:" in message
    assert "^" in message and "nope" in message
    with pytest.raises(arvr.CompileError, match="choose one with --kernel"):
        arvr.compile(os.path.join(INPUTS, "float-images.arvr"), target="cpu")
    with pytest.raises(ValueError, match="target must be"):
        arvr.compile(os.path.join(EXAMPLES, "gaussian_blur.arvr"),
                     target="tpu")


def test_bad_arrays_name_the_parameter(blur, photo):
    with pytest.raises(TypeError, match="'src' is u8.*float32"):
        blur(photo.astype(np.float32))
    with pytest.raises(ValueError, match="'src' takes an H x W x C"):
        blur(photo[:, :, 0:1].reshape(-1))
    with pytest.raises(ValueError, match="'src'.*not C-contiguous"):
        blur(photo[:, ::2])
    with pytest.raises(ValueError, match="'src'.*1 to 4 channels"):
        blur(np.zeros((4, 4, 5), np.uint8))
    with pytest.raises(TypeError, match="'src' takes a numpy array"):
        blur([[1, 2], [3, 4]])
    with pytest.raises(TypeError, match="no image for 'src'"):
        blur(sigma=2.0)
    with pytest.raises(TypeError, match="takes 1 image"):
        blur(photo, photo)
    with pytest.raises(TypeError, match="no parameter 'sigmaa'"):
        blur(photo, sigmaa=2.0)
    with pytest.raises(TypeError, match="'radius' is i32, not float"):
        blur(photo, radius=2.5)
    nv = arvr.compile(os.path.join(EXAMPLES, "nv12_to_rgb.arvr"),
                      target="cpu")
    with pytest.raises(ValueError, match="'frame' is an NV12 frame"):
        nv(np.zeros((7, 8), np.uint8))
    with pytest.raises(ValueError, match="'frame_uv' has 2 channels"):
        nv((np.zeros((4, 4), np.uint8), np.zeros((2, 2, 3), np.uint8)))

    class FakeCuda:
        __cuda_array_interface__ = {"shape": (4, 4, 3), "typestr": "|u1",
                                    "data": (0, False), "version": 3}
    with pytest.raises(TypeError, match="compiled for the CPU"):
        blur(FakeCuda())


def test_threads_run_kernels_at_once(blur, photo):
    # The GIL is released while a kernel runs: calls from threads overlap,
    # each on a runtime kernel of its own, and each gets its own frame's
    # result, again and again.
    images = [np.roll(photo, 7 * i, axis=1) for i in range(4)]
    expected = [blur(image) for image in images]
    results = [[] for _ in range(4)]

    def work(i):
        for _ in range(10):
            results[i].append(blur(images[i]))
    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for got, want in zip(results, expected):
        assert all(np.array_equal(g, want) for g in got)


def cuda_reason():
    try:
        arvr._arvr.device_free(arvr._arvr.device_alloc(1))
        return None
    except RuntimeError as error:
        return "no GPU here: " + str(error)


@pytest.mark.gpu
@pytest.mark.skipif(cuda_reason() is not None, reason=str(cuda_reason()))
def test_cuda_numpy_and_device_arrays(photo):
    k = arvr.compile(os.path.join(EXAMPLES, "gaussian_blur.arvr"),
                     target="cuda")
    cpu = arvr.compile(os.path.join(EXAMPLES, "gaussian_blur.arvr"),
                       target="cpu")
    out = k(photo)
    assert isinstance(out, np.ndarray)
    assert np.array_equal(out, cpu(photo))  # CPU and CUDA bit-identical
    staged = arvr.DeviceArray(photo.shape, np.uint8)
    arvr._arvr.copy_to_device(staged.ptr, photo, 0)
    on_device = k(staged)
    assert isinstance(on_device, arvr.DeviceArray)
    assert np.array_equal(on_device.numpy(), out)
