// Kernels of SSIMULACRA 2 (libjxl tools/ssimulacra2): the hot loops of its
// pipeline, each a scalar reference whose floating-point order every SIMD
// variant (ssimulacra2_simd.cpp) reproduces bit for bit.
//
// The arithmetic is libjxl's as its x86 build runs it (Highway AVX2/AVX-512
// code): fma(a, b, c) below is a fused multiply-add (std::fma, one
// rounding) exactly where libjxl uses MulAdd / NegMulAdd / NegMulSub; every
// other product is rounded before the add (the project builds without
// contraction). Planes are float, row-major, `stride` in floats.
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
/// R' = y' + cr_r * cr, G' = (y' + cb_g * cb) + cr_g * cr, B' = y' + cb_b * cb
/// (plain float products and sums).
struct YuvCoeffs {
    float y_offset, y_scale, c_offset, c_scale;
    float cr_r, cb_g, cr_g, cb_b;
};

/// One row of n pixels (luma and already upsampled chroma code values) to
/// linear-light sRGB: R'G'B' as above, clamped to [0, 1] (what an RGB picture
/// file holds), then libjxl's sRGB EOTF: v * (1 / 12.92) up to 0.04045, above
/// it P(v) / Q(v), degree 4 over 4, each by Horner's rule with fma, one
/// division (libjxl's TF_SRGB::DisplayFromEncoded, max error ~5e-7).
void yuv_to_linear_row(const float* y, const float* cb, const float* cr, float* r, float* g, float* b, std::size_t n,
                       const YuvCoeffs& k);

/// 2x2 box downsampling of one output row: out[i] = (((a[2i] + a[2i+1]) +
/// b[2i]) + b[2i+1]) * 0.25f, columns past in_width - 1 clamped to it (as
/// libjxl; pass b == a for a clamped bottom row). out_width = ceil(in_width / 2).
void downsample_row(const float* a, const float* b, std::size_t in_width, float* out);

/// Linear sRGB (r, g, b) -> libjxl XYB made positive (MakePositiveXYB) in
/// (x, y, bb), one row of n pixels: m_i = fma(M[i][0], r, fma(M[i][1], g,
/// fma(M[i][2], b, bias))) with libjxl's opsin absorbance matrix M and bias,
/// clamped at 0; c_i = cube_root_plus(m_i, -cbrt(bias)); then X = 0.5 (c0 -
/// c1) * 14 + 0.42, Y = 0.5 (c0 + c1) + 0.01, B = (c2 - 0.5 (c0 + c1)) + 0.55.
/// The outputs may be the inputs (in place).
void xyb_row(const float* r, const float* g, const float* b, float* x, float* y, float* bb, std::size_t n);

/// Recursive Gaussian of sigma 1.5 (Charalampidis 2016, libjxl's
/// CreateRecursiveGaussian): radius N = 5 and, for k in {1, 3, 5} (index 0..2),
/// the filter n2, d1 and libjxl's 4-output expansion of the recursion
/// (mul_in, mul_prev, mul_prev2 per output lane 0..3), all rounded to float
/// from double.
struct BlurCoeffs {
    int radius = 0;
    std::array<float, 3> n2{}, d1{};
    float mul_in[3][4]{}, mul_prev[3][4]{}, mul_prev2[3][4]{};
};
const BlurCoeffs& blur_coeffs();

