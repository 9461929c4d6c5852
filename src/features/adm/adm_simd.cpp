// Integer ADM: Highway SIMD versions of the hot-loop kernels of
// adm_scalar.cpp, compiled once per target (foreach_target) and registered in
// adm_registry(). Each kernel reproduces the scalar reference bit for bit for
// every input: integer widths are chosen so that no intermediate overflows
// (or overflows only where the reference wraps the same way), narrowing
// stores truncate like C casts, and the few floating-point steps run in the
// reference's order and precision (no fused multiply-add). Edges (mirrored
// columns) and tails shorter than a vector fall back to the scalar kernels.
#include <cstdint>
#include <cstring>

#include "features/adm/adm_simd.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/adm/adm_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>

HWY_BEFORE_NAMESPACE();
namespace vmaf::adm::HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;

// HWY_SCALAR (the emulation target GCC < 12.3 gets instead of EMU128) lacks
// several ops used here and is no faster than the scalar reference.
#if HWY_TARGET != HWY_SCALAR

using i16 = std::int16_t;
using i32 = std::int32_t;
using i64 = std::int64_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

// Daubechies-2 taps (see adm_scalar.cpp).
constexpr i32 kLo0 = 15826, kLo1 = 27411, kLo2 = 7345, kLo3 = -4240;
constexpr i32 kHi0 = -4240, kHi1 = -7345, kHi2 = 27411, kHi3 = -15826;

/// (int16_t) of each i32 lane, as C's narrowing conversion (low 16 bits).
template <class D16, class V32>
HWY_INLINE hn::Vec<D16> TruncToI16(D16 d16, V32 v) {
    return hn::DemoteTo(d16, hn::ShiftRight<16>(hn::ShiftLeft<16>(v)));
}

/// The i32 value of the low 16 bits of each lane, sign-extended.
template <class V32>
HWY_INLINE V32 SignExtend16(V32 v) {
    return hn::ShiftRight<16>(hn::ShiftLeft<16>(v));
}

/// Odd i32 lanes moved into the even positions (for MulEven).
template <class D32, class V32>
HWY_INLINE V32 OddToEven(D32 d32, V32 v) {
    const hn::RepartitionToWide<hn::RebindToUnsigned<D32>> du64;
    return hn::BitCast(d32, hn::ShiftRight<32>(hn::BitCast(du64, v)));
}

/// Arithmetic right shift of i64 lanes by a run-time count.
template <class V64>
HWY_INLINE V64 SraSame(V64 v, int bits) {
    return hn::ShiftRightSame(v, bits);
}

// ---------------------------------------------------------------------------
// DWT, scale 0.

#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL || HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_SSE4 || \
    HWY_TARGET == HWY_SSSE3
// x86: 16-bit lanes and pmaddwd. Rows 0/1 and 2/3 are interleaved pairwise
// (InterleaveLower/Upper, per 128-bit block) and multiplied with the tap
// pairs (int16: every |tap| < 2^15, samples < 2^8), giving the same int32
// sums; ReorderDemote2To (packssdw, per 128-bit block) restores pixel order,
// and the results fit int16 (no saturation).
void Dwt0Vert8(const std::uint8_t* const r[4], int w, i16* lo, i16* hi) {
    const hn::ScalableTag<i16> d16;
    const hn::Rebind<std::uint8_t, decltype(d16)> d8;
    const hn::RebindToUnsigned<decltype(d16)> du16;
    const hn::Repartition<i32, decltype(d16)> d32;
    const int n = static_cast<int>(hn::Lanes(d16));
    auto pair = [&](i32 a, i32 b) {
        return hn::BitCast(d16, hn::Set(d32, static_cast<i32>(static_cast<std::uint32_t>(a & 0xFFFF) |
                                                               (static_cast<std::uint32_t>(b) << 16))));
    };
    const auto lo01 = pair(kLo0, kLo1), lo23 = pair(kLo2, kLo3);
    const auto hi01 = pair(kHi0, kHi1), hi23 = pair(kHi2, kHi3);
    const auto off_lo = hn::Set(d32, -46342 * 128 + 128);
    const auto off_hi = hn::Set(d32, 128);
    auto ld = [&](const std::uint8_t* p) { return hn::BitCast(d16, hn::PromoteTo(du16, hn::LoadU(d8, p))); };
    auto filt = [&](decltype(lo01) a, decltype(lo01) b, decltype(lo01) ca, decltype(lo01) cb, decltype(off_lo) off) {
        auto unused = hn::Zero(d32);
        const auto s = hn::ReorderWidenMulAccumulate(d32, a, ca, hn::Zero(d32), unused);
        return hn::ShiftRight<8>(hn::Add(hn::ReorderWidenMulAccumulate(d32, b, cb, s, unused), off));
    };
    int j = 0;
    for (; j + n <= w; j += n) {
        const auto s0 = ld(r[0] + j), s1 = ld(r[1] + j), s2 = ld(r[2] + j), s3 = ld(r[3] + j);
        const auto a_l = hn::InterleaveLower(d16, s0, s1), a_h = hn::InterleaveUpper(d16, s0, s1);
        const auto b_l = hn::InterleaveLower(d16, s2, s3), b_h = hn::InterleaveUpper(d16, s2, s3);
        hn::StoreU(hn::ReorderDemote2To(d16, filt(a_l, b_l, lo01, lo23, off_lo), filt(a_h, b_h, lo01, lo23, off_lo)),
                   d16, lo + j);
        hn::StoreU(hn::ReorderDemote2To(d16, filt(a_l, b_l, hi01, hi23, off_hi), filt(a_h, b_h, hi01, hi23, off_hi)),
                   d16, hi + j);
    }
    if (j < w) {
        const std::uint8_t* rt[4] = {r[0] + j, r[1] + j, r[2] + j, r[3] + j};
        scalar::dwt0_vert8(rt, w - j, lo + j, hi + j);
    }
}
#else
void Dwt0Vert8(const std::uint8_t* const r[4], int w, i16* lo, i16* hi) {
    const hn::ScalableTag<i32> d32;
    const hn::Rebind<std::uint8_t, decltype(d32)> d8;
    const hn::Rebind<i16, decltype(d32)> d16;
    const int n = static_cast<int>(hn::Lanes(d32));
    // All sums of 8-bit samples fit easily in int32; results fit in int16.
    const auto off_lo = hn::Set(d32, -46342 * 128 + 128);
    const auto off_hi = hn::Set(d32, 128);
    int j = 0;
    for (; j + n <= w; j += n) {
        const auto s0 = hn::PromoteTo(d32, hn::LoadU(d8, r[0] + j));
        const auto s1 = hn::PromoteTo(d32, hn::LoadU(d8, r[1] + j));
        const auto s2 = hn::PromoteTo(d32, hn::LoadU(d8, r[2] + j));
        const auto s3 = hn::PromoteTo(d32, hn::LoadU(d8, r[3] + j));
        auto l = hn::Add(hn::Add(hn::Mul(s0, hn::Set(d32, kLo0)), hn::Mul(s1, hn::Set(d32, kLo1))),
                         hn::Add(hn::Mul(s2, hn::Set(d32, kLo2)), hn::Mul(s3, hn::Set(d32, kLo3))));
        auto h = hn::Add(hn::Add(hn::Mul(s0, hn::Set(d32, kHi0)), hn::Mul(s1, hn::Set(d32, kHi1))),
                         hn::Add(hn::Mul(s2, hn::Set(d32, kHi2)), hn::Mul(s3, hn::Set(d32, kHi3))));
        l = hn::ShiftRight<8>(hn::Add(l, off_lo));
        h = hn::ShiftRight<8>(hn::Add(h, off_hi));
        hn::StoreU(hn::DemoteTo(d16, l), d16, lo + j);
        hn::StoreU(hn::DemoteTo(d16, h), d16, hi + j);
    }
    if (j < w) {
        const std::uint8_t* rt[4] = {r[0] + j, r[1] + j, r[2] + j, r[3] + j};
        scalar::dwt0_vert8(rt, w - j, lo + j, hi + j);
    }
}
#endif

