// SIMD row kernels of CAMBI, one Highway source compiled for every target
// (foreach_target) and registered in cambi_registry(). All kernels work on
// uint16 lanes with exact integer operations, so they match the scalar
// references in cambi_kernels.cpp bit for bit:
//   mode3: three equality masks and an unsigned minimum, selected as the
//          scalar branch order does;
//   flat:  equality with the right neighbour (and the row below);
//   box7:  seven shifted loads summed (at most 49, no overflow), compared
//          as int16;
//   slide: vectors of columns tested for a change at once; consecutive
//          changed columns with the same value update their histogram row
//          as one run (per column: how many of the run's columns are within
//          the window, in int16 lanes: columns < 2^15), a vector at a time
//          (the last, partial vector as an overlapping one adding 0 to the
//          columns already done); counts are summed mod 2^16 as the scalar
//          code's one-by-one updates are;
//   stats: nonzero count and minimum exact; the sum in double lanes (an
//          order the contract allows);
//   anti-dither: sums of four 10-bit samples fit in uint16;
//   c values: int32 lanes, histogram counts gathered as int32 pairs at byte
//          offsets (hence the readable element past the histograms), the
//          same int product (< 2^31: counts <= 4225, weights <= 9) converted
//          to float and multiplied by the gathered reciprocal as the scalar
//          code does; max() equals the scalar "if (v > best)" for these
//          non-negative, non-NaN values.
// Columns past the last full vector use the scalar formula.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/cambi/cambi_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <limits>

#include "features/cambi/cambi_kernels.hpp"

#if HWY_TARGET != HWY_SCALAR
HWY_BEFORE_NAMESPACE();
namespace vmaf::HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using u16 = std::uint16_t;

void Mode3(const u16* HWY_RESTRICT a, const u16* HWY_RESTRICT b, const u16* HWY_RESTRICT c, u16* HWY_RESTRICT out,
           std::size_t n) {
    const hn::ScalableTag<u16> d;
    const std::size_t N = hn::Lanes(d);
    std::size_t j = 0;
    for (; j + N <= n; j += N) {
        const auto va = hn::LoadU(d, a + j), vb = hn::LoadU(d, b + j), vc = hn::LoadU(d, c + j);
        const auto a_dup = hn::Or(hn::Eq(va, vb), hn::Eq(va, vc));
        const auto r = hn::IfThenElse(hn::Eq(vb, vc), vb, hn::Min(hn::Min(va, vb), vc));
        hn::StoreU(hn::IfThenElse(a_dup, va, r), d, out + j);
    }
    if (j < n) cambi::mode3_row(a + j, b + j, c + j, out + j, n - j);
}

void FlatRow(const u16* HWY_RESTRICT row, const u16* HWY_RESTRICT below, u16* HWY_RESTRICT out, std::size_t w) {
    const hn::ScalableTag<u16> d;
    const std::size_t N = hn::Lanes(d);
    const auto one = hn::Set(d, 1);
    std::size_t j = 0;
    for (; j + N + 1 <= w; j += N) {
        const auto v = hn::LoadU(d, row + j);
        auto m = hn::Eq(v, hn::LoadU(d, row + j + 1));
        if (below) m = hn::And(m, hn::Eq(v, hn::LoadU(d, below + j)));
        hn::StoreU(hn::IfThenElseZero(m, one), d, out + j);
    }
    cambi::flat_row(row + j, below ? below + j : nullptr, out + j, w - j);
}

