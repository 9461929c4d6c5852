// Device kernels of the SpEED twins (host-callable launchers): one image's
// prescaling, anti-alias filter and 1/16 decimation, local-mean removal and
// 5x5-block covariance, as speed::Estimator computes them on the CPU.
// Plain C++17 (included by nvcc and by the host twins).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace vmaf::speed::cuda {

/// Longest Gaussian filter of any accepted speed_kernelscale (27 taps at 3).
constexpr int kMaxTaps = 40;

/// A separable filter's taps (the host's float values, bit for bit).
struct Filter {
    float f[kMaxTaps];
    int taps;
};

/// Device copies of speed::rescale_axis's tables (columns, then rows).
struct RescaleTables {
    const int *x_idx, *y_idx;
    const float *x_w, *y_w;
};

/// Elements of the covariance's lower triangle (Estimator::kCovPairs).
constexpr unsigned kCovPairs = 325;

/// One image's sizes and filters (Estimator::Geometry and its filters).
/// `method` is the prescaling (a speed::Rescale) or -1 when the image is
/// filtered as loaded (no prescaling, or one that keeps the size).
struct Plan {
    unsigned w, h, sw, sh, op_w, op_h, trunc_w, trunc_h, sub_w, sub_h;
    int method;
    Filter antialias, lowpass;
    RescaleTables tables;
};

/// Floats of one image's result: the band-passed decimated image (trunc_h x
/// trunc_w, packed), then the kCovPairs covariance elements.
inline std::size_t result_floats(const Plan& p) {
    return std::size_t{p.trunc_w} * p.trunc_h + kCovPairs;
}
/// Bytes of device scratch that launch_bands and launch_moments over up to
/// `images` images use (reusable once their work completes on the stream):
/// per image, the decimated image (op_w x op_h floats) and the 25 means.
std::size_t scratch_bytes(const Plan& p, unsigned images);

/// out (w x h floats, packed) = the plane's samples as the CPU loads them:
/// 8-bit v + offset, deeper v / 2^(bpc-8) + offset (bpc 8, 10, 12 or 16; pitch in bytes).
void launch_load(const void* plane, std::size_t pitch, unsigned w, unsigned h, unsigned bpc, float offset, float* out,
                 cudaStream_t s);

/// Images one batched filter launch takes (launch_bands splits larger counts).
constexpr unsigned kMaxImages = 4;

/// A plane in device memory (pitch in bytes).
struct PlaneIn {
    const void* data;
    std::size_t pitch;
};

/// The band-passed images (each result's first trunc_w * trunc_h floats) of
/// `images` results at results + k result_floats(p), from the planes'
/// samples (loaded with `offset`; p.w x p.h read from each).
void launch_bands(const Plan& p, const PlaneIn* planes, unsigned images, unsigned bpc, float offset, void* scratch,
                  float* results, cudaStream_t s);

/// Two loaded planes (p.w x p.h floats each, packed) whose difference a - b is filtered.
struct DiffIn {
    const float *a, *b;
};

/// The band-passed images of `images` results from frame differences.
void launch_bands(const Plan& p, const DiffIn* diffs, unsigned images, void* scratch, float* results, cudaStream_t s);

/// The covariance elements of `images` results at results + k result_floats(p)
/// (k < images), whose band-passed images are in place (enqueued before on `s`).
void launch_moments(const Plan& p, float* results, unsigned images, void* scratch, cudaStream_t s);

}  // namespace vmaf::speed::cuda
