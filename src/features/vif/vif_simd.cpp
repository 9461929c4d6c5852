// SIMD row kernels of the integer VIF feature, one Highway source compiled
// for every target; each target registers its kernels in vif_registry().
//
// Bit-exactness with the scalar reference (vif_kernels.cpp) rests on:
//  * 32-bit sums are computed modulo 2^32 exactly as the reference's uint32
//    accumulators wrap, so symmetric taps may be added before multiplying:
//    c*a + c*b == c*(a + b) (mod 2^32).
//  * 64-bit second-moment sums sum_k c_k v_k with 16-bit c_k (sum 65536) and
//    32-bit v_k are split as v = hi * 2^16 + lo: both sum_k c_k lo_k and
//    sum_k c_k hi_k are below 65536 * 65535 < 2^32, so each is exact in 32
//    bits, and (hi_sum * 2^16 + lo_sum + round) >> s (s <= 16, round <= 2^15)
//    is (hi_sum << (16 - s)) + ((lo_sum + round) >> s), cut to 32 bits.
//  * 8-bit samples: every vertical sum is below 65536 * 255^2 < 2^32.
//  * the statistic's rows are biased 16-bit planes (StatRow): the horizontal
//    pass multiplies them pairwise (pmaddwd on x86) with (c_k, c_k+1) as
//    signed 16-bit numbers, lanes holding the even pixels then the odd ones;
//    FilterPlane documents the bias and large-coefficient corrections.
//  * log2 in Q11: the bit width comes from a float/double exponent of a
//    value converted exactly; the 16-bit table is read with scalar loads
//    (AMD Zen 4's gathers are slower than scalar loads).
//  * pixels needing logs are packed densely first (StatAccumulator): every
//    sum is an integer sum, so the order of pixels does not change it.
// Widths that do not fill a vector are finished by the scalar reference.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/vif/vif_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "core/simd.hpp"
#include "features/vif/vif_kernels.hpp"

#ifndef VMAF_VIF_SIMD_DECL
#define VMAF_VIF_SIMD_DECL
namespace vmaf::vif {
simd::KernelRegistry<VifKernels>& vif_registry();
}
#endif

// HWY_SCALAR (Highway's one-lane fallback, the baseline when GCC < 13 marks
// EMU128 broken) lacks ops used here; there the scalar reference is kept.
#if HWY_TARGET != HWY_SCALAR
HWY_BEFORE_NAMESPACE();
namespace vmaf::vif::HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

// SVE vectors are sizeless: no arrays or class members of them.
#undef VMAF_VIF_SIZELESS
#if HWY_TARGET == HWY_SVE || HWY_TARGET == HWY_SVE2 || HWY_TARGET == HWY_SVE_256 || HWY_TARGET == HWY_SVE2_128
#define VMAF_VIF_SIZELESS 1
#else
#define VMAF_VIF_SIZELESS 0
#endif

using DU32 = hn::ScalableTag<std::uint32_t>;
using VU32 = hn::Vec<DU32>;

constexpr std::uint32_t kSigmaNsq = 65536u << 1;

/// Row pointers advanced by `j` (for the scalar tail).
template <typename T>
struct OffsetRows {
    const T* p[17];
    OffsetRows(const T* const* rows, unsigned taps, unsigned j) {
        for (unsigned k = 0; k < taps; ++k) p[k] = rows[k] + j;
    }
};

template <typename T>
HWY_INLINE VU32 LoadWide(DU32 d, const T* p) {
    const hn::Rebind<T, DU32> dt;
    return hn::PromoteTo(d, hn::LoadU(dt, p));
}

/// (hi * 2^16 + lo + round) >> shift, cut to 32 bits (shift <= 16, round <= 2^15).
HWY_INLINE VU32 CombineSplit(DU32 /*d*/, VU32 hi, VU32 lo, VU32 round, int shift) {
    return hn::Add(hn::ShiftLeftSame(hi, 16 - shift), hn::ShiftRightSame(hn::Add(lo, round), shift));
}

HWY_INLINE VU32 Lo16(DU32 d, VU32 v) {
    return hn::And(v, hn::Set(d, 0xFFFFu));
}

// ---------------------------------------------------------------------------
// Subsampling: vertical pass.
template <typename T>
void SubVFilter(const T* const* rows, unsigned w, const std::uint16_t* coeff, unsigned taps, unsigned shift,
                std::uint32_t* out) {
    const DU32 d;
    const std::size_t n = hn::Lanes(d);
    const unsigned half = taps / 2;
    const VU32 round = hn::Set(d, 1u << (shift - 1));
    unsigned j = 0;
    for (; j + n <= w; j += static_cast<unsigned>(n)) {
        VU32 acc = hn::Mul(hn::Set(d, coeff[half]), LoadWide(d, rows[half] + j));
        for (unsigned k = 0; k < half; ++k) {
            const VU32 s = hn::Add(LoadWide(d, rows[k] + j), LoadWide(d, rows[taps - 1 - k] + j));
            acc = hn::Add(acc, hn::Mul(hn::Set(d, coeff[k]), s));
        }
        hn::StoreU(Lo16(d, hn::ShiftRightSame(hn::Add(acc, round), static_cast<int>(shift))), d, out + j);
    }
    if (j < w) {
        const OffsetRows<T> r(rows, taps, j);
        ref::sub_vfilter(r.p, w - j, coeff, taps, shift, out + j);
    }
}

// Subsampling: horizontal pass, keeping every other column.
void SubHFilter(const std::uint32_t* in, unsigned out_w, const std::uint16_t* coeff, unsigned taps,
                std::uint16_t* dst) {
    const DU32 d;
    const hn::Rebind<std::uint16_t, DU32> d16;
    const hn::RebindToSigned<DU32> di;
    const std::size_t n = hn::Lanes(d);
    const unsigned half = taps / 2;
    const VU32 round = hn::Set(d, 32768u);
    unsigned oj = 0;
    // A block reads in[2*oj .. 2*oj + 2n + taps - 2], one past what its
    // outputs need (allowed by the contract).
    for (; oj + n <= out_w; oj += static_cast<unsigned>(n)) {
        const std::uint32_t* p = in + 2 * static_cast<std::size_t>(oj);
        // Full-rate sums; only the even lanes are outputs.
        VU32 a = hn::Mul(hn::Set(d, coeff[half]), hn::LoadU(d, p + half));
        VU32 b = hn::Mul(hn::Set(d, coeff[half]), hn::LoadU(d, p + n + half));
        for (unsigned k = 0; k < half; ++k) {
            const VU32 c = hn::Set(d, coeff[k]);
            a = hn::Add(a, hn::Mul(c, hn::Add(hn::LoadU(d, p + k), hn::LoadU(d, p + taps - 1 - k))));
            b = hn::Add(b, hn::Mul(c, hn::Add(hn::LoadU(d, p + n + k), hn::LoadU(d, p + n + taps - 1 - k))));
        }
        a = hn::ShiftRight<16>(hn::Add(a, round));
        b = hn::ShiftRight<16>(hn::Add(b, round));
        const VU32 even = Lo16(d, hn::ConcatEven(d, b, a));
        hn::StoreU(hn::DemoteTo(d16, hn::BitCast(di, even)), d16, dst + oj);
    }
    if (oj < out_w) ref::sub_hfilter(in + 2 * static_cast<std::size_t>(oj), out_w - oj, coeff, taps, dst + oj);
}

// ---------------------------------------------------------------------------
// Statistic rows are stored as biased 16-bit planes (see StatRow).

using DI32 = hn::RebindToSigned<DU32>;
using DI16H = hn::Rebind<std::int16_t, DI32>;  // one int16 per 32-bit lane

/// Stores the 16-bit values of v (< 2^16 each) biased, one int16 per lane.
HWY_INLINE void StoreBiased(DU32 d, VU32 v, std::int16_t* p) {
    const DI32 di;
    const DI16H d16;
    // v - 32768 lies in [-32768, 32767]: the saturating demotion is exact.
    hn::StoreU(hn::DemoteTo(d16, hn::BitCast(di, hn::Sub(v, hn::Set(d, 32768u)))), d16, p);
}

/// Stores a 32-bit second moment as its biased low and high halves.
HWY_INLINE void StoreMoment(DU32 d, VU32 v, std::int16_t* lo, std::int16_t* hi) {
    StoreBiased(d, Lo16(d, v), lo);
    StoreBiased(d, hn::ShiftRight<16>(v), hi);
}

