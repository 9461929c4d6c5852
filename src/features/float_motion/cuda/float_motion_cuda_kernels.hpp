// Device kernels of the float_motion twin (host-callable launchers). Images
// are dense float arrays (row stride = width).
#pragma once

#include "backends/gpu/portability.hpp"

#include <cstddef>

namespace vmaf::floatfeat::cuda {

/// A blur filter of 3 or 5 taps (the host's float constants, bit for bit).
struct MotionFilter {
    float f[5];
    int taps;
};

/// The CPU's convolve_mirror of one plane's samples as float with offset
/// -128 (pitch in bytes): vertical pass into tmp (w * h floats), horizontal
/// pass into out (w * h floats), edges mirrored without repeating the edge.
void launch_motion_blur(const void* plane, std::size_t pitch, unsigned w, unsigned h, unsigned bpc,
                        const MotionFilter& f, float* tmp, float* out, cudaStream_t s);

/// Bilinear taps of one scaled plane on the device: lo, hi, d per output
/// column (sw each), then per output row (sh each) (floatfeat::bilinear_axis).
struct BilinearTaps {
    const int *x_lo, *x_hi;
    const float* x_d;
    const int *y_lo, *y_hi;
    const float* y_d;
};

/// scale_frame(Bilinear) of a w x h image into sw x sh.
void launch_motion_scale(const float* src, unsigned w, float* dst, unsigned sw, unsigned sh, const BilinearTaps& t,
                         cudaStream_t s);

/// rows[y] = float sum over x in order of |a - b| (w x h images).
void launch_abs_diff_rows(const float* a, const float* b, unsigned w, unsigned h, float* rows, cudaStream_t s);

}  // namespace vmaf::floatfeat::cuda