// High bit depth: a sum of 16-bit samples times the taps exceeds int32, but
// its positive part P and negative part N each fit in uint32, so
// floor((P - N) / 2^bpc) is formed from |P - N| without any 64-bit lanes.
void Dwt0Vert16(const std::uint16_t* const r[4], int w, unsigned bpc, i16* lo, i16* hi) {
    const hn::ScalableTag<u32> du;
    const hn::RebindToSigned<decltype(du)> di;
    const hn::Rebind<std::uint16_t, decltype(du)> d16u;
    const hn::Rebind<i16, decltype(du)> d16;
    const int n = static_cast<int>(hn::Lanes(du));
    const int shift = static_cast<int>(bpc);
    const u32 add = u32{1} << (bpc - 1);
    const auto round_up = hn::Set(du, (u32{1} << bpc) - 1);
    const auto n_lo_off = hn::Set(du, 46342u * add - add);
    const auto p_hi_off = hn::Set(du, add);
    // floor((p - q) / 2^shift) as int32 lanes.
    auto floor_diff = [&](decltype(hn::Zero(du)) p, decltype(hn::Zero(du)) q) {
        const auto pos = hn::BitCast(di, hn::ShiftRightSame(hn::Sub(p, q), shift));
        const auto neg = hn::Neg(hn::BitCast(di, hn::ShiftRightSame(hn::Add(hn::Sub(q, p), round_up), shift)));
        return hn::IfThenElse(hn::RebindMask(di, hn::Lt(p, q)), neg, pos);
    };
    int j = 0;
    for (; j + n <= w; j += n) {
        const auto s0 = hn::PromoteTo(du, hn::LoadU(d16u, r[0] + j));
        const auto s1 = hn::PromoteTo(du, hn::LoadU(d16u, r[1] + j));
        const auto s2 = hn::PromoteTo(du, hn::LoadU(d16u, r[2] + j));
        const auto s3 = hn::PromoteTo(du, hn::LoadU(d16u, r[3] + j));
        const auto p_lo = hn::Add(hn::Add(hn::Mul(s0, hn::Set(du, u32{kLo0})), hn::Mul(s1, hn::Set(du, u32{kLo1}))),
                                  hn::Mul(s2, hn::Set(du, u32{kLo2})));
        const auto n_lo = hn::Add(hn::Mul(s3, hn::Set(du, u32{-kLo3})), n_lo_off);
        const auto p_hi = hn::Add(hn::Mul(s2, hn::Set(du, u32{kHi2})), p_hi_off);
        const auto n_hi = hn::Add(hn::Add(hn::Mul(s0, hn::Set(du, u32{-kHi0})), hn::Mul(s1, hn::Set(du, u32{-kHi1}))),
                                  hn::Mul(s3, hn::Set(du, u32{-kHi3})));
        hn::StoreU(TruncToI16(d16, floor_diff(p_lo, n_lo)), d16, lo + j);
        hn::StoreU(TruncToI16(d16, floor_diff(p_hi, n_hi)), d16, hi + j);
    }
    if (j < w) {
        const std::uint16_t* rt[4] = {r[0] + j, r[1] + j, r[2] + j, r[3] + j};
        scalar::dwt0_vert16(rt, w - j, bpc, lo + j, hi + j);
    }
}

/// Loads the 2n int16 samples from p as int32 and splits them into the even
/// (p[0], p[2], ...) and odd (p[1], p[3], ...) ones.
template <class D32>
HWY_INLINE void LoadDeinterleave16(D32 d32, const i16* p, hn::Vec<D32>& even, hn::Vec<D32>& odd) {
    const hn::Rebind<i16, D32> d16;
    const size_t n = hn::Lanes(d32);
    const auto a0 = hn::PromoteTo(d32, hn::LoadU(d16, p));
    const auto a1 = hn::PromoteTo(d32, hn::LoadU(d16, p + n));
    even = hn::ConcatEven(d32, a1, a0);
    odd = hn::ConcatOdd(d32, a1, a0);
}

// Output j reads inputs 2j-1 .. 2j+2; the vector part covers 1 <= j with
// 2j+2 <= w-1 (no mirroring); |sum| <= 54822 * 32768 + 32768 < 2^31.
void Dwt0Horz(const i16* lo, const i16* hi, int w, i16* a, i16* v, i16* h, i16* d) {
    const hn::ScalableTag<i32> d32;
    const hn::Rebind<i16, decltype(d32)> d16;
    const int n = static_cast<int>(hn::Lanes(d32));
    const int ow = (w + 1) / 2;
    const auto rnd = hn::Set(d32, 32768);
    auto filt = [&](auto x0, auto x1, auto x2, auto x3, i32 c0, i32 c1, i32 c2, i32 c3) {
        const auto s = hn::Add(hn::Add(hn::Mul(x0, hn::Set(d32, c0)), hn::Mul(x1, hn::Set(d32, c1))),
                               hn::Add(hn::Mul(x2, hn::Set(d32, c2)), hn::Mul(x3, hn::Set(d32, c3))));
        return hn::DemoteTo(d16, hn::ShiftRight<16>(hn::Add(s, rnd)));
    };
    const int first = ow > 1 ? 1 : ow;
    scalar::dwt0_horz_range(lo, hi, w, 0, first, a, v, h, d);
    int j = first;
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL || HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_SSE4 || \
    HWY_TARGET == HWY_SSSE3
    // x86: the int16 vector loaded at x + 2j - 1 holds (x[2(j+i) - 1], x[2(j+i)])
    // in 32-bit lane i, and the one at x + 2j + 1 the next two taps, so pmaddwd
    // with the tap pairs (all |tap| < 2^15) gives the sums in output order.
    const hn::Repartition<i16, decltype(d32)> d16w;
    auto taps = [&](i32 c0, i32 c1) {
        return hn::BitCast(d16w, hn::Set(d32, static_cast<i32>(static_cast<std::uint32_t>(c0 & 0xFFFF) |
                                                                (static_cast<std::uint32_t>(c1) << 16))));
    };
    const auto lo01 = taps(kLo0, kLo1), lo23 = taps(kLo2, kLo3);
    const auto hi01 = taps(kHi0, kHi1), hi23 = taps(kHi2, kHi3);
    auto mfilt = [&](decltype(lo01) x01, decltype(lo01) x23, decltype(lo01) c01, decltype(lo01) c23) {
        auto unused = hn::Zero(d32);
        const auto s = hn::ReorderWidenMulAccumulate(d32, x01, c01, rnd, unused);
        return hn::DemoteTo(d16, hn::ShiftRight<16>(hn::ReorderWidenMulAccumulate(d32, x23, c23, s, unused)));
    };
    auto block = [&](int j) {
        const auto l01 = hn::LoadU(d16w, lo + 2 * j - 1), l23 = hn::LoadU(d16w, lo + 2 * j + 1);
        hn::StoreU(mfilt(l01, l23, lo01, lo23), d16, a + j);
        if (!v) return;
        hn::StoreU(mfilt(l01, l23, hi01, hi23), d16, v + j);
        const auto h01 = hn::LoadU(d16w, hi + 2 * j - 1), h23 = hn::LoadU(d16w, hi + 2 * j + 1);
        hn::StoreU(mfilt(h01, h23, lo01, lo23), d16, h + j);
        hn::StoreU(mfilt(h01, h23, hi01, hi23), d16, d + j);
    };
    (void)filt;
#else
    auto block = [&](int j) {
        hn::Vec<decltype(d32)> l0, l1, l2, l3;
        LoadDeinterleave16(d32, lo + 2 * j - 1, l0, l1);
        LoadDeinterleave16(d32, lo + 2 * j + 1, l2, l3);
        hn::StoreU(filt(l0, l1, l2, l3, kLo0, kLo1, kLo2, kLo3), d16, a + j);
        if (!v) return;
        hn::StoreU(filt(l0, l1, l2, l3, kHi0, kHi1, kHi2, kHi3), d16, v + j);
        hn::Vec<decltype(d32)> h0, h1, h2, h3;
        LoadDeinterleave16(d32, hi + 2 * j - 1, h0, h1);
        LoadDeinterleave16(d32, hi + 2 * j + 1, h2, h3);
        hn::StoreU(filt(h0, h1, h2, h3, kLo0, kLo1, kLo2, kLo3), d16, h + j);
        hn::StoreU(filt(h0, h1, h2, h3, kHi0, kHi1, kHi2, kHi3), d16, d + j);
    };
#endif
    const int last = std::min((w - 3) / 2 - n + 1, ow - n);  // the last block start the bounds allow
    for (; j <= last; j += n) block(j);
    // The outputs up to `last + n` once more as one block (same values rewritten).
    if (j > first && j < last + n) {
        block(last);
        j = last + n;
    }
    scalar::dwt0_horz_range(lo, hi, w, j, ow, a, v, h, d);
}

// ---------------------------------------------------------------------------
// CSF, scale 0: |rf * src| < 2^31, then two C narrowing casts.

