// SIMD row kernels of CAMBI, one Highway source compiled for every target
// (foreach_target) and registered in cambi_registry(). All kernels work on
// uint16 lanes with exact integer operations, so they match the scalar
// references in cambi_kernels.cpp bit for bit:
//   mode3: three equality masks and an unsigned minimum, selected as the
//          scalar branch order does;
//   flat:  equality with the right neighbour (and the row below);
//   box7:  seven shifted loads summed (at most 49, no overflow), compared
//          as int16;
//   band codes: wrapping subtraction, the band test as min(r, size) != size;
//   slide: a vector of columns at a time, equal codes of the two rows
//          cancelled; runs of consecutive columns with the same code start
//          (end) where a lane's code differs from the previous (next)
//          column's, found as mask bits; each run updates its histogram row
//          once, whole vectors at multiples of the lane count (per column:
//          how many of the run's columns are within the window, 0 outside,
//          in int16 lanes); counts are summed mod 2^16 as the scalar code's
//          one-by-one updates are;
//   stats: nonzero count and minimum exact; the sum in double lanes (an
//          order the contract allows);
//   anti-dither: sums of four 10-bit samples fit in uint16;
//   c values: int32 lanes; a vector whose valid lanes use at most 4 distinct
//          histogram rows loads those rows and blends them per lane (a lane
//          whose row lacks a contrast step gets q = 0 there, hence 0), the
//          others gather the counts as int32 pairs at byte offsets (hence
//          the readable element past the histograms); the same int product
//          (< 2^31: counts <= 4225, weights <= 9) converted to float and
//          multiplied by the gathered reciprocal as the scalar code does;
//          max() equals the scalar "if (v > best)" for these non-negative,
//          non-NaN values; the row's stats as for stats.
// Columns past the last full vector use the scalar formula.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/cambi/cambi_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstring>
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