/// kTaps: the filter length when known at compile time (0: `taps`).
template <unsigned kTaps>
HWY_INLINE unsigned TapCount(unsigned taps) {
    return kTaps ? kTaps : taps;
}

// Statistic: vertical pass, 8-bit samples (every sum fits 32 bits).
template <unsigned kTaps>
void StatVFilter8T(const std::uint8_t* const* ref_rows, const std::uint8_t* const* dis_rows, unsigned w,
                   const std::uint16_t* coeff, unsigned taps_arg, const VerticalNorm& norm, const StatRow& out) {
    const unsigned taps = TapCount<kTaps>(taps_arg);
    const DU32 d;
    const std::size_t n = hn::Lanes(d);
    const unsigned half = taps / 2;
    const VU32 round_mu = hn::Set(d, norm.round_mu);
    const VU32 round_sq = hn::Set(d, static_cast<std::uint32_t>(norm.round_sq));
    const int shift_mu = static_cast<int>(norm.shift_mu), shift_sq = static_cast<int>(norm.shift_sq);
    unsigned j = 0;
    for (; j + n <= w; j += static_cast<unsigned>(n)) {
        const VU32 cc = hn::Set(d, coeff[half]);
        const VU32 r0 = LoadWide(d, ref_rows[half] + j);
        const VU32 d0 = LoadWide(d, dis_rows[half] + j);
        const VU32 cr = hn::Mul(cc, r0);
        const VU32 cd = hn::Mul(cc, d0);
        VU32 mu1 = cr, mu2 = cd;
        VU32 xx = hn::Mul(cr, r0), yy = hn::Mul(cd, d0), xy = hn::Mul(cr, d0);
        for (unsigned k = 0; k < half; ++k) {
            const VU32 c = hn::Set(d, coeff[k]);
            const VU32 ra = LoadWide(d, ref_rows[k] + j), rb = LoadWide(d, ref_rows[taps - 1 - k] + j);
            const VU32 da = LoadWide(d, dis_rows[k] + j), db = LoadWide(d, dis_rows[taps - 1 - k] + j);
            mu1 = hn::Add(mu1, hn::Mul(c, hn::Add(ra, rb)));
            mu2 = hn::Add(mu2, hn::Mul(c, hn::Add(da, db)));
            xx = hn::Add(xx, hn::Mul(c, hn::Add(hn::Mul(ra, ra), hn::Mul(rb, rb))));
            yy = hn::Add(yy, hn::Mul(c, hn::Add(hn::Mul(da, da), hn::Mul(db, db))));
            xy = hn::Add(xy, hn::Mul(c, hn::Add(hn::Mul(ra, da), hn::Mul(rb, db))));
        }
        StoreBiased(d, Lo16(d, hn::ShiftRightSame(hn::Add(mu1, round_mu), shift_mu)), out.mu1 + j);
        StoreBiased(d, Lo16(d, hn::ShiftRightSame(hn::Add(mu2, round_mu), shift_mu)), out.mu2 + j);
        StoreMoment(d, hn::ShiftRightSame(hn::Add(xx, round_sq), shift_sq), out.xx_lo + j, out.xx_hi + j);
        StoreMoment(d, hn::ShiftRightSame(hn::Add(yy, round_sq), shift_sq), out.yy_lo + j, out.yy_hi + j);
        StoreMoment(d, hn::ShiftRightSame(hn::Add(xy, round_sq), shift_sq), out.xy_lo + j, out.xy_hi + j);
    }
    if (j < w) {
        const OffsetRows<std::uint8_t> r(ref_rows, taps, j), s(dis_rows, taps, j);
        ref::stat_vfilter(r.p, s.p, w - j, coeff, taps, norm, out.offset(j));
    }
}

void StatVFilter8(const std::uint8_t* const* ref_rows, const std::uint8_t* const* dis_rows, unsigned w,
                  const std::uint16_t* coeff, unsigned taps, const VerticalNorm& norm, const StatRow& out) {
    // The 32-bit second-moment sums (< 65536 * 255^2) plus round_sq must not wrap.
    if (norm.round_sq > (std::uint64_t{1} << 16) || norm.shift_sq > 16) {
        ref::stat_vfilter(ref_rows, dis_rows, w, coeff, taps, norm, out);
        return;
    }
    switch (taps) {
        case 17: return StatVFilter8T<17>(ref_rows, dis_rows, w, coeff, taps, norm, out);
        case 9: return StatVFilter8T<9>(ref_rows, dis_rows, w, coeff, taps, norm, out);
        case 5: return StatVFilter8T<5>(ref_rows, dis_rows, w, coeff, taps, norm, out);
        case 3: return StatVFilter8T<3>(ref_rows, dis_rows, w, coeff, taps, norm, out);
        default: return StatVFilter8T<0>(ref_rows, dis_rows, w, coeff, taps, norm, out);
    }
}

#undef VMAF_VIF_X86_MADD  // defined anew for each target
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL || HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_SSE4 || \
    HWY_TARGET == HWY_SSSE3
