// See adm_finish.hpp. The fixed-point layout and the float finishing are the
// CPU's own (adm_fixed_point.hpp), applied to the device's exact integer sums.
#include "features/adm/cuda/adm_finish.hpp"

#include "features/adm/adm_fixed_point.hpp"

namespace vmaf::adm::cuda {

namespace {

using i64 = std::int64_t;
using u64 = std::uint64_t;

Region to_region(const Rect& r) { return {r.left, r.top, r.right, r.bottom}; }

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
    for (int s = 0; s < 4; ++s) {
        ScaleParams& sp = fp.s[s];
        sp.in_w = in_w;
        sp.in_h = in_h;
        sp.w = (in_w + 1) / 2;
        sp.h = (in_h + 1) / 2;
        const ScaleLayout l = scale_layout(p, s, sp.w, sp.h);
        sp.support = to_region(support_region(sp.w, sp.h));
        sp.score = to_region(l.score);
        for (int t = 0; t < 3; ++t) {
            sp.rf[t] = l.rf[t];
            sp.cm_shift_cub[t] = l.cm_shift_cub[t];
            sp.cm_add_cub[t] = half_of_shift(l.cm_shift_cub[t]);
        }
        sp.cm_shift_row = l.cm_shift_row;
        sp.cm_add_row = half_of_shift(l.cm_shift_row);
        sp.den_shift_sq = l.den_shift_sq;
        sp.den_add_sq = l.den_add_sq;
        sp.den_shift_cub = l.den_shift_cub;
        sp.den_add_cub = half_of_shift(l.den_shift_cub);
        sp.den_shift_acc = l.den_shift_acc;
        sp.den_add_acc = l.den_add_acc;
        if (s > 0) {
            sp.add_v = kAddV[s - 1];
            sp.shift_v = kShiftV[s - 1];
            sp.add_h = kAddH[s - 1];
            sp.shift_h = kShiftH[s - 1];
        }
        in_w = sp.w;
        in_h = sp.h;
    }
    return fp;
}

Result finish(const Params& p, const FrameParams& fp, const unsigned long long* sums, unsigned w, unsigned h) {
    Result res;
    for (int s = 0; s < 4; ++s) {
        const ScaleParams& sp = fp.s[s];
        if (s == 0 && p.skip_scale0) {
            res.num_scale[0] = 0.0f;
            res.den_scale[0] = static_cast<float>(1e-10);  // as the CPU path
            continue;
        }
        const unsigned long long* v = sums + s * kSumsPerScale;
        const ScaleLayout l = scale_layout(p, s, sp.w, sp.h);
        const u64 den[3] = {v[0], v[1], v[2]};
        const i64 num[3] = {static_cast<i64>(v[3]), static_cast<i64>(v[4]), static_cast<i64>(v[5])};
        const i64 aim[3] = {static_cast<i64>(v[6]), static_cast<i64>(v[7]), static_cast<i64>(v[8])};
        res.den_scale[s] = den_from_sums(p, s, l, den);
        res.num_scale[s] = num_from_sums(s, l, sp.w, sp.h, num, p.noise_weight);
        if (!p.skip_aim) res.aim_scale[s] = num_from_sums(s, l, sp.w, sp.h, aim, 0.0);
    }
    finish_result(res, w, h);
    return res;
}

}  // namespace vmaf::adm::cuda
