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
//  * log2 in Q11: the bit width comes from a float/double exponent of a
//    value converted exactly; the 16-bit table is read with 32/64-bit gathers
//    ending at the wanted entry.
//  * the gain's double arithmetic is the reference's, operation by operation
//    (no FMA: Mul then Sub/Add, as the project builds with -ffp-contract=off).
// Widths that do not fill a vector are finished by the scalar reference.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/vif/vif_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

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
    // outputs need, so it stops one output early.
    for (; oj + n < out_w; oj += static_cast<unsigned>(n)) {
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
// Statistic: vertical pass, 8-bit samples (every sum fits 32 bits).
void StatVFilter8(const std::uint8_t* const* ref_rows, const std::uint8_t* const* dis_rows, unsigned w,
                  const std::uint16_t* coeff, unsigned taps, const VerticalNorm& norm, const StatRow& out) {
    // The 32-bit second-moment sums (< 65536 * 255^2) plus round_sq must not wrap.
    if (norm.round_sq > (std::uint64_t{1} << 16) || norm.shift_sq > 16) {
        ref::stat_vfilter(ref_rows, dis_rows, w, coeff, taps, norm, out);
        return;
    }
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
        hn::StoreU(Lo16(d, hn::ShiftRightSame(hn::Add(mu1, round_mu), shift_mu)), d, out.mu1 + j);
        hn::StoreU(Lo16(d, hn::ShiftRightSame(hn::Add(mu2, round_mu), shift_mu)), d, out.mu2 + j);
        hn::StoreU(hn::ShiftRightSame(hn::Add(xx, round_sq), shift_sq), d, out.xx + j);
        hn::StoreU(hn::ShiftRightSame(hn::Add(yy, round_sq), shift_sq), d, out.yy + j);
        hn::StoreU(hn::ShiftRightSame(hn::Add(xy, round_sq), shift_sq), d, out.xy + j);
    }
    if (j < w) {
        const OffsetRows<std::uint8_t> r(ref_rows, taps, j), s(dis_rows, taps, j);
        ref::stat_vfilter(r.p, s.p, w - j, coeff, taps, norm,
                          StatRow{out.mu1 + j, out.mu2 + j, out.xx + j, out.yy + j, out.xy + j});
    }
}

// Statistic: vertical pass, 16-bit samples (second moments split in 16-bit halves).
void StatVFilter16(const std::uint16_t* const* ref_rows, const std::uint16_t* const* dis_rows, unsigned w,
                   const std::uint16_t* coeff, unsigned taps, const VerticalNorm& norm, const StatRow& out) {
    if (norm.shift_sq > 16 || norm.round_sq > (std::uint64_t{1} << 15)) {
        ref::stat_vfilter(ref_rows, dis_rows, w, coeff, taps, norm, out);
        return;
    }
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
        hn::StoreU(Lo16(d, hn::ShiftRightSame(hn::Add(mu1, round_mu), shift_mu)), d, out.mu1 + j);
        hn::StoreU(Lo16(d, hn::ShiftRightSame(hn::Add(mu2, round_mu), shift_mu)), d, out.mu2 + j);
        hn::StoreU(CombineSplit(d, xx_hi, xx_lo, round_sq, shift_sq), d, out.xx + j);
        hn::StoreU(CombineSplit(d, yy_hi, yy_lo, round_sq, shift_sq), d, out.yy + j);
        hn::StoreU(CombineSplit(d, xy_hi, xy_lo, round_sq, shift_sq), d, out.xy + j);
    }
    if (j < w) {
        const OffsetRows<std::uint16_t> r(ref_rows, taps, j), s(dis_rows, taps, j);
        ref::stat_vfilter(r.p, s.p, w - j, coeff, taps, norm,
                          StatRow{out.mu1 + j, out.mu2 + j, out.xx + j, out.yy + j, out.xy + j});
    }
}

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

/// 2048 * log2 approximation of v (as log2_q11_lut) for 2^17 <= v < 2^32.
HWY_INLINE VU32 Log2Q11(DU32 d, VU32 v, const std::uint16_t* table) {
    const hn::RebindToSigned<DU32> di;
    const hn::RebindToFloat<DU32> df;
    // v >> 8 has fewer than 24 bits, so its float conversion is exact.
    const auto f = hn::ConvertTo(df, hn::BitCast(di, hn::ShiftRight<8>(v)));
    // floor(log2(v >> 8)) = exponent - 127; k = bit_width(v) - 16 = that - 7.
    const VU32 k = hn::Sub(hn::ShiftRight<23>(hn::BitCast(d, f)), hn::Set(d, 127u + 7u));
    const VU32 idx = hn::Shr(v, k);  // in [32768, 65535]
    // 32 bits ending at table[idx]: its entry is the upper half.
    const auto off = hn::BitCast(di, hn::ShiftLeft<1>(hn::Sub(idx, hn::Set(d, 1u))));
    const auto got = hn::BitCast(d, hn::GatherOffset(di, reinterpret_cast<const std::int32_t*>(table), off));
    return hn::Add(hn::ShiftRight<16>(got), hn::ShiftLeft<11>(k));
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
    // 64 bits ending at table[idx]: its entry is the top quarter.
    const auto off = hn::BitCast(di, hn::ShiftLeft<1>(hn::Sub(idx, hn::Set(du, 3u))));
    const auto got = hn::BitCast(du, hn::GatherOffset(di, reinterpret_cast<const std::int64_t*>(table), off));
    return hn::Add(hn::ShiftRight<48>(got), hn::ShiftLeft<11>(k));
}