#define VMAF_VIF_X86_MADD 1
// Statistic: vertical pass, 8-bit samples, in 16-bit lanes with pmaddwd.
// Lanes are widened in pairs: InterleaveLower/Upper(a, b) puts (a[i], b[i])
// in one 32-bit lane, pmaddwd multiplies-and-adds each pair, and the final
// ReorderDemote2To (packssdw, per 128-bit block like the interleaves) puts the
// pixels back in order.
//  * mu: samples (< 2^8) of taps k and taps-1-k are added first (< 2^9), and
//    two such sums share one pmaddwd with their coefficients (each < 2^15);
//    the centre tap's coefficient is split in two halves below 2^15.
//  * second moments: pmaddwd of (r_a, r_b) with itself (or with (d_a, d_b))
//    gives r_a^2 + r_b^2 (< 2^17), then one 32-bit multiply by the shared
//    coefficient. All sums are taken modulo 2^32 and are below 2^32 (8-bit
//    contract), so they are exact.
template <unsigned kTaps>
void StatVFilter8MaddT(const std::uint8_t* const* ref_rows, const std::uint8_t* const* dis_rows, unsigned w,
                       const std::uint16_t* coeff, unsigned taps_arg, const VerticalNorm& norm, const StatRow& out) {
    const unsigned taps = TapCount<kTaps>(taps_arg);
    using D16 = hn::ScalableTag<std::int16_t>;
    const D16 d16;
    const hn::RebindToUnsigned<D16> du16;
    const hn::Rebind<std::uint8_t, D16> d8;
    const hn::Repartition<std::int32_t, D16> d32;
    using V16 = hn::Vec<D16>;
    using V32 = hn::Vec<decltype(d32)>;
    const std::size_t n = hn::Lanes(d16);
    const unsigned half = taps / 2;

    // mu terms: (sum vector index, coefficient), centre split in two.
    const std::uint32_t c_mid_a = coeff[half] / 2, c_mid_b = coeff[half] - c_mid_a;
    std::uint32_t mu_c[20];
    for (unsigned k = 0; k < half; ++k) mu_c[k] = coeff[k];
    mu_c[half] = c_mid_a;
    mu_c[half + 1] = c_mid_b;
    const unsigned mu_terms = half + 2;
    const unsigned mu_pairs = (mu_terms + 1) / 2;
    V16 mu_cp[10];
    for (unsigned m = 0; m < mu_pairs; ++m) {
        const std::uint32_t lo = mu_c[2 * m], hi = 2 * m + 1 < mu_terms ? mu_c[2 * m + 1] : 0u;
        mu_cp[m] = hn::BitCast(d16, hn::Set(d32, static_cast<std::int32_t>(lo | (hi << 16))));
    }
    V32 cq[9];
    for (unsigned k = 0; k <= half; ++k) cq[k] = hn::Set(d32, static_cast<std::int32_t>(coeff[k]));

    const V32 round_mu = hn::Set(d32, static_cast<std::int32_t>(norm.round_mu));
    const V32 round_sq = hn::Set(d32, static_cast<std::int32_t>(norm.round_sq));
    const V32 mask16 = hn::Set(d32, 0xFFFF), bias = hn::Set(d32, 32768);
    const int shift_mu = static_cast<int>(norm.shift_mu), shift_sq = static_cast<int>(norm.shift_sq);
    const V16 zero = hn::Zero(d16);

    auto load = [&](const std::uint8_t* p) { return hn::BitCast(d16, hn::PromoteTo(du16, hn::LoadU(d8, p))); };
    // Biased 16-bit halves of two 32-bit vectors (interleave order) in pixel order.
    auto pack = [&](V32 lo, V32 hi) {
        return hn::ReorderDemote2To(d16, hn::Sub(lo, bias), hn::Sub(hi, bias));
    };
    auto store_mu = [&](V32 lo, V32 hi, std::int16_t* p) {
        lo = hn::And(hn::ShiftRightSame(hn::Add(lo, round_mu), shift_mu), mask16);
        hi = hn::And(hn::ShiftRightSame(hn::Add(hi, round_mu), shift_mu), mask16);
        hn::StoreU(pack(lo, hi), d16, p);
    };
    auto store_moment = [&](V32 lo, V32 hi, std::int16_t* plo, std::int16_t* phi) {
        lo = hn::BitCast(d32, hn::ShiftRightSame(hn::BitCast(hn::RebindToUnsigned<decltype(d32)>(), hn::Add(lo, round_sq)), shift_sq));
        hi = hn::BitCast(d32, hn::ShiftRightSame(hn::BitCast(hn::RebindToUnsigned<decltype(d32)>(), hn::Add(hi, round_sq)), shift_sq));
        hn::StoreU(pack(hn::And(lo, mask16), hn::And(hi, mask16)), d16, plo);
        const hn::RebindToUnsigned<decltype(d32)> du32;
        hn::StoreU(pack(hn::BitCast(d32, hn::ShiftRight<16>(hn::BitCast(du32, lo))),
                        hn::BitCast(d32, hn::ShiftRight<16>(hn::BitCast(du32, hi)))), d16, phi);
    };

    unsigned j = 0;
    for (; j + n <= w; j += static_cast<unsigned>(n)) {
        V16 rs[10], ds[10];  // mu terms
        V32 xx_l = hn::Zero(d32), xx_h = xx_l, yy_l = xx_l, yy_h = xx_l, xy_l = xx_l, xy_h = xx_l;
        for (unsigned k = 0; k <= half; ++k) {
            const V16 ra = load(ref_rows[k] + j), da = load(dis_rows[k] + j);
            const bool mid = k == half;
            const V16 rb = mid ? zero : load(ref_rows[taps - 1 - k] + j);
            const V16 db = mid ? zero : load(dis_rows[taps - 1 - k] + j);
            if (mid) {
                rs[half] = rs[half + 1] = ra;
                ds[half] = ds[half + 1] = da;
            } else {
                rs[k] = hn::Add(ra, rb);
                ds[k] = hn::Add(da, db);
            }
            const V16 r_l = hn::InterleaveLower(d16, ra, rb), r_h = hn::InterleaveUpper(d16, ra, rb);
            const V16 d_l = hn::InterleaveLower(d16, da, db), d_h = hn::InterleaveUpper(d16, da, db);
            V32 u0 = hn::Zero(d32), u1 = u0, u2 = u0, u3 = u0, u4 = u0, u5 = u0;
            u0 = hn::ReorderWidenMulAccumulate(d32, r_l, r_l, u0, u1);
            u1 = hn::Zero(d32);
            u1 = hn::ReorderWidenMulAccumulate(d32, r_h, r_h, u1, u2);
            u2 = hn::Zero(d32);
            u2 = hn::ReorderWidenMulAccumulate(d32, d_l, d_l, u2, u3);
            u3 = hn::Zero(d32);
            u3 = hn::ReorderWidenMulAccumulate(d32, d_h, d_h, u3, u4);
            u4 = hn::Zero(d32);
            u4 = hn::ReorderWidenMulAccumulate(d32, r_l, d_l, u4, u5);
            u5 = hn::Zero(d32);
            V32 unused = hn::Zero(d32);
            u5 = hn::ReorderWidenMulAccumulate(d32, r_h, d_h, u5, unused);
            xx_l = hn::Add(xx_l, hn::Mul(u0, cq[k]));
            xx_h = hn::Add(xx_h, hn::Mul(u1, cq[k]));
            yy_l = hn::Add(yy_l, hn::Mul(u2, cq[k]));
            yy_h = hn::Add(yy_h, hn::Mul(u3, cq[k]));
            xy_l = hn::Add(xy_l, hn::Mul(u4, cq[k]));
            xy_h = hn::Add(xy_h, hn::Mul(u5, cq[k]));
        }
        V32 mu1_l = hn::Zero(d32), mu1_h = mu1_l, mu2_l = mu1_l, mu2_h = mu1_l;
        for (unsigned m = 0; m < mu_pairs; ++m) {
            const bool single = 2 * m + 1 >= mu_terms;
            const V16 ra = rs[2 * m], rb = single ? zero : rs[2 * m + 1];
            const V16 da = ds[2 * m], db = single ? zero : ds[2 * m + 1];
            V32 unused = hn::Zero(d32);
            mu1_l = hn::ReorderWidenMulAccumulate(d32, hn::InterleaveLower(d16, ra, rb), mu_cp[m], mu1_l, unused);
            mu1_h = hn::ReorderWidenMulAccumulate(d32, hn::InterleaveUpper(d16, ra, rb), mu_cp[m], mu1_h, unused);
            mu2_l = hn::ReorderWidenMulAccumulate(d32, hn::InterleaveLower(d16, da, db), mu_cp[m], mu2_l, unused);
            mu2_h = hn::ReorderWidenMulAccumulate(d32, hn::InterleaveUpper(d16, da, db), mu_cp[m], mu2_h, unused);
        }
        store_mu(mu1_l, mu1_h, out.mu1 + j);
        store_mu(mu2_l, mu2_h, out.mu2 + j);
        store_moment(xx_l, xx_h, out.xx_lo + j, out.xx_hi + j);
        store_moment(yy_l, yy_h, out.yy_lo + j, out.yy_hi + j);
        store_moment(xy_l, xy_h, out.xy_lo + j, out.xy_hi + j);
    }
    if (j < w) StatVFilter8T<kTaps>(OffsetRows<std::uint8_t>(ref_rows, taps, j).p,
                                    OffsetRows<std::uint8_t>(dis_rows, taps, j).p, w - j, coeff, taps, norm,
                                    out.offset(j));
}

void StatVFilter8Madd(const std::uint8_t* const* ref_rows, const std::uint8_t* const* dis_rows, unsigned w,
                      const std::uint16_t* coeff, unsigned taps, const VerticalNorm& norm, const StatRow& out) {
    bool ok = taps <= 17 && norm.round_sq <= (std::uint64_t{1} << 16) && norm.shift_sq <= 16 && norm.shift_mu <= 16;
    // pmaddwd takes signed 16-bit coefficients: each side tap and each centre half below 2^15.
    for (unsigned k = 0; ok && k < taps / 2; ++k) ok = coeff[k] < 32768;
    ok = ok && coeff[taps / 2] - coeff[taps / 2] / 2 < 32768;
    if (!ok) return StatVFilter8(ref_rows, dis_rows, w, coeff, taps, norm, out);
    switch (taps) {
        case 17: return StatVFilter8MaddT<17>(ref_rows, dis_rows, w, coeff, taps, norm, out);
        case 9: return StatVFilter8MaddT<9>(ref_rows, dis_rows, w, coeff, taps, norm, out);
        case 5: return StatVFilter8MaddT<5>(ref_rows, dis_rows, w, coeff, taps, norm, out);
        case 3: return StatVFilter8MaddT<3>(ref_rows, dis_rows, w, coeff, taps, norm, out);
        default: return StatVFilter8MaddT<0>(ref_rows, dis_rows, w, coeff, taps, norm, out);
    }
}
#endif