void Csf0(const i16* src, int n_px, u16 rf, int shift, i32 add, i16* out, i32* fsum) {
    const hn::ScalableTag<i32> d32;
    const hn::Rebind<i16, decltype(d32)> d16;
    const int n = static_cast<int>(hn::Lanes(d32));
    const auto vrf = hn::Set(d32, i32{rf});
    const auto vadd = hn::Set(d32, add);
    const auto one_by_30 = hn::Set(d32, 4369);
    const auto rnd = hn::Set(d32, 2048);
    int j = 0;
    for (; j + n <= n_px; j += n) {
        const auto s = hn::PromoteTo(d32, hn::LoadU(d16, src + j));
        const auto c = SignExtend16(hn::ShiftRightSame(hn::Add(hn::Mul(vrf, s), vadd), shift));
        const auto f = SignExtend16(hn::ShiftRight<12>(hn::Add(hn::Mul(one_by_30, hn::Abs(c)), rnd)));
        hn::StoreU(hn::DemoteTo(d16, c), d16, out + j);
        hn::StoreU(hn::Add(hn::LoadU(d32, fsum + j), f), d32, fsum + j);
    }
    if (j < n_px) scalar::csf0(src + j, n_px - j, rf, shift, add, out + j, fsum + j);
}

// ---------------------------------------------------------------------------
// den, scale 0: sum of |x|^3 with |x| <= 2^15, |x|^2 in uint32, cube in uint64.

u64 Den0(const i16* b, int n_px) {
    const hn::ScalableTag<u32> du;
    const hn::RebindToSigned<decltype(du)> di;
    const hn::Rebind<i16, decltype(du)> d16;
    const hn::RepartitionToWide<decltype(du)> du64;
    const int n = static_cast<int>(hn::Lanes(du));
    auto acc = hn::Zero(du64);
    int j = 0;
    for (; j + n <= n_px; j += n) {
        const auto x = hn::BitCast(du, hn::Abs(hn::PromoteTo(di, hn::LoadU(d16, b + j))));
        const auto x2 = hn::Mul(x, x);
        acc = hn::Add(acc, hn::MulEven(x2, x));
        acc = hn::Add(acc, hn::MulEven(OddToEven(du, x2), OddToEven(du, x)));
    }
    u64 inner = hn::GetLane(hn::SumOfLanes(du64, acc));
    if (j < n_px) inner += scalar::den0(b + j, n_px - j);
    return inner;
}

// ---------------------------------------------------------------------------
// Contrast masking, scale 0.

/// inner += (x_sq * x + add_cub) >> shift_cub with x_sq = (int32)((x*x + add_sq) >> shift_sq),
/// x >= 0 in int32 lanes; accumulates into the i64 lanes of acc.
template <int kShiftSq, class D32, class V32, class V64>
HWY_INLINE void CubeAccumulate(D32 d32, V32 x, V64 add_sq, V64 add_cub, int shift_cub, V64& acc) {
    const hn::RebindToUnsigned<D32> du32;
    const hn::RepartitionToWide<D32> d64;
    const hn::RepartitionToWide<decltype(du32)> du64;
    const auto xu = hn::BitCast(du32, x);
    const auto xo = OddToEven(d32, x);
    const auto xou = hn::BitCast(du32, xo);
    // x >= 0: the square is < 2^62 and the sum with add_sq < 2^63.
    const auto sq_e = hn::ShiftRight<kShiftSq>(hn::Add(hn::MulEven(xu, xu), hn::BitCast(du64, add_sq)));
    const auto sq_o = hn::ShiftRight<kShiftSq>(hn::Add(hn::MulEven(xou, xou), hn::BitCast(du64, add_sq)));
    // MulEven reads the low 32 bits of each 64-bit lane: the (int32) cast.
    const auto cu_e = hn::MulEven(hn::BitCast(d32, sq_e), x);
    const auto cu_o = hn::MulEven(hn::BitCast(d32, sq_o), xo);
    acc = hn::Add(acc, SraSame(hn::Add(cu_e, add_cub), shift_cub));
    acc = hn::Add(acc, SraSame(hn::Add(cu_o, add_cub), shift_cub));
    (void)d64;
}

void Cm0(const CmRow<i16>& row, i64 inner[3]) {
    const hn::ScalableTag<i32> d32;
    const hn::Rebind<i16, decltype(d32)> d16;
    const hn::RepartitionToWide<decltype(d32)> d64;
    const int n = static_cast<int>(hn::Lanes(d32));
    const int vj0 = row.j0 < 1 ? 1 : row.j0;
    const int vj1 = row.j1 > row.w - 1 ? row.w - 1 : row.j1;
    if (vj1 - vj0 < n) {
        scalar::cm0(row, inner);
        return;
    }
    scalar::cm0_range(row, row.j0, vj0, inner);
    const auto one_by_15 = hn::Set(d32, 8738);
    const auto rnd = hn::Set(d32, 2048);
    const auto zero = hn::Zero(d32);
    auto acc0 = hn::Zero(d64), acc1 = hn::Zero(d64), acc2 = hn::Zero(d64);
    const auto add_sq29 = hn::Set(d64, i64{268435456}), add_sq30 = hn::Set(d64, i64{536870912});
    const auto ac0 = hn::Set(d64, row.add_cub[0]), ac1 = hn::Set(d64, row.add_cub[1]),
               ac2 = hn::Set(d64, row.add_cub[2]);
    const int sc0 = static_cast<int>(row.shift_cub[0]), sc1 = static_cast<int>(row.shift_cub[1]),
              sc2 = static_cast<int>(row.shift_cub[2]);
    const auto rf0 = hn::Set(d32, static_cast<i32>(row.rf[0])), rf1 = hn::Set(d32, static_cast<i32>(row.rf[1])),
               rf2 = hn::Set(d32, static_cast<i32>(row.rf[2]));
    auto ld = [&](const i16* p) { return hn::PromoteTo(d32, hn::LoadU(d16, p)); };
    auto ld32 = [&](const i32* p) { return hn::LoadU(d32, p); };
    int j = vj0;
    for (; j + n <= vj1; j += n) {
        // Wrapping int32 sums in any order: the reference's bits.
        const i32* ru = row.fsum[0] + j;
        const i32* rc = row.fsum[1] + j;
        const i32* rd = row.fsum[2] + j;
        auto thr = hn::Add(hn::Add(ld32(ru - 1), ld32(ru)), hn::Add(ld32(ru + 1), ld32(rc - 1)));
        thr = hn::Add(thr, hn::Add(hn::Add(ld32(rc + 1), ld32(rd - 1)), hn::Add(ld32(rd), ld32(rd + 1))));
        for (int t = 0; t < 3; ++t)
            thr = hn::Add(
                thr,
                SignExtend16(hn::ShiftRight<12>(hn::Add(hn::Mul(one_by_15, hn::Abs(ld(row.masker[t] + j))), rnd))));
        const auto x0 = hn::Max(hn::Sub(hn::Abs(hn::Mul(ld(row.target[0] + j), rf0)), hn::ShiftLeft<10>(thr)), zero);
        const auto x1 = hn::Max(hn::Sub(hn::Abs(hn::Mul(ld(row.target[1] + j), rf1)), hn::ShiftLeft<10>(thr)), zero);
        const auto x2 = hn::Max(hn::Sub(hn::Abs(hn::Mul(ld(row.target[2] + j), rf2)), hn::ShiftLeft<12>(thr)), zero);
        CubeAccumulate<29>(d32, x0, add_sq29, ac0, sc0, acc0);
        CubeAccumulate<29>(d32, x1, add_sq29, ac1, sc1, acc1);
        CubeAccumulate<30>(d32, x2, add_sq30, ac2, sc2, acc2);
    }
    // Two's-complement sums: the lane order does not matter.
    inner[0] = static_cast<i64>(static_cast<u64>(inner[0]) + static_cast<u64>(hn::GetLane(hn::SumOfLanes(d64, acc0))));
    inner[1] = static_cast<i64>(static_cast<u64>(inner[1]) + static_cast<u64>(hn::GetLane(hn::SumOfLanes(d64, acc1))));
    inner[2] = static_cast<i64>(static_cast<u64>(inner[2]) + static_cast<u64>(hn::GetLane(hn::SumOfLanes(d64, acc2))));
    scalar::cm0_range(row, j, row.j1, inner);
}