/// sum_k coeff[k] * p[k] over `taps` symmetric taps, as the split second moment
/// ((sum + 2^15) >> 16, cut to 32 bits).
HWY_INLINE VU32 HFilterMoment(DU32 d, const std::uint32_t* p, const std::uint16_t* coeff, unsigned taps) {
    const unsigned half = taps / 2;
    const VU32 cc = hn::Set(d, coeff[half]);
    const VU32 m = hn::LoadU(d, p + half);
    VU32 lo = hn::Mul(cc, Lo16(d, m)), hi = hn::Mul(cc, hn::ShiftRight<16>(m));
    for (unsigned k = 0; k < half; ++k) {
        const VU32 c = hn::Set(d, coeff[k]);
        const VU32 a = hn::LoadU(d, p + k), b = hn::LoadU(d, p + taps - 1 - k);
        lo = hn::Add(lo, hn::Mul(c, hn::Add(Lo16(d, a), Lo16(d, b))));
        hi = hn::Add(hi, hn::Mul(c, hn::Add(hn::ShiftRight<16>(a), hn::ShiftRight<16>(b))));
    }
    return hn::Add(hi, hn::ShiftRight<16>(hn::Add(lo, hn::Set(d, 32768u))));
}

HWY_INLINE VU32 HFilterMean(DU32 d, const std::uint32_t* p, const std::uint16_t* coeff, unsigned taps) {
    const unsigned half = taps / 2;
    VU32 acc = hn::Mul(hn::Set(d, coeff[half]), hn::LoadU(d, p + half));
    for (unsigned k = 0; k < half; ++k)
        acc = hn::Add(acc, hn::Mul(hn::Set(d, coeff[k]), hn::Add(hn::LoadU(d, p + k), hn::LoadU(d, p + taps - 1 - k))));
    return acc;
}