// Statistic: vertical pass, 16-bit samples (second moments split in 16-bit halves).
template <unsigned kTaps>
void StatVFilter16T(const std::uint16_t* const* ref_rows, const std::uint16_t* const* dis_rows, unsigned w,
                    const std::uint16_t* coeff, unsigned taps_arg, const VerticalNorm& norm, const StatRow& out) {
    const unsigned taps = TapCount<kTaps>(taps_arg);
    const DU32 d;
    const std::size_t n = hn::Lanes(d);
    const unsigned half = taps / 2;
    const VU32 round_mu = hn::Set(d, norm.round_mu);
    const VU32 round_sq = hn::Set(d, static_cast<std::uint32_t>(norm.round_sq));
    const int shift_mu = static_cast<int>(norm.shift_mu), shift_sq = static_cast<int>(norm.shift_sq);
    unsigned j = 0;
    for (; j + n <= w; j += static_cast<unsigned>(n)) {
        const VU32 cc = hn::Set(d, coeff[half]);
        const VU32 r0 = LoadWide(d, ref_rows[half] + j);
        const VU32 d0 = LoadWide(d, dis_rows[half] + j);
        VU32 mu1 = hn::Mul(cc, r0), mu2 = hn::Mul(cc, d0);
        const VU32 rr0 = hn::Mul(r0, r0), dd0 = hn::Mul(d0, d0), rd0 = hn::Mul(r0, d0);
        VU32 xx_lo = hn::Mul(cc, Lo16(d, rr0)), xx_hi = hn::Mul(cc, hn::ShiftRight<16>(rr0));
        VU32 yy_lo = hn::Mul(cc, Lo16(d, dd0)), yy_hi = hn::Mul(cc, hn::ShiftRight<16>(dd0));
        VU32 xy_lo = hn::Mul(cc, Lo16(d, rd0)), xy_hi = hn::Mul(cc, hn::ShiftRight<16>(rd0));
        for (unsigned k = 0; k < half; ++k) {
            const VU32 c = hn::Set(d, coeff[k]);
            const VU32 ra = LoadWide(d, ref_rows[k] + j), rb = LoadWide(d, ref_rows[taps - 1 - k] + j);
            const VU32 da = LoadWide(d, dis_rows[k] + j), db = LoadWide(d, dis_rows[taps - 1 - k] + j);
            mu1 = hn::Add(mu1, hn::Mul(c, hn::Add(ra, rb)));
            mu2 = hn::Add(mu2, hn::Mul(c, hn::Add(da, db)));
            const VU32 rra = hn::Mul(ra, ra), rrb = hn::Mul(rb, rb);
            const VU32 dda = hn::Mul(da, da), ddb = hn::Mul(db, db);
            const VU32 rda = hn::Mul(ra, da), rdb = hn::Mul(rb, db);
            xx_lo = hn::Add(xx_lo, hn::Mul(c, hn::Add(Lo16(d, rra), Lo16(d, rrb))));
            xx_hi = hn::Add(xx_hi, hn::Mul(c, hn::Add(hn::ShiftRight<16>(rra), hn::ShiftRight<16>(rrb))));
            yy_lo = hn::Add(yy_lo, hn::Mul(c, hn::Add(Lo16(d, dda), Lo16(d, ddb))));
            yy_hi = hn::Add(yy_hi, hn::Mul(c, hn::Add(hn::ShiftRight<16>(dda), hn::ShiftRight<16>(ddb))));
            xy_lo = hn::Add(xy_lo, hn::Mul(c, hn::Add(Lo16(d, rda), Lo16(d, rdb))));
            xy_hi = hn::Add(xy_hi, hn::Mul(c, hn::Add(hn::ShiftRight<16>(rda), hn::ShiftRight<16>(rdb))));
        }
        StoreBiased(d, Lo16(d, hn::ShiftRightSame(hn::Add(mu1, round_mu), shift_mu)), out.mu1 + j);
        StoreBiased(d, Lo16(d, hn::ShiftRightSame(hn::Add(mu2, round_mu), shift_mu)), out.mu2 + j);
        StoreMoment(d, CombineSplit(d, xx_hi, xx_lo, round_sq, shift_sq), out.xx_lo + j, out.xx_hi + j);
        StoreMoment(d, CombineSplit(d, yy_hi, yy_lo, round_sq, shift_sq), out.yy_lo + j, out.yy_hi + j);
        StoreMoment(d, CombineSplit(d, xy_hi, xy_lo, round_sq, shift_sq), out.xy_lo + j, out.xy_hi + j);
    }
    if (j < w) {
        const OffsetRows<std::uint16_t> r(ref_rows, taps, j), s(dis_rows, taps, j);
        ref::stat_vfilter(r.p, s.p, w - j, coeff, taps, norm, out.offset(j));
    }
}

void StatVFilter16(const std::uint16_t* const* ref_rows, const std::uint16_t* const* dis_rows, unsigned w,
                   const std::uint16_t* coeff, unsigned taps, const VerticalNorm& norm, const StatRow& out) {
    if (norm.shift_sq > 16 || norm.round_sq > (std::uint64_t{1} << 15)) {
        ref::stat_vfilter(ref_rows, dis_rows, w, coeff, taps, norm, out);
        return;
    }
    switch (taps) {
        case 17: return StatVFilter16T<17>(ref_rows, dis_rows, w, coeff, taps, norm, out);
        case 9: return StatVFilter16T<9>(ref_rows, dis_rows, w, coeff, taps, norm, out);
        case 5: return StatVFilter16T<5>(ref_rows, dis_rows, w, coeff, taps, norm, out);
        case 3: return StatVFilter16T<3>(ref_rows, dis_rows, w, coeff, taps, norm, out);
        default: return StatVFilter16T<0>(ref_rows, dis_rows, w, coeff, taps, norm, out);
    }
}

