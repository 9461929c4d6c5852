#include "features/float_vif/float_vif_math.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numbers>

namespace vmaf::floatfeat {

namespace {

constexpr float kValidKernelscales[] = {
    1.0f,       1.0f / 2.0f,  3.0f / 2.0f,  2.0f,   2.0f / 3.0f,  24.0f / 10.0f, 360.0f / 97.0f,
    4.0f / 3.0f, 3.5f / 3.0f, 3.75f / 3.0f, 4.25f / 3.0f, 5.0f / 3.0f, 3.0f, 1.0f / 2.25f,
    1.4746f,    1.54f,        1.6f,         1.06667f, 0.711111f, 0.740740f, 1.111111f,
};

int filter_size(int scale, float kernelscale) {
    const int n = (1 << (4 - scale)) + 1;
    int c = static_cast<int>(std::ceil(static_cast<double>(n * kernelscale)));
    if (c % 2 == 0) ++c;
    return std::max(c, 3);
}

float gaussian_pdf(float x, float mean, float stdev) {
    const double d = x - mean;
    const float num = static_cast<float>(std::exp(-0.5 * d / stdev * d / stdev));
    const float den = static_cast<float>(1 / (stdev * std::sqrt(2 * std::numbers::pi)));
    return num / den;
}

/// Decimation by two: every other sample of every other row (floor sizes).
FloatImage decimate2(const FloatImage& s) {
    FloatImage d(s.w / 2, s.h / 2);
    for (unsigned i = 0; i < d.h; ++i)
        for (unsigned j = 0; j < d.w; ++j) d.row(i)[j] = s.row(2 * i)[2 * j];
    return d;
}

struct NumDen {
    float num, den;
};

NumDen statistic(const FloatImage& mu1, const FloatImage& mu2, const FloatImage& xx, const FloatImage& yy,
                 const FloatImage& xy, double gain_limit, double sigma_nsq) {
    const float sigma_max_inv = static_cast<float>(std::pow(static_cast<float>(sigma_nsq), 2.0f) / (255.0 * 255.0));
    const float eps = 1.0e-10f;
    const float gain_limit_f = static_cast<float>(gain_limit);
    float acc_num = 0.0f, acc_den = 0.0f;
    for (unsigned i = 0; i < mu1.h; ++i) {
        float in_num = 0, in_den = 0;
        for (unsigned j = 0; j < mu1.w; ++j) {
            const float m1 = mu1.row(i)[j], m2 = mu2.row(i)[j];
            float s1 = xx.row(i)[j] - m1 * m1;
            float s2 = yy.row(i)[j] - m2 * m2;
            const float s12 = xy.row(i)[j] - m1 * m2;
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
            g = g < gain_limit_f ? g : gain_limit_f;
            float num = vif_log2(static_cast<float>(1.0f + (g * g * s1) / (sv + sigma_nsq)));
            float den = vif_log2(static_cast<float>(1.0f + s1 / sigma_nsq));
            if (s12 < 0.0f) num = 0.0f;
            if (s1 < sigma_nsq) {
                num = 1.0f - s2 * sigma_max_inv;
                den = 1.0f;
            }
            in_num += num;
            in_den += den;
        }
        acc_num += in_num;
        acc_den += in_den;
    }
    return {acc_num, acc_den};
}

}  // namespace

bool vif_kernelscale_valid(float kernelscale) {
    for (float k : kValidKernelscales)
        if (std::fabs(kernelscale - k) < 1e-3) return true;
    return false;
}

std::vector<float> vif_filter(int scale, float kernelscale) {
    const int size = filter_size(scale, kernelscale);
    const float stdev = size / 5.0f;
    std::vector<float> f(size);
    float sum = 0;
    const int k = (size - 1) / 2;
    for (int i = 0; i < size; ++i) {
        f[i] = gaussian_pdf(static_cast<float>(i - k), 0, stdev);
        sum += f[i];
    }
    for (float& v : f) v /= sum;
    return f;
}

float vif_log2(float x) {
    static constexpr float poly[9] = {-0.012671635276421f, 0.064841182402670f, -0.157048836463065f,
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

std::array<double, 8> vif_scores(const FloatKernels& k, const FloatImage& ref, const FloatImage& dis, double enhn_gain_limit,
                                 float kernelscale, int first_scale, double sigma_nsq) {
    std::array<double, 8> out{};
    FloatImage cur_ref = ref, cur_dis = dis;
    FloatImage mu1, mu2, xx, yy, xy;
    for (int scale = first_scale; scale < 4; ++scale) {
        const std::vector<float> f = vif_filter(scale, kernelscale);
        if (scale > 0) {
            convolve_mirror(k, f, cur_ref, nullptr, Tap::Value, mu1);
            convolve_mirror(k, f, cur_dis, nullptr, Tap::Value, mu2);
            cur_ref = decimate2(mu1);
            cur_dis = decimate2(mu2);
        }
        convolve_mirror(k, f, cur_ref, nullptr, Tap::Value, mu1);
        convolve_mirror(k, f, cur_dis, nullptr, Tap::Value, mu2);
        convolve_mirror(k, f, cur_ref, nullptr, Tap::Square, xx);
        convolve_mirror(k, f, cur_dis, nullptr, Tap::Square, yy);
        convolve_mirror(k, f, cur_ref, &cur_dis, Tap::Product, xy);
        const NumDen nd = statistic(mu1, mu2, xx, yy, xy, enhn_gain_limit, sigma_nsq);
        out[2 * scale] = nd.num;
        out[2 * scale + 1] = nd.den;
    }
    return out;
}

}  // namespace vmaf::floatfeat
