// Integer ADM: scalar reference kernels of the hot loops (the AdmKernels
// defaults). Every SIMD kernel in adm_simd.cpp must reproduce these bit for
// bit; see adm_kernels.hpp for the fixed-point conventions.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <numbers>

#include "features/adm/adm_simd.hpp"

namespace vmaf::adm {

namespace {

using i16 = std::int16_t;
using i32 = std::int32_t;
using i64 = std::int64_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

// Q15-ish filter taps; the low-pass taps sum to 46342 (~ sqrt(2) * 2^15).
constexpr i32 kLo[4] = {15826, 27411, 7345, -4240};
constexpr i32 kHi[4] = {-4240, -7345, 27411, -15826};
constexpr i32 kLoSum = 46342;

inline int mirror(int k, int n) {
    if (k < 0) return -k;
    if (k >= n) return 2 * n - k - 1;
    return k;
}

inline i64 round_shift(i64 v, i64 add, int shift) { return (v + add) >> shift; }

template <typename Sample>
void dwt0_vert_impl(const Sample* const r[4], int w, unsigned bpc, i16* lo, i16* hi) {
    // Samples of `bpc` bits -> int16 centred on zero (the low-pass DC offset
    // of mid-grey is removed), scaled by 2^-bpc.
    const int shift_v = static_cast<int>(bpc);
    const i64 add_v = i64{1} << (bpc - 1);
    for (int j = 0; j < w; ++j) {
        i64 acc_lo = 0, acc_hi = 0;
        for (int k = 0; k < 4; ++k) {
            const i64 s = r[k][j];
            acc_lo += kLo[k] * s;
            acc_hi += kHi[k] * s;
        }
        acc_lo -= i64{kLoSum} * add_v;
        lo[j] = static_cast<i16>(round_shift(acc_lo, add_v, shift_v));
        hi[j] = static_cast<i16>(round_shift(acc_hi, add_v, shift_v));
    }
}

const std::array<i32, 65537>& div_table() {
    static const std::array<i32, 65537> table = [] {
        std::array<i32, 65537> t{};
        for (int i = 1; i <= 32768; ++i) {
            const i32 r = static_cast<i32>(1073741824 / i);
            t[static_cast<std::size_t>(32768 + i)] = r;
            t[static_cast<std::size_t>(32768 - i)] = -r;
        }
        return t;
    }();
    return table;
}

const float kCos1DegSq = static_cast<float>(std::cos(1.0 * std::numbers::pi / 180.0) *
                                            std::cos(1.0 * std::numbers::pi / 180.0));

/// True when the (h, v) detail vectors of ref (o) and dis (t) point within
/// 1 degree of each other. Evaluated in float/double exactly as upstream.
/// a + b in 64 bits, wrapping like the SIMD kernels on extreme inputs.
inline i64 wrapping_add(i64 a, i64 b) {
    return static_cast<i64>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

/// a*b + c*d in 64 bits, wrapping like the SIMD kernels (and upstream's
/// int64 arithmetic in practice) when extreme inputs overflow; defined behaviour.
inline i64 dot2(i32 a, i32 b, i32 c, i32 d) {
    return wrapping_add(i64{a} * b, i64{c} * d);
}

inline bool angle_within_1deg(i64 ot_dp, i64 o_mag_sq, i64 t_mag_sq) {
    const double dp = static_cast<double>(static_cast<float>(ot_dp)) / 4096.0;
    const double om = static_cast<double>(static_cast<float>(o_mag_sq)) / 4096.0;
    const double tm = static_cast<double>(static_cast<float>(t_mag_sq)) / 4096.0;
    return dp >= 0.0 && dp * dp >= static_cast<double>(kCos1DegSq) * om * tm;
}

/// Enhancement gain: where the restored coefficient has the sign of the
/// reference and the directions agree, allow it to exceed the distorted one
/// by at most `egl` (result truncated toward zero like a C cast).
template <typename T>
inline T apply_gain(T rst, T t, float rst_f, bool angle, double egl) {
    if (angle && rst_f > 0.) {
        const double g = rst * egl;
        rst = static_cast<T>(g < t ? g : static_cast<double>(t));
    }
    if (angle && rst_f < 0.) {
        const double g = rst * egl;
        rst = static_cast<T>(g > t ? g : static_cast<double>(t));
    }
    return rst;
}

// Upstream stores the rounding term 2^31 of the Q32 products in an int32,
// where it becomes -2^31: the "rounding" subtracts half instead of adding.
constexpr i64 kQ32Round = -2147483648LL;

/// The masking threshold of pixel j: over the three orientations, the 3x3
/// neighbourhood of |csf| / 30 with the centre replaced by |csf| / 15. Upstream
/// sums it per orientation in int32; the sum wraps modulo 2^32, so summing
/// the orientations first (fsum rows) gives the same bits.
template <typename T, typename CenterFn>
inline i32 mask_threshold(const CmRow<T>& row, int j, CenterFn center) {
    const int lf = j == 0 ? 1 : j - 1, rt = j == row.w - 1 ? row.w - 1 : j + 1;
    // Unsigned accumulation: the same bits as upstream's int32 sum, without
    // signed-overflow UB.
    const i32* ru = row.fsum[0];
    const i32* rc = row.fsum[1];
    const i32* rd = row.fsum[2];
    u32 thr = static_cast<u32>(ru[lf]) + static_cast<u32>(ru[j]) + static_cast<u32>(ru[rt]);
    thr += static_cast<u32>(rc[lf]) + static_cast<u32>(rc[rt]);
    thr += static_cast<u32>(rd[lf]) + static_cast<u32>(rd[j]) + static_cast<u32>(rd[rt]);
    for (int theta = 0; theta < 3; ++theta) thr += static_cast<u32>(center(row.masker[theta][j]));
    return static_cast<i32>(thr);
}

/// fsum += x with int32 wrap-around.
inline void add_wrapping(i32& fsum, i32 x) {
    fsum = static_cast<i32>(static_cast<u32>(fsum) + static_cast<u32>(x));
}

}  // namespace

const std::int32_t* div_lut() { return div_table().data() + 32768; }
float cos1deg_sq() { return kCos1DegSq; }

namespace scalar {

void dwt0_vert8(const std::uint8_t* const r[4], int w, i16* lo, i16* hi) { dwt0_vert_impl(r, w, 8, lo, hi); }
void dwt0_vert16(const std::uint16_t* const r[4], int w, unsigned bpc, i16* lo, i16* hi) {
    dwt0_vert_impl(r, w, bpc, lo, hi);
}

void dwt0_horz_range(const i16* lo, const i16* hi, int w, int j0, int j1, i16* a, i16* v, i16* h, i16* d) {
    // int16 -> int16, scaled by 2^-16.
    for (int j = j0; j < j1; ++j) {
        int t[4];
        for (int k = 0; k < 4; ++k) t[k] = mirror(2 * j - 1 + k, w);
        i64 sa = 0, sv = 0, sh = 0, sd = 0;
        for (int k = 0; k < 4; ++k) {
            sa += kLo[k] * i64{lo[t[k]]};
            sv += kHi[k] * i64{lo[t[k]]};
            sh += kLo[k] * i64{hi[t[k]]};
            sd += kHi[k] * i64{hi[t[k]]};
        }
        a[j] = static_cast<i16>(round_shift(sa, 32768, 16));
        if (!v) continue;
        v[j] = static_cast<i16>(round_shift(sv, 32768, 16));
        h[j] = static_cast<i16>(round_shift(sh, 32768, 16));
        d[j] = static_cast<i16>(round_shift(sd, 32768, 16));
    }
}

void dwt0_horz(const i16* lo, const i16* hi, int w, i16* a, i16* v, i16* h, i16* d) {
    dwt0_horz_range(lo, hi, w, 0, (w + 1) / 2, a, v, h, d);
}

void dwt1_vert(const i16* const r[4], int w, i32* lo, i32* hi) {
    for (int j = 0; j < w; ++j) {
        i32 acc_lo = 0, acc_hi = 0;
        for (int k = 0; k < 4; ++k) {
            acc_lo += kLo[k] * i32{r[k][j]};
            acc_hi += kHi[k] * i32{r[k][j]};
        }
        lo[j] = acc_lo;
        hi[j] = acc_hi;
    }
}

void dwt123_vert(const i32* const r[4], int w, i64 add, int shift, i32* lo, i32* hi) {
    for (int j = 0; j < w; ++j) {
        i64 acc_lo = 0, acc_hi = 0;
        for (int k = 0; k < 4; ++k) {
            acc_lo += kLo[k] * i64{r[k][j]};
            acc_hi += kHi[k] * i64{r[k][j]};
        }
        lo[j] = static_cast<i32>(round_shift(acc_lo, add, shift));
        hi[j] = static_cast<i32>(round_shift(acc_hi, add, shift));
    }
}

void dwt123_horz_range(const i32* lo, const i32* hi, int w, int j0, int j1, i64 add, int shift, i32* a, i32* v,
                       i32* h, i32* d) {
    for (int j = j0; j < j1; ++j) {
        int t[4];
        for (int k = 0; k < 4; ++k) t[k] = mirror(2 * j - 1 + k, w);
        i64 sa = 0, sv = 0, sh = 0, sd = 0;
        for (int k = 0; k < 4; ++k) {
            sa += kLo[k] * i64{lo[t[k]]};
            sv += kHi[k] * i64{lo[t[k]]};
            sh += kLo[k] * i64{hi[t[k]]};
            sd += kHi[k] * i64{hi[t[k]]};
        }
        a[j] = static_cast<i32>(round_shift(sa, add, shift));
        v[j] = static_cast<i32>(round_shift(sv, add, shift));
        h[j] = static_cast<i32>(round_shift(sh, add, shift));
        d[j] = static_cast<i32>(round_shift(sd, add, shift));
    }
}

void dwt123_horz(const i32* lo, const i32* hi, int w, i64 add, int shift, i32* a, i32* v, i32* h, i32* d) {
    dwt123_horz_range(lo, hi, w, 0, (w + 1) / 2, add, shift, a, v, h, d);
}

// Decouple: k = clamp(t / o, 0, 1) in Q15 (via the reciprocal table),
// R = k * o, A = t - R, per orientation.
void decouple0(const i16* const o[3], const i16* const t[3], int n, double egl, i16* const r[3], i16* const a[3]) {
    const auto& lut = div_table();
    for (int j = 0; j < n; ++j) {
        const i16 oh = o[0][j], ov = o[1][j];
        const i16 th = t[0][j], tv = t[1][j];
        const bool angle =
            angle_within_1deg(dot2(oh, th, ov, tv), dot2(oh, oh, ov, ov), dot2(th, th, tv, tv));
        for (int theta = 0; theta < 3; ++theta) {
            const i16 oo = o[theta][j];
            const i16 tt = t[theta][j];
            const i32 tmp_k = oo == 0 ? 32768 : static_cast<i32>((i64{lut[oo + 32768]} * tt + 16384) >> 15);
            const i32 k = std::clamp(tmp_k, 0, 32768);
            i16 rst = static_cast<i16>((k * oo + 16384) >> 15);
            const float rst_f = (static_cast<float>(k) / 32768) * (static_cast<float>(oo) / 64);
            rst = apply_gain<i16>(rst, tt, rst_f, angle, egl);
            r[theta][j] = rst;
            a[theta][j] = static_cast<i16>(tt - rst);
        }
    }
}

/// Scale 1..3 variant: the denominator is first reduced to its 15 most
/// significant bits (rounded), the quotient shifted back accordingly.
void decouple123(const i32* const o[3], const i32* const t[3], int n, double egl, i32* const r[3], i32* const a[3]) {
    const auto& lut = div_table();
    for (int j = 0; j < n; ++j) {
        const i32 oh = o[0][j], ov = o[1][j];
        const i32 th = t[0][j], tv = t[1][j];
        const bool angle =
            angle_within_1deg(dot2(oh, th, ov, tv), dot2(oh, oh, ov, ov), dot2(th, th, tv, tv));
        for (int theta = 0; theta < 3; ++theta) {
            const i32 oo = o[theta][j];
            const i32 tt = t[theta][j];
            i64 tmp_k = 32768;
            if (oo != 0) {
                const u32 abs_o = static_cast<u32>(oo < 0 ? -i64{oo} : i64{oo});
                const i64 sign = oo < 0 ? -1 : 1;
                int shift = 0;
                u32 msb = abs_o;
                if (abs_o >= 32768) {
                    shift = 17 - std::countl_zero(abs_o);
                    msb = (abs_o + (u32{1} << (shift - 1))) >> shift;
                }
                tmp_k = ((i64{lut[msb + 32768]} * tt) * sign + (i64{1} << (14 + shift))) >> (15 + shift);
            }
            const i64 k = std::clamp<i64>(tmp_k, 0, 32768);
            i32 rst = static_cast<i32>((k * oo + 16384) >> 15);
            const float rst_f = (static_cast<float>(k) / 32768) * (static_cast<float>(oo) / 64);
            rst = apply_gain<i32>(rst, tt, rst_f, angle, egl);
            r[theta][j] = rst;
            a[theta][j] = static_cast<i32>(static_cast<u32>(tt) - static_cast<u32>(rst));
        }
    }
}

// CSF: out = src * csf (rounded to the band's format); flt = |out| / 30 (the
// masker's neighbourhood contribution) is added to the orientations' sum.
void csf0(const i16* src, int n, u16 rf, int shift, i32 add, i16* out, i32* fsum) {
    constexpr i32 kOneBy30 = 4369;  // 2^17 / 30
    for (int j = 0; j < n; ++j) {
        const i32 v = i32{rf} * src[j];
        const i16 c = static_cast<i16>((v + add) >> shift);
        out[j] = c;
        const i16 flt = static_cast<i16>((kOneBy30 * std::abs(i32{c}) + 2048) >> 12);
        add_wrapping(fsum[j], flt);
    }
}

void csf123(const i32* src, int n, u32 rf, i32* out, i32* fsum) {
    constexpr i64 kOneBy30 = 143165577;  // 2^32 / 30
    for (int j = 0; j < n; ++j) {
        const i32 c = static_cast<i32>((i64{rf} * src[j] + (i64{1} << 27)) >> 28);
        out[j] = c;
        const i32 flt = static_cast<i32>((kOneBy30 * std::abs(i64{c}) + kQ32Round) >> 32);
        add_wrapping(fsum[j], flt);
    }
}

u64 den0(const i16* b, int n) {
    u64 inner = 0;
    for (int j = 0; j < n; ++j) {
        const u64 x = static_cast<u16>(std::abs(i32{b[j]}));
        inner += x * x * x;
    }
    return inner;
}

u64 den123(const i32* b, int n, u32 shift_sq, u64 add_sq, u32 shift_cub, u64 add_cub) {
    u64 inner = 0;
    for (int j = 0; j < n; ++j) {
        const u64 x = static_cast<u32>(std::abs(i64{b[j]}));
        inner += ((((x * x) + add_sq) >> shift_sq) * x + add_cub) >> shift_cub;
    }
    return inner;
}

// Contrast masking: the masking threshold is, summed over the three
// orientations, the 3x3 neighbourhood of the masker's |csf|/30 with the
// centre replaced by |csf|/15.
void cm0_range(const CmRow<i16>& row, int j0, int j1, i64 inner[3]) {
    static constexpr int kShiftSub[3] = {10, 10, 12};
    static constexpr int kShiftSq[3] = {29, 29, 30};
    static constexpr i64 kAddSq[3] = {268435456, 268435456, 536870912};
    constexpr i32 kOneBy15 = 8738;  // 2^17 / 15
    auto center = [](i16 c) { return static_cast<i16>((kOneBy15 * std::abs(i32{c}) + 2048) >> 12); };
    for (int j = j0; j < j1; ++j) {
        const i32 thr = mask_threshold(row, j, center);
        for (int t = 0; t < 3; ++t) {
            i32 x = i32{row.target[t][j]} * static_cast<i32>(row.rf[t]);
            // Wrapping subtraction (as the SIMD kernels), defined for extreme inputs.
            x = static_cast<i32>(static_cast<u32>(std::abs(x)) - (static_cast<u32>(thr) << kShiftSub[t]));
            x = x < 0 ? 0 : x;
            const i32 x_sq = static_cast<i32>((i64{x} * x + kAddSq[t]) >> kShiftSq[t]);
            inner[t] = wrapping_add(inner[t], (i64{x_sq} * x + row.add_cub[t]) >> row.shift_cub[t]);
        }
    }
}

void cm0(const CmRow<i16>& row, i64 inner[3]) { cm0_range(row, row.j0, row.j1, inner); }

void cm123_range(const CmRow<i32>& row, int j0, int j1, i64 inner[3]) {
    constexpr i64 kOneBy15 = 286331153;  // 2^32 / 15
    auto center = [](i32 c) { return static_cast<i32>((kOneBy15 * std::abs(i64{c}) + kQ32Round) >> 32); };
    for (int j = j0; j < j1; ++j) {
        const i32 thr = mask_threshold(row, j, center);
        for (int t = 0; t < 3; ++t) {
            i32 x = static_cast<i32>((i64{row.target[t][j]} * row.rf[t] + (i64{1} << 27)) >> 28);
            x = static_cast<i32>(static_cast<u32>(std::abs(x)) - static_cast<u32>(thr));
            x = x < 0 ? 0 : x;
            const i32 x_sq = static_cast<i32>((i64{x} * x + 536870912) >> 30);
            inner[t] = wrapping_add(inner[t], (i64{x_sq} * x + row.add_cub[t]) >> row.shift_cub[t]);
        }
    }
}

void cm123(const CmRow<i32>& row, i64 inner[3]) { cm123_range(row, row.j0, row.j1, inner); }

}  // namespace scalar

AdmKernels::AdmKernels()
    : dwt0_vert8(scalar::dwt0_vert8),
      dwt0_vert16(scalar::dwt0_vert16),
      dwt0_horz(scalar::dwt0_horz),
      dwt1_vert(scalar::dwt1_vert),
      dwt123_vert(scalar::dwt123_vert),
      dwt123_horz(scalar::dwt123_horz),
      decouple0(scalar::decouple0),
      decouple123(scalar::decouple123),
      csf0(scalar::csf0),
      csf123(scalar::csf123),
      den0(scalar::den0),
      den123(scalar::den123),
      cm0(scalar::cm0),
      cm123(scalar::cm123) {}

const AdmKernels& scalar_kernels() {
    static const AdmKernels k;
    return k;
}

}  // namespace vmaf::adm