#ifdef VMAF_VIF_X86_MADD
// Statistic: vertical pass, 16-bit samples, in 16-bit lanes with pmaddwd.
// A sample x, and each product x*y split by mullo/mulhi into 16-bit halves,
// is taken biased, x' = x - 32768 (x ^ 0x8000 as int16). Rows k and
// taps-1-k (equal coefficients c_k < 2^15) are interleaved pairwise
// (InterleaveLower/Upper, per 128-bit block) and pmaddwd with (c_k, c_k)
// gives c_k (x'_a + x'_b); the centre row pairs with itself, its coefficient
// split in two halves below 2^15. Adding 32768 * sum_k c_k back gives each
// sum of StatVFilter16T (the same values modulo 2^32: mu, and the low and
// high halves of the second moments), which are then normalised as there;
// ReorderDemote2To (packssdw, per 128-bit block) restores pixel order.
template <unsigned kTaps>
void StatVFilter16MaddT(const std::uint16_t* const* ref_rows, const std::uint16_t* const* dis_rows, unsigned w,
                        const std::uint16_t* coeff, unsigned taps_arg, const VerticalNorm& norm, const StatRow& out) {
    const unsigned taps = TapCount<kTaps>(taps_arg);
    using D16 = hn::ScalableTag<std::int16_t>;
    const D16 d16;
    const hn::RebindToUnsigned<D16> du16;
    const hn::Repartition<std::int32_t, D16> d32;
    const hn::RebindToUnsigned<decltype(d32)> du32;
    using V16 = hn::Vec<D16>;
    using V32 = hn::Vec<decltype(d32)>;
    const std::size_t n = hn::Lanes(d16);
    const unsigned half = taps / 2;

    // Coefficient pair of term k (rows k and taps-1-k; k == half: the centre).
    V16 cpair[9];
    std::uint32_t csum = 0;
    for (unsigned k = 0; k < half; ++k) {
        cpair[k] = hn::BitCast(d16, hn::Set(d32, static_cast<std::int32_t>(coeff[k] | (std::uint32_t{coeff[k]} << 16))));
        csum += 2u * coeff[k];
    }
    const std::uint32_t c_mid_a = coeff[half] / 2, c_mid_b = coeff[half] - c_mid_a;
    cpair[half] = hn::BitCast(d16, hn::Set(d32, static_cast<std::int32_t>(c_mid_a | (c_mid_b << 16))));
    csum += coeff[half];
    const V32 bias_sum = hn::Set(d32, static_cast<std::int32_t>(32768u * csum));

    const V32 round_mu = hn::Set(d32, static_cast<std::int32_t>(norm.round_mu));
    const V32 round_sq = hn::Set(d32, static_cast<std::int32_t>(norm.round_sq));
    const V32 mask16 = hn::Set(d32, 0xFFFF), bias = hn::Set(d32, 32768);
    const int shift_mu = static_cast<int>(norm.shift_mu), shift_sq = static_cast<int>(norm.shift_sq);
    const V16 flip = hn::Set(d16, static_cast<std::int16_t>(-32768));

    auto load = [&](const std::uint16_t* p) { return hn::LoadU(du16, p); };
    auto biased = [&](hn::Vec<decltype(du16)> v) { return hn::Xor(hn::BitCast(d16, v), flip); };
    auto shr = [&](V32 v, int s) { return hn::BitCast(d32, hn::ShiftRightSame(hn::BitCast(du32, v), s)); };
    // Biased 16-bit values of two 32-bit vectors (interleave order) in pixel order.
    auto pack = [&](V32 lo, V32 hi) { return hn::ReorderDemote2To(d16, hn::Sub(lo, bias), hn::Sub(hi, bias)); };
    auto store_mu = [&](V32 lo, V32 hi, std::int16_t* p) {
        lo = hn::And(shr(hn::Add(lo, round_mu), shift_mu), mask16);
        hi = hn::And(shr(hn::Add(hi, round_mu), shift_mu), mask16);
        hn::StoreU(pack(lo, hi), d16, p);
    };
    // (hi_sum * 2^16 + lo_sum + round) >> shift, cut to 32 bits (see CombineSplit).
    auto combine = [&](V32 hs, V32 ls) {
        return hn::Add(hn::ShiftLeftSame(hs, 16 - shift_sq), shr(hn::Add(ls, round_sq), shift_sq));
    };
    auto store_moment = [&](V32 lo_l, V32 hi_l, V32 lo_h, V32 hi_h, std::int16_t* plo, std::int16_t* phi) {
        const V32 a = combine(hi_l, lo_l), b = combine(hi_h, lo_h);
        hn::StoreU(pack(hn::And(a, mask16), hn::And(b, mask16)), d16, plo);
        hn::StoreU(pack(shr(a, 16), shr(b, 16)), d16, phi);
    };

    unsigned j = 0;
    for (; j + n <= w; j += static_cast<unsigned>(n)) {
        // Sums per quantity, for the lower and upper interleave halves.
        V32 mu1_l = bias_sum, mu1_h = bias_sum, mu2_l = bias_sum, mu2_h = bias_sum;
        V32 xxl_l = bias_sum, xxl_h = bias_sum, xxh_l = bias_sum, xxh_h = bias_sum;
        V32 yyl_l = bias_sum, yyl_h = bias_sum, yyh_l = bias_sum, yyh_h = bias_sum;
        V32 xyl_l = bias_sum, xyl_h = bias_sum, xyh_l = bias_sum, xyh_h = bias_sum;
        for (unsigned k = 0; k <= half; ++k) {
            const V16 c = cpair[k];
            auto madd2 = [&](V16 a, V16 b, V32& acc_l, V32& acc_h) {
                V32 unused = hn::Zero(d32);
                acc_l = hn::ReorderWidenMulAccumulate(d32, hn::InterleaveLower(d16, a, b), c, acc_l, unused);
                acc_h = hn::ReorderWidenMulAccumulate(d32, hn::InterleaveUpper(d16, a, b), c, acc_h, unused);
            };
            const auto ra = load(ref_rows[k] + j), rb = load(ref_rows[taps - 1 - k] + j);
            const auto da = load(dis_rows[k] + j), db = load(dis_rows[taps - 1 - k] + j);
            madd2(biased(ra), biased(rb), mu1_l, mu1_h);
            madd2(biased(da), biased(db), mu2_l, mu2_h);
            madd2(biased(hn::Mul(ra, ra)), biased(hn::Mul(rb, rb)), xxl_l, xxl_h);
            madd2(biased(hn::MulHigh(ra, ra)), biased(hn::MulHigh(rb, rb)), xxh_l, xxh_h);
            madd2(biased(hn::Mul(da, da)), biased(hn::Mul(db, db)), yyl_l, yyl_h);
            madd2(biased(hn::MulHigh(da, da)), biased(hn::MulHigh(db, db)), yyh_l, yyh_h);
            madd2(biased(hn::Mul(ra, da)), biased(hn::Mul(rb, db)), xyl_l, xyl_h);
            madd2(biased(hn::MulHigh(ra, da)), biased(hn::MulHigh(rb, db)), xyh_l, xyh_h);
        }
        store_mu(mu1_l, mu1_h, out.mu1 + j);
        store_mu(mu2_l, mu2_h, out.mu2 + j);
        store_moment(xxl_l, xxh_l, xxl_h, xxh_h, out.xx_lo + j, out.xx_hi + j);
        store_moment(yyl_l, yyh_l, yyl_h, yyh_h, out.yy_lo + j, out.yy_hi + j);
        store_moment(xyl_l, xyh_l, xyl_h, xyh_h, out.xy_lo + j, out.xy_hi + j);
    }
    if (j < w) StatVFilter16T<kTaps>(OffsetRows<std::uint16_t>(ref_rows, taps, j).p,
                                     OffsetRows<std::uint16_t>(dis_rows, taps, j).p, w - j, coeff, taps, norm,
                                     out.offset(j));
}

void StatVFilter16Madd(const std::uint16_t* const* ref_rows, const std::uint16_t* const* dis_rows, unsigned w,
                       const std::uint16_t* coeff, unsigned taps, const VerticalNorm& norm, const StatRow& out) {
    bool ok = taps <= 17 && taps % 2 == 1 && norm.shift_sq <= 16 && norm.round_sq <= (std::uint64_t{1} << 15);
    // pmaddwd takes signed 16-bit coefficients: each side tap and each centre half below 2^15.
    for (unsigned k = 0; ok && k < taps / 2; ++k) ok = coeff[k] < 32768 && coeff[k] == coeff[taps - 1 - k];
    ok = ok && coeff[taps / 2] - coeff[taps / 2] / 2 < 32768;
    if (!ok) return StatVFilter16(ref_rows, dis_rows, w, coeff, taps, norm, out);
    switch (taps) {
        case 17: return StatVFilter16MaddT<17>(ref_rows, dis_rows, w, coeff, taps, norm, out);
        case 9: return StatVFilter16MaddT<9>(ref_rows, dis_rows, w, coeff, taps, norm, out);
        case 5: return StatVFilter16MaddT<5>(ref_rows, dis_rows, w, coeff, taps, norm, out);
        case 3: return StatVFilter16MaddT<3>(ref_rows, dis_rows, w, coeff, taps, norm, out);
        default: return StatVFilter16MaddT<0>(ref_rows, dis_rows, w, coeff, taps, norm, out);
    }
}
#endif

// ---------------------------------------------------------------------------
// Statistic: horizontal pass and per-pixel accumulation.

/// ((u64)a * b + 2^31) >> 32 per 32-bit lane.
HWY_INLINE VU32 MulHiRound(DU32 d, VU32 a, VU32 b) {
    const hn::Repartition<std::uint64_t, DU32> d64;
    const auto half = hn::Set(d64, std::uint64_t{1} << 31);
    const auto even = hn::Add(hn::MulEven(a, b), half);
    const VU32 ao = hn::BitCast(d, hn::ShiftRight<32>(hn::BitCast(d64, a)));
    const VU32 bo = hn::BitCast(d, hn::ShiftRight<32>(hn::BitCast(d64, b)));
    const auto odd = hn::Add(hn::MulEven(ao, bo), half);
    return hn::OddEven(hn::BitCast(d, odd), hn::BitCast(d, hn::ShiftRight<32>(even)));
}

/// table[idx] per lane, by scalar loads: on some CPUs (AMD Zen 4) a gather
/// of n lanes costs far more than n scalar loads.
template <class D>
HWY_INLINE hn::Vec<D> TableLookup(D d, hn::Vec<D> idx, const std::uint16_t* table) {
    using T = hn::TFromD<D>;
    HWY_ALIGN T buf[hn::MaxLanes(D())];
    hn::Store(idx, d, buf);
    for (std::size_t i = 0; i < hn::Lanes(d); ++i) buf[i] = table[buf[i]];
    return hn::Load(d, buf);
}

