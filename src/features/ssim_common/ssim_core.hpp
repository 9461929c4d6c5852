// The SSIM computations of upstream libvmaf's float_ssim and float_ms_ssim
// (its iqa code: Gaussian 11x11 window applied separably over the "valid"
// region, per-pixel luminance/contrast/structure terms, means rounded to
// float; MS-SSIM over 5 dyadic scales made by a 9x9 low-pass decimation).
#pragma once

#include <array>
#include <string_view>

#include "features/float_common/float_image.hpp"
#include "features/ssim_common/ssim_kernels.hpp"

namespace vmaf::ssimfeat {

using floatfeat::FloatImage;

/// Width of the Gaussian window; SSIM maps are (w - 10) x (h - 10).
inline constexpr int kWindow = 11;
/// Number of MS-SSIM scales.
inline constexpr int kScales = 5;

/// Mean SSIM and mean l, c, s terms of one image pair, each rounded to float
/// as upstream returns them.
struct SsimLcs {
    float ssim, l, c, s;
};

/// 1-D Gaussian (sigma 1.5) of the SSIM window, upstream's float constants.
inline constexpr float kSsimGauss[kWindow] = {0.001028f, 0.007599f, 0.036001f, 0.109361f, 0.213006f, 0.266012f,
                                              0.213006f, 0.109361f, 0.036001f, 0.007599f, 0.001028f};

/// SSIM of two equally sized images of at least kWindow x kWindow samples.
SsimLcs iqa_ssim(const SsimKernels& k, const FloatImage& ref, const FloatImage& cmp);

/// The means iqa_ssim returns from the raster-order sums of a dw x dh SSIM map.
SsimLcs ssim_means(const SsimSums& sums, int dw, int dh);

/// Upstream's automatic float_ssim downscale factor: max(1, round(min(w, h) / 256)).
int auto_scale(unsigned w, unsigned h);

/// Size of an image decimated by `factor`: w / factor + (w & 1) (upstream's formula, also for odd factors).
unsigned decimated_size(unsigned n, int factor);

/// Decimation of `img` by `factor` with the kw x kw 2-D filter `k` (row-major),
/// taps around (x * factor, y * factor) from -kw/2 to kw/2 - (kw even),
/// edges mirrored with the edge sample repeated (-1 -> 0, n -> n - 1).
FloatImage decimate(const SsimKernels& k, const FloatImage& img, int factor, const float* kernel, int kw);

/// float_ssim of two equally sized luma planes of `bpc` bits (samples as
/// floatfeat::to_float with offset 0): decimated by `scale` (1: none) with a
/// scale x scale box filter, then iqa_ssim. Throws vmaf::Error (Input) if the
/// (decimated) size is below the window.
SsimLcs float_ssim(const SsimKernels& k, const Plane& ref, const Plane& cmp, unsigned bpc, int scale);

/// float_ms_ssim: the score and each scale's l, c, s (as doubles of the floats upstream keeps).
struct MsSsim {
    double score;
    std::array<double, kScales> l, c, s;
};

/// MS-SSIM's 9x9 low-pass (9/7 biorthogonal wavelet), upstream's 2-D float table.
inline constexpr int kLpf = 9;
inline constexpr float kLpf2d[kLpf * kLpf] = {
    0.000714f,  -0.000450f, -0.002090f, 0.007132f,  0.016114f,  0.007132f,  -0.002090f, -0.000450f, 0.000714f,
    -0.000450f, 0.000283f,  0.001316f,  -0.004490f, -0.010146f, -0.004490f, 0.001316f,  0.000283f,  -0.000450f,
    -0.002090f, 0.001316f,  0.006115f,  -0.020867f, -0.047149f, -0.020867f, 0.006115f,  0.001316f,  -0.002090f,
    0.007132f,  -0.004490f, -0.020867f, 0.071207f,  0.160885f,  0.071207f,  -0.020867f, -0.004490f, 0.007132f,
    0.016114f,  -0.010146f, -0.047149f, 0.160885f,  0.363505f,  0.160885f,  -0.047149f, -0.010146f, 0.016114f,
    0.007132f,  -0.004490f, -0.020867f, 0.071207f,  0.160885f,  0.071207f,  -0.020867f, -0.004490f, 0.007132f,
    -0.002090f, 0.001316f,  0.006115f,  -0.020867f, -0.047149f, -0.020867f, 0.006115f,  0.001316f,  -0.002090f,
    -0.000450f, 0.000283f,  0.001316f,  -0.004490f, -0.010146f, -0.004490f, 0.001316f,  0.000283f,  -0.000450f,
    0.000714f,  -0.000450f, -0.002090f, 0.007132f,  0.016114f,  0.007132f,  -0.002090f, -0.000450f, 0.000714f,
};

/// Smallest width and height float_ms_ssim accepts (upstream's check that
/// every scale keeps at least the window).
inline constexpr unsigned kMsSsimMinSize = kWindow << (kScales - 1);

/// Throws vmaf::Error (Input) if upstream's product of the weighted terms is infinite.
MsSsim float_ms_ssim(const SsimKernels& k, const FloatImage& ref, const FloatImage& cmp);
/// The MS-SSIM of the five scales' means (scale 0 first): upstream's product
/// of the weighted terms; throws vmaf::Error (Input) as float_ms_ssim.
MsSsim ms_ssim_combine(const std::array<SsimLcs, kScales>& v);

/// Upstream's dB conversion: min(-10 log10(1 - score), max_db).
double to_db(double score, double max_db);
/// Upstream's clip for clip_db: ceil(10 log10(peak^2 / (0.5 / (w * h)))), peak = 2^bpc - 1.
double max_db(unsigned bpc, unsigned w, unsigned h);

}  // namespace vmaf::ssimfeat