// ---------------------------------------------------------------------------
// Decouple, scale 0, in double lanes. Every integer step of the reference is
// exact in double here (products of int16 values and of the 2^30 reciprocal
// table with int16 stay below 2^53, divisions by powers of two are exact,
// floor() is the arithmetic right shift), and the reciprocal table entry
// trunc(2^30 / o) equals trunc of the correctly rounded double quotient
// (the quotient is at least 1/|o| >= 2^-15 away from the next integer).
// (A gather from the table is slower than the division on CPUs with the
// gather data sampling mitigation.)
void Decouple0Double(const i16* const o[3], const i16* const t[3], int n_px, double egl, i16* const r[3],
                     i16* const a[3]) {
    const hn::ScalableTag<double> df;
    const hn::Rebind<i32, decltype(df)> d32;
    const hn::Rebind<i16, decltype(df)> d16;
    const hn::Rebind<float, decltype(df)> df32;
    const int n = static_cast<int>(hn::Lanes(df));
    const auto inv4096 = hn::Set(df, 1.0 / 4096.0);
    const auto cos_sq = hn::Set(df, static_cast<double>(cos1deg_sq()));
    const auto two30 = hn::Set(df, 1073741824.0);
    const auto half = hn::Set(df, 16384.0);
    const auto inv32768 = hn::Set(df, 1.0 / 32768.0);
    const auto k_one = hn::Set(df, 32768.0);
    const auto zero = hn::Zero(df);
    const auto vegl = hn::Set(df, egl);
    auto ld = [&](const i16* p) { return hn::PromoteTo(df, hn::PromoteTo(d32, hn::LoadU(d16, p))); };
    // float rounding of an exact integer-valued double, back to double.
    auto via_float = [&](decltype(zero) x) { return hn::PromoteTo(df, hn::DemoteTo(df32, x)); };
    int j = 0;
    // A last partial vector is recomputed over the last full window (each output
    // depends on its own pixel only, and outputs never alias inputs).
    for (; j < n_px && n_px >= n; j += n) {
        if (j + n > n_px) j = n_px - n;
        const auto oh = ld(o[0] + j), ov = ld(o[1] + j);
        const auto th = ld(t[0] + j), tv = ld(t[1] + j);
        // x / 4096 == x * 2^-12 exactly (no underflow for these magnitudes).
        const auto dp = hn::Mul(via_float(hn::Add(hn::Mul(oh, th), hn::Mul(ov, tv))), inv4096);
        const auto om = hn::Mul(via_float(hn::Add(hn::Mul(oh, oh), hn::Mul(ov, ov))), inv4096);
        const auto tm = hn::Mul(via_float(hn::Add(hn::Mul(th, th), hn::Mul(tv, tv))), inv4096);
        const auto angle = hn::And(hn::Ge(dp, zero), hn::Ge(hn::Mul(dp, dp), hn::Mul(hn::Mul(cos_sq, om), tm)));
        for (int theta = 0; theta < 3; ++theta) {
            const auto oo = theta == 0 ? oh : theta == 1 ? ov : ld(o[2] + j);
            const auto tt = theta == 0 ? th : theta == 1 ? tv : ld(t[2] + j);
            const auto o_zero = hn::Eq(oo, zero);
            const auto lut = hn::Trunc(hn::Div(two30, hn::IfThenElse(o_zero, k_one, oo)));
            const auto tmp_k = hn::Floor(hn::Mul(hn::Add(hn::Mul(lut, tt), half), inv32768));
            const auto k = hn::Min(hn::Max(hn::IfThenElse(o_zero, k_one, tmp_k), zero), k_one);
            auto rst = hn::Floor(hn::Mul(hn::Add(hn::Mul(k, oo), half), inv32768));
            const auto kpos = hn::And(angle, hn::Gt(k, zero));
            const auto g = hn::Mul(rst, vegl);
            const auto pos = hn::And(kpos, hn::Gt(oo, zero));
            const auto neg = hn::And(kpos, hn::Lt(oo, zero));
            rst = hn::IfThenElse(pos, hn::IfThenElse(hn::Lt(g, tt), hn::Trunc(g), tt), rst);
            rst = hn::IfThenElse(neg, hn::IfThenElse(hn::Gt(g, tt), hn::Trunc(g), tt), rst);
            const auto ri = hn::DemoteTo(d32, rst);
            const auto ai = hn::Sub(hn::DemoteTo(d32, tt), ri);
            hn::StoreU(hn::DemoteTo(d16, ri), d16, r[theta] + j);
            hn::StoreU(hn::DemoteTo(d16, SignExtend16(ai)), d16, a[theta] + j);
        }
    }
    if (j < n_px) {
        const i16* ot[3] = {o[0] + j, o[1] + j, o[2] + j};
        const i16* tt[3] = {t[0] + j, t[1] + j, t[2] + j};
        i16* rt[3] = {r[0] + j, r[1] + j, r[2] + j};
        i16* at[3] = {a[0] + j, a[1] + j, a[2] + j};
        scalar::decouple0(ot, tt, n_px - j, egl, rt, at);
    }
}

/// trunc(2^30 / a) for int32 lanes 1 <= a <= 32768, exactly. With the float
/// reciprocal r of relative error below 2^-20 (x86's 12- or 14-bit estimates
/// after one Newton step; others get a second step), q0 = round(2^30 r) is
/// within 1024 / a + 1/2 of q = 2^30 / a, so rem = 2^30 - q0 a is exact in
/// int32 and float (|rem| <= 1024 + a/2). floor(q) = q0 + floor(rem / a), and
/// round(rem * r) is off from rem / a by under 1/2, hence floor(rem / a) or one
/// more; a negative remainder of q0 + that means one more: subtract it.
template <class D32>
HWY_INLINE hn::Vec<D32> Div2p30(D32 d32, hn::Vec<D32> a) {
    const hn::Rebind<float, D32> df;
    const auto af = hn::ConvertTo(df, a);
    const auto est = hn::ApproximateReciprocal(af);
    const auto two = hn::Set(df, 2.0f);
    auto rcp = hn::Mul(est, hn::NegMulAdd(af, est, two));  // Newton step
#if !HWY_ARCH_X86
    rcp = hn::Mul(rcp, hn::NegMulAdd(af, rcp, two));  // estimates of only ~8 bits need two
#endif
    const auto two30 = hn::Set(d32, i32{1} << 30);
    auto q = hn::NearestInt(hn::Mul(rcp, hn::Set(df, 1073741824.0f)));
    const auto rem = hn::Sub(two30, hn::Mul(q, a));
    q = hn::Add(q, hn::NearestInt(hn::Mul(hn::ConvertTo(df, rem), rcp)));
    const auto over = hn::Lt(hn::Sub(two30, hn::Mul(q, a)), hn::Zero(d32));
    return hn::Add(q, hn::IfThenElseZero(over, hn::Set(d32, -1)));
}