void Box7Above(const u16* HWY_RESTRICT colsum, std::uint32_t threshold, u16* HWY_RESTRICT out, std::size_t w) {
    const hn::ScalableTag<u16> d;
    const hn::RebindToSigned<decltype(d)> di;
    const std::size_t N = hn::Lanes(d);
    // Sums are at most 49: a threshold of 49 or more is never exceeded.
    const auto thr = hn::Set(di, static_cast<std::int16_t>(std::min<std::uint32_t>(threshold, 49)));
    const auto one = hn::Set(d, 1);
    std::size_t j = 0;
    for (; j + N <= w; j += N) {
        const u16* p = colsum + j;
        auto s = hn::Add(hn::LoadU(d, p - 3), hn::LoadU(d, p - 2));
        s = hn::Add(s, hn::Add(hn::LoadU(d, p - 1), hn::LoadU(d, p)));
        s = hn::Add(s, hn::Add(hn::LoadU(d, p + 1), hn::LoadU(d, p + 2)));
        s = hn::Add(s, hn::LoadU(d, p + 3));
        hn::StoreU(hn::IfThenElseZero(hn::RebindMask(d, hn::Gt(hn::BitCast(di, s), thr)), one), d, out + j);
    }
    if (j < w) cambi::box7_above(colsum + j, threshold, out + j, w - j);
}

/// h[lo, hi) += delta (mod 2^16).
HWY_INLINE void AddRange(u16* HWY_RESTRICT h, int lo, int hi, u16 delta) {
    const hn::ScalableTag<u16> d;
    const int N = static_cast<int>(hn::Lanes(d));
    const auto vd = hn::Set(d, delta);
    int c = lo;
    for (; c + N <= hi; c += N) hn::StoreU(hn::Add(hn::LoadU(d, h + c), vd), d, h + c);
    if (c == hi) return;
    if (hi - lo >= N) {  // the last N columns again, adding only to those not done yet
        const int start = hi - N;
        const auto tail = hn::IfThenZeroElse(hn::FirstN(d, static_cast<std::size_t>(c - start)), vd);
        hn::StoreU(hn::Add(hn::LoadU(d, h + start), tail), d, h + start);
        return;
    }
    for (; c < hi; ++c) h[c] = static_cast<u16>(h[c] + delta);
}

/// hist row h, columns [max(a - pad, 0), min(b + pad + 1, w)): subtracts
/// (sub) or adds the number of columns of the run [a, b] within pad of each
/// column, min(c + pad, b) - max(c - pad, a) + 1: the sum of the run's
/// single-column range updates (integer adds, so in any order).
HWY_INLINE void ApplyRun(u16* HWY_RESTRICT h, int w, int pad, int a, int b, bool sub) {
    const hn::ScalableTag<std::int16_t> d;
    const hn::RebindToUnsigned<decltype(d)> du;
    const int N = static_cast<int>(hn::Lanes(d));
    const int lo = std::max(a - pad, 0), hi = std::min(b + pad + 1, w);
    if (a == b) {
        AddRange(h, lo, hi, sub ? 0xffff : 1);
        return;
    }
    if (hi - lo < N) {
        for (int c = lo; c < hi; ++c) {
            const int n = std::min(c + pad, b) - std::max(c - pad, a) + 1;
            h[c] = static_cast<u16>(sub ? h[c] - n : h[c] + n);
        }
        return;
    }
    const auto vpad = hn::Set(d, static_cast<std::int16_t>(pad));
    const auto va = hn::Set(d, static_cast<std::int16_t>(a));
    const auto vb = hn::Set(d, static_cast<std::int16_t>(b));
    const auto one = hn::Set(d, 1);
    auto count = [&](int c0) {
        const auto c = hn::Iota(d, static_cast<std::int16_t>(c0));
        return hn::BitCast(du, hn::Add(hn::Sub(hn::Min(hn::Add(c, vpad), vb), hn::Max(hn::Sub(c, vpad), va)), one));
    };
    auto apply = [&](int c0, hn::Vec<decltype(du)> n) {
        const auto v = hn::LoadU(du, h + c0);
        hn::StoreU(sub ? hn::Sub(v, n) : hn::Add(v, n), du, h + c0);
    };
    int c = lo;
    for (; c + N <= hi; c += N) apply(c, count(c));
    if (c < hi) {  // the last N columns again, adding nothing to those done
        const int start = hi - N;
        apply(start, hn::IfThenZeroElse(hn::FirstN(du, static_cast<std::size_t>(c - start)), count(start)));
    }
}

