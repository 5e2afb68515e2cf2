// Every verifier message of the arvr dialect.
// RUN: arvr-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{image element type must be ui8, ui16, i32 or f32, but got 'i8'}}
arvr.kernel @bad_element(%src: !arvr.image<i8, ?>) -> !arvr.image<ui8, ?> {
}

// -----

// expected-error @+1 {{image channel count must be 1 to 4 or '?', but got 5}}
arvr.kernel @bad_channels(%src: !arvr.image<ui8, 5>) -> !arvr.image<ui8, ?> {
}

// -----

// expected-error @+1 {{'arvr.kernel' op parameters must be images or scalars, but got 'memref<4xf32>'}}
arvr.kernel @bad_param(%m: memref<4xf32>) -> !arvr.image<ui8, ?> {
  %0 = arith.constant 0 : index
}

// -----

// expected-error @+1 {{'arvr.kernel' op must produce at least one image}}
arvr.kernel @no_output(%src: !arvr.image<ui8, ?>) {
  arvr.return
}

// -----

// expected-error @+1 {{'arvr.kernel' op results must be images, but got 'f32'}}
arvr.kernel @scalar_output(%src: !arvr.image<ui8, ?>) -> f32 {
}

// -----

arvr.kernel @return_count(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  // expected-error @+1 {{'arvr.return' op returns 0 images, but the kernel produces 1}}
  arvr.return
}

// -----

arvr.kernel @return_type(%src: !arvr.image<ui8, 3>) -> !arvr.image<ui8, ?> {
  // expected-error @+1 {{'arvr.return' op image #0 has type '!arvr.image<ui8, 3>', but the kernel's result has type '!arvr.image<ui8, ?>'}}
  arvr.return %src : !arvr.image<ui8, 3>
}

// -----

