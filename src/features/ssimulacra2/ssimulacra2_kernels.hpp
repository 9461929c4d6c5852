// Kernels of SSIMULACRA 2 (libjxl tools/ssimulacra2): the hot loops of its
// pipeline, each a scalar reference whose floating-point order every SIMD
// variant (ssimulacra2_simd.cpp) reproduces bit for bit.
//
// Planes are float, row-major, `stride` in floats. All arithmetic is float
// unless a comment says double; no fused multiply-add anywhere (the project
// builds without contraction), so every product is rounded before the add.
#pragma once

#include <array>
#include <cstddef>

#include "core/simd.hpp"

namespace vmaf::ssimulacra2 {

/// A float plane view.
struct PlaneF {
    float* data = nullptr;
    std::ptrdiff_t stride = 0;  ///< in floats
    unsigned width = 0, height = 0;
    float* row(unsigned y) const { return data + stride * static_cast<std::ptrdiff_t>(y); }
};

/// Y'CbCr -> R'G'B' coefficients for samples given as float code values.
/// y' = (Y - y_offset) * y_scale, cb = (Cb - c_offset) * c_scale (cr alike),
/// R' = y' + cr_r * cr, G' = (y' + cb_g * cb) + cr_g * cr, B' = y' + cb_b * cb.
struct YuvCoeffs {
    float y_offset, y_scale, c_offset, c_scale;
    float cr_r, cb_g, cr_g, cb_b;
};

/// One row of n pixels (luma and already upsampled chroma code values) to
/// linear-light sRGB in [0, 1]: R'G'B' as above, clamped to [0, 1] (what an
/// RGB picture file holds), then the sRGB EOTF: v / 12.92 up to 0.04045, above
/// it libjxl's rational approximation P(v) / Q(v) (degree 4/4, Horner order,
/// one exact division; libjxl's TF_SRGB, max error ~5e-7).
void yuv_to_linear_row(const float* y, const float* cb, const float* cr, float* r, float* g, float* b,
                       std::size_t n, const YuvCoeffs& k);

/// 2x2 box downsampling of one output row: out[i] = (((a[2i] + a[2i+1]) +
/// b[2i]) + b[2i+1]) * 0.25f, columns past in_width - 1 clamped to it (as
/// libjxl; pass b == a for a clamped bottom row). out_width = ceil(in_width / 2).
void downsample_row(const float* a, const float* b, std::size_t in_width, float* out);

/// Linear sRGB (r, g, b) -> libjxl XYB made positive (MakePositiveXYB) in
/// (x, y, bb), one row of n pixels: m_i = max(0, M[i][0] r + (M[i][1] g + (M[i][2] b + bias))) with
/// libjxl's opsin absorbance matrix M and bias, c_i = cbrt(m_i) - cbrt(bias)
/// (libjxl's Newton cube root, see cube_root), then X = 0.5 (c0 - c1) * 14 +
/// 0.42, Y = 0.5 (c0 + c1) + 0.01, B = (c2 - 0.5 (c0 + c1)) + 0.55.
void xyb_row(const float* r, const float* g, const float* b, float* x, float* y, float* bb, std::size_t n);

/// out[i] = a[i] * b[i].
void multiply_row(const float* a, const float* b, float* out, std::size_t n);

/// Coefficients of the recursive Gaussian (Charalampidis 2016, as libjxl's
/// CreateRecursiveGaussian) for sigma 1.5: radius N and, per k in {1, 3, 5},
/// n2[k] and d1[k] rounded to float.
struct BlurCoeffs {
    int radius = 0;
    std::array<float, 3> n2{}, d1{};
};
/// SSIMULACRA 2's blur: sigma = 1.5 (radius 5).
const BlurCoeffs& blur_coeffs();

/// One 1-D pass of the recursive Gaussian over a line `in[0..len)` with zero
/// padding: for i = -N+1 .. len-1, s = in[i-N-1] + in[i+N-1] (0 outside),
/// per k: y_k = n2_k * s + (-(d1_k * y_k[-1]) - y_k[-2]) from zero state,
/// and out[i] = y_1 + (y_3 + y_5) for i >= 0.
/// Horizontal pass: every row of `in` into the same row of `out` (same size).
/// `scratch` holds at least blur_scratch_floats(width) floats.
void blur_h(const PlaneF& in, const PlaneF& out, float* scratch);
/// Vertical pass: every column of `in` into the same column of `out`.
void blur_v(const PlaneF& in, const PlaneF& out);
/// The 1-D recursion over `len` samples in[i * in_step] into out[i * out_step] (the
/// scalar reference of both passes).
void blur_line(const float* in, std::ptrdiff_t in_step, float* out, std::ptrdiff_t out_step, std::ptrdiff_t len);
/// Scratch floats blur_h needs for a plane of this width (any kernel variant).
std::size_t blur_scratch_floats(unsigned width);

/// Sums of the six error maps of one channel, each kept as 8 partial sums:
/// pixel x of every row adds to partial x % 8, in row order; total() adds
/// the partials in a fixed tree. Maps: 0 ssim, 1 ssim^4, 2 artifact,
/// 3 artifact^4, 4 detail lost, 5 detail lost^4 (double precision).
struct MapSums {
    static constexpr int kLanes = 8;
    double s[6][kLanes] = {};
    double total(int map) const;
};

/// One row of the SSIM and edge-difference maps into `acc` (libjxl's SSIMMap
/// and EdgeDiffMap, per pixel):
///   num_m = float(1.0 - double((mu1 - mu2) * (mu1 - mu2)))
///   num_s = 2 * (s12 - mu1 * mu2) + C2,  den_s = (s11 - mu1^2) + (s22 - mu2^2) + C2
///   ssim  = max(0.0, 1.0 - double(num_m * num_s / den_s))
///   d1    = (1.0 + double|img2 - mu2|) / (1.0 + double|img1 - mu1|) - 1.0
///   artifact = max(d1, 0.0), detail_lost = max(-d1, 0.0)
/// each added with its 4th power (x^2 squared, in double).
void maps_row(const float* img1, const float* mu1, const float* img2, const float* mu2, const float* s11,
              const float* s22, const float* s12, std::size_t n, MapSums& acc);

/// maps_row over pixels [begin, end) of the row only (pixel x still adds to
/// partial x % 8): the reference SIMD variants finish a row with.
void maps_range(const float* img1, const float* mu1, const float* img2, const float* mu2, const float* s11,
                const float* s22, const float* s12, std::size_t begin, std::size_t end, MapSums& acc);

/// Kernel table: scalar reference by default, overridden per SIMD target.
/// Every entry gives bit-identical results for every input.
struct Kernels {
    decltype(&ssimulacra2::yuv_to_linear_row) yuv_to_linear_row = &ssimulacra2::yuv_to_linear_row;
    decltype(&ssimulacra2::downsample_row) downsample_row = &ssimulacra2::downsample_row;
    decltype(&ssimulacra2::xyb_row) xyb_row = &ssimulacra2::xyb_row;
    decltype(&ssimulacra2::multiply_row) multiply_row = &ssimulacra2::multiply_row;
    decltype(&ssimulacra2::blur_h) blur_h = &ssimulacra2::blur_h;
    decltype(&ssimulacra2::blur_v) blur_v = &ssimulacra2::blur_v;
    decltype(&ssimulacra2::maps_row) maps_row = &ssimulacra2::maps_row;
};

/// The SIMD targets compiled for SSIMULACRA 2 (defined in ssimulacra2_simd.cpp).
simd::KernelRegistry<Kernels>& ssimulacra2_registry();

}  // namespace vmaf::ssimulacra2