// Decouple, scale 0, in int32 lanes, for an integer gain limit egl in
// [1, 32767] (the common case: 100 by default, 1 to disable). Every integer
// step of the reference fits int32: lut[o] * t (up to 2^45) is split as
// (L_hi * 2^15 + L_lo) * t with L = trunc(2^30 / |o|), so that
// (L * s + 2^14) >> 15 = L_hi * s + ((L_lo * s + 2^14) >> 15) for s = sign(o) * t;
// the gain product rst * egl is exact (< 2^30), so the reference's double
// comparison is the integer one. The angle test keeps its float/double
// evaluation, in double lanes. rst_f > 0 <=> k > 0 and o > 0 (and < 0 with o < 0).
void Decouple0IntGain(const i16* const o[3], const i16* const t[3], int n_px, i32 egl, i16* const r[3],
                      i16* const a[3]) {
    const hn::ScalableTag<i32> d32;
    const hn::Rebind<i16, decltype(d32)> d16;
    const hn::Half<decltype(d32)> dh32;
    const hn::Rebind<float, decltype(d32)> df32;
    const hn::Half<decltype(df32)> dhf32;
    const hn::Rebind<double, decltype(dh32)> df;
    const int n = static_cast<int>(hn::Lanes(d32));
    const auto cos_sq = hn::Set(df, static_cast<double>(cos1deg_sq()));
    const auto zero_d = hn::Zero(df);
    const auto one_d = hn::Set(df, 1.0);
    const auto min32 = hn::Set(d32, INT32_MIN);
    const auto two31_f = hn::Set(df32, 2147483648.0f);
    const auto zero = hn::Zero(d32);
    const auto one = hn::Set(d32, 1);
    const auto k_one = hn::Set(d32, 32768);
    const auto rnd = hn::Set(d32, 16384);
    const auto lo15 = hn::Set(d32, 0x7FFF);
    const auto vegl = hn::Set(d32, egl);
    auto ld = [&](const i16* p) { return hn::PromoteTo(d32, hn::LoadU(d16, p)); };
    // C's (float) of the int64 value whose int32 wrap is x (x in (-2^31, 2^31]):
    // the int32 -> float conversion rounds the same way; INT32_MIN stands for 2^31.
    auto to_float = [&](hn::Vec<decltype(d32)> x) {
        return hn::IfThenElse(hn::RebindMask(df32, hn::Eq(x, min32)), two31_f, hn::ConvertTo(df32, x));
    };
    // The reference divides each float by 4096 before the double products;
    // powers of two commute with their rounding here (no under/overflow), so
    // the comparison is the same without.
    auto angle_half = [&](hn::Vec<decltype(dhf32)> dpf, hn::Vec<decltype(dhf32)> omf, hn::Vec<decltype(dhf32)> tmf) {
        const auto dp = hn::PromoteTo(df, dpf), om = hn::PromoteTo(df, omf), tm = hn::PromoteTo(df, tmf);
        const auto ok = hn::And(hn::Ge(dp, zero_d), hn::Ge(hn::Mul(dp, dp), hn::Mul(hn::Mul(cos_sq, om), tm)));
        return hn::DemoteTo(dh32, hn::IfThenElseZero(ok, one_d));
    };
    int j = 0;
    // A last partial vector is recomputed over the last full window (each output
    // depends on its own pixel only, and outputs never alias inputs).
    for (; j < n_px && n_px >= n; j += n) {
        if (j + n > n_px) j = n_px - n;
        const auto oh = ld(o[0] + j), ov = ld(o[1] + j);
        const auto th = ld(t[0] + j), tv = ld(t[1] + j);
        // Wrapping int32 sums; the only wrapped value is +2^31 (read back by to_float).
        const auto dp = hn::Add(hn::Mul(oh, th), hn::Mul(ov, tv));
        const auto om = hn::Add(hn::Mul(oh, oh), hn::Mul(ov, ov));
        const auto tm = hn::Add(hn::Mul(th, th), hn::Mul(tv, tv));
        const auto dpf = to_float(dp), omf = to_float(om), tmf = to_float(tm);
        const auto angle_lo =
            angle_half(hn::LowerHalf(dhf32, dpf), hn::LowerHalf(dhf32, omf), hn::LowerHalf(dhf32, tmf));
        const auto angle_hi =
            angle_half(hn::UpperHalf(dhf32, dpf), hn::UpperHalf(dhf32, omf), hn::UpperHalf(dhf32, tmf));
        const auto angle = hn::Ne(hn::Combine(d32, angle_hi, angle_lo), zero);
        for (int theta = 0; theta < 3; ++theta) {
            const auto oo = theta == 0 ? oh : theta == 1 ? ov : ld(o[2] + j);
            const auto tt = theta == 0 ? th : theta == 1 ? tv : ld(t[2] + j);
            const auto o_neg = hn::Lt(oo, zero);
            const auto o_zero = hn::Eq(oo, zero);
            const auto lut = Div2p30(d32, hn::Max(hn::Abs(oo), one));
            const auto s = hn::IfThenElse(o_neg, hn::Neg(tt), tt);
            const auto tmp_k = hn::Add(hn::Mul(hn::ShiftRight<15>(lut), s),
                                       hn::ShiftRight<15>(hn::Add(hn::Mul(hn::And(lut, lo15), s), rnd)));
            const auto k = hn::Min(hn::Max(hn::IfThenElse(o_zero, k_one, tmp_k), zero), k_one);
            auto rst = hn::ShiftRight<15>(hn::Add(hn::Mul(k, oo), rnd));
            const auto kpos = hn::And(angle, hn::Gt(k, zero));
            const auto g = hn::Mul(rst, vegl);
            rst = hn::IfThenElse(hn::And(kpos, hn::Gt(oo, zero)), hn::Min(g, tt), rst);
            rst = hn::IfThenElse(hn::And(kpos, o_neg), hn::Max(g, tt), rst);
            hn::StoreU(hn::DemoteTo(d16, rst), d16, r[theta] + j);
            hn::StoreU(TruncToI16(d16, hn::Sub(tt, rst)), d16, a[theta] + j);
        }
    }
    if (j < n_px) {
        const i16* ot[3] = {o[0] + j, o[1] + j, o[2] + j};
        const i16* tt[3] = {t[0] + j, t[1] + j, t[2] + j};
        i16* rt[3] = {r[0] + j, r[1] + j, r[2] + j};
        i16* at[3] = {a[0] + j, a[1] + j, a[2] + j};
        scalar::decouple0(ot, tt, n_px - j, static_cast<double>(egl), rt, at);
    }
}

// Registered where vectors hold 32 bytes or more (FillAdmKernels): unused on SSE4 and NEON.
[[maybe_unused]] void Decouple0(const i16* const o[3], const i16* const t[3], int n_px, double egl, i16* const r[3],
                                i16* const a[3]) {
    if (egl >= 1.0 && egl <= 32767.0 && egl == static_cast<double>(static_cast<i32>(egl)))
        Decouple0IntGain(o, t, n_px, static_cast<i32>(egl), r, a);
    else
        Decouple0Double(o, t, n_px, egl, r, a);
}