arvr.kernel @stage_args(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  // expected-error @+1 {{'arvr.stage' op region must take the coordinates (x, y, c) as three index values}}
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index):
    %v = arith.constant 0 : i8
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @yield_type(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arith.constant 0.0 : f32
    // expected-error @+1 {{'arvr.yield' op yields 'f32', but the stage's elements are 'i8'}}
    arvr.yield %v : f32
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @yield_outside(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %v = arith.constant 0 : i8
  // expected-error @+1 {{'arvr.yield' op expects parent op to be one of 'arvr.stage, arvr.reduce'}}
  arvr.yield %v : i8
}

// -----

arvr.kernel @access_type(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %i = arith.constant 0 : index
  // expected-error @+1 {{'arvr.access' op failed to verify that result is the image's scalar type}}
  %v = "arvr.access"(%src, %i, %i, %i) <{boundary = 1 : i32}> : (!arvr.image<ui8, ?>, index, index, index) -> f32
  arvr.return %src : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @no_padding(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    // expected-error @+1 {{'arvr.access' op with a constant boundary needs a padding value}}
    %v = arvr.access %src[%x, %y, %c] constant : !arvr.image<ui8, ?>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @padding_type(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    // expected-error @+1 {{'arvr.access' op padding has type 'f32', but the image's elements are 'i8'}}
    %v = arvr.access %src[%x, %y, %c] constant(0.0 : f32) : !arvr.image<ui8, ?>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @stray_padding(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    // expected-error @+1 {{'arvr.access' op has a padding value, but its boundary is 'mirror'}}
    %v = arvr.access %src[%x, %y, %c] mirror(0 : i8) : !arvr.image<ui8, ?>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @sample_in_bounds(%src: !arvr.image<ui8, ?>, %u: f32) -> !arvr.image<f32, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<f32, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    // expected-error @+1 {{'arvr.sample' op cannot be 'in_bounds': a sample may reach outside the image}}
    %v = arvr.sample %src[%u, %u, %c] bilinear in_bounds : !arvr.image<ui8, ?>
    arvr.yield %v : f32
  }
  arvr.return %out : !arvr.image<f32, ?>
}

// -----

arvr.kernel @sample_padding(%src: !arvr.image<ui8, ?>, %u: f32) -> !arvr.image<f32, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<f32, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    // expected-error @+1 {{'arvr.sample' op padding has type 'i32', but the image's elements are 'i8'}}
    %v = arvr.sample %src[%u, %u, %c] nearest constant(0 : i32) : !arvr.image<ui8, ?>
    arvr.yield %v : f32
  }
  arvr.return %out : !arvr.image<f32, ?>
}

// -----

arvr.kernel @reduce_arg(%src: !arvr.image<ui8, ?>, %n: i32) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    // expected-error @+1 {{'arvr.reduce' op region must take the reduction variable as one i32}}
    %s = arvr.reduce sum %n to %n : i32 {
    ^bb0(%i: index):
      %z = arith.constant 0 : i32
      arvr.yield %z : i32
    }
    %t = arith.trunci %s : i32 to i8
    arvr.yield %t : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @reduce_type(%src: !arvr.image<ui8, ?>, %n: i32) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    %s = arvr.reduce max %n to %n : i32 {
    ^bb0(%i: i32):
      %f = arith.sitofp %i : i32 to f32
      // expected-error @+1 {{'arvr.yield' op yields 'f32', but the reduction computes 'i32'}}
      arvr.yield %f : f32
    }
    %t = arith.trunci %s : i32 to i8
    arvr.yield %t : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @argmin_type(%src: !arvr.image<ui8, ?>, %n: i32) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    // expected-error @+1 {{'arvr.reduce' op argmin gives an i32 index, not 'f32'}}
    %s = arvr.reduce argmin %n to %n : f32 {
    ^bb0(%i: i32):
      %f = arith.sitofp %i : i32 to f32
      arvr.yield %f : f32
    }
    %t = arith.fptosi %s : f32 to i8
    arvr.yield %t : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @stage_two_sizes(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  // expected-error @+1 {{'arvr.stage' op sizes are (width, height, channels), but 2 were given}}
  %out = arvr.stage "out" [%w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arith.constant 0 : i8
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @stage_short_origin(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  // expected-error @+1 {{'arvr.stage' op origin is (x, y, c), but 1 values were given}}
  %t = arvr.stage "t" [%w, %w, %w] at [%w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arith.constant 0 : i8
    arvr.yield %v : i8
  }
  arvr.return %t : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @stage_origin_no_sizes(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  // expected-error @+1 {{'arvr.stage' op has an origin but no sizes}}
  %t = "arvr.stage"(%w, %w, %w) <{name = "t", operandSegmentSizes = array<i32: 0, 3>}> ({
  ^bb0(%x: index, %y: index, %c: index):
    %v = arith.constant 0 : i8
    arvr.yield %v : i8
  }) : (index, index, index) -> !arvr.image<ui8, ?>
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arith.constant 0 : i8
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @returned_without_sizes(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  // expected-error @+1 {{'arvr.stage' op is returned by the kernel, so it needs its sizes}}
  %out = arvr.stage "out" : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arith.constant 0 : i8
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @bad_gpu_block(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  // expected-error @+1 {{'arvr.stage' op gpu_block must be two positive sizes of at most 1024 threads in all}}
  %out = arvr.stage "out" [%w, %w, %w] gpu_block [64, 32] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arith.constant 0 : i8
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @shared_output(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  // expected-error @+1 {{'arvr.stage' op is returned by the kernel, so it cannot live in shared memory}}
  %out = arvr.stage "out" [%w, %w, %w] gpu_shared : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arith.constant 0 : i8
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @shared_with_block(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  // expected-error @+1 {{'arvr.stage' op is computed in the thread blocks of its reader, so it has no gpu_block of its own}}
  %t = arvr.stage "t" gpu_block [32, 8] gpu_shared : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arith.constant 0 : i8
    arvr.yield %v : i8
  }
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arvr.access %t[%x, %y, %c] in_bounds : !arvr.image<ui8, ?>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @bad_gpu_pixels(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  // expected-error @+1 {{'arvr.stage' op gpu_pixels must be 1 to 16, not 17}}
  %out = arvr.stage "out" [%w, %w, %w] gpu_pixels 17 : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arith.constant 0 : i8
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @shared_with_pixels(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  // expected-error @+1 {{'arvr.stage' op is computed in the thread blocks of its reader, so it has no gpu_pixels of its own}}
  %t = arvr.stage "t" gpu_pixels 2 gpu_shared : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arith.constant 0 : i8
    arvr.yield %v : i8
  }
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arvr.access %t[%x, %y, %c] in_bounds : !arvr.image<ui8, ?>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @bad_unroll(%src: !arvr.image<ui8, ?>, %n: i32) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    // expected-error @+1 {{'arvr.reduce' op unroll must be 1 to 64, not 0}}
    %s = arvr.reduce sum %n to %n unroll 0 : i32 {
    ^bb0(%i: i32):
      arvr.yield %i : i32
    }
    %v = arith.trunci %s : i32 to i8
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @bad_plane(%frame: !arvr.nv12) -> !arvr.image<ui8, 1> {
  // expected-error @+1 {{'arvr.plane' op the uv plane is !arvr.image<ui8, 2>, not '!arvr.image<ui8, 1>'}}
  %uv = arvr.plane %frame uv : !arvr.image<ui8, 1>
  %w = arvr.dim %uv width : !arvr.image<ui8, 1>
  %one = arith.constant 1 : index
  %out = arvr.stage "out" [%w, %w, %one] : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arith.constant 0 : i8
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, 1>
}

// -----

arvr.kernel @inline_with_sizes(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  // expected-error @+1 {{'arvr.stage' op is inline, so it has no sizes of its own}}
  %f = arvr.stage "f" [%w, %w, %w] inline : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arith.constant 0 : i8
    arvr.yield %v : i8
  }
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arvr.access %f[%x, %y, %c] in_bounds : !arvr.image<ui8, ?>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @inline_with_block(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  // expected-error @+1 {{'arvr.stage' op is inline, so it has no GPU schedule of its own}}
  %f = arvr.stage "f" gpu_block [32, 8] inline : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arith.constant 0 : i8
    arvr.yield %v : i8
  }
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arvr.access %f[%x, %y, %c] in_bounds : !arvr.image<ui8, 1>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @inline_read_with_boundary(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  // expected-error @+1 {{'arvr.stage' op is inline, so it can only be read by 'arvr.access ... in_bounds'}}
  %f = arvr.stage "f" inline : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arith.constant 0 : i8
    arvr.yield %v : i8
  }
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arvr.access %f[%x, %y, %c] clamp : !arvr.image<ui8, 1>
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @inline_dim(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  // expected-error @+1 {{'arvr.stage' op is inline, so it can only be read by 'arvr.access ... in_bounds'}}
  %f = arvr.stage "f" inline : !arvr.image<ui8, 1> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arith.constant 0 : i8
    arvr.yield %v : i8
  }
  %fw = arvr.dim %f width : !arvr.image<ui8, 1>
  %out = arvr.stage "out" [%fw, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    %v = arith.constant 1 : i8
    arvr.yield %v : i8
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @bad_terminator(%src: !arvr.image<ui8, ?>) -> !arvr.image<ui8, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  // expected-error @+1 {{'arvr.stage' op region must end in 'arvr.yield'}}
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<ui8, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    llvm.unreachable
  }
  arvr.return %out : !arvr.image<ui8, ?>
}

// -----

arvr.kernel @argmin_of_index(%src: !arvr.image<ui8, ?>) -> !arvr.image<i32, ?> {
  %w = arvr.dim %src width : !arvr.image<ui8, ?>
  %out = arvr.stage "out" [%w, %w, %w] : !arvr.image<i32, ?> {
  ^bb0(%x: index, %y: index, %c: index):
    %lo = arith.constant 0 : i32
    %i = arvr.reduce argmin %lo to %lo : i32 {
    ^bb0(%k: i32):
      // expected-error @+1 {{'arvr.yield' op argmin compares numbers, not 'index'}}
      arvr.yield %x : index
    }
    arvr.yield %i : i32
  }
  arvr.return %out : !arvr.image<i32, ?>
}