/// 2048 * log2 approximation of v (as log2_q11_lut) for 2^17 <= v < 2^32.
HWY_INLINE VU32 Log2Q11(DU32 d, VU32 v, const std::uint16_t* table) {
    const hn::RebindToSigned<DU32> di;
    const hn::RebindToFloat<DU32> df;
    // v >> 8 has fewer than 24 bits, so its float conversion is exact.
    const auto f = hn::ConvertTo(df, hn::BitCast(di, hn::ShiftRight<8>(v)));
    // floor(log2(v >> 8)) = exponent - 127; k = bit_width(v) - 16 = that - 7.
    const VU32 k = hn::Sub(hn::ShiftRight<23>(hn::BitCast(d, f)), hn::Set(d, 127u + 7u));
    const VU32 idx = hn::Shr(v, k);  // in [32768, 65535]
    return hn::Add(TableLookup(d, idx, table), hn::ShiftLeft<11>(k));
}

/// The same for an exactly integer double x, 2^17 <= x < 2^52.
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<DF>> Log2Q11(DF df, hn::Vec<DF> x, const std::uint16_t* table) {
    const hn::RebindToUnsigned<DF> du;
    const hn::RebindToSigned<DF> di;
    constexpr double kTwo52 = 4503599627370496.0;
    const auto bits = hn::BitCast(du, x);
    const auto k = hn::Sub(hn::ShiftRight<52>(bits), hn::Set(du, 1023u + 15u));
    const auto v = hn::Sub(hn::BitCast(du, hn::Add(x, hn::Set(df, kTwo52))), hn::BitCast(du, hn::Set(df, kTwo52)));
    const auto idx = hn::Shr(v, k);
    (void)di;
    return hn::Add(TableLookup(du, idx, table), hn::ShiftLeft<11>(k));
}

/// Compress for 32-bit lanes: the selected lanes first (rest unspecified).
/// Highway 1.0.3's AVX2/SSE Compress copies its index table to the stack on
/// every call; these targets use a static table instead.
#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_SSE4 || HWY_TARGET == HWY_SSSE3
template <std::size_t N>
struct CompressIdx {
    std::int32_t idx[std::size_t{1} << N][N];
};
template <std::size_t N>
constexpr CompressIdx<N> MakeCompressIdx() {
    CompressIdx<N> t{};
    for (std::size_t bits = 0; bits < (std::size_t{1} << N); ++bits) {
        std::size_t o = 0;
        for (std::size_t i = 0; i < N; ++i)
            if (bits & (std::size_t{1} << i)) t.idx[bits][o++] = static_cast<std::int32_t>(i);
        for (std::size_t i = 0; o < N; ++i)
            if (!(bits & (std::size_t{1} << i))) t.idx[bits][o++] = static_cast<std::int32_t>(i);
    }
    return t;
}
alignas(64) static constexpr CompressIdx<hn::MaxLanes(DU32())> kCompressIdx = MakeCompressIdx<hn::MaxLanes(DU32())>();

HWY_INLINE hn::Vec<hn::RebindToSigned<DU32>> CompressLanes(hn::Vec<hn::RebindToSigned<DU32>> v,
                                                           hn::Mask<hn::RebindToSigned<DU32>> m) {
    const hn::RebindToSigned<DU32> di;
    std::uint8_t bits[8] = {};
    hn::StoreMaskBits(di, m, bits);
    return hn::TableLookupLanes(v, hn::SetTableIndices(di, kCompressIdx.idx[bits[0]]));
}
#else
template <class V, class M>
HWY_INLINE V CompressLanes(V v, M m) {
    return hn::Compress(v, m);
}
#endif

/// Per-pixel statistic over vectors of filtered moments, accumulating the
/// four integer sums. Pixels needing logarithms (often a minority in real
/// video) are first packed densely (Compress) into small buffers, so the
/// costly log and division work runs on full vectors of pixels that need it.
/// Every sum is an integer sum, so the order of pixels does not matter.
/// Up to kMaxLimits gain limits are served at once: only the numerator's
/// clamped gain and its log differ between them (num_log per limit).
class StatAccumulator {
    using VI32 = hn::Vec<DI32>;

public:
    static constexpr unsigned kMaxLimits = 4;

    /// limits: n_limits (1..kMaxLimits) enhancement-gain limits.
    StatAccumulator(const double* limits, unsigned n_limits, const std::uint16_t* table)
        : n_limits_(n_limits), table_(table) {
        for (unsigned i = 0; i < n_limits; ++i) limits_[i] = limits[i];
    }

    /// mu1, mu2: filtered means (Q16); xx, yy, xy: filtered second moments
    /// after their final >> 16. xy_fn() returns xy: it is only called when a
    /// lane needs a log (sigma1 >= sigma_nsq), since the other pixels'
    /// contribution does not depend on it.
    /// num_non_log: the caller's vector of per-lane sums of sigma2 where
    /// sigma1 < sigma_nsq (kept in a register across calls).
    template <class XyFn, class VU64>
    HWY_INLINE void Add(VU32 mu1, VU32 mu2, VU32 xx, VU32 yy, const XyFn& xy_fn, VU64& num_non_log) {
        const DU32 d;
        const DI32 di;
        const hn::Repartition<std::uint64_t, DU32> du64;
        const auto nsq = hn::Set(di, static_cast<std::int32_t>(kSigmaNsq));
        const auto zero = hn::Zero(di);
        const auto lo32 = hn::Set(du64, 0xFFFFFFFFull);

        const auto sigma1 = hn::BitCast(di, hn::Sub(xx, MulHiRound(d, mu1, mu1)));
        const auto sigma2 = hn::Max(hn::BitCast(di, hn::Sub(yy, MulHiRound(d, mu2, mu2))), zero);

        const auto is_log = hn::Gt(sigma1, hn::Sub(nsq, hn::Set(di, 1)));  // sigma1 >= sigma_nsq
        // sigma1 < sigma_nsq: sigma2 and a count.
        const auto non_log = hn::BitCast(du64, hn::IfThenZeroElse(is_log, sigma2));
        num_non_log = hn::Add(num_non_log, hn::And(non_log, lo32));
        num_non_log = hn::Add(num_non_log, hn::ShiftRight<32>(non_log));
        const std::size_t logs = hn::CountTrue(di, is_log);
        den_non_log_ += static_cast<std::int64_t>(hn::Lanes(di) - logs);
        if (logs == 0) return;
        const auto sigma12 = hn::BitCast(di, hn::Sub(xy_fn(), MulHiRound(d, mu1, mu2)));

        hn::StoreU(CompressLanes(sigma1, is_log), di, den_buf_ + den_count_);
        den_count_ += static_cast<unsigned>(logs);
        if (den_count_ >= kFlushAt) FlushDenBuffer(false);

        // Numerator term where sigma12 > 0 and sigma2 > 0.
        const auto is_num = hn::And(is_log, hn::And(hn::Gt(sigma12, zero), hn::Gt(sigma2, zero)));
        const std::size_t nums = hn::CountTrue(di, is_num);
        if (nums == 0) return;
        hn::StoreU(CompressLanes(sigma1, is_num), di, num1_buf_ + num_count_);
        hn::StoreU(CompressLanes(sigma2, is_num), di, num2_buf_ + num_count_);
        hn::StoreU(CompressLanes(sigma12, is_num), di, num12_buf_ + num_count_);
        num_count_ += static_cast<unsigned>(nums);
        if (num_count_ >= kFlushAt) FlushNumBuffer(false);
    }

    /// Adds limit i's sums to sums[i].
    template <class VU64>
    void Finish(StatSums* sums, VU64 num_non_log) {
        const hn::Repartition<std::uint64_t, DU32> du64;
        FlushDenBuffer(true);
        FlushNumBuffer(true);
        const auto den_log = static_cast<std::int64_t>(hn::GetLane(hn::SumOfLanes(du64, hn::Load(du64, den_log_))));
        const auto non_log = static_cast<std::int64_t>(hn::GetLane(hn::SumOfLanes(du64, num_non_log)));
        for (unsigned i = 0; i < n_limits_; ++i) {
            sums[i].num_log +=
                static_cast<std::int64_t>(hn::GetLane(hn::SumOfLanes(du64, hn::Load(du64, num_log_[i]))));
            sums[i].den_log += den_log;
            sums[i].num_non_log += non_log;
            sums[i].den_non_log += den_non_log_;
        }
    }

private:
    using DU64 = hn::Repartition<std::uint64_t, DU32>;
    static constexpr std::size_t kMaxN = hn::MaxLanes(DU32());
    static constexpr std::size_t kMaxN64 = hn::MaxLanes(DU64());
    static constexpr unsigned kFlushAt = 256;
    static constexpr std::size_t kBufLen = kFlushAt + 2 * kMaxN;

