// Scalar reference kernels of SSIMULACRA 2 (contracts in ssimulacra2_kernels.hpp).
#include "features/ssimulacra2/ssimulacra2_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "features/ssimulacra2/ssimulacra2_constants.hpp"

namespace vmaf::ssimulacra2 {

namespace {

float srgb_to_linear(float v) {
    float p = kSrgbP[4], q = kSrgbQ[4];
    for (int i = 3; i >= 0; --i) {
        p = std::fma(p, v, kSrgbP[i]);
        q = std::fma(q, v, kSrgbQ[i]);
    }
    return v > kSrgbThreshold ? p / q : v * kSrgbLowSlope;
}

float clamp01(float v) {
    return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
}

}  // namespace

void yuv_to_linear_row(const float* y, const float* cb, const float* cr, float* r, float* g, float* b, std::size_t n,
                       const YuvCoeffs& k) {
    for (std::size_t i = 0; i < n; ++i) {
        const float yv = (y[i] - k.y_offset) * k.y_scale;
        const float u = (cb[i] - k.c_offset) * k.c_scale;
        const float v = (cr[i] - k.c_offset) * k.c_scale;
        r[i] = srgb_to_linear(clamp01(yv + k.cr_r * v));
        g[i] = srgb_to_linear(clamp01((yv + k.cb_g * u) + k.cr_g * v));
        b[i] = srgb_to_linear(clamp01(yv + k.cb_b * u));
    }
}

void downsample_row(const float* a, const float* b, std::size_t in_width, float* out) {
    const std::size_t out_width = (in_width + 1) / 2;
    for (std::size_t i = 0; i < out_width; ++i) {
        const std::size_t x0 = 2 * i, x1 = std::min(2 * i + 1, in_width - 1);
        out[i] = (((a[x0] + a[x1]) + b[x0]) + b[x1]) * 0.25f;
    }
}

float cube_root_plus(float x, float add) {
    std::uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    const std::uint32_t guess_bits = bits == 0 ? 0u : kCbrtExpBias - (bits >> 23) * kCbrtExpMul;
    float r;
    std::memcpy(&r, &guess_bits, sizeof r);
    const float x_3 = kOneThird * x;
    for (int i = 0; i < 3; ++i) {  // r -> x^(-1/3)
        const float r2 = r * r;
        r = std::fma(-x_3, r2 * r2, kFourThirds * r);
    }
    float r2 = r * r;
    r = std::fma(kOneThird, std::fma(-x, r2 * r2, r), r);
    r2 = r * r;
    return std::fma(r2, x, add);  // x^(-2/3) * x
}

void xyb_row(const float* rr, const float* gg, const float* bb, float* xx, float* yy, float* zz, std::size_t n) {
    const float neg_cbrt_bias = -std::cbrt(kOpsinBias);
    for (std::size_t i = 0; i < n; ++i) {
        const float r = rr[i], g = gg[i], b = bb[i];
        float c[3];
        for (int j = 0; j < 3; ++j) {
            float m = std::fma(kOpsin[j][0], r, std::fma(kOpsin[j][1], g, std::fma(kOpsin[j][2], b, kOpsinBias)));
            m = m > 0.0f ? m : 0.0f;
            c[j] = cube_root_plus(m, neg_cbrt_bias);
        }
        const float x = 0.5f * (c[0] - c[1]), yv = 0.5f * (c[0] + c[1]);
        xx[i] = x * 14.0f + 0.42f;
        yy[i] = yv + 0.01f;
        zz[i] = (c[2] - yv) + 0.55f;
    }
}

void blur_h_row(const float* in, float* out, std::ptrdiff_t w) {
    const BlurCoeffs& c = blur_coeffs();
    const std::ptrdiff_t nr = c.radius;
    float p[3] = {0, 0, 0}, pp[3] = {0, 0, 0};
    auto sum = [&](std::ptrdiff_t i) {
        const std::ptrdiff_t left = i - nr - 1, right = i + nr - 1;
        return (left >= 0 ? in[left] : 0.0f) + (right < w ? in[right] : 0.0f);
    };
    auto single = [&](std::ptrdiff_t i) {  // one position, state in p / pp
        const float s = sum(i);
        float o[3];
        for (int k = 0; k < 3; ++k) {
            o[k] = std::fma(c.mul_prev[k][0], p[k], std::fma(-1.0f, pp[k], s * c.mul_in[k][0]));
            pp[k] = p[k];
            p[k] = o[k];
        }
        if (i >= 0) out[i] = o[0] + (o[1] + o[2]);
    };
    std::ptrdiff_t i = -nr + 1;
    for (; i < std::min<std::ptrdiff_t>(8, w); ++i) single(i);
    for (; i < w - nr + 1 - 3; i += 4) {  // blocks of four, every input in range
        float s[4];
        for (int t = 0; t < 4; ++t) s[t] = in[i + t - nr - 1] + in[i + t + nr - 1];
        float o[3][4];
        for (int k = 0; k < 3; ++k) {
            for (int j = 0; j < 4; ++j) {
                float v = s[0] * c.mul_in[k][j];
                for (int t = 1; t < 4; ++t) v = std::fma(j >= t ? c.mul_in[k][j - t] : 0.0f, s[t], v);
                v = std::fma(c.mul_prev2[k][j], pp[k], v);
                o[k][j] = std::fma(c.mul_prev[k][j], p[k], v);
            }
            pp[k] = o[k][2];
            p[k] = o[k][3];
        }
        for (int j = 0; j < 4; ++j) out[i + j] = o[0][j] + (o[1][j] + o[2][j]);
    }
    for (; i < w; ++i) single(i);
}

void blur_v_column(const float* in, std::ptrdiff_t in_step, float* out, std::ptrdiff_t out_step, std::ptrdiff_t h) {
    const BlurCoeffs& c = blur_coeffs();
    const std::ptrdiff_t nr = c.radius;
    float p[3] = {0, 0, 0}, pp[3] = {0, 0, 0};
    for (std::ptrdiff_t i = -nr + 1; i < h; ++i) {
        const std::ptrdiff_t top = i - nr - 1, bottom = i + nr - 1;
        const float b = bottom < h ? in[bottom * in_step] : 0.0f;
        const float s = top >= 0 ? in[top * in_step] + b : b;  // libjxl adds nothing above the top
        float o[3];
        for (int k = 0; k < 3; ++k) {
            o[k] = std::fma(c.n2[k], s, std::fma(-c.d1[k], p[k], -pp[k]));
            pp[k] = p[k];
            p[k] = o[k];
        }
        if (i >= 0) out[i * out_step] = o[0] + (o[1] + o[2]);
    }
}

void blur_h(const PlaneF& in, const PlaneF& out, float* /*scratch*/) {
    for (unsigned y = 0; y < in.height; ++y) blur_h_row(in.row(y), out.row(y), in.width);
}

void blur_h_product(const PlaneF& a, const PlaneF& b, const PlaneF& out, float* scratch) {
    for (unsigned y = 0; y < a.height; ++y) {
        const float* ra = a.row(y);
        const float* rb = b.row(y);
        for (unsigned x = 0; x < a.width; ++x) scratch[x] = ra[x] * rb[x];
        blur_h_row(scratch, out.row(y), a.width);
    }
}

void blur_v(const PlaneF& in, const PlaneF& out, float* /*scratch*/) {
    for (unsigned x = 0; x < in.width; ++x) blur_v_column(in.data + x, in.stride, out.data + x, out.stride, in.height);
}

// blur_v's states: 6 rows; blur_h_product's products: up to 2 rows.
std::size_t blur_scratch_floats(unsigned width) {
    return std::size_t{6} * width;
}

void map_values_row(const float* img1, const float* mu1, const float* img2, const float* mu2, const float* s11,
                    const float* s22, const float* s12, std::size_t n, double* ssim, double* artifact, double* lost) {
    for (std::size_t i = 0; i < n; ++i) {
        const float m1 = mu1[i], m2 = mu2[i];
        const float diff = m1 - m2;
        const float num_m = static_cast<float>(1.0 - static_cast<double>(diff * diff));
        const float num_s = 2.0f * (s12[i] - m1 * m2) + kC2;
        const float den_s = (s11[i] - m1 * m1) + (s22[i] - m2 * m2) + kC2;
        ssim[i] = std::max(1.0 - static_cast<double>(num_m * num_s / den_s), 0.0);
        const double d1 =
            (1.0 + static_cast<double>(std::abs(img2[i] - m2))) / (1.0 + static_cast<double>(std::abs(img1[i] - m1))) -
            1.0;
        artifact[i] = std::max(d1, 0.0);
        lost[i] = std::max(-d1, 0.0);
    }
}

void MapSums::add_row(const double* ssim, const double* artifact, const double* lost, std::size_t n) {
    double t[6] = {s[0], s[1], s[2], s[3], s[4], s[5]};  // locals: six independent add chains
    for (std::size_t i = 0; i < n; ++i) {
        const double a = ssim[i], b = artifact[i], c = lost[i];
        const double a2 = a * a, b2 = b * b, c2 = c * c;
        t[0] += a;
        t[1] += a2 * a2;
        t[2] += b;
        t[3] += b2 * b2;
        t[4] += c;
        t[5] += c2 * c2;
    }
    for (int m = 0; m < 6; ++m) s[m] = t[m];
}

}  // namespace vmaf::ssimulacra2
