// Scalar reference kernels of the float SSIM features (contracts in ssim_kernels.hpp).
#include "features/ssim_common/ssim_kernels.hpp"

#include <cmath>
#include <cstddef>

namespace vmaf::ssimfeat {

void conv_h(const float* f, int fw, const float* a, const float* b, Tap tap, float* out, int n) {
    for (int x = 0; x < n; ++x) {
        double sum = 0.0;
        for (int u = 0; u < fw; ++u) {
            float g = a[x + u];
            if (tap == Tap::Square) g = g * g;
            if (tap == Tap::Product) g = g * b[x + u];
            sum += g * f[u];
        }
        out[x] = static_cast<float>(sum);
    }
}

void conv_v(const float* f, int fw, const float* const* rows, float* out, int n) {
    for (int x = 0; x < n; ++x) {
        double sum = 0.0;
        for (int v = 0; v < fw; ++v) sum += rows[v][x] * f[v];
        out[x] = static_cast<float>(sum);
    }
}

SsimConsts ssim_consts() {
    const float k1 = 0.01f, k2 = 0.03f;
    const int range = 255;
    const float c1 = (k1 * range) * (k1 * range), c2 = (k2 * range) * (k2 * range);
    return {c1, c2, c2 / 2.0f};
}

void ssim_row(const float* mu1, const float* mu2, const float* xx, const float* yy, const float* xy, int n,
              const SsimConsts& k, SsimSums& sums) {
    for (int x = 0; x < n; ++x) {
        const float m1 = mu1[x], m2 = mu2[x];
        float v1 = xx[x] - m1 * m1, v2 = yy[x] - m2 * m2;
        v1 = 0.0 > v1 ? 0.0f : v1;  // upstream clamps through a double comparison; NaN and -0.0 pass
        v2 = 0.0 > v2 ? 0.0f : v2;
        const float cov = xy[x] - m1 * m2;
        const float sd12 = std::sqrt(v1 * v2);  // correctly rounded, as upstream's double sqrt rounded to float
        const double l = (2.0 * m1 * m2 + k.c1) / (m1 * m1 + m2 * m2 + k.c1);
        const double c = (2.0 * sd12 + k.c2) / (v1 + v2 + k.c2);
        const float cov_c = (cov < 0.0f && sd12 <= 0.0f) ? 0.0f : cov;
        const float s = (cov_c + k.c3) / (sd12 + k.c3);
        sums.ssim += l * c * s;
        sums.l += l;
        sums.c += c;
        sums.s += s;
    }
}

void decimate_row(const float* k, int kw, int kh, const float* const* rows, int step, float* out, int n) {
    for (int x = 0; x < n; ++x) {
        double sum = 0.0;
        for (int v = 0; v < kh; ++v) {
            const float* r = rows[v] + static_cast<std::ptrdiff_t>(x) * step;
            for (int u = 0; u < kw; ++u) sum += r[u] * k[v * kw + u];
        }
        out[x] = static_cast<float>(sum);
    }
}

}  // namespace vmaf::ssimfeat