    /// Denominator terms log2(sigma_nsq + sigma1) - 17 (Q11) of the buffered
    /// pixels: all full vectors, and with `all` the partial rest too.
    HWY_INLINE void FlushDenBuffer(bool all) {
        const DU32 d;
        const DI32 di;
        const std::size_t n = hn::Lanes(d);
        const auto nsq = hn::Set(di, static_cast<std::int32_t>(kSigmaNsq));
        const VU32 bias = hn::Set(d, 2048u * 17u);
        const DU64 du64;
        const auto lo32 = hn::Set(du64, 0xFFFFFFFFull);
        // Per-lane 32-bit partial sums (each term < 2^15), widened every 4096.
        VU32 den32 = hn::Zero(d);
        auto den64 = hn::Load(du64, den_log_);
        unsigned pending = 0;
        auto widen = [&](VU32 v) {
            den64 = hn::Add(den64, hn::And(hn::BitCast(du64, v), lo32));
            den64 = hn::Add(den64, hn::ShiftRight<32>(hn::BitCast(du64, v)));
        };
        std::size_t i = 0;
        for (; i + n <= den_count_; i += n) {
            const VU32 v = hn::BitCast(d, hn::Add(hn::LoadU(di, den_buf_ + i), nsq));
            den32 = hn::Add(den32, hn::Sub(Log2Q11(d, v, table_), bias));
            if (++pending == 4096) {
                widen(den32);
                den32 = hn::Zero(d);
                pending = 0;
            }
        }
        const std::size_t rest = den_count_ - i;
        if (all && rest > 0) {
            const auto valid = hn::FirstN(di, rest);
            const VU32 v = hn::BitCast(d, hn::Add(hn::IfThenElseZero(valid, hn::LoadU(di, den_buf_ + i)), nsq));
            den32 = hn::Add(den32, hn::IfThenElseZero(hn::RebindMask(d, valid), hn::Sub(Log2Q11(d, v, table_), bias)));
            den_count_ = 0;
        } else {
            for (std::size_t k = 0; k < rest; ++k) den_buf_[k] = den_buf_[i + k];
            den_count_ = static_cast<unsigned>(rest);
        }
        widen(den32);
        hn::Store(den64, du64, den_log_);
    }

    /// Numerator terms of the buffered pixels (sigma12 > 0, sigma2 > 0).
    HWY_INLINE void FlushNumBuffer(bool all) {
        const DI32 di;
        const std::size_t n = hn::Lanes(di);
        std::size_t i = 0;
        for (; i + n <= num_count_; i += n)
            NumTerms(hn::LoadU(di, num1_buf_ + i), hn::LoadU(di, num2_buf_ + i), hn::LoadU(di, num12_buf_ + i));
        const std::size_t rest = num_count_ - i;
        if (all && rest > 0) {
            // Padding lanes get sigma1 = sigma_nsq, sigma2 = sigma12 = 0:
            // equal logs, a zero term.
            const auto valid = hn::FirstN(di, rest);
            const auto nsq = hn::Set(di, static_cast<std::int32_t>(kSigmaNsq));
            NumTerms(hn::IfThenElse(valid, hn::LoadU(di, num1_buf_ + i), nsq),
                     hn::IfThenElseZero(valid, hn::LoadU(di, num2_buf_ + i)),
                     hn::IfThenElseZero(valid, hn::LoadU(di, num12_buf_ + i)));
            num_count_ = 0;
        } else {
            for (std::size_t k = 0; k < rest; ++k) {
                num1_buf_[k] = num1_buf_[i + k];
                num2_buf_[k] = num2_buf_[i + k];
                num12_buf_[k] = num12_buf_[i + k];
            }
            num_count_ = static_cast<unsigned>(rest);
        }
    }

    /// Numerator terms of the pixels (sigma1, sigma2, sigma12) per limit. The
    /// gain g, the residual sv (from the unclamped g) and log2(sv + sigma_nsq)
    /// are the same for every limit; the clamp and log2(numer) are not.
    HWY_INLINE void NumTerms(VI32 s1, VI32 s2, VI32 s12) {
        const hn::Repartition<double, DU32> dd;
        const hn::Rebind<std::int32_t, decltype(dd)> dih;  // half of di
        const DU64 du64;
        const auto eps = hn::Set(dd, 65536 * 1.0e-10);
        const auto nsq_d = hn::Set(dd, static_cast<double>(kSigmaNsq));
        const auto f1_lo = hn::PromoteTo(dd, hn::LowerHalf(dih, s1));
        const auto f1_hi = hn::PromoteTo(dd, hn::UpperHalf(dih, s1));
        const auto f12_lo = hn::PromoteTo(dd, hn::LowerHalf(dih, s12));
        const auto f12_hi = hn::PromoteTo(dd, hn::UpperHalf(dih, s12));
        const auto g_lo = hn::Div(f12_lo, hn::Add(f1_lo, eps));
        const auto g_hi = hn::Div(f12_hi, hn::Add(f1_hi, eps));
        auto denom = [&](hn::Vec<decltype(dih)> h2, hn::Vec<decltype(dd)> g, hn::Vec<decltype(dd)> f12) {
            const auto sv = hn::Max(hn::DemoteTo(dih, hn::Sub(hn::PromoteTo(dd, h2), hn::Mul(g, f12))), hn::Zero(dih));
            return hn::Add(hn::PromoteTo(dd, sv), nsq_d);
        };
        const auto denom_lo = denom(hn::LowerHalf(dih, s2), g_lo, f12_lo);
        const auto denom_hi = denom(hn::UpperHalf(dih, s2), g_hi, f12_hi);
        const auto log_denom = hn::Add(Log2Q11(dd, denom_lo, table_), Log2Q11(dd, denom_hi, table_));
        for (unsigned i = 0; i < n_limits_; ++i) {
            const auto limit = hn::Set(dd, limits_[i]);
            // g * g * sigma1 >= 0, so truncation is floor; the sum is exact (< 2^53).
            auto log_numer = [&](hn::Vec<decltype(dd)> g, hn::Vec<decltype(dd)> f1, hn::Vec<decltype(dd)> den) {
                const auto gl = hn::IfThenElse(hn::Lt(g, limit), g, limit);
                return Log2Q11(dd, hn::Add(hn::Floor(hn::Mul(hn::Mul(gl, gl), f1)), den), table_);
            };
            const auto term = hn::Sub(hn::Add(log_numer(g_lo, f1_lo, denom_lo), log_numer(g_hi, f1_hi, denom_hi)),
                                      log_denom);
            hn::Store(hn::Add(hn::Load(du64, num_log_[i]), term), du64, num_log_[i]);
        }
    }

    // Vector sums live in memory: SVE vectors cannot be class members.
    double limits_[kMaxLimits] = {};
    unsigned n_limits_;
    const std::uint16_t* table_;
    HWY_ALIGN std::uint64_t num_log_[kMaxLimits][kMaxN64] = {};
    HWY_ALIGN std::uint64_t den_log_[kMaxN64] = {};
    std::int64_t den_non_log_ = 0;
    unsigned den_count_ = 0, num_count_ = 0;
    HWY_ALIGN std::int32_t den_buf_[kBufLen];
    HWY_ALIGN std::int32_t num1_buf_[kBufLen];
    HWY_ALIGN std::int32_t num2_buf_[kBufLen];
    HWY_ALIGN std::int32_t num12_buf_[kBufLen];
};

using DI16 = hn::Repartition<std::int16_t, DU32>;
using VI16 = hn::Vec<DI16>;
using VI32 = hn::Vec<DI32>;  // NOLINT

/// acc + (a[2i] * b[2i] + a[2i+1] * b[2i+1]) per 32-bit lane i, modulo 2^32.
HWY_INLINE VI32 PairMulAdd(DI32 di, VI16 a, VI16 b, VI32 acc) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL || HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_SSE4 || \
    HWY_TARGET == HWY_SSSE3
    // pmaddwd: exactly the pairwise form (its one overflow case wraps).
    VI32 unused = hn::Zero(di);
    return hn::ReorderWidenMulAccumulate(di, a, b, acc, unused);
