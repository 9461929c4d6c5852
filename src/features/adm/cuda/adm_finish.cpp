// See adm_finish.hpp. Each formula below is the one of adm_kernels.cpp (named
// in the comments), applied to the device's exact integer sums.
#include "features/adm/cuda/adm_finish.hpp"

#include <math.h>

#include <algorithm>
#include <cmath>

namespace vmaf::adm::cuda {

namespace {

using i32 = std::int32_t;
using i64 = std::int64_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

// adm_kernels.cpp: to_u16, to_u32, ceil_log2_minus, half_of_shift, pow2_unsigned, cbrt_f.
inline u16 to_u16(double v) { return static_cast<u16>(static_cast<i32>(v)); }
inline u32 to_u32(double v) { return static_cast<u32>(static_cast<i64>(v)); }
inline u32 ceil_log2_minus(int n, double bias) {
    return static_cast<u32>(static_cast<i64>(std::ceil(std::log2(static_cast<double>(n)) - bias)));
}
inline u32 half_of_shift(u32 s) { return s == 0 ? 0u : (u32{1} << (s - 1)); }
inline double pow2_unsigned(u32 e) { return std::pow(2.0, static_cast<double>(e)); }
inline float cbrt_f(float x) { return ::powf(x, 1.0f / 3.0f); }

// adm_kernels.cpp: csf_multipliers_scale0 / csf_multipliers_scale123.
void csf_multipliers_scale0(const Params& p, u32 out[3]) {
    if (std::fabs(p.norm_view_dist * p.ref_display_height - 3.0 * 1080) < 1.0e-8 && p.csf_mode == CsfMode::Watson97) {
        out[0] = out[1] = 36453;
        out[2] = 49417;
        return;
    }
    float f[2];
    csf_factors(p, 0, f);
    out[0] = out[1] = to_u16(f[0] * std::pow(2.0, 21));
    out[2] = to_u16(f[1] * std::pow(2.0, 23));
}

void csf_multipliers_scale123(const Params& p, int scale, u32 out[3]) {
    float f[2];
    csf_factors(p, scale, f);
    const double q32 = std::pow(2.0, 32);
    out[0] = out[1] = to_u32(f[0] * q32);
    out[2] = to_u32(f[1] * q32);
}

Region to_region(const Rect& r) { return {r.left, r.top, r.right, r.bottom}; }

int area_of(const Region& r) { return (r.bottom - r.top) * (r.right - r.left); }

// adm_kernels.cpp: den_combine.
float den_combine(const double csf[3], int area, double noise_weight) {
    const float add = ::powf(static_cast<float>(area * noise_weight), 1.0f / 3.0f);
    const float dh = cbrt_f(static_cast<float>(csf[0])) + add;
    const float dv = cbrt_f(static_cast<float>(csf[1])) + add;
    const float dd = cbrt_f(static_cast<float>(csf[2])) + add;
    return dh + dv + dd;
}

// adm_kernels.cpp: num_combine.
float num_combine(const float f_acc[3], int w, int h, double noise_weight) {
    const Rect reg = score_region(w, h);
    const int area = (reg.bottom - reg.top) * (reg.right - reg.left);
    const float add = ::powf(static_cast<float>(area * noise_weight), 1.0f / 3.0f);
    float n[3];
    for (int t = 0; t < 3; ++t) n[t] = cbrt_f(f_acc[t]) + add;
    return n[0] + n[1] + n[2];
}

}  // namespace

FrameParams make_params(const Params& p, unsigned w, unsigned h, unsigned bpc) {
    FrameParams fp{};
    fp.bpc = bpc;
    fp.egl = p.enhn_gain_limit;
    fp.cos1deg_sq = cos1deg_sq();
    fp.skip_aim = p.skip_aim;
    fp.skip_scale0 = p.skip_scale0;
    int in_w = static_cast<int>(w), in_h = static_cast<int>(h);
    // adm_dwt.cpp: dwt_scale123 rounding per level.
    static constexpr i64 kAddV[3] = {0, 32768, 32768};
    static constexpr int kShiftV[3] = {0, 16, 16};
    static constexpr i64 kAddH[3] = {16384, 32768, 16384};
    static constexpr int kShiftH[3] = {15, 16, 15};
    static constexpr u32 kShiftSq[3] = {31, 30, 31};
    for (int s = 0; s < 4; ++s) {
        ScaleParams& sp = fp.s[s];
        sp.in_w = in_w;
        sp.in_h = in_h;
        sp.w = (in_w + 1) / 2;
        sp.h = (in_h + 1) / 2;
        sp.support = to_region(support_region(sp.w, sp.h));
        sp.score = to_region(score_region(sp.w, sp.h));
        const int rw = sp.score.right - sp.score.left, rh = sp.score.bottom - sp.score.top;
        if (s == 0) {
            csf_multipliers_scale0(p, sp.rf);
            // cm_scale0
            sp.cm_shift_cub[0] = sp.cm_shift_cub[1] = ceil_log2_minus(sp.w, 4.0);
            sp.cm_shift_cub[2] = ceil_log2_minus(sp.w, 3.0);
            // den_scale0
            const int area = area_of(sp.score);
            const i32 shift = std::max<i32>(0, static_cast<i32>(std::ceil(std::log2(area) - 20)));
            sp.den_shift_acc = static_cast<u32>(shift);
            sp.den_add_acc = shift > 0 ? (u64{1} << (shift - 1)) : 0;
        } else {
            csf_multipliers_scale123(p, s, sp.rf);
            // cm_scale123
            sp.cm_shift_cub[0] = sp.cm_shift_cub[1] = sp.cm_shift_cub[2] = ceil_log2_minus(sp.w, 0.0);
            // den_scale123
            sp.den_shift_sq = kShiftSq[s - 1];
            sp.den_add_sq = u64{1} << sp.den_shift_sq;
            sp.den_shift_cub = ceil_log2_minus(rw, 0.0);
            sp.den_add_cub = half_of_shift(sp.den_shift_cub);
            sp.den_shift_acc = ceil_log2_minus(rh, 0.0);
            sp.den_add_acc = half_of_shift(sp.den_shift_acc);
            sp.add_v = kAddV[s - 1];
            sp.shift_v = kShiftV[s - 1];
            sp.add_h = kAddH[s - 1];
            sp.shift_h = kShiftH[s - 1];
        }
        for (int t = 0; t < 3; ++t) sp.cm_add_cub[t] = half_of_shift(sp.cm_shift_cub[t]);
        sp.cm_shift_row = ceil_log2_minus(sp.h, 0.0);
        sp.cm_add_row = half_of_shift(sp.cm_shift_row);
        in_w = sp.w;
        in_h = sp.h;
    }
    return fp;
}

Result finish(const Params& p, const FrameParams& fp, const unsigned long long* sums, unsigned w, unsigned h) {
    Result res;
    for (int s = 0; s < 4; ++s) {
        const ScaleParams& sp = fp.s[s];
        const unsigned long long* den = sums + s * kSumsPerScale;
        const i64 num[3] = {static_cast<i64>(den[3]), static_cast<i64>(den[4]), static_cast<i64>(den[5])};
        const i64 aim[3] = {static_cast<i64>(den[6]), static_cast<i64>(den[7]), static_cast<i64>(den[8])};
        float f[2];
        csf_factors(p, s, f);
        const float rf[3] = {f[0], f[0], f[1]};
        const int area = area_of(sp.score);
        if (s == 0) {
            if (p.skip_scale0) {
                res.num_scale[0] = 0.0f;
                res.den_scale[0] = static_cast<float>(1e-10);
                continue;
            }
            // den_scale0
            double csf[3];
            const double scale = std::pow(2.0, 18 - static_cast<i32>(sp.den_shift_acc));
            for (int t = 0; t < 3; ++t)
                csf[t] = static_cast<double>(den[t] / scale) * std::pow(static_cast<double>(rf[t]), 3);
            res.den_scale[0] = den_combine(csf, area, p.noise_weight);
            // cm_scale0
            const u32 frac[3] = {52u - sp.cm_shift_cub[0] - sp.cm_shift_row, 52u - sp.cm_shift_cub[1] - sp.cm_shift_row,
                                 57u - sp.cm_shift_cub[2] - sp.cm_shift_row};
            float f_acc[3];
            for (int t = 0; t < 3; ++t)
                f_acc[t] = static_cast<float>(static_cast<double>(num[t]) / pow2_unsigned(frac[t]));
            res.num_scale[0] = num_combine(f_acc, sp.w, sp.h, p.noise_weight);
            if (!p.skip_aim) {
                for (int t = 0; t < 3; ++t)
                    f_acc[t] = static_cast<float>(static_cast<double>(aim[t]) / pow2_unsigned(frac[t]));
                res.aim_scale[0] = num_combine(f_acc, sp.w, sp.h, 0.0);
            }
        } else {
            // den_scale123
            static constexpr u32 kFracBits[3] = {32, 27, 23};
            const double sc = pow2_unsigned(kFracBits[s - 1] - sp.den_shift_acc - sp.den_shift_cub);
            double csf[3];
            for (int t = 0; t < 3; ++t)
                csf[t] = static_cast<double>(den[t] / sc) * std::pow(static_cast<double>(rf[t]), 3);
            res.den_scale[s] = den_combine(csf, area, p.noise_weight);
            // cm_scale123
            static constexpr u32 kFrac[3] = {45, 39, 36};
            const float final_scale =
                static_cast<float>(pow2_unsigned(kFrac[s - 1] - sp.cm_shift_cub[0] - sp.cm_shift_row));
            float f_acc[3];
            for (int t = 0; t < 3; ++t) f_acc[t] = static_cast<float>(num[t]) / final_scale;
            res.num_scale[s] = num_combine(f_acc, sp.w, sp.h, p.noise_weight);
            if (!p.skip_aim) {
                for (int t = 0; t < 3; ++t) f_acc[t] = static_cast<float>(aim[t]) / final_scale;
                res.aim_scale[s] = num_combine(f_acc, sp.w, sp.h, 0.0);
            }
        }
    }
    // adm_kernels.cpp: compute(), the totals.
    double num = 0, den = 0, aim = 0;
    for (int s = 0; s < 4; ++s) {
        num += res.num_scale[s];
        den += res.den_scale[s];
        aim += res.aim_scale[s];
    }
    const double limit =
        1e-10 * static_cast<double>(static_cast<int>(w) * static_cast<int>(h)) / (1920.0 * 1080.0);
    num = num < limit ? 0 : num;
    den = den < limit ? 0 : den;
    res.num = num;
    res.den = den;
    res.aim_num = aim;
    if (den == 0.0) {
        res.score = 1.0;
        res.score_aim = 0.0;
    } else {
        res.score = num / den;
        res.score_aim = aim / den;
    }
    return res;
}

}  // namespace vmaf::adm::cuda