/// Horizontal pass (libjxl's FastGaussian1D) of every row of `in` into the
/// same row of `out`, zero padding outside the row. With s(i) = in[i-N-1] +
/// in[i+N-1] (a missing side 0) and per k a state (p, pp) from zero, output
/// positions i = -N+1 .. width-1 are produced in three phases:
///  - i < min(8, width), and after the blocks up to width - 1, one at a time:
///      o_k = fma(mul_prev[k][0], p, fma(-1, pp, n2_k * s(i)))
///  - blocks of 4 positions i..i+3 while i < width - 7:
///      o_k[j] = mul_in[k][j] s(i) + sum over t = 1..3 of fma(mul_in[k][j-t] (0 if j < t), s(i+t), .)
///               then fma(mul_prev2[k][j], pp, .), then fma(mul_prev[k][j], p, .)
///    with p, pp then the block's last and second-last outputs;
///  and out[i] = o_1 + (o_3 + o_5) for i >= 0.
/// `scratch` holds at least blur_scratch_floats(width) floats.
void blur_h(const PlaneF& in, const PlaneF& out, float* scratch);
/// blur_h of the product plane a * b (each product rounded to float): the
/// blurred squares and cross term of the SSIM map. `scratch` as blur_h.
void blur_h_product(const PlaneF& a, const PlaneF& b, const PlaneF& out, float* scratch);
/// Vertical pass (libjxl's FastGaussianVertical) of every column, zero padded
/// (s(i) = in[i-N-1] + in[i+N-1], or just in[i+N-1] / 0 while i-N-1 is above
/// the top, as libjxl):
///   y_k = fma(n2_k, s(i), fma(-d1_k, y_k[-1], -y_k[-2])), out = y_1 + (y_3 + y_5).
/// `scratch` holds at least blur_scratch_floats(width) floats.
void blur_v(const PlaneF& in, const PlaneF& out, float* scratch);
/// Scratch floats the blur kernels need for a plane of this width (any variant).
std::size_t blur_scratch_floats(unsigned width);
/// blur_h of one row (the scalar reference, also used for leftover rows).
void blur_h_row(const float* in, float* out, std::ptrdiff_t width);
/// blur_v of one column at in[i * in_step] into out[i * out_step].
void blur_v_column(const float* in, std::ptrdiff_t in_step, float* out, std::ptrdiff_t out_step, std::ptrdiff_t height);

/// Per-pixel values of the error maps for one row (libjxl's SSIMMap and
/// EdgeDiffMap before summation), all in double:
///   num_m = float(1.0 - double((mu1 - mu2) * (mu1 - mu2)))
///   num_s = 2 * (s12 - mu1 * mu2) + C2,  den_s = (s11 - mu1^2) + (s22 - mu2^2) + C2   (float)
///   ssim[i]     = max(1.0 - double(num_m * num_s / den_s), 0.0)
///   d1          = (1.0 + double|img2 - mu2|) / (1.0 + double|img1 - mu1|) - 1.0
///   artifact[i] = max(d1, 0.0),  lost[i] = max(-d1, 0.0)
/// (max(v, 0.0) as std::max: v < 0 ? 0 : v).
void map_values_row(const float* img1, const float* mu1, const float* img2, const float* mu2, const float* s11,
                    const float* s22, const float* s12, std::size_t n, double* ssim, double* artifact, double* lost);

/// Running sums of one channel's maps in libjxl's order (one pixel after
/// another, row after row): 0 ssim, 1 ssim^4, 2 artifact, 3 artifact^4,
/// 4 detail lost, 5 its ^4, x^4 as (x^2)^2.
struct MapSums {
    double s[6] = {};
    void add_row(const double* ssim, const double* artifact, const double* lost, std::size_t n);
};

/// Kernel table: scalar reference by default, overridden per SIMD target.
/// Every entry gives bit-identical results for every input.
struct Kernels {
    decltype(&ssimulacra2::yuv_to_linear_row) yuv_to_linear_row = &ssimulacra2::yuv_to_linear_row;
    decltype(&ssimulacra2::downsample_row) downsample_row = &ssimulacra2::downsample_row;
    decltype(&ssimulacra2::xyb_row) xyb_row = &ssimulacra2::xyb_row;
    decltype(&ssimulacra2::blur_h) blur_h = &ssimulacra2::blur_h;
    decltype(&ssimulacra2::blur_h_product) blur_h_product = &ssimulacra2::blur_h_product;
    decltype(&ssimulacra2::blur_v) blur_v = &ssimulacra2::blur_v;
    decltype(&ssimulacra2::map_values_row) map_values_row = &ssimulacra2::map_values_row;
};

/// The SIMD targets compiled for SSIMULACRA 2 (defined in ssimulacra2_simd.cpp).
simd::KernelRegistry<Kernels>& ssimulacra2_registry();

}  // namespace vmaf::ssimulacra2