/// Consecutive columns leaving (or entering) the histogram with the same
/// value, applied as one run.
struct RunTracker {
    u16* hist;
    int w, pad;
    bool sub;
    int value = -1, a = 0, b = -2;
    void flush() {
        if (value >= 0) ApplyRun(hist + std::size_t(value) * w, w, pad, a, b, sub);
        value = -1;
    }
    void feed(int j, int v) {
        if (v == value && j == b + 1) {
            b = j;
            return;
        }
        flush();
        value = v, a = b = j;
    }
};

void SlideRow(u16* HWY_RESTRICT hist, int w, int pad, const u16* out_vals, const u16* out_mask, const u16* in_vals,
              const u16* in_mask, u16 band_base, u16 band_size) {
    if (band_size == 0) return;
    const hn::ScalableTag<u16> d;
    const int N = static_cast<int>(hn::Lanes(d));
    const auto base = hn::Set(d, band_base);
    const auto last = hn::Set(d, static_cast<u16>(band_size - 1));
    const auto zero = hn::Zero(d);
    // In the band: v - base (wrapping) <= band_size - 1, i.e. min() keeps it.
    auto in_band = [&](const u16* vals, const u16* mask, int j, hn::Vec<decltype(d)>& r) {
        r = hn::Sub(hn::LoadU(d, vals + j), base);
        return hn::And(hn::Ne(hn::LoadU(d, mask + j), zero), hn::Eq(hn::Min(r, last), r));
    };
    RunTracker subs{hist, w, pad, true}, adds{hist, w, pad, false};
    auto column = [&](int j) {
        const u16 ro = out_vals ? static_cast<u16>(out_vals[j] - band_base) : 0;
        const u16 ri = in_vals ? static_cast<u16>(in_vals[j] - band_base) : 0;
        const bool sub = out_vals && out_mask[j] && ro < band_size;
        const bool add = in_vals && in_mask[j] && ri < band_size;
        if (sub && add && ro == ri) return;
        if (sub) subs.feed(j, ro);
        if (add) adds.feed(j, ri);
    };
    std::uint8_t bits[HWY_MAX_BYTES / 8 + 8] = {};
    int j = 0;
    for (; j + N <= w; j += N) {
        auto ro = zero, ri = zero;
        const auto none = hn::Eq(zero, hn::Set(d, 1));
        const auto sub = out_vals ? in_band(out_vals, out_mask, j, ro) : none;
        const auto add = in_vals ? in_band(in_vals, in_mask, j, ri) : none;
        const auto same = hn::And(hn::And(sub, add), hn::Eq(ro, ri));
        const auto need = hn::AndNot(same, hn::Or(sub, add));
        if (hn::AllFalse(d, need)) continue;
        hn::StoreMaskBits(d, need, bits);
        for (int byte = 0; byte * 8 < N; ++byte)
            for (unsigned b = bits[byte]; b; b &= b - 1) column(j + byte * 8 + __builtin_ctz(b));
    }
    for (; j < w; ++j) column(j);
    subs.flush();
    adds.flush();
}

