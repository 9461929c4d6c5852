// Integer ADM: decouple, CSF, contrast masking and the per-scale sums, plus
// the four-scale pipeline. See adm_kernels.hpp for the overall structure.
//
// Fixed-point conventions (as upstream): scale-0 details are int16 carrying
// 6 fractional bits fewer than the float model expects (the "pending" shifts
// that the final float conversions undo); scales 1..3 are int32. All integer
// arithmetic below reproduces upstream's rounding (round-half-up shifts,
// truncating casts, two's-complement wrap of narrowing stores).
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <numbers>

#include <math.h>

#include "features/adm/adm_kernels.hpp"
#include "features/adm/adm_simd.hpp"
#include "vmaf/error.hpp"

namespace vmaf::adm {

namespace {

using i16 = std::int16_t;
using i32 = std::int32_t;
using i64 = std::int64_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

// ---------------------------------------------------------------------------
// Small helpers reproducing C conversions of the reference implementation.

/// double -> uint16 as x86-64 C code converts it (via int32, keeping the low
/// 16 bits); identical to a plain cast whenever the value is in range.
inline u16 to_u16(double v) { return static_cast<u16>(static_cast<i32>(v)); }
/// double -> uint32 as x86-64 C code converts it (via int64, low 32 bits).
inline u32 to_u32(double v) { return static_cast<u32>(static_cast<i64>(v)); }

/// ceil(log2(n) - bias) as an unsigned shift count (C: (uint32_t)ceil(...)).
inline u32 ceil_log2_minus(int n, double bias) {
    return static_cast<u32>(static_cast<i64>(std::ceil(std::log2(static_cast<double>(n)) - bias)));
}
/// Rounding term 2^(s-1) computed as upstream does ((uint32_t)pow(2, s - 1)
/// with unsigned s - 1), i.e. 0 when s == 0.
inline u32 half_of_shift(u32 s) { return s == 0 ? 0u : (u32{1} << (s - 1)); }
/// 2^e for an exponent formed in unsigned arithmetic (wraps like upstream).
inline double pow2_unsigned(u32 e) { return std::pow(2.0, static_cast<double>(e)); }

inline float cbrt_f(float x) { return ::powf(x, 1.0f / 3.0f); }

// ---------------------------------------------------------------------------
// Decouple over the support region (per-pixel work: AdmKernels::decouple*).

template <typename T, typename Fn>
void decouple(const Subbands<T>& ref, const Subbands<T>& dis, double egl, Details<T>& r, Details<T>& a, Fn fn) {
    const int w = ref.h.w, h = ref.h.h;
    r.resize(w, h);
    a.resize(w, h);
    const Rect reg = support_region(w, h);
    if (reg.right <= reg.left) return;
    for (int i = reg.top; i < reg.bottom; ++i) {
        const T* o[3];
        const T* t[3];
        T* rr[3];
        T* aa[3];
        for (int theta = 0; theta < 3; ++theta) {
            o[theta] = ref.detail(theta).row(i) + reg.left;
            t[theta] = dis.detail(theta).row(i) + reg.left;
            rr[theta] = r.b[theta].row(i) + reg.left;
            aa[theta] = a.b[theta].row(i) + reg.left;
        }
        fn(o, t, reg.right - reg.left, egl, rr, aa);
    }
}

// ---------------------------------------------------------------------------
// CSF multipliers in fixed point.

/// Scale 0: Q21 for H/V, Q23 for D (upstream hard-codes the values of the
/// default Watson model at 1080 lines / 3H).
std::array<u16, 3> csf_multipliers_scale0(const Params& p) {
    if (std::fabs(p.norm_view_dist * p.ref_display_height - 3.0 * 1080) < 1.0e-8 && p.csf_mode == CsfMode::Watson97)
        return {36453, 36453, 49417};
    float f[2];
    csf_factors(p, 0, f);
    return {to_u16(f[0] * std::pow(2.0, 21)), to_u16(f[0] * std::pow(2.0, 21)), to_u16(f[1] * std::pow(2.0, 23))};
}

/// Scales 1..3: Q32.
std::array<u32, 3> csf_multipliers_scale123(const Params& p, int scale) {
    float f[2];
    csf_factors(p, scale, f);
    const double q32 = std::pow(2.0, 32);
    return {to_u32(f[0] * q32), to_u32(f[0] * q32), to_u32(f[1] * q32)};
}

// CSF: over the support region, out = src * csf (rounded to the band's
// format) and flt = |out| / 30 (the masker's neighbourhood contribution).

void csf_scale0(const Details<i16>& src, const Params& p, Details<i16>& out, Details<i16>& flt, const AdmKernels& k) {
    const int w = src.b[0].w, h = src.b[0].h;
    out.resize(w, h);
    flt.resize(w, h);
    const auto rf = csf_multipliers_scale0(p);
    static constexpr int kShift[3] = {15, 15, 17};
    static constexpr i32 kAdd[3] = {16384, 16384, 65535};  // sic: not 2^16 for D
    const Rect reg = support_region(w, h);
    if (reg.right <= reg.left) return;
    for (int theta = 0; theta < 3; ++theta)
        for (int i = reg.top; i < reg.bottom; ++i)
            k.csf0(src.b[theta].row(i) + reg.left, reg.right - reg.left, rf[theta], kShift[theta], kAdd[theta],
                   out.b[theta].row(i) + reg.left, flt.b[theta].row(i) + reg.left);
}

void csf_scale123(const Details<i32>& src, const Params& p, int scale, Details<i32>& out, Details<i32>& flt,
                  const AdmKernels& k) {
    const int w = src.b[0].w, h = src.b[0].h;
    out.resize(w, h);
    flt.resize(w, h);
    const auto rf = csf_multipliers_scale123(p, scale);
    const Rect reg = support_region(w, h);
    if (reg.right <= reg.left) return;
    for (int theta = 0; theta < 3; ++theta)
        for (int i = reg.top; i < reg.bottom; ++i)
            k.csf123(src.b[theta].row(i) + reg.left, reg.right - reg.left, rf[theta], out.b[theta].row(i) + reg.left,
                     flt.b[theta].row(i) + reg.left);
}

// ---------------------------------------------------------------------------
// Denominator: sum over the scoring region of |ref detail|^3, scaled by
// csf^3, per orientation; returns sum over orientations of
// (sum^(1/3) + (area * noise_weight)^(1/3)).

float den_combine(const double csf[3], int area, double noise_weight) {
    const float add = ::powf(static_cast<float>(area * noise_weight), 1.0f / 3.0f);
    const float dh = cbrt_f(static_cast<float>(csf[0])) + add;
    const float dv = cbrt_f(static_cast<float>(csf[1])) + add;
    const float dd = cbrt_f(static_cast<float>(csf[2])) + add;
    return dh + dv + dd;
}

float den_scale0(const Subbands<i16>& ref, const Params& p, const AdmKernels& k) {
    const int w = ref.h.w, h = ref.h.h;
    float f[2];
    csf_factors(p, 0, f);
    const float rf[3] = {f[0], f[0], f[1]};
    const Rect reg = score_region(w, h);
    const int area = (reg.bottom - reg.top) * (reg.right - reg.left);
    // Per-row sums are pre-shifted so the total fits in 64 bits.
    const i32 shift = std::max<i32>(0, static_cast<i32>(std::ceil(std::log2(area) - 20)));
    const u64 add = shift > 0 ? (u64{1} << (shift - 1)) : 0;
    double csf[3];
    for (int theta = 0; theta < 3; ++theta) {
        const Band<i16>& b = ref.detail(theta);
        u64 acc = 0;
        for (int i = reg.top; i < reg.bottom; ++i) {
            const u64 inner = k.den0(b.row(i) + reg.left, reg.right - reg.left);
            acc += (inner + add) >> shift;
        }
        // 6 fractional bits pending from the DWT -> 18 after cubing.
        const double scale = std::pow(2.0, 18 - shift);
        csf[theta] = static_cast<double>(acc / scale) * std::pow(static_cast<double>(rf[theta]), 3);
    }
    return den_combine(csf, area, p.noise_weight);
}

float den_scale123(const Subbands<i32>& ref, int scale, const Params& p, const AdmKernels& k) {
    const int w = ref.h.w, h = ref.h.h;
    float f[2];
    csf_factors(p, scale, f);
    const float rf[3] = {f[0], f[0], f[1]};
    static constexpr u32 kShiftSq[3] = {31, 30, 31};
    static constexpr u32 kFracBits[3] = {32, 27, 23};  // pending after cubing
    const u32 shift_sq = kShiftSq[scale - 1];
    const u64 add_sq = u64{1} << shift_sq;  // sic: 2^s, not 2^(s-1)
    const Rect reg = score_region(w, h);
    const int area = (reg.bottom - reg.top) * (reg.right - reg.left);
    const u32 shift_cub = ceil_log2_minus(reg.right - reg.left, 0.0);
    const u64 add_cub = half_of_shift(shift_cub);
    const u32 shift_acc = ceil_log2_minus(reg.bottom - reg.top, 0.0);
    const u64 add_acc = half_of_shift(shift_acc);
    double csf[3];
    for (int theta = 0; theta < 3; ++theta) {
        const Band<i32>& b = ref.detail(theta);
        u64 acc = 0;
        for (int i = reg.top; i < reg.bottom; ++i) {
            const u64 inner =
                k.den123(b.row(i) + reg.left, reg.right - reg.left, shift_sq, add_sq, shift_cub, add_cub);
            acc += (inner + add_acc) >> shift_acc;
        }
        const double sc = pow2_unsigned(kFracBits[scale - 1] - shift_acc - shift_cub);
        csf[theta] = static_cast<double>(acc / sc) * std::pow(static_cast<double>(rf[theta]), 3);
    }
    return den_combine(csf, area, p.noise_weight);
}

// ---------------------------------------------------------------------------
// Contrast masking. For each pixel of the scoring region, the masking
// threshold is, summed over the three orientations, the 3x3 neighbourhood of
// the masker's |csf|/30 with the centre replaced by |csf|/15. Neighbours off
// the band are mirrored: row/col -1 -> 1, row h -> h-1, col w -> w-1.
// Each row sum (AdmKernels::cm*) is rounded and shifted by `row_shift`
// before joining the total.

template <typename T, typename Fn>
void cm_accumulate(const Details<T>& target, const Details<T>& masker, const Details<T>& masker_flt,
                   CmRow<T> row, u32 row_shift, i64 acc[3], Fn fn) {
    const int w = target.b[0].w, h = target.b[0].h;
    const Rect reg = score_region(w, h);
    const i64 add = half_of_shift(row_shift);
    row.w = w;
    row.j0 = std::max(reg.left, 0);
    row.j1 = std::min(reg.right, w);
    for (int i = std::max(reg.top, 0); i < std::min(reg.bottom, h); ++i) {
        const int up = i == 0 ? 1 : i - 1, down = i == h - 1 ? h - 1 : i + 1;
        for (int t = 0; t < 3; ++t) {
            row.flt[t][0] = masker_flt.b[t].row(up);
            row.flt[t][1] = masker_flt.b[t].row(i);
            row.flt[t][2] = masker_flt.b[t].row(down);
            row.masker[t] = masker.b[t].row(i);
            row.target[t] = target.b[t].row(i);
        }
        i64 inner[3] = {0, 0, 0};
        if (row.j1 > row.j0) fn(row, inner);
        for (int t = 0; t < 3; ++t) acc[t] += (inner[t] + add) >> row_shift;
    }
}

float num_combine(const float f_acc[3], int w, int h, double noise_weight) {
    const Rect reg = score_region(w, h);
    const int area = (reg.bottom - reg.top) * (reg.right - reg.left);
    const float add = ::powf(static_cast<float>(area * noise_weight), 1.0f / 3.0f);
    float n[3];
    for (int t = 0; t < 3; ++t) n[t] = cbrt_f(f_acc[t]) + add;
    return n[0] + n[1] + n[2];
}

/// Scale 0: target = decoupled band (R for DLM, A for AIM); masker = CSF of
/// the other band.
float cm_scale0(const Details<i16>& target, const Details<i16>& masker, const Details<i16>& masker_flt,
                const Params& p, double noise_weight, const AdmKernels& k) {
    const int w = target.b[0].w, h = target.b[0].h;
    const auto rf = csf_multipliers_scale0(p);
    const u32 shift_cub[3] = {ceil_log2_minus(w, 4.0), ceil_log2_minus(w, 4.0), ceil_log2_minus(w, 3.0)};
    const u32 shift_row = ceil_log2_minus(h, 0.0);
    CmRow<i16> row{};
    for (int t = 0; t < 3; ++t) {
        row.rf[t] = rf[t];
        row.shift_cub[t] = shift_cub[t];
        row.add_cub[t] = half_of_shift(shift_cub[t]);
    }
    i64 acc[3] = {0, 0, 0};
    cm_accumulate(target, masker, masker_flt, row, shift_row, acc, k.cm0);
    // Pending fractional bits: (6 + 21) * 3 - 29 = 52 for H/V,
    // (6 + 23) * 3 - 30 = 57 for D, minus the shifts done here.
    const u32 frac[3] = {52u - shift_cub[0] - shift_row, 52u - shift_cub[1] - shift_row,
                         57u - shift_cub[2] - shift_row};
    float f_acc[3];
    for (int t = 0; t < 3; ++t) f_acc[t] = static_cast<float>(static_cast<double>(acc[t]) / pow2_unsigned(frac[t]));
    return num_combine(f_acc, w, h, noise_weight);
}

float cm_scale123(const Details<i32>& target, const Details<i32>& masker, const Details<i32>& masker_flt,
                  const Params& p, int scale, double noise_weight, const AdmKernels& k) {
    const int w = target.b[0].w, h = target.b[0].h;
    const auto rf = csf_multipliers_scale123(p, scale);
    const u32 shift_cub = ceil_log2_minus(w, 0.0);
    const i64 add_cub = half_of_shift(shift_cub);
    const u32 shift_row = ceil_log2_minus(h, 0.0);
    static constexpr u32 kFrac[3] = {45, 39, 36};
    const float final_scale = static_cast<float>(pow2_unsigned(kFrac[scale - 1] - shift_cub - shift_row));
    CmRow<i32> row{};
    for (int t = 0; t < 3; ++t) {
        row.rf[t] = rf[t];
        row.shift_cub[t] = shift_cub;
        row.add_cub[t] = add_cub;
    }
    i64 acc[3] = {0, 0, 0};
    cm_accumulate(target, masker, masker_flt, row, shift_row, acc, k.cm123);
    float f_acc[3];
    // int64 / float: the sum is rounded to float first (C's conversions).
    for (int t = 0; t < 3; ++t) f_acc[t] = static_cast<float>(acc[t]) / final_scale;
    return num_combine(f_acc, w, h, noise_weight);
}

// ---------------------------------------------------------------------------

Band<i32> widen(const Band<i16>& b) {
    Band<i32> out;
    out.resize(b.w, b.h);
    const std::size_t n = static_cast<std::size_t>(b.w) * static_cast<std::size_t>(b.h);
    for (std::size_t k = 0; k < n; ++k) out.p[k] = b.p[k];
    return out;
}

}  // namespace

Rect score_region(int w, int h) {
    const int left = static_cast<int>(w * 0.1 - 0.5);
    const int top = static_cast<int>(h * 0.1 - 0.5);
    return {left, top, w - left, h - top};
}

Rect support_region(int w, int h) {
    const int left = static_cast<int>(w * 0.1 - 0.5 - 1);
    const int top = static_cast<int>(h * 0.1 - 0.5 - 1);
    Rect r{left, top, w - left + 2, h - top + 2};
    r.left = std::max(r.left, 0);
    r.top = std::max(r.top, 0);
    r.right = std::min(r.right, w);
    r.bottom = std::min(r.bottom, h);
    return r;
}

Result compute(const Plane& ref, const Plane& dis, unsigned bpc, const Params& p) {
    return compute(ref, dis, bpc, p, scalar_kernels());
}

Result compute(const Plane& ref, const Plane& dis, unsigned bpc, const Params& p, const AdmKernels& k) {
    if (ref.width != dis.width || ref.height != dis.height)
        throw Error(ErrorKind::Input, "adm: reference and distorted pictures differ in size");
    if (ref.width < kMinSize || ref.height < kMinSize)
        throw Error(ErrorKind::Input, "adm: pictures must be at least 33x33");
    if (bpc < 8 || bpc > 16) throw Error(ErrorKind::Input, "adm: unsupported bit depth");

    ScratchScope scope;  // every Band below lives in this thread's scratch arena
    Result res;
    Subbands<i16> ref0, dis0;
    dwt_scale0(ref, bpc, ref0, p.skip_scale0, k);
    dwt_scale0(dis, bpc, dis0, p.skip_scale0, k);

    if (p.skip_scale0) {
        res.num_scale[0] = 0.0f;
        res.den_scale[0] = static_cast<float>(1e-10);  // avoids 0/0 in the scale score
    } else {
        Details<i16> r, a, csf, flt;
        decouple(ref0, dis0, p.enhn_gain_limit, r, a, k.decouple0);
        res.den_scale[0] = den_scale0(ref0, p, k);
        csf_scale0(a, p, csf, flt, k);
        res.num_scale[0] = cm_scale0(r, csf, flt, p, p.noise_weight, k);
        if (!p.skip_aim) {
            csf_scale0(r, p, csf, flt, k);
            res.aim_scale[0] = cm_scale0(a, csf, flt, p, 0.0, k);
        }
    }

    Band<i32> ref_a = widen(ref0.a), dis_a = widen(dis0.a);
    for (int scale = 1; scale < 4; ++scale) {
        Subbands<i32> rs, ds;
        dwt_scale123(ref_a, scale, rs, k);
        dwt_scale123(dis_a, scale, ds, k);
        Details<i32> r, a, csf, flt;
        decouple(rs, ds, p.enhn_gain_limit, r, a, k.decouple123);
        res.den_scale[scale] = den_scale123(rs, scale, p, k);
        csf_scale123(a, p, scale, csf, flt, k);
        res.num_scale[scale] = cm_scale123(r, csf, flt, p, scale, p.noise_weight, k);
        if (!p.skip_aim) {
            csf_scale123(r, p, scale, csf, flt, k);
            res.aim_scale[scale] = cm_scale123(a, csf, flt, p, scale, 0.0, k);
        }
        ref_a = std::move(rs.a);
        dis_a = std::move(ds.a);
    }

    double num = 0, den = 0, aim = 0;
    for (int s = 0; s < 4; ++s) {
        num += res.num_scale[s];
        den += res.den_scale[s];
        aim += res.aim_scale[s];
    }
    const double limit = 1e-10 * static_cast<double>(static_cast<int>(ref.width) * static_cast<int>(ref.height)) /
                         (1920.0 * 1080.0);
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
    return res;
}

}  // namespace vmaf::adm