// ---------------------------------------------------------------------------
// Decouple, scales 1..3, in double lanes. The angle test's int64 sums are
// formed exactly in int64 lanes (32x32 -> 64-bit products) and rounded to
// float as C's int64 -> float does: via double, exact below 2^53; above, the
// bits below bit 12 are first folded into a sticky bit at bit 12, so the
// double is exact and the float rounding (guard bit at 29 or higher) sees the
// same guard and sticky information. Pixel groups with an INT32_MIN in H or V
// (where the reference's int64 sum of squares overflows) use the scalar code;
// groups with all |H|, |V| < 2^26 form the sums in double directly (exact).
// Everything else is exact for any int32 input: the denominator's 15-bit
// reduction uses powers of two taken from the exponent of |o| (exact in
// double): 2^e (e = floor(log2 |o|)), 2^shift = max(2^(e-14), 1), i.e.
// shift = 17 - clz(|o|) when |o| >= 2^15, else 0, and 2^-shift by exponent
// negation; msb = floor(|o| / 2^shift + 1/2) <= 2^15 and lut[msb] =
// trunc(2^30 / msb) (see Decouple0). tmp_k = floor(lut * sign(o) * t /
// 2^(15+shift) + 1/2): with shift > 0, lut <= 2^16 and the product is exact
// (< 2^47); with shift = 0 it is exact below 2^53, and beyond that both the
// exact and the rounded value clamp to the same end of [0, 32768] (rounding
// is monotone and keeps |x| / 2^15 >= 2^37). k * o < 2^46 is exact.
void Decouple123(const i32* const o[3], const i32* const t[3], int n_px, double egl, i32* const r[3],
                 i32* const a[3]) {
    const hn::ScalableTag<double> df;
    const hn::RebindToUnsigned<decltype(df)> du64;
    const hn::Rebind<i32, decltype(df)> d32;
    const hn::RebindToUnsigned<decltype(d32)> du32;
    const hn::Rebind<float, decltype(df)> df32;
    const int n = static_cast<int>(hn::Lanes(df));
    const auto two30 = hn::Set(df, 1073741824.0);
    const auto inv4096 = hn::Set(df, 1.0 / 4096.0);
    const auto cos_sq = hn::Set(df, static_cast<double>(cos1deg_sq()));
    const auto c16384 = hn::Set(df, 16384.0);
    const auto inv32768 = hn::Set(df, 1.0 / 32768.0);
    const auto k_one = hn::Set(df, 32768.0);
    const auto one = hn::Set(df, 1.0);
    const auto half = hn::Set(df, 0.5);
    const auto inv16384 = hn::Set(df, 1.0 / 16384.0);
    const auto exp_mask = hn::Set(du64, 0x7FF0000000000000ull);
    const auto exp_neg = hn::Set(du64, 2046ull << 52);  // bits(2^-s) = bits(2046 << 52) - bits(2^s)
    const auto zero = hn::Zero(df);
    const auto vegl = hn::Set(df, egl);
    auto via_float = [&](decltype(zero) x) { return hn::PromoteTo(df, hn::DemoteTo(df32, x)); };
    const auto limit = hn::Set(du32, 1u << 31);
    const auto small = hn::Set(du32, 1u << 26);
    const hn::Rebind<i64, decltype(df)> di64;
    const hn::Repartition<i32, decltype(di64)> d32w;  // i32 view of the i64 lanes (for MulEven)
    const auto low12 = hn::Set(di64, i64{0xFFF});
    const auto bit12 = hn::Set(di64, i64{0x1000});
    const auto two53 = hn::Set(di64, i64{1} << 53);
    const auto zero64 = hn::Zero(di64);
    // C's (float) of the int64 x, as a double.
    auto i64_to_float = [&](decltype(zero64) x) {
        const auto neg = hn::Lt(x, zero64);
        const auto a = hn::IfThenElse(neg, hn::Neg(x), x);  // |x| < 2^63
        const auto sticky = hn::Or(hn::AndNot(low12, a), hn::IfThenElseZero(hn::Ne(hn::And(a, low12), zero64), bit12));
        const auto v = via_float(hn::ConvertTo(df, hn::IfThenElse(hn::Gt(a, two53), sticky, a)));
        return hn::IfThenElse(hn::RebindMask(df, neg), hn::Neg(v), v);
    };
    // Exact int64 products of sign-extended i32 lanes.
    auto mul64 = [&](decltype(zero64) x, decltype(zero64) y) {
        return hn::MulEven(hn::BitCast(d32w, x), hn::BitCast(d32w, y));
    };
    int j = 0;
    // A last partial vector is recomputed over the last full window (each output
    // depends on its own pixel only, and outputs never alias inputs).
    for (; j < n_px && n_px >= n; j += n) {
        if (j + n > n_px) j = n_px - n;
        // Named vectors, not arrays: SVE vectors cannot be array elements.
        const auto oi0 = hn::LoadU(d32, o[0] + j), oi1 = hn::LoadU(d32, o[1] + j), oi2 = hn::LoadU(d32, o[2] + j);
        const auto ti0 = hn::LoadU(d32, t[0] + j), ti1 = hn::LoadU(d32, t[1] + j), ti2 = hn::LoadU(d32, t[2] + j);
        // |INT32_MIN| stays 2^31 as uint32.
        const auto big = hn::Or(hn::Or(hn::Abs(oi0), hn::Abs(oi1)), hn::Or(hn::Abs(ti0), hn::Abs(ti1)));
        if (!hn::AllTrue(du32, hn::Lt(hn::BitCast(du32, big), limit))) {
            const i32* ot[3] = {o[0] + j, o[1] + j, o[2] + j};
            const i32* tt[3] = {t[0] + j, t[1] + j, t[2] + j};
            i32* rt[3] = {r[0] + j, r[1] + j, r[2] + j};
            i32* at[3] = {a[0] + j, a[1] + j, a[2] + j};
            scalar::decouple123(ot, tt, n, egl, rt, at);
            continue;
        }
        const auto oh = hn::PromoteTo(df, oi0), ov = hn::PromoteTo(df, oi1);
        const auto th = hn::PromoteTo(df, ti0), tv = hn::PromoteTo(df, ti1);
        auto dp = zero, om = zero, tm = zero;
        if (hn::AllTrue(du32, hn::Lt(hn::BitCast(du32, big), small))) {
            // Products below 2^52 and sums below 2^53: exact in double.
            dp = hn::Mul(via_float(hn::Add(hn::Mul(oh, th), hn::Mul(ov, tv))), inv4096);
            om = hn::Mul(via_float(hn::Add(hn::Mul(oh, oh), hn::Mul(ov, ov))), inv4096);
            tm = hn::Mul(via_float(hn::Add(hn::Mul(th, th), hn::Mul(tv, tv))), inv4096);
        } else {
            const auto oh64 = hn::PromoteTo(di64, oi0), ov64 = hn::PromoteTo(di64, oi1);
            const auto th64 = hn::PromoteTo(di64, ti0), tv64 = hn::PromoteTo(di64, ti1);
            dp = hn::Mul(i64_to_float(hn::Add(mul64(oh64, th64), mul64(ov64, tv64))), inv4096);
            om = hn::Mul(i64_to_float(hn::Add(mul64(oh64, oh64), mul64(ov64, ov64))), inv4096);
            tm = hn::Mul(i64_to_float(hn::Add(mul64(th64, th64), mul64(tv64, tv64))), inv4096);
        }
        const auto angle = hn::And(hn::Ge(dp, zero), hn::Ge(hn::Mul(dp, dp), hn::Mul(hn::Mul(cos_sq, om), tm)));
        for (int theta = 0; theta < 3; ++theta) {
            const auto oo = theta == 0 ? oh : theta == 1 ? ov : hn::PromoteTo(df, oi2);
            const auto tt = theta == 0 ? th : theta == 1 ? tv : hn::PromoteTo(df, ti2);
            const auto o_zero = hn::Eq(oo, zero);
            const auto abs_o = hn::Abs(oo);
            const auto p2e = hn::BitCast(df, hn::And(hn::BitCast(du64, abs_o), exp_mask));
            const auto pow_s = hn::Max(hn::Mul(p2e, inv16384), one);
            const auto inv_s = hn::BitCast(df, hn::Sub(exp_neg, hn::BitCast(du64, pow_s)));
            const auto msb = hn::Floor(hn::Add(hn::Mul(abs_o, inv_s), half));
            const auto lut = hn::Trunc(hn::Div(two30, hn::Max(msb, one)));  // = lut[msb] (see Decouple0)
            const auto s_tt = hn::IfThenElse(hn::Lt(oo, zero), hn::Neg(tt), tt);
            const auto tmp_k = hn::Floor(hn::Add(hn::Mul(hn::Mul(hn::Mul(lut, s_tt), inv_s), inv32768), half));
            const auto k = hn::Min(hn::Max(hn::IfThenElse(o_zero, k_one, tmp_k), zero), k_one);
            auto rst = hn::Floor(hn::Mul(hn::Add(hn::Mul(k, oo), c16384), inv32768));
            const auto kpos = hn::And(angle, hn::Gt(k, zero));
            const auto g = hn::Mul(rst, vegl);
            const auto pos = hn::And(kpos, hn::Gt(oo, zero));
            const auto neg = hn::And(kpos, hn::Lt(oo, zero));
            rst = hn::IfThenElse(pos, hn::IfThenElse(hn::Lt(g, tt), hn::Trunc(g), tt), rst);
            rst = hn::IfThenElse(neg, hn::IfThenElse(hn::Gt(g, tt), hn::Trunc(g), tt), rst);
            const auto ri = hn::DemoteTo(d32, rst);
            hn::StoreU(ri, d32, r[theta] + j);
            hn::StoreU(hn::Sub(hn::DemoteTo(d32, tt), ri), d32, a[theta] + j);
        }
    }
    if (j < n_px) {
        const i32* ot[3] = {o[0] + j, o[1] + j, o[2] + j};
        const i32* tt[3] = {t[0] + j, t[1] + j, t[2] + j};
        i32* rt[3] = {r[0] + j, r[1] + j, r[2] + j};
        i32* at[3] = {a[0] + j, a[1] + j, a[2] + j};
        scalar::decouple123(ot, tt, n_px - j, egl, rt, at);
    }
}

// ---------------------------------------------------------------------------
// Scales 1..3 (int32 coefficients, int64 intermediates). 64-bit products come
// from MulEven on the even lanes and on the odd lanes moved down; results are
// truncated to int32 (the low half of each 64-bit lane) and re-interleaved.

/// Re-interleaves the low 32 bits of the i64 results of the even lanes (e)
/// and of the odd lanes (o) into one int32 vector.
template <class D32, class V64>
HWY_INLINE hn::Vec<D32> Interleave64Lo(D32 d32, V64 e, V64 o) {
    return hn::OddEven(hn::BitCast(d32, hn::ShiftLeft<32>(o)), hn::BitCast(d32, e));
}

/// (int32)((x * rf + 2^27) >> 28) for int32 x and uint32 rf, per lane: the
/// CSF product of scales 1..3. rf >= 2^31 reads as rf - 2^32 in MulEven;
/// x * 2^32 restores the product (exact modulo 2^64, and |x * rf| < 2^63).
template <class D32>
HWY_INLINE hn::Vec<D32> CsfProduct123(D32 d32, hn::Vec<D32> x, u32 rf) {
    const hn::RepartitionToWide<D32> d64;
    const auto vrf = hn::Set(d32, static_cast<i32>(rf));
    const auto rnd = hn::Set(d64, i64{1} << 27);
    const auto xo = OddToEven(d32, x);
    auto pe = hn::MulEven(x, vrf);
    auto po = hn::MulEven(xo, vrf);
    if (rf >= 0x80000000u) {
        pe = hn::Add(pe, hn::ShiftLeft<32>(hn::BitCast(d64, x)));
        po = hn::Add(po, hn::ShiftLeft<32>(hn::BitCast(d64, xo)));
    }
    return Interleave64Lo(d32, hn::ShiftRight<28>(hn::Add(pe, rnd)), hn::ShiftRight<28>(hn::Add(po, rnd)));
}

/// (int32)((k * |c| - 2^31) >> 32): upstream's Q32 "rounding" (see
/// kQ32Round in adm_scalar.cpp); the high half of the 64-bit difference.
template <class D32>
HWY_INLINE hn::Vec<D32> Q32AbsMul(D32 d32, hn::Vec<D32> c, u32 k) {
    const hn::RebindToUnsigned<D32> du;
    const hn::RepartitionToWide<decltype(du)> du64;
    const auto a = hn::BitCast(du, hn::Abs(c));  // |INT32_MIN| = 2^31 as uint32
    const auto vk = hn::Set(du, k);
    const auto half = hn::Set(du64, u64{1} << 31);
    const auto pe = hn::Sub(hn::MulEven(a, vk), half);
    const auto po = hn::Sub(hn::MulEven(OddToEven(du, a), vk), half);
    // High halves: odd lanes' results are already in the odd positions.
    return hn::BitCast(d32, hn::OddEven(hn::BitCast(du, po), hn::BitCast(du, hn::ShiftRight<32>(pe))));
}

#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL || HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_SSE4 || \
    HWY_TARGET == HWY_SSSE3