/// hist row h (`stride` columns), columns [max(a - pad, 0), min(b + pad + 1, w)):
/// subtracts (sub) or adds the number of columns of the run [a, b] within pad
/// of each column, min(c + pad, b) - max(c - pad, a) + 1: the sum of the
/// run's single-column range updates (integer adds, so in any order). Whole
/// vectors at multiples of N columns (so overlapping runs of a row hit the
/// same vectors), adding 0 left of the range and writing only scratch
/// columns right of w; counts in int16 lanes (pictures up to ~32700 columns,
/// scalar beyond).
HWY_INLINE void ApplyRun(u16* HWY_RESTRICT h, int stride, int w, int pad, int a, int b, bool sub) {
    const hn::ScalableTag<std::int16_t> d;
    const hn::RebindToUnsigned<decltype(d)> du;
    const int N = static_cast<int>(hn::Lanes(d));
    const int lo = std::max(a - pad, 0), hi = std::min(b + pad + 1, w);
    if (N > stride || stride + pad + N > 32767) {  // vectors wider than the histogram, or columns past int16
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
    const auto zero = hn::Zero(d);
    // Iota once: some targets build it lane by lane.
    const auto lanes = hn::Iota(d, 0);
    auto count = [&](int c0) {
        const auto c = hn::Add(lanes, hn::Set(d, static_cast<std::int16_t>(c0)));
        const auto n = hn::Add(hn::Sub(hn::Min(hn::Add(c, vpad), vb), hn::Max(hn::Sub(c, vpad), va)), one);
        return hn::BitCast(du, hn::Max(n, zero));
    };
    for (int c = lo - lo % N; c < hi; c += N) {
        int start = c;
        auto n = count(c);
        if (c + N > stride) {  // N does not divide stride: the last N columns, adding 0 to those before c
            start = stride - N;
            n = hn::IfThenZeroElse(hn::FirstN(du, static_cast<std::size_t>(c - start)), count(start));
        }
        const auto v = hn::LoadU(du, h + start);
        hn::StoreU(sub ? hn::Sub(v, n) : hn::Add(v, n), du, h + start);
    }
}

/// Runs of consecutive columns leaving (or entering) the histograms with the
/// same code, fed as start and end columns in column order.
struct RunTracker {
    u16* hist;
    int stride, w, pad;
    bool sub;
    int a = -1;
    u16 code = 0;
    void start(int j, u16 c) { a = j, code = c; }
    void end(int b) {
        ApplyRun(hist + std::size_t(code) * stride, stride, w, pad, a, b, sub);
        a = -1;
    }
};

/// The code of column j of `codes` after the cancellation of equal codes in
/// both rows (kNoCode outside [0, w)).
HWY_INLINE u16 effective(const u16* codes, const u16* other, int j, int w) {
    if (j < 0 || j >= w) return cambi::kNoCode;
    const u16 c = codes ? codes[j] : cambi::kNoCode, o = other ? other[j] : cambi::kNoCode;
    return c == o ? cambi::kNoCode : c;
}

/// Feeds the run starts and ends of columns [j0, w) of `codes` to `t`, one column at a time.
void ScalarRuns(const u16* codes, const u16* other, int j0, int w, RunTracker& t) {
    if (!codes) return;
    for (int j = j0; j < w; ++j) {
        const u16 c = effective(codes, other, j, w);
        if (c == cambi::kNoCode) continue;
        if (c != effective(codes, other, j - 1, w)) t.start(j, c);
        if (c != effective(codes, other, j + 1, w)) t.end(j);
    }
}

/// Feeds the runs whose starts/ends are the set bits of `starts` / `ends`
/// (lane bits of columns j0 ...) to `t`: events alternate start, end in
/// column order, and a run may have started before j0 or end after the vector.
HWY_INLINE void FeedRuns(const u16* codes, int j0, std::uint64_t starts, std::uint64_t ends, RunTracker& t) {
    while (ends) {
        if (t.a < 0) {  // else the first end is that of the run already started
            const int j = j0 + __builtin_ctzll(starts);
            starts &= starts - 1;
            t.start(j, codes[j]);
        }
        t.end(j0 + __builtin_ctzll(ends));
        ends &= ends - 1;
    }
    if (starts) t.start(j0 + __builtin_ctzll(starts), codes[j0 + __builtin_ctzll(starts)]);
}

void SlideRow(u16* HWY_RESTRICT hist, int stride, int w, int pad, const u16* out_codes, const u16* in_codes) {
    const hn::ScalableTag<u16> d;
    const int N = static_cast<int>(hn::Lanes(d));
    const auto none = hn::Set(d, cambi::kNoCode);
    RunTracker subs{hist, stride, w, pad, true}, adds{hist, stride, w, pad, false};
    // Codes of both rows at columns j ... j + N - 1, equal codes cancelled.
    auto load = [&](int j, hn::Vec<decltype(d)>& o, hn::Vec<decltype(d)>& i) {
        o = out_codes ? hn::LoadU(d, out_codes + j) : none;
        i = in_codes ? hn::LoadU(d, in_codes + j) : none;
        const auto same = hn::Eq(o, i);
        o = hn::IfThenElse(same, none, o);
        i = hn::IfThenElse(same, none, i);
    };
    std::uint8_t bits[4][HWY_MAX_BYTES / 8 + 8] = {};
    auto word = [&](int m, int chunk) {
        std::uint64_t v = 0;
        std::memcpy(&v, bits[m] + chunk * 8, 8);
        return v;
    };
    int j = 0;
    // The vectors read codes[j - 1] and codes[j + N] (the sentinels at the ends).
    for (; j + N <= w; j += N) {
        hn::Vec<decltype(d)> o, i, o_prev, i_prev, o_next, i_next;
        load(j, o, i);
        const auto o_on = hn::Ne(o, none), i_on = hn::Ne(i, none);
        if (hn::AllFalse(d, hn::Or(o_on, i_on))) continue;
        load(j - 1, o_prev, i_prev);
        load(j + 1, o_next, i_next);
        hn::StoreMaskBits(d, hn::And(o_on, hn::Ne(o, o_prev)), bits[0]);
        hn::StoreMaskBits(d, hn::And(o_on, hn::Ne(o, o_next)), bits[1]);
        hn::StoreMaskBits(d, hn::And(i_on, hn::Ne(i, i_prev)), bits[2]);
        hn::StoreMaskBits(d, hn::And(i_on, hn::Ne(i, i_next)), bits[3]);
        for (int chunk = 0; chunk * 64 < N; ++chunk) {
            const int j0 = j + chunk * 64;
            if (out_codes) FeedRuns(out_codes, j0, word(0, chunk), word(1, chunk), subs);
            if (in_codes) FeedRuns(in_codes, j0, word(2, chunk), word(3, chunk), adds);
        }
    }
    ScalarRuns(out_codes, in_codes, j, w, subs);
    ScalarRuns(in_codes, out_codes, j, w, adds);
}

void BandCodes(const u16* HWY_RESTRICT vals, const u16* HWY_RESTRICT mask, u16 band_base, u16 band_size,
               u16* HWY_RESTRICT out, std::size_t w) {
    const hn::ScalableTag<u16> d;
    const std::size_t N = hn::Lanes(d);
    const auto base = hn::Set(d, band_base);
    const auto size = hn::Set(d, band_size);
    const auto none = hn::Set(d, cambi::kNoCode);
    const auto zero = hn::Zero(d);
    std::size_t j = 0;
    for (; j + N <= w; j += N) {
        const auto r = hn::Sub(hn::LoadU(d, vals + j), base);
        // r < size as unsigned: min(r, size) != size.
        const auto in = hn::And(hn::Ne(hn::LoadU(d, mask + j), zero), hn::Ne(hn::Min(r, size), size));
        hn::StoreU(hn::IfThenElse(in, r, none), d, out + j);
    }
    if (j < w) cambi::band_codes_row(vals + j, mask + j, band_base, band_size, out + j, w - j);
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

void CValuesRow(const u16* HWY_RESTRICT hist, int stride, int w, const u16* HWY_RESTRICT codes,
                const cambi::ScoreParams& p, float* HWY_RESTRICT out, cambi::TopkStats& stats) {
    const hn::ScalableTag<std::int32_t> di;
    const hn::Rebind<u16, decltype(di)> d16;
    const hn::Rebind<float, decltype(di)> df;
    const int N = static_cast<int>(hn::Lanes(di));
    const auto zero = hn::Zero(di);
    const auto none16 = hn::Set(d16, cambi::kNoCode);
    const auto none = hn::Set(di, cambi::kNoCode);
    const auto zf = hn::Zero(df);
    const auto last = hn::Set(di, p.band_size - 1);
    const auto width = hn::Set(di, stride);
    const auto low16 = hn::Set(di, 0xffff);
    // Lanes in use have p0 + q <= window^2 < kReciprocalTableSize (two
    // values' counts in one window); the clamp only keeps the other lanes'
    // gathers inside the table.
    const auto max_sum = hn::Set(di, cambi::kReciprocalTableSize - 1);
    // hist as int32 at byte offsets: lane = hist[idx] | hist[idx + 1] << 16.
    const auto* h32 = reinterpret_cast<const std::int32_t*>(hist);
    auto count_at = [&](hn::Vec<decltype(di)> row, hn::Vec<decltype(di)> col) {
        const auto byte_offset = hn::ShiftLeft<1>(hn::Add(hn::Mul(row, width), col));
        return hn::And(hn::GatherOffset(di, h32, byte_offset), low16);
    };
    // The same product as the scalar code: int weight * p0 * q to float, times 1/(p0 + q).
    const float* recip = cambi::reciprocal_table();
    auto value = [&](int d, hn::Vec<decltype(di)> p0, hn::Vec<decltype(di)> q) {
        const auto num = hn::ConvertTo(df, hn::Mul(hn::Set(di, cambi::kContrastWeights[d]), hn::Mul(p0, q)));
        return hn::Mul(num, hn::GatherIndex(df, recip, hn::Min(hn::Add(q, p0), max_sum)));
    };
    const int active_offset = p.band_base + p.num_diffs;
    const auto lanes = hn::Iota(di, 0);
    // Stats of the row's vectors (as TopkStats()); all-zero vectors add nothing.
    const hn::Half<decltype(df)> dh;
    const hn::Repartition<double, decltype(df)> dd;
    auto sum_lo = hn::Zero(dd), sum_hi = hn::Zero(dd);
    const auto inf = hn::Set(df, std::numeric_limits<float>::infinity());
    auto min_nz = inf;
    std::size_t nonzero = 0;
    const auto* active = reinterpret_cast<const std::int32_t*>(p.active);
    int j = 0;
    for (; j + N <= w; j += N) {
        const auto c16 = hn::LoadU(d16, codes + j);
        if (hn::AllTrue(d16, hn::Eq(c16, none16))) {
            hn::StoreU(zf, df, out + j);
            continue;
        }
        const auto code = hn::PromoteTo(di, c16);
        const auto valid = hn::Ne(code, none);
        auto best = zf;
        // The distinct rows of the valid lanes (each that of the first lane
        // not yet covered), up to kFewRows.
        constexpr int kFewRows = 4;
        int rows[kFewRows];
        int nrows = 0;
        auto left = valid;
        for (; nrows < kFewRows; ++nrows) {
            const intptr_t lane = hn::FindFirstTrue(di, left);
            if (lane < 0) break;
            rows[nrows] = codes[j + lane];
            left = hn::AndNot(hn::Eq(code, hn::Set(di, rows[nrows])), left);
        }
        if (hn::AllFalse(di, left)) {
            // Few rows (flat areas, band edges): plain loads of those rows,
            // blended per lane. A lane whose row has step d inactive keeps
            // q = 0 for it, hence a value of 0 (0 times a finite reciprocal).
            const u16* hc = hist + j;
            auto load = [&](int r) { return hn::PromoteTo(di, hn::LoadU(d16, hc + std::size_t(r) * stride)); };
            auto p0 = hn::Zero(di);
            std::uint32_t act[kFewRows], any = 0;
            for (int k = 0; k < nrows; ++k) {
                p0 = hn::IfThenElse(hn::Eq(code, hn::Set(di, rows[k])), load(rows[k]), p0);
                act[k] = p.active[rows[k] + active_offset];
                any |= act[k];
            }
            for (; any; any &= any - 1) {
                const int d = __builtin_ctz(any);
                auto q = hn::Zero(di);
                for (int k = 0; k < nrows; ++k) {
                    if (!(act[k] >> d & 1)) continue;
                    const int r = rows[k];
                    const auto p1 = load(r + d + 1);
                    const auto qr = r - (d + 1) >= 0 ? hn::Max(p1, load(r - (d + 1))) : p1;
                    q = nrows == 1 ? qr : hn::IfThenElse(hn::Eq(code, hn::Set(di, r)), qr, q);
                }
                best = hn::Max(best, value(d, p0, q));
            }
        } else {
            // Row 0 for the lanes not in use keeps their gathers inside the tables.
            const auto row0 = hn::IfThenElseZero(valid, code);
            const auto col = hn::Add(lanes, hn::Set(di, j));
            const auto p0 = count_at(row0, col);
            const auto act = hn::IfThenElseZero(
                valid, hn::GatherIndex(di, active, hn::Add(row0, hn::Set(di, active_offset))));
            for (int d = 0; d < p.num_diffs; ++d) {
                const auto on = hn::Ne(hn::And(act, hn::Set(di, 1 << d)), zero);
                if (hn::AllFalse(di, on)) continue;
                const auto step = hn::Set(di, d + 1);
                const auto p1 = count_at(hn::Min(hn::Add(row0, step), last), col);
                const auto down = hn::Sub(row0, step);
                const auto p2 = hn::IfThenZeroElse(hn::Lt(down, zero), count_at(hn::Max(down, zero), col));
                best = hn::Max(best, hn::IfThenElseZero(hn::RebindMask(df, on), value(d, p0, hn::Max(p1, p2))));
            }
        }
        best = hn::IfThenElseZero(hn::RebindMask(df, valid), best);
        hn::StoreU(best, df, out + j);
        const auto is_zero = hn::Eq(best, zf);
        nonzero += static_cast<std::size_t>(N) - hn::CountTrue(df, is_zero);
        min_nz = hn::Min(min_nz, hn::IfThenElse(is_zero, inf, best));
        sum_lo = hn::Add(sum_lo, hn::PromoteTo(dd, hn::LowerHalf(dh, best)));
        sum_hi = hn::Add(sum_hi, hn::PromoteTo(dd, hn::UpperHalf(dh, best)));
    }
    if (nonzero) {  // (the all-+inf minimum is not +inf on every target: see TopkStats())
        stats.sum += hn::GetLane(hn::SumOfLanes(dd, hn::Add(sum_lo, sum_hi)));
        stats.nonzero += nonzero;
        stats.min_nonzero = std::min(stats.min_nonzero, hn::GetLane(hn::MinOfLanes(df, min_nz)));
    }
    if (j < w) {
        // The tail: columns j ... w - 1 of the same histograms, scalar.
        for (; j < w; ++j) {
            out[j] = 0.0f;
            if (codes[j] == cambi::kNoCode) continue;
            const int row = codes[j];
            const u16* hc = hist + j;
            const u16 p0 = hc[std::size_t(row) * stride];
            float best = 0.0f;
            for (std::uint32_t a = p.active[row + active_offset]; a; a &= a - 1) {
                const int d = __builtin_ctz(a);
                const int up = row + (d + 1), down = row - (d + 1);
                const u16 p1 = hc[std::size_t(up) * stride];
                const u16 p2 = down >= 0 ? hc[std::size_t(down) * stride] : 0;
                const u16 q = p1 > p2 ? p1 : p2;
                const float val = static_cast<float>(cambi::kContrastWeights[d] * p0 * q) * recip[q + p0];
                if (val > best) best = val;
            }
            out[j] = best;
            if (best != 0.0f) {
                stats.sum += best;
                ++stats.nonzero;
                stats.min_nonzero = std::min(stats.min_nonzero, best);
            }
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
    k.band_codes = &BandCodes;
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
