#include "features/float_common/float_kernels.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace vmaf::floatfeat {

VifStatParams vif_stat_params(double sigma_nsq, double gain_limit) {
    VifStatParams p;
    p.sigma_nsq = sigma_nsq;
    p.gain_limit = static_cast<float>(gain_limit);
    p.sigma_max_inv = static_cast<float>(std::pow(static_cast<float>(sigma_nsq), 2.0f) / (255.0 * 255.0));
    float t = static_cast<float>(sigma_nsq);
    if (static_cast<double>(t) < sigma_nsq) t = std::nextafter(t, std::numeric_limits<float>::infinity());
    p.nsq_threshold = t;
    return p;
}

float vif_log2(float x) {
    static constexpr float poly[9] = {-0.012671635276421f, 0.064841182402670f,  -0.157048836463065f,
                                      0.257167726303123f,  -0.353800560300520f, 0.480131410397451f,
                                      -0.721314327952201f, 1.442694803896991f,  0};
    if (x == 0) return -std::numeric_limits<float>::infinity();
    if (x < 0) return std::numeric_limits<float>::quiet_NaN();
    std::uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    const std::uint32_t exponent = (u & 0x7F800000u) >> 23;
    const std::uint32_t rem_bits = (u & 0x007FFFFFu) | 0x3F800000u;
    float rem;
    std::memcpy(&rem, &rem_bits, sizeof rem);
    const float base = static_cast<float>(static_cast<std::int32_t>(exponent) - 127);
    const float t = rem - 1.0f;
    float v = 0;
    for (float c : poly) v = v * t + c;
    return base + v;
}

void vif_stat_row(const float* mu1, const float* mu2, const float* xx, const float* yy, const float* xy, int w,
                  const VifStatParams& p, float* num_out, float* den_out) {
    const float eps = 1.0e-10f;
    const double nsq = p.sigma_nsq;
    for (int j = 0; j < w; ++j) {
        const float m1 = mu1[j], m2 = mu2[j];
        float s1 = xx[j] - m1 * m1;
        float s2 = yy[j] - m2 * m2;
        const float s12 = xy[j] - m1 * m2;
        s1 = s1 > 0.0f ? s1 : 0.0f;
        s2 = s2 > 0.0f ? s2 : 0.0f;
        float g = s12 / (s1 + eps);
        float sv = s2 - g * s12;
        if (s1 < eps) {
            g = 0.0f;
            sv = s2;
            s1 = 0.0f;
        }
        if (s2 < eps) {
            g = 0.0f;
            sv = 0.0f;
        }
        if (g < 0.0f) {
            sv = s2;
            g = 0.0f;
        }
        sv = sv > eps ? sv : eps;
        g = g < p.gain_limit ? g : p.gain_limit;
        float num = vif_log2(static_cast<float>(1.0f + (g * g * s1) / (sv + nsq)));
        float den = vif_log2(static_cast<float>(1.0f + s1 / nsq));
        if (s12 < 0.0f) num = 0.0f;
        if (s1 < nsq) {
            num = 1.0f - s2 * p.sigma_max_inv;
            den = 1.0f;
        }
        num_out[j] = num;
        den_out[j] = den;
    }
}

void filter2d_row(const float* f, int fw, const float* const* rows, float* out, int w) {
    const int r = fw / 2;
    for (int j = 0; j < w; ++j) {
        float acc = 0;
        for (int fi = 0; fi < fw; ++fi) {
            float inner = 0;
            for (int fj = 0; fj < fw; ++fj) {
                int jj = j - r + fj;
                jj = jj < 0 ? -jj : (jj >= w ? 2 * w - jj - 1 : jj);
                inner += f[fi * fw + fj] * rows[fi][jj];
            }
            acc += inner;
        }
        out[j] = acc;
    }
}

void conv_rows(const float* f, int fw, const float* const* a, const float* const* b, Tap tap, float* out, int w) {
    for (int j = 0; j < w; ++j) {
        float acc = 0;
        for (int k = 0; k < fw; ++k) {
            const float v = a[k][j];
            switch (tap) {
                case Tap::Value:
                    acc += f[k] * v;
                    break;
                case Tap::Square:
                    acc += f[k] * (v * v);
                    break;
                case Tap::Product:
                    acc += f[k] * (v * b[k][j]);
                    break;
            }
        }
        out[j] = acc;
    }
}

void conv_cols(const float* f, int fw, const float* in, float* out, int w) {
    const int r = fw / 2;
    for (int j = 0; j < w; ++j) {
        float acc = 0;
        for (int k = 0; k < fw; ++k) {
            int jj = j - r + k;
            jj = jj < 0 ? -jj : (jj >= w ? 2 * w - jj - 2 : jj);
            acc += f[k] * in[jj];
        }
        out[j] = acc;
    }
}

void adm_cm_row(const float* const* flt, const float* const* mask, const float* const* src, const float* fac, int j0,
                int j1, int w, bool bypass, float* const* out) {
    for (int j = j0; j < j1; ++j) {
        float thr = 0.0f;
        if (!bypass) {
            const int jl = j == 0 ? 1 : j - 1, jr = j == w - 1 ? w - 1 : j + 1;
            for (int t = 0; t < 3; ++t) {
                const float *up = flt[3 * t], *mid = flt[3 * t + 1], *dn = flt[3 * t + 2];
                float sum = 0;
                sum += up[jl];
                sum += up[j];
                sum += up[jr];
                sum += mid[jl];
                sum = static_cast<float>(sum + kAdmOneBy15 * std::fabs(mask[t][j]));
                sum += mid[jr];
                sum += dn[jl];
                sum += dn[j];
                sum += dn[jr];
                thr += sum;
            }
        }
        for (int t = 0; t < 3; ++t) {
            float x = src[t][j] * fac[t];
            x = std::fabs(x) - thr;
            x = x < 0.0f ? 0.0f : x;
            out[t][j] = x * x * x;
        }
    }
}

void adm_dwt_rows(const float* const* r, int w, float* lo, float* hi) {
    for (int j = 0; j < w; ++j) {
        float a = 0, b = 0;
        for (int k = 0; k < 4; ++k) a += kAdmDb2Lo[k] * r[k][j];
        for (int k = 0; k < 4; ++k) b += kAdmDb2Hi[k] * r[k][j];
        lo[j] = a;
        hi[j] = b;
    }
}

}  // namespace vmaf::floatfeat
