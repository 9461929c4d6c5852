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
    if (!(v > kSrgbThreshold)) return v * kSrgbLowSlope;
    float p = kSrgbP[4], q = kSrgbQ[4];
    for (int i = 3; i >= 0; --i) {
        p = p * v + kSrgbP[i];
        q = q * v + kSrgbQ[i];
    }
    return p / q;
}

float clamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

}  // namespace

void yuv_to_linear_row(const float* y, const float* cb, const float* cr, float* r, float* g, float* b,
                       std::size_t n, const YuvCoeffs& k) {
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
        r = kFourThirds * r - x_3 * (r2 * r2);
    }
    float r2 = r * r;
    r = kOneThird * (r - x * (r2 * r2)) + r;
    r2 = r * r;
    return r2 * x + add;  // x^(-2/3) * x
}

void xyb_row(const float* rr, const float* gg, const float* bb, float* xx, float* yy, float* zz, std::size_t n) {
    const float neg_cbrt_bias = -std::cbrt(kOpsinBias);
    for (std::size_t i = 0; i < n; ++i) {
        const float r = rr[i], g = gg[i], b = bb[i];
        float c[3];
        for (int j = 0; j < 3; ++j) {
            float m = kOpsin[j][0] * r + (kOpsin[j][1] * g + (kOpsin[j][2] * b + kOpsinBias));
            m = m > 0.0f ? m : 0.0f;
            c[j] = cube_root_plus(m, neg_cbrt_bias);
        }
        const float x = 0.5f * (c[0] - c[1]), yv = 0.5f * (c[0] + c[1]);
        xx[i] = x * 14.0f + 0.42f;
        yy[i] = yv + 0.01f;
        zz[i] = (c[2] - yv) + 0.55f;
    }
}

void multiply_row(const float* a, const float* b, float* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) out[i] = a[i] * b[i];
}

void blur_line(const float* in, std::ptrdiff_t in_step, float* out, std::ptrdiff_t out_step, std::ptrdiff_t len) {
    const BlurCoeffs& c = blur_coeffs();
    const std::ptrdiff_t n_r = c.radius;
    float prev[3] = {0, 0, 0}, prev2[3] = {0, 0, 0};
    for (std::ptrdiff_t i = -n_r + 1; i < len; ++i) {
        const std::ptrdiff_t left = i - n_r - 1, right = i + n_r - 1;
        const float s = (left >= 0 ? in[left * in_step] : 0.0f) + (right < len ? in[right * in_step] : 0.0f);
        float y[3];
        for (int k = 0; k < 3; ++k) {
            y[k] = c.n2[k] * s + (-(c.d1[k] * prev[k]) - prev2[k]);
            prev2[k] = prev[k];
            prev[k] = y[k];
        }
        if (i >= 0) out[i * out_step] = y[0] + (y[1] + y[2]);
    }
}

void blur_h(const PlaneF& in, const PlaneF& out, float* /*scratch*/) {
    for (unsigned y = 0; y < in.height; ++y) blur_line(in.row(y), 1, out.row(y), 1, in.width);
}

void blur_v(const PlaneF& in, const PlaneF& out) {
    for (unsigned x = 0; x < in.width; ++x) blur_line(in.data + x, in.stride, out.data + x, out.stride, in.height);
}

std::size_t blur_scratch_floats(unsigned width) { return std::size_t{2} * kMaxBlurLanes * (width + 16); }

double MapSums::total(int map) const {
    const double* p = s[map];
    return ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));
}

void maps_row(const float* img1, const float* mu1, const float* img2, const float* mu2, const float* s11,
              const float* s22, const float* s12, std::size_t n, MapSums& acc) {
    maps_range(img1, mu1, img2, mu2, s11, s22, s12, 0, n, acc);
}

void maps_range(const float* img1, const float* mu1, const float* img2, const float* mu2, const float* s11,
                const float* s22, const float* s12, std::size_t begin, std::size_t end, MapSums& acc) {
    for (std::size_t i = begin; i < end; ++i) {
        const int lane = static_cast<int>(i % MapSums::kLanes);
        const float m1 = mu1[i], m2 = mu2[i];
        const float diff = m1 - m2;
        const float num_m = static_cast<float>(1.0 - static_cast<double>(diff * diff));
        const float num_s = 2.0f * (s12[i] - m1 * m2) + kC2;
        const float den_s = (s11[i] - m1 * m1) + (s22[i] - m2 * m2) + kC2;
        const double ssim = std::max(1.0 - static_cast<double>(num_m * num_s / den_s), 0.0);
        const double d1 = (1.0 + static_cast<double>(std::abs(img2[i] - mu2[i]))) /
                              (1.0 + static_cast<double>(std::abs(img1[i] - mu1[i]))) -
                          1.0;
        const double artifact = std::max(d1, 0.0), lost = std::max(-d1, 0.0);
        const double vals[3] = {ssim, artifact, lost};
        for (int m = 0; m < 3; ++m) {
            const double sq = vals[m] * vals[m];
            acc.s[2 * m][lane] += vals[m];
            acc.s[2 * m + 1][lane] += sq * sq;
        }
    }
}

}  // namespace vmaf::ssimulacra2
