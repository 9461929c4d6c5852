// Kernel table of the float SSIM features (float_ssim, float_ms_ssim): the
// "valid" separable Gaussian convolution accumulated in double, the per-pixel
// SSIM terms, and the 2-D decimation filter.
//
// Every kernel evaluates upstream libvmaf's iqa expressions operation by
// operation (float where it uses float, double where it uses double, each sum
// from +0.0 in tap order), so every SIMD variant is bit-identical to the
// scalar reference. The build uses -ffp-contract=off.
#pragma once

#include "core/simd.hpp"
#include "features/float_common/float_kernels.hpp"

namespace vmaf::ssimfeat {

using floatfeat::Tap;

/// Horizontal "valid" pass of one row: out[x] = (float) sum over u < fw of
/// (double)(f[u] * g(x + u)), the sum in double from +0.0 in tap order and
/// each product rounded to float first, where g(i) is a[i], a[i] * a[i]
/// (Square) or a[i] * b[i] (Product), all in float. x in [0, n); reads a
/// (and b) at [0, n + fw - 1).
void conv_h(const float* f, int fw, const float* a, const float* b, Tap tap, float* out, int n);

/// Vertical "valid" pass of one output row: out[x] = (float) sum over v < fw
/// of (double)(rows[v][x] * f[v]), same evaluation as conv_h; x in [0, n).
void conv_v(const float* f, int fw, const float* const* rows, float* out, int n);

/// Running sums of the SSIM map in upstream's raster order (all double).
struct SsimSums {
    double ssim = 0, l = 0, c = 0, s = 0;
};

/// Stabilising constants: C1 = (0.01 * 255)^2, C2 = (0.03 * 255)^2, C3 = C2 / 2, in float.
struct SsimConsts {
    float c1, c2, c3;
};
SsimConsts ssim_consts();

/// One row of the SSIM map from the filtered means mu1/mu2 and filtered
/// squares/product xx, yy, xy (variances derived and clamped at 0 as upstream
/// does): per pixel l and c in double, s in float, and sums.ssim += l * c * s,
/// sums.l += l, sums.c += c, sums.s += s, pixel by pixel in x order.
void ssim_row(const float* mu1, const float* mu2, const float* xx, const float* yy, const float* xy, int n,
              const SsimConsts& k, SsimSums& sums);

/// One output row of a 2-D decimation filter: out[x] = (float) sum over v < kh,
/// u < kw (v outer, u inner) of (double)(rows[v][x * step + u] * k[v * kw + u]),
/// x in [0, n). rows[v] already point at the first tap of output 0 (edges
/// mirrored by the caller into padded rows).
void decimate_row(const float* k, int kw, int kh, const float* const* rows, int step, float* out, int n);

struct SsimKernels {
    using ConvHFn = void (*)(const float*, int, const float*, const float*, Tap, float*, int);
    using ConvVFn = void (*)(const float*, int, const float* const*, float*, int);
    using SsimRowFn = void (*)(const float*, const float*, const float*, const float*, const float*, int,
                               const SsimConsts&, SsimSums&);
    using DecimateFn = void (*)(const float*, int, int, const float* const*, int, float*, int);
    ConvHFn conv_h = &ssimfeat::conv_h;
    ConvVFn conv_v = &ssimfeat::conv_v;
    SsimRowFn ssim_row = &ssimfeat::ssim_row;
    DecimateFn decimate_row = &ssimfeat::decimate_row;
};

/// The SIMD targets compiled for the SSIM features (ssim_simd.cpp).
simd::KernelRegistry<SsimKernels>& ssim_registry();

}  // namespace vmaf::ssimfeat
