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
    1.0f,        1.0f / 2.0f, 3.0f / 2.0f,  2.0f,         2.0f / 3.0f, 24.0f / 10.0f, 360.0f / 97.0f,
    4.0f / 3.0f, 3.5f / 3.0f, 3.75f / 3.0f, 4.25f / 3.0f, 5.0f / 3.0f, 3.0f,          1.0f / 2.25f,
    1.4746f,     1.54f,       1.6f,         1.06667f,     0.711111f,   0.740740f,     1.111111f,
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

/// Sums of the per-pixel terms: each row in float, rows in float, in order.
NumDen statistic(const FloatKernels& k, const FloatImage& mu1, const FloatImage& mu2, const FloatImage& xx,
                 const FloatImage& yy, const FloatImage& xy, const VifStatParams& sp) {
    std::vector<float> num(mu1.w), den(mu1.w);
    float acc_num = 0.0f, acc_den = 0.0f;
    for (unsigned i = 0; i < mu1.h; ++i) {
        k.vif_stat_row(mu1.row(i), mu2.row(i), xx.row(i), yy.row(i), xy.row(i), static_cast<int>(mu1.w), sp, num.data(),
                       den.data());
        float in_num = 0, in_den = 0;
        for (unsigned j = 0; j < mu1.w; ++j) {
            in_num += num[j];
            in_den += den[j];
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

std::array<double, 8> vif_scores(const FloatKernels& k, const FloatImage& ref, const FloatImage& dis,
                                 double enhn_gain_limit, float kernelscale, int first_scale, double sigma_nsq) {
    std::array<double, 8> out{};
    const VifStatParams sp = vif_stat_params(sigma_nsq, enhn_gain_limit);
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
        const NumDen nd = statistic(k, mu1, mu2, xx, yy, xy, sp);
        out[2 * scale] = nd.num;
        out[2 * scale + 1] = nd.den;
    }
    return out;
}

}  // namespace vmaf::floatfeat