cambi::TopkStats TopkStats(const float* HWY_RESTRICT c, std::size_t n) {
    const hn::ScalableTag<float> df;
    const hn::Half<decltype(df)> dh;
    const hn::Repartition<double, decltype(df)> dd;
    const std::size_t N = hn::Lanes(df);
    const auto zero = hn::Zero(df);
    const auto inf = hn::Set(df, std::numeric_limits<float>::infinity());
    auto sum_lo = hn::Zero(dd), sum_hi = hn::Zero(dd);
    auto min_nz = inf;
    std::size_t nonzero = 0, i = 0;
    for (; i + N <= n; i += N) {
        const auto v = hn::LoadU(df, c + i);
        const auto is_zero = hn::Eq(v, zero);
        if (hn::AllTrue(df, is_zero)) continue;  // most c values are 0
        nonzero += N - hn::CountTrue(df, is_zero);
        min_nz = hn::Min(min_nz, hn::IfThenElse(is_zero, inf, v));
        sum_lo = hn::Add(sum_lo, hn::PromoteTo(dd, hn::LowerHalf(dh, v)));
        sum_hi = hn::Add(sum_hi, hn::PromoteTo(dd, hn::UpperHalf(dh, v)));
    }
    cambi::TopkStats st = cambi::topk_stats(c + i, n - i);
    st.sum += hn::GetLane(hn::SumOfLanes(dd, hn::Add(sum_lo, sum_hi)));
    st.nonzero += nonzero;
    // Only where a vector held a nonzero value: the all-+inf reduction is not
    // +inf on every target (Highway's EMU128 gives the largest finite float).
    if (nonzero) st.min_nonzero = std::min(st.min_nonzero, hn::GetLane(hn::MinOfLanes(df, min_nz)));
    return st;
}

void AntiDitherRow(u16* HWY_RESTRICT r, const u16* HWY_RESTRICT below, std::size_t n) {
    const hn::ScalableTag<u16> d;
    const std::size_t N = hn::Lanes(d);
    std::size_t j = 0;
    // r[j + N] is loaded before any store reaches it, so each output uses the
    // values from before the call.
    for (; j + N <= n; j += N) {
        const auto s = hn::Add(hn::Add(hn::LoadU(d, r + j), hn::LoadU(d, r + j + 1)),
                               hn::Add(hn::LoadU(d, below + j), hn::LoadU(d, below + j + 1)));
        hn::StoreU(hn::ShiftRight<2>(s), d, r + j);
    }
    if (j < n) cambi::anti_dither_row(r + j, below + j, n - j);
}