// x86: each int32 lane holds the pair (row a, row b) of its pixel as two
// int16 halves, and pmaddwd (ReorderWidenMulAccumulate) with the tap pair
// gives that pixel's two-tap sum in place: no reordering, exact int32.
void Dwt1Vert(const i16* const r[4], int w, i32* lo, i32* hi) {
    const hn::ScalableTag<i32> d32;
    const hn::RebindToUnsigned<decltype(d32)> du32;
    const hn::Repartition<i16, decltype(d32)> d16;
    const hn::Rebind<u16, decltype(d32)> du16;
    const hn::Rebind<i16, decltype(d32)> d16h;
    const int n = static_cast<int>(hn::Lanes(d32));
    auto pair = [&](i32 a, i32 b) {
        return hn::BitCast(d16,
                           hn::Set(d32, static_cast<i32>(static_cast<u32>(a & 0xFFFF) | (static_cast<u32>(b) << 16))));
    };
    const auto lo01 = pair(kLo0, kLo1), lo23 = pair(kLo2, kLo3);
    const auto hi01 = pair(kHi0, kHi1), hi23 = pair(kHi2, kHi3);
    auto rows = [&](const i16* a, const i16* b) {
        const auto low = hn::PromoteTo(du32, hn::LoadU(du16, reinterpret_cast<const u16*>(a)));
        const auto high = hn::ShiftLeft<16>(hn::BitCast(du32, hn::PromoteTo(d32, hn::LoadU(d16h, b))));
        return hn::BitCast(d16, hn::Or(low, high));
    };
    auto unused = hn::Zero(d32);
    int j = 0;
    for (; j + n <= w; j += n) {
        const auto p01 = rows(r[0] + j, r[1] + j), p23 = rows(r[2] + j, r[3] + j);
        const auto l = hn::ReorderWidenMulAccumulate(d32, p01, lo01, hn::Zero(d32), unused);
        const auto h = hn::ReorderWidenMulAccumulate(d32, p01, hi01, hn::Zero(d32), unused);
        hn::StoreU(hn::ReorderWidenMulAccumulate(d32, p23, lo23, l, unused), d32, lo + j);
        hn::StoreU(hn::ReorderWidenMulAccumulate(d32, p23, hi23, h, unused), d32, hi + j);
    }
    if (j < w) {
        const i16* rt[4] = {r[0] + j, r[1] + j, r[2] + j, r[3] + j};
        scalar::dwt1_vert(rt, w - j, lo + j, hi + j);
    }
}
#else
void Dwt1Vert(const i16* const r[4], int w, i32* lo, i32* hi) {
    const hn::ScalableTag<i32> d32;
    const hn::Rebind<i16, decltype(d32)> d16;
    const int n = static_cast<int>(hn::Lanes(d32));
    int j = 0;
    for (; j + n <= w; j += n) {
        const auto s0 = hn::PromoteTo(d32, hn::LoadU(d16, r[0] + j)), s1 = hn::PromoteTo(d32, hn::LoadU(d16, r[1] + j));
        const auto s2 = hn::PromoteTo(d32, hn::LoadU(d16, r[2] + j)), s3 = hn::PromoteTo(d32, hn::LoadU(d16, r[3] + j));
        hn::StoreU(hn::Add(hn::Add(hn::Mul(s0, hn::Set(d32, kLo0)), hn::Mul(s1, hn::Set(d32, kLo1))),
                           hn::Add(hn::Mul(s2, hn::Set(d32, kLo2)), hn::Mul(s3, hn::Set(d32, kLo3)))),
                   d32, lo + j);
        hn::StoreU(hn::Add(hn::Add(hn::Mul(s0, hn::Set(d32, kHi0)), hn::Mul(s1, hn::Set(d32, kHi1))),
                           hn::Add(hn::Mul(s2, hn::Set(d32, kHi2)), hn::Mul(s3, hn::Set(d32, kHi3)))),
                   d32, hi + j);
    }
    if (j < w) {
        const i16* rt[4] = {r[0] + j, r[1] + j, r[2] + j, r[3] + j};
        scalar::dwt1_vert(rt, w - j, lo + j, hi + j);
    }
}
#endif

void Dwt123Vert(const i32* const r[4], int w, i64 add, int shift, i32* lo, i32* hi) {
    const hn::ScalableTag<i32> d32;
    const hn::RepartitionToWide<decltype(d32)> d64;
    const int n = static_cast<int>(hn::Lanes(d32));
    int j = 0;
    if (shift == 0) {
        // Truncation of the int64 sum to int32 is the wrapping int32 sum.
        const auto vadd = hn::Set(d32, static_cast<i32>(static_cast<u32>(add)));
        for (; j + n <= w; j += n) {
            const auto s0 = hn::LoadU(d32, r[0] + j), s1 = hn::LoadU(d32, r[1] + j);
            const auto s2 = hn::LoadU(d32, r[2] + j), s3 = hn::LoadU(d32, r[3] + j);
            const auto l = hn::Add(hn::Add(hn::Mul(s0, hn::Set(d32, kLo0)), hn::Mul(s1, hn::Set(d32, kLo1))),
                                   hn::Add(hn::Mul(s2, hn::Set(d32, kLo2)), hn::Mul(s3, hn::Set(d32, kLo3))));
            const auto h = hn::Add(hn::Add(hn::Mul(s0, hn::Set(d32, kHi0)), hn::Mul(s1, hn::Set(d32, kHi1))),
                                   hn::Add(hn::Mul(s2, hn::Set(d32, kHi2)), hn::Mul(s3, hn::Set(d32, kHi3))));
            hn::StoreU(hn::Add(l, vadd), d32, lo + j);
            hn::StoreU(hn::Add(h, vadd), d32, hi + j);
        }
    } else {
        const auto vadd = hn::Set(d64, add);
        auto filt = [&](auto x0, auto x1, auto x2, auto x3, i32 c0, i32 c1, i32 c2, i32 c3) {
            const auto s = hn::Add(hn::Add(hn::MulEven(x0, hn::Set(d32, c0)), hn::MulEven(x1, hn::Set(d32, c1))),
                                   hn::Add(hn::MulEven(x2, hn::Set(d32, c2)), hn::MulEven(x3, hn::Set(d32, c3))));
            return hn::ShiftRightSame(hn::Add(s, vadd), shift);
        };
        for (; j + n <= w; j += n) {
            const auto s0 = hn::LoadU(d32, r[0] + j), s1 = hn::LoadU(d32, r[1] + j);
            const auto s2 = hn::LoadU(d32, r[2] + j), s3 = hn::LoadU(d32, r[3] + j);
            const auto o0 = OddToEven(d32, s0), o1 = OddToEven(d32, s1);
            const auto o2 = OddToEven(d32, s2), o3 = OddToEven(d32, s3);
            hn::StoreU(Interleave64Lo(d32, filt(s0, s1, s2, s3, kLo0, kLo1, kLo2, kLo3),
                                      filt(o0, o1, o2, o3, kLo0, kLo1, kLo2, kLo3)),
                       d32, lo + j);
            hn::StoreU(Interleave64Lo(d32, filt(s0, s1, s2, s3, kHi0, kHi1, kHi2, kHi3),
                                      filt(o0, o1, o2, o3, kHi0, kHi1, kHi2, kHi3)),
                       d32, hi + j);
        }
    }
    if (j < w) {
        const i32* rt[4] = {r[0] + j, r[1] + j, r[2] + j, r[3] + j};
        scalar::dwt123_vert(rt, w - j, add, shift, lo + j, hi + j);
    }
}