void StatHFilter(const StatRow& in, unsigned w, const std::uint16_t* coeff, unsigned taps, double enhn_gain_limit,
                 const std::uint16_t* table, StatSums& sums) {
    const DU32 d;
    const hn::RebindToSigned<DU32> di;
    const hn::Repartition<std::uint64_t, DU32> du64;
    const hn::Repartition<std::int64_t, DU32> di64;
    const hn::Repartition<double, DU32> dd;
    const hn::Rebind<std::int32_t, decltype(dd)> dih;  // half of di
    const std::size_t n = hn::Lanes(d);

    const auto nsq = hn::Set(di, static_cast<std::int32_t>(kSigmaNsq));
    const auto zero = hn::Zero(di);
    const auto eps = hn::Set(dd, 65536 * 1.0e-10);
    const auto limit = hn::Set(dd, enhn_gain_limit);
    const auto nsq_d = hn::Set(dd, static_cast<double>(kSigmaNsq));
    const auto log_bias = hn::Set(d, 2048u * 17u);
    const auto lo32 = hn::Set(du64, 0xFFFFFFFFull);

    auto acc_num_log = hn::Zero(du64);
    auto acc_num_non_log = hn::Zero(du64);
    auto acc_den_log = hn::Zero(du64);
    auto den_log32 = hn::Zero(d);  // per-lane partial sums, each term < 2^15
    std::int64_t den_non_log = 0;
    unsigned pending = 0;

    auto flush_den = [&] {
        acc_den_log = hn::Add(acc_den_log, hn::And(hn::BitCast(du64, den_log32), lo32));
        acc_den_log = hn::Add(acc_den_log, hn::ShiftRight<32>(hn::BitCast(du64, den_log32)));
        den_log32 = hn::Zero(d);
        pending = 0;
    };

    unsigned j = 0;
    for (; j + n <= w; j += static_cast<unsigned>(n)) {
        const VU32 mu1 = HFilterMean(d, in.mu1 + j, coeff, taps);
        const VU32 mu2 = HFilterMean(d, in.mu2 + j, coeff, taps);
        const VU32 xx = HFilterMoment(d, in.xx + j, coeff, taps);
        const VU32 yy = HFilterMoment(d, in.yy + j, coeff, taps);
        const VU32 xy = HFilterMoment(d, in.xy + j, coeff, taps);

        const auto sigma1 = hn::BitCast(di, hn::Sub(xx, MulHiRound(d, mu1, mu1)));
        const auto sigma2 = hn::Max(hn::BitCast(di, hn::Sub(yy, MulHiRound(d, mu2, mu2))), zero);
        const auto sigma12 = hn::BitCast(di, hn::Sub(xy, MulHiRound(d, mu1, mu2)));

        const auto is_log = hn::Gt(sigma1, hn::Sub(nsq, hn::Set(di, 1)));  // sigma1 >= sigma_nsq
        // sigma1 < sigma_nsq: sigma2 and a count.
        const auto non_log = hn::BitCast(du64, hn::IfThenZeroElse(is_log, sigma2));
        acc_num_non_log = hn::Add(acc_num_non_log, hn::And(non_log, lo32));
        acc_num_non_log = hn::Add(acc_num_non_log, hn::ShiftRight<32>(non_log));
        const std::size_t logs = hn::CountTrue(di, is_log);
        den_non_log += static_cast<std::int64_t>(n - logs);
        if (logs == 0) continue;

        // Denominator term: log2(sigma_nsq + sigma1) - 17, in Q11.
        const VU32 v = hn::BitCast(d, hn::Add(hn::IfThenElse(is_log, sigma1, zero), nsq));
        const VU32 den_term = hn::Sub(Log2Q11(d, v, table), log_bias);
        den_log32 = hn::Add(den_log32, hn::IfThenElseZero(hn::RebindMask(d, is_log), den_term));
        if (++pending == 4096) flush_den();

        // Numerator term where sigma12 > 0 and sigma2 > 0. Other lanes get
        // sigma1 = sigma_nsq, sigma2 = sigma12 = 0: equal logs, zero term.
        const auto is_num = hn::And(is_log, hn::And(hn::Gt(sigma12, zero), hn::Gt(sigma2, zero)));
        if (hn::AllFalse(di, is_num)) continue;
        const auto s1 = hn::IfThenElse(is_num, sigma1, nsq);
        const auto s2 = hn::IfThenElseZero(is_num, sigma2);
        const auto s12 = hn::IfThenElseZero(is_num, sigma12);

        auto num_half = [&](hn::Vec<decltype(dih)> h1, hn::Vec<decltype(dih)> h2, hn::Vec<decltype(dih)> h12) {
            const auto f1 = hn::PromoteTo(dd, h1);
            const auto f2 = hn::PromoteTo(dd, h2);
            const auto f12 = hn::PromoteTo(dd, h12);
            auto g = hn::Div(f12, hn::Add(f1, eps));
            auto sv = hn::DemoteTo(dih, hn::Sub(f2, hn::Mul(g, f12)));
            sv = hn::Max(sv, hn::Zero(dih));
            g = hn::IfThenElse(hn::Lt(g, limit), g, limit);
            const auto denom = hn::Add(hn::PromoteTo(dd, sv), nsq_d);
            // g * g * sigma1 >= 0, so truncation is floor; the sum is exact (< 2^53).
            const auto numer = hn::Add(hn::Floor(hn::Mul(hn::Mul(g, g), f1)), denom);
            return hn::Sub(Log2Q11(dd, numer, table), Log2Q11(dd, denom, table));
        };
        const auto lo_term = num_half(hn::LowerHalf(dih, s1), hn::LowerHalf(dih, s2), hn::LowerHalf(dih, s12));
        const auto hi_term = num_half(hn::UpperHalf(dih, s1), hn::UpperHalf(dih, s2), hn::UpperHalf(dih, s12));
        acc_num_log = hn::Add(acc_num_log, hn::Add(lo_term, hi_term));
    }
    flush_den();

    sums.num_log += static_cast<std::int64_t>(hn::GetLane(hn::SumOfLanes(du64, acc_num_log)));
    sums.den_log += static_cast<std::int64_t>(hn::GetLane(hn::SumOfLanes(du64, acc_den_log)));
    sums.num_non_log += static_cast<std::int64_t>(hn::GetLane(hn::SumOfLanes(du64, acc_num_non_log)));
    sums.den_non_log += den_non_log;
    (void)di64;

    if (j < w)
        ref::stat_hfilter(StatRow{in.mu1 + j, in.mu2 + j, in.xx + j, in.yy + j, in.xy + j}, w - j, coeff, taps,
                          enhn_gain_limit, table, sums);
}

void FillVifKernels(VifKernels& t) {
    t.stat_vfilter_8 = &StatVFilter8;
    t.stat_vfilter_16 = &StatVFilter16;
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