void CValuesRow(const u16* HWY_RESTRICT hist, int w, const u16* HWY_RESTRICT vals, const u16* HWY_RESTRICT mask,
                const cambi::ScoreParams& p, float* HWY_RESTRICT out) {
    const hn::ScalableTag<std::int32_t> di;
    const hn::Rebind<u16, decltype(di)> d16;
    const hn::Rebind<float, decltype(di)> df;
    const int N = static_cast<int>(hn::Lanes(di));
    const auto zero = hn::Zero(di);
    const auto zero16 = hn::Zero(d16);
    const auto zf = hn::Zero(df);
    const auto base = hn::Set(di, p.band_base);
    const auto last = hn::Set(di, p.band_size - 1);
    const auto width = hn::Set(di, w);
    const auto low16 = hn::Set(di, 0xffff);
    // hist as int32 at byte offsets: lane = hist[idx] | hist[idx + 1] << 16.
    const auto* h32 = reinterpret_cast<const std::int32_t*>(hist);
    auto count_at = [&](hn::Vec<decltype(di)> row, hn::Vec<decltype(di)> col) {
        const auto byte_offset = hn::ShiftLeft<1>(hn::Add(hn::Mul(row, width), col));
        return hn::And(hn::GatherOffset(di, h32, byte_offset), low16);
    };
    const float* recip = cambi::reciprocal_table();
    const auto* active = reinterpret_cast<const std::int32_t*>(p.active);
    int j = 0;
    for (; j + N <= w; j += N) {
        const auto m16 = hn::LoadU(d16, mask + j);
        if (hn::AllTrue(d16, hn::Eq(m16, zero16))) {
            hn::StoreU(zf, df, out + j);
            continue;
        }
        const auto v = hn::PromoteTo(di, hn::LoadU(d16, vals + j));
        const auto compact = hn::Sub(v, base);
        const auto valid = hn::And(hn::Ne(hn::PromoteTo(di, m16), zero),
                                   hn::And(hn::Not(hn::Lt(compact, zero)), hn::Not(hn::Gt(compact, last))));
        if (hn::AllFalse(di, valid)) {
            hn::StoreU(zf, df, out + j);
            continue;
        }
        const auto row0 = hn::Min(hn::Max(compact, zero), last);
        const auto col = hn::Iota(di, j);
        const auto p0 = count_at(row0, col);
        const auto act = hn::IfThenElseZero(valid, hn::GatherIndex(di, active, hn::Add(v, hn::Set(di, p.num_diffs))));
        auto best = zf;
        for (int d = 0; d < p.num_diffs; ++d) {
            const auto on = hn::Ne(hn::And(act, hn::Set(di, 1 << d)), zero);
            if (hn::AllFalse(di, on)) continue;
            const auto step = hn::Set(di, d + 1);
            const auto p1 = count_at(hn::Min(hn::Add(row0, step), last), col);
            const auto down = hn::Sub(row0, step);
            const auto p2 = hn::IfThenZeroElse(hn::Lt(down, zero), count_at(hn::Max(down, zero), col));
            const auto q = hn::Max(p1, p2);
            const auto num = hn::ConvertTo(df, hn::Mul(hn::Set(di, cambi::kContrastWeights[d]), hn::Mul(p0, q)));
            // Lanes in use have p0 + q <= window^2 < kReciprocalTableSize (two
            // values' counts in one window); the clamp only keeps the others'
            // gathers (clamped, possibly equal rows) inside the table.
            const auto sum = hn::Min(hn::Add(q, p0), hn::Set(di, cambi::kReciprocalTableSize - 1));
            const auto val = hn::Mul(num, hn::GatherIndex(df, recip, sum));
            best = hn::Max(best, hn::IfThenElseZero(hn::RebindMask(df, on), val));
        }
        hn::StoreU(best, df, out + j);
    }
    if (j < w) {
        // The tail as its own row: columns j ... w - 1 of the same histograms.
        for (; j < w; ++j) {
            const cambi::ScoreParams& sp = p;
            float* o = out + j;
            *o = 0.0f;
            if (!mask[j]) continue;
            const int compact = static_cast<int>(vals[j]) - sp.band_base;
            if (static_cast<unsigned>(compact) >= sp.band_size) continue;
            const u16* hc = hist + j;
            const u16 p0 = hc[std::size_t(compact) * w];
            float best = 0.0f;
            for (std::uint32_t a = sp.active[vals[j] + sp.num_diffs]; a; a &= a - 1) {
                const int d = __builtin_ctz(a);
                const int up = compact + (d + 1), down = compact - (d + 1);
                const u16 p1 = hc[std::size_t(up) * w];
                const u16 p2 = down >= 0 ? hc[std::size_t(down) * w] : 0;
                const u16 q = p1 > p2 ? p1 : p2;
                const float val = static_cast<float>(cambi::kContrastWeights[d] * p0 * q) * recip[q + p0];
                if (val > best) best = val;
            }
            *o = best;
        }
    }
}

void FillCambiKernels(cambi::CambiKernels& k) {
    k.c_values = &CValuesRow;
    k.stats = &TopkStats;
    k.anti_dither = &AntiDitherRow;
    k.mode3 = &Mode3;
    k.flat = &FlatRow;
    k.box7 = &Box7Above;
    k.slide = &SlideRow;
}

[[maybe_unused]] const bool kRegistered = cambi::cambi_registry().add(HWY_TARGET, &FillCambiKernels);

}  // namespace
}  // namespace vmaf::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
#endif  // HWY_TARGET != HWY_SCALAR

#if HWY_ONCE
namespace vmaf::cambi {

simd::KernelRegistry<CambiKernels>& cambi_registry() {
    static simd::KernelRegistry<CambiKernels> registry;
    return registry;
}

}  // namespace vmaf::cambi
#endif
