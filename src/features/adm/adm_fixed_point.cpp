#include "features/adm/adm_fixed_point.hpp"

#include <math.h>

#include <algorithm>
#include <cmath>

namespace vmaf::adm {

namespace {

using i32 = std::int32_t;
using i64 = std::int64_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

/// double -> uint16 as x86-64 C code converts it (via int32, keeping the low
/// 16 bits); identical to a plain cast whenever the value is in range.
inline u16 to_u16(double v) { return static_cast<u16>(static_cast<i32>(v)); }
/// double -> uint32 as x86-64 C code converts it (via int64, low 32 bits).
inline u32 to_u32(double v) { return static_cast<u32>(static_cast<i64>(v)); }
/// ceil(log2(n) - bias) as an unsigned shift count (C: (uint32_t)ceil(...)).
inline u32 ceil_log2_minus(int n, double bias) {
    return static_cast<u32>(static_cast<i64>(std::ceil(std::log2(static_cast<double>(n)) - bias)));
}
/// 2^e for an exponent formed in unsigned arithmetic (wraps like upstream).
inline double pow2_unsigned(u32 e) { return std::pow(2.0, static_cast<double>(e)); }
inline float cbrt_f(float x) { return ::powf(x, 1.0f / 3.0f); }

int area_of(const Rect& r) { return (r.bottom - r.top) * (r.right - r.left); }

/// sum over orientations of (term^(1/3) + (area * noise_weight)^(1/3)), in float.
template <typename T>
float combine(const T terms[3], int area, double noise_weight) {
    const float add = ::powf(static_cast<float>(area * noise_weight), 1.0f / 3.0f);
    float n[3];
    for (int t = 0; t < 3; ++t) n[t] = cbrt_f(static_cast<float>(terms[t])) + add;
    return n[0] + n[1] + n[2];
}

}  // namespace

ScaleLayout scale_layout(const Params& p, int scale, int w, int h) {
    ScaleLayout l;
    l.score = score_region(w, h);
    float f[2];
    csf_factors(p, scale, f);
    if (scale == 0) {
        // Upstream hard-codes the multipliers of the default Watson model at 1080 lines / 3H.
        if (std::fabs(p.norm_view_dist * p.ref_display_height - 3.0 * 1080) < 1.0e-8 &&
            p.csf_mode == CsfMode::Watson97) {
            l.rf[0] = l.rf[1] = 36453;
            l.rf[2] = 49417;
        } else {
            l.rf[0] = l.rf[1] = to_u16(f[0] * std::pow(2.0, 21));
            l.rf[2] = to_u16(f[1] * std::pow(2.0, 23));
        }
        l.cm_shift_cub[0] = l.cm_shift_cub[1] = ceil_log2_minus(w, 4.0);
        l.cm_shift_cub[2] = ceil_log2_minus(w, 3.0);
        // Per-row sums are pre-shifted so the total fits in 64 bits.
        const i32 shift = std::max<i32>(0, static_cast<i32>(std::ceil(std::log2(area_of(l.score)) - 20)));
        l.den_shift_acc = static_cast<u32>(shift);
        l.den_add_acc = shift > 0 ? (u64{1} << (shift - 1)) : 0;
    } else {
        const double q32 = std::pow(2.0, 32);
        l.rf[0] = l.rf[1] = to_u32(f[0] * q32);
        l.rf[2] = to_u32(f[1] * q32);
        l.cm_shift_cub[0] = l.cm_shift_cub[1] = l.cm_shift_cub[2] = ceil_log2_minus(w, 0.0);
        static constexpr u32 kShiftSq[3] = {31, 30, 31};
        l.den_shift_sq = kShiftSq[scale - 1];
        l.den_add_sq = u64{1} << l.den_shift_sq;  // sic: 2^s, not 2^(s-1)
        l.den_shift_cub = ceil_log2_minus(l.score.right - l.score.left, 0.0);
        l.den_shift_acc = ceil_log2_minus(l.score.bottom - l.score.top, 0.0);
        l.den_add_acc = half_of_shift(l.den_shift_acc);
    }
    l.cm_shift_row = ceil_log2_minus(h, 0.0);
    return l;
}

float den_from_sums(const Params& p, int scale, const ScaleLayout& l, const u64 acc[3]) {
    float f[2];
    csf_factors(p, scale, f);
    const float rf[3] = {f[0], f[0], f[1]};
    // Fractional bits pending after cubing: 6 from the scale-0 DWT -> 18;
    // scales 1..3: 32, 27, 23, less the shifts taken on the way.
    static constexpr u32 kFracBits[3] = {32, 27, 23};
    const double scale_div = scale == 0 ? std::pow(2.0, 18 - static_cast<i32>(l.den_shift_acc))
                                        : pow2_unsigned(kFracBits[scale - 1] - l.den_shift_acc - l.den_shift_cub);
    double csf[3];
    for (int t = 0; t < 3; ++t)
        csf[t] = static_cast<double>(acc[t] / scale_div) * std::pow(static_cast<double>(rf[t]), 3);
    return combine(csf, area_of(l.score), p.noise_weight);
}

float num_from_sums(int scale, const ScaleLayout& l, int w, int h, const i64 acc[3], double noise_weight) {
    float f_acc[3];
    if (scale == 0) {
        // Pending fractional bits: (6 + 21) * 3 - 29 = 52 for H/V,
        // (6 + 23) * 3 - 30 = 57 for D, less the shifts taken.
        const u32 frac[3] = {52u - l.cm_shift_cub[0] - l.cm_shift_row, 52u - l.cm_shift_cub[1] - l.cm_shift_row,
                             57u - l.cm_shift_cub[2] - l.cm_shift_row};
        for (int t = 0; t < 3; ++t)
            f_acc[t] = static_cast<float>(static_cast<double>(acc[t]) / pow2_unsigned(frac[t]));
    } else {
        static constexpr u32 kFrac[3] = {45, 39, 36};
        const float final_scale =
            static_cast<float>(pow2_unsigned(kFrac[scale - 1] - l.cm_shift_cub[0] - l.cm_shift_row));
        // int64 / float: the sum is rounded to float first (C's conversions).
        for (int t = 0; t < 3; ++t) f_acc[t] = static_cast<float>(acc[t]) / final_scale;
    }
    return combine(f_acc, area_of(score_region(w, h)), noise_weight);
}

void finish_result(Result& res, unsigned width, unsigned height) {
    double num = 0, den = 0, aim = 0;
    for (int s = 0; s < 4; ++s) {
        num += res.num_scale[s];
        den += res.den_scale[s];
        aim += res.aim_scale[s];
    }
    const double limit =
        1e-10 * static_cast<double>(static_cast<int>(width) * static_cast<int>(height)) / (1920.0 * 1080.0);
    num = num < limit ? 0 : num;
    den = den < limit ? 0 : den;
    res.num = num;
    res.den = den;
    res.aim_num = aim;
    if (den == 0.0) {
        // Upstream reports 1 and leaves the AIM score undefined; we report 0.
        res.score = 1.0;
        res.score_aim = 0.0;
    } else {
        res.score = num / den;
        res.score_aim = aim / den;
    }
}

}  // namespace vmaf::adm