#else
    const VI32 a32 = hn::BitCast(di, a), b32 = hn::BitCast(di, b);
    const VI32 ae = hn::ShiftRight<16>(hn::ShiftLeft<16>(a32)), be = hn::ShiftRight<16>(hn::ShiftLeft<16>(b32));
    const VI32 ao = hn::ShiftRight<16>(a32), bo = hn::ShiftRight<16>(b32);
    return hn::Add(acc, hn::Add(hn::Mul(ae, be), hn::Mul(ao, bo)));
#endif
}

/// Horizontal filter of one biased plane for the 2n pixels from p[0]:
/// returns sum_k c_k x[parity + 2i + k] (unbiased, modulo 2^32) in lane i.
/// With c' = c as int16 and x' = x - 32768 the pairwise products give
/// sum_k c'_k x'_k; c'_k = c_k - 65536 where c_k >= 32768 (corrected by
/// adding x'_k << 16), and sum_k c_k x'_k = sum_k c_k x_k - 32768 sum_k c_k
/// (corrected by `bias`). Every true sum is below 2^32, so the wrapping
/// arithmetic gives it exactly.
/// Coefficient pair m as a vector: kept in registers where vectors can form
/// arrays; SVE's sizeless vectors cannot, so there it is broadcast per use.
HWY_INLINE VI16 CoefPair(const std::int32_t* cp, unsigned m) {
    return hn::BitCast(DI16(), hn::Set(DI32(), cp[m]));
}
#if !VMAF_VIF_SIZELESS
HWY_INLINE VI16 CoefPair(const VI16* cp, unsigned m) {
    return cp[m];
}
#endif

template <unsigned kPairs, class CP>
HWY_INLINE VU32 FilterPlane(const std::int16_t* p, const CP* cp, unsigned pairs, const unsigned* big,
                            unsigned nbig, VU32 bias) {
    const DI32 di;
    const DI16 d16;
    const unsigned np = kPairs ? kPairs : pairs;
    VI32 acc = hn::Zero(di);
    for (unsigned m = 0; m < np; ++m) acc = PairMulAdd(di, hn::LoadU(d16, p + 2 * m), CoefPair(cp, m), acc);
    for (unsigned b = 0; b < nbig; ++b)
        acc = hn::Add(acc, hn::ShiftLeft<16>(hn::BitCast(di, hn::LoadU(d16, p + big[b]))));
    return hn::Add(hn::BitCast(DU32(), acc), bias);
}

/// stat_hfilter for 1..StatAccumulator::kMaxLimits limits.
template <unsigned kTaps>
void StatHFilterT(const StatRow& in, unsigned w, const std::uint16_t* coeff, unsigned taps_arg, const double* limits,
                  unsigned n_limits, const std::uint16_t* table, StatSums* sums) {
    const unsigned taps = TapCount<kTaps>(taps_arg);
    constexpr unsigned kPairs = kTaps ? (kTaps + 1) / 2 : 0;
    const unsigned pairs = (taps + 1) / 2;
    const DU32 d;
    const std::size_t n = hn::Lanes(d);

    // Coefficient pairs (c_2m, c_2m+1) as int16 (c_taps = 0); the taps whose
    // coefficient is >= 32768 (corrected in FilterPlane).
    std::int32_t cp_scalar[9];
    unsigned big[17];
    unsigned nbig = 0;
    std::uint32_t csum = 0;
    for (unsigned m = 0; m < pairs; ++m) {
        const std::uint32_t lo = coeff[2 * m], hi = 2 * m + 1 < taps ? coeff[2 * m + 1] : 0u;
        cp_scalar[m] = static_cast<std::int32_t>(lo | (hi << 16));
    }
    for (unsigned k = 0; k < taps; ++k) {
        csum += coeff[k];
        if (coeff[k] >= 32768) big[nbig++] = k;
    }
#if VMAF_VIF_SIZELESS
    const std::int32_t* cp = cp_scalar;
#else
    VI16 cp[9];
    for (unsigned m = 0; m < pairs; ++m) cp[m] = CoefPair(cp_scalar, m);
#endif
    const VU32 bias = hn::Set(d, 32768u * csum);
    const VU32 round = hn::Set(d, 32768u);

    StatAccumulator acc(limits, n_limits, table);
    auto num_non_log = hn::Zero(hn::Repartition<std::uint64_t, DU32>());
    unsigned j = 0;
    // A block covers 2n pixels: lanes hold the even ones, then the odd ones.
    // It reads entries up to j + 2n + taps - 1, one past its pixels' needs.
    for (; j + 2 * n <= w; j += 2 * static_cast<unsigned>(n)) {
        for (unsigned parity = 0; parity < 2; ++parity) {
            const unsigned o = j + parity;
            auto plane = [&](const std::int16_t* p) { return FilterPlane<kPairs>(p + o, cp, pairs, big, nbig, bias); };
            auto moment = [&](const std::int16_t* lo, const std::int16_t* hi) {
                // (hi_sum * 2^16 + lo_sum + 2^15) >> 16, cut to 32 bits.
                return hn::Add(plane(hi), hn::ShiftRight<16>(hn::Add(plane(lo), round)));
            };
            const VU32 mu1 = plane(in.mu1), mu2 = plane(in.mu2);
            const VU32 xx = moment(in.xx_lo, in.xx_hi);
            const VU32 yy = moment(in.yy_lo, in.yy_hi);
            acc.Add(mu1, mu2, xx, yy, [&] { return moment(in.xy_lo, in.xy_hi); }, num_non_log);
        }
    }
    acc.Finish(sums, num_non_log);
    if (j < w) ref::stat_hfilter(in.offset(j), w - j, coeff, taps, limits, n_limits, table, sums);
}

void StatHFilterChunk(const StatRow& in, unsigned w, const std::uint16_t* coeff, unsigned taps, const double* limits,
                      unsigned n_limits, const std::uint16_t* table, StatSums* sums) {
    switch (taps) {
        case 17: return StatHFilterT<17>(in, w, coeff, taps, limits, n_limits, table, sums);
        case 9: return StatHFilterT<9>(in, w, coeff, taps, limits, n_limits, table, sums);
        case 5: return StatHFilterT<5>(in, w, coeff, taps, limits, n_limits, table, sums);
        case 3: return StatHFilterT<3>(in, w, coeff, taps, limits, n_limits, table, sums);
        default:
            if (taps > 17) return ref::stat_hfilter(in, w, coeff, taps, limits, n_limits, table, sums);
            return StatHFilterT<0>(in, w, coeff, taps, limits, n_limits, table, sums);
    }
}

/// Any number of limits: one filtering pass per kMaxLimits of them.
void StatHFilter(const StatRow& in, unsigned w, const std::uint16_t* coeff, unsigned taps, const double* limits,
                 unsigned n_limits, const std::uint16_t* table, StatSums* sums) {
    constexpr unsigned kChunk = StatAccumulator::kMaxLimits;
    for (unsigned i = 0; i < n_limits; i += kChunk)
        StatHFilterChunk(in, w, coeff, taps, limits + i, std::min(kChunk, n_limits - i), table, sums + i);
}

void FillVifKernels(VifKernels& t) {
#ifdef VMAF_VIF_X86_MADD
    t.stat_vfilter_8 = &StatVFilter8Madd;
#else
    t.stat_vfilter_8 = &StatVFilter8;
#endif
#ifdef VMAF_VIF_X86_MADD
    t.stat_vfilter_16 = &StatVFilter16Madd;
#else
    t.stat_vfilter_16 = &StatVFilter16;
#endif
    t.stat_hfilter = &StatHFilter;
    t.sub_vfilter_8 = &SubVFilter<std::uint8_t>;
    t.sub_vfilter_16 = &SubVFilter<std::uint16_t>;
    t.sub_hfilter = &SubHFilter;
}

[[maybe_unused]] static const bool kRegistered = vif_registry().add(HWY_TARGET, &FillVifKernels);

}  // namespace vmaf::vif::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
#endif  // HWY_TARGET != HWY_SCALAR

#if HWY_ONCE
namespace vmaf::vif {
simd::KernelRegistry<VifKernels>& vif_registry() {
    static simd::KernelRegistry<VifKernels> registry;
    return registry;
}
}  // namespace vmaf::vif
#endif