// Output j reads 2j-1 .. 2j+2. A MulEven of the vector loaded at p + 2j + t
// (t = -1..2) gives tap t of outputs j, j+1, ... in its 64-bit lanes; two such
// half blocks make one int32 vector of outputs.
void Dwt123Horz(const i32* lo, const i32* hi, int w, i64 add, int shift, i32* a, i32* v, i32* h, i32* d) {
    const hn::ScalableTag<i32> d32;
    const hn::RepartitionToWide<decltype(d32)> d64;
    const int n = static_cast<int>(hn::Lanes(d32));
    const int ow = (w + 1) / 2;
    const auto vadd = hn::Set(d64, add);
    auto half = [&](const i32* p, i32 c0, i32 c1, i32 c2, i32 c3) {
        const auto s = hn::Add(hn::Add(hn::MulEven(hn::LoadU(d32, p - 1), hn::Set(d32, c0)),
                                       hn::MulEven(hn::LoadU(d32, p), hn::Set(d32, c1))),
                               hn::Add(hn::MulEven(hn::LoadU(d32, p + 1), hn::Set(d32, c2)),
                                       hn::MulEven(hn::LoadU(d32, p + 2), hn::Set(d32, c3))));
        return hn::ShiftRightSame(hn::Add(s, vadd), shift);
    };
    auto block = [&](const i32* p, i32 c0, i32 c1, i32 c2, i32 c3) {
        const auto r0 = half(p, c0, c1, c2, c3);
        const auto r1 = half(p + n, c0, c1, c2, c3);
        return hn::ConcatEven(d32, hn::BitCast(d32, r1), hn::BitCast(d32, r0));
    };
    const int first = ow > 1 ? 1 : ow;
    scalar::dwt123_horz_range(lo, hi, w, 0, first, add, shift, a, v, h, d);
    int j = first;
    auto four = [&](int j) {
        hn::StoreU(block(lo + 2 * j, kLo0, kLo1, kLo2, kLo3), d32, a + j);
        hn::StoreU(block(lo + 2 * j, kHi0, kHi1, kHi2, kHi3), d32, v + j);
        hn::StoreU(block(hi + 2 * j, kLo0, kLo1, kLo2, kLo3), d32, h + j);
        hn::StoreU(block(hi + 2 * j, kHi0, kHi1, kHi2, kHi3), d32, d + j);
    };
    // Reads up to index 2j + 2n + 1 <= w - 1.
    const int last = std::min((w - 2 - 2 * n) / 2, ow - n);  // the last block start the bounds allow
    for (; j <= last; j += n) four(j);
    // The outputs up to `last + n` once more as one block (same values rewritten).
    if (j > first && j < last + n) {
        four(last);
        j = last + n;
    }
    scalar::dwt123_horz_range(lo, hi, w, j, ow, add, shift, a, v, h, d);
}

void Csf123(const i32* src, int n_px, u32 rf, i32* out, i32* fsum) {
    const hn::ScalableTag<i32> d32;
    const int n = static_cast<int>(hn::Lanes(d32));
    int j = 0;
    for (; j + n <= n_px; j += n) {
        const auto c = CsfProduct123(d32, hn::LoadU(d32, src + j), rf);
        hn::StoreU(c, d32, out + j);
        const auto f = Q32AbsMul(d32, c, 143165577u);  // 2^32 / 30
        hn::StoreU(hn::Add(hn::LoadU(d32, fsum + j), f), d32, fsum + j);
    }
    if (j < n_px) scalar::csf123(src + j, n_px - j, rf, out + j, fsum + j);
}

// x = |b| <= 2^31; sq = (x^2 + add_sq) >> shift_sq may exceed 32 bits, and
// sq * x modulo 2^64 (the reference's uint64 wrap) = lo32(sq) * x +
// (hi32(sq) * x << 32).
u64 Den123(const i32* b, int n_px, u32 shift_sq, u64 add_sq, u32 shift_cub, u64 add_cub) {
    const hn::ScalableTag<u32> du;
    const hn::RebindToSigned<decltype(du)> di;
    const hn::RepartitionToWide<decltype(du)> du64;
    const int n = static_cast<int>(hn::Lanes(du));
    const auto vadd_sq = hn::Set(du64, add_sq), vadd_cub = hn::Set(du64, add_cub);
    const int ssq = static_cast<int>(shift_sq), scub = static_cast<int>(shift_cub);
    auto term = [&](decltype(hn::Zero(du)) x) {  // even lanes of x
        const auto sq = hn::ShiftRightSame(hn::Add(hn::MulEven(x, x), vadd_sq), ssq);
        const auto sq_hi = hn::BitCast(du, hn::ShiftRight<32>(sq));
        const auto cube = hn::Add(hn::MulEven(hn::BitCast(du, sq), x), hn::ShiftLeft<32>(hn::MulEven(sq_hi, x)));
        return hn::ShiftRightSame(hn::Add(cube, vadd_cub), scub);
    };
    auto acc = hn::Zero(du64);
    int j = 0;
    for (; j + n <= n_px; j += n) {
        const auto x = hn::BitCast(du, hn::Abs(hn::LoadU(di, b + j)));
        acc = hn::Add(acc, term(x));
        acc = hn::Add(acc, term(OddToEven(du, x)));
    }
    u64 inner = hn::GetLane(hn::SumOfLanes(du64, acc));
    if (j < n_px) inner += scalar::den123(b + j, n_px - j, shift_sq, add_sq, shift_cub, add_cub);
    return inner;
}

void Cm123(const CmRow<i32>& row, i64 inner[3]) {
    const hn::ScalableTag<i32> d32;
    const hn::RepartitionToWide<decltype(d32)> d64;
    const int n = static_cast<int>(hn::Lanes(d32));
    const int vj0 = row.j0 < 1 ? 1 : row.j0;
    const int vj1 = row.j1 > row.w - 1 ? row.w - 1 : row.j1;
    if (vj1 - vj0 < n) {
        scalar::cm123(row, inner);
        return;
    }
    scalar::cm123_range(row, row.j0, vj0, inner);
    const auto zero = hn::Zero(d32);
    auto acc0 = hn::Zero(d64), acc1 = hn::Zero(d64), acc2 = hn::Zero(d64);
    const auto add_sq = hn::Set(d64, i64{536870912});
    const auto ac0 = hn::Set(d64, row.add_cub[0]), ac1 = hn::Set(d64, row.add_cub[1]),
               ac2 = hn::Set(d64, row.add_cub[2]);
    const int sc0 = static_cast<int>(row.shift_cub[0]), sc1 = static_cast<int>(row.shift_cub[1]),
              sc2 = static_cast<int>(row.shift_cub[2]);
    auto ld = [&](const i32* p) { return hn::LoadU(d32, p); };
    int j = vj0;
    for (; j + n <= vj1; j += n) {
        // Wrapping int32 sums in any order: the reference's bits.
        const i32* ru = row.fsum[0] + j;
        const i32* rc = row.fsum[1] + j;
        const i32* rd = row.fsum[2] + j;
        auto thr = hn::Add(hn::Add(ld(ru - 1), ld(ru)), hn::Add(ld(ru + 1), ld(rc - 1)));
        thr = hn::Add(thr, hn::Add(hn::Add(ld(rc + 1), ld(rd - 1)), hn::Add(ld(rd), ld(rd + 1))));
        for (int t = 0; t < 3; ++t) thr = hn::Add(thr, Q32AbsMul(d32, ld(row.masker[t] + j), 286331153u));  // 2^32 / 15
        auto xt = [&](int t) {
            const auto x = CsfProduct123(d32, ld(row.target[t] + j), row.rf[t]);
            return hn::Max(hn::Sub(hn::Abs(x), thr), zero);
        };
        CubeAccumulate<30>(d32, xt(0), add_sq, ac0, sc0, acc0);
        CubeAccumulate<30>(d32, xt(1), add_sq, ac1, sc1, acc1);
        CubeAccumulate<30>(d32, xt(2), add_sq, ac2, sc2, acc2);
    }
    inner[0] = static_cast<i64>(static_cast<u64>(inner[0]) + static_cast<u64>(hn::GetLane(hn::SumOfLanes(d64, acc0))));
    inner[1] = static_cast<i64>(static_cast<u64>(inner[1]) + static_cast<u64>(hn::GetLane(hn::SumOfLanes(d64, acc1))));
    inner[2] = static_cast<i64>(static_cast<u64>(inner[2]) + static_cast<u64>(hn::GetLane(hn::SumOfLanes(d64, acc2))));
    scalar::cm123_range(row, j, row.j1, inner);
}

// Kernels are installed only where they beat the scalar reference (measured
// with adm_bench): SSSE3 lacks 32-bit multiplies (pmulld, pmuldq) and
// roundpd, which Highway emulates slowly; decouple0 in double lanes only pays
// off with vectors of 256 bits or more.
void FillAdmKernels(AdmKernels& k) {
    k.dwt0_vert8 = Dwt0Vert8;
    k.dwt0_vert16 = Dwt0Vert16;
    k.dwt0_horz = Dwt0Horz;
    k.den0 = Den0;
    k.dwt1_vert = Dwt1Vert;
    k.dwt123_vert = Dwt123Vert;
    k.den123 = Den123;
#if HWY_TARGET != HWY_SSSE3
    k.csf0 = Csf0;
    k.cm0 = Cm0;
    k.dwt123_horz = Dwt123Horz;
    k.csf123 = Csf123;
    k.cm123 = Cm123;
#endif
#if HWY_MAX_BYTES >= 32 || HWY_HAVE_SCALABLE
    k.decouple0 = Decouple0;
#endif
#if HWY_TARGET != HWY_SSSE3
    k.decouple123 = Decouple123;
#endif
}

[[maybe_unused]] const bool kRegistered = adm_registry().add(HWY_TARGET, &FillAdmKernels);

#endif  // HWY_TARGET != HWY_SCALAR

}  // namespace
}  // namespace vmaf::adm::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vmaf::adm {
simd::KernelRegistry<AdmKernels>& adm_registry() {
    static simd::KernelRegistry<AdmKernels> registry;
    return registry;
}
}  // namespace vmaf::adm
#endif
