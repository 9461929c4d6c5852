// SIMD kernels of the integer motion feature, one Highway source compiled for
// every target (foreach_target), registered in motion_registry(). Bit-identical
// to the scalar reference (motion_kernels.cpp) for every input; the integer
// identities used (all exact):
//
// Vertical sums. v = V(A) - V(B) with V(P) = sum_k F_k P(x, r_k), each V fitting
// uint32 (65535 * 65536 < 2^32). The taps are symmetric and sum to 2^16
// (F2 = 2^16 - 2 F0 - 2 F1), so
//   V = 2^16 p2 + F0 (p0 + p4 - 2 p2) + F1 (p1 + p3 - 2 p2)      (mod 2^32)
// Both sides agree mod 2^32: two 32-bit multiplies per sample instead of
// five. Border rows are mirrored by choosing row pointers; columns need no
// mirroring. The last partial vector is recomputed over the last full-width
// window (same values, rewritten).
//
// 8-bit samples: v = sum_k F_k (a_k - b_k) directly in int32 lanes (|v| < 2^24,
// exact, three multiplies by symmetry), t = (v + 2^7) >> 8. Deeper samples:
//
// Difference and rounding. t = (int64(p) - int64(c) + 2^(b-1)) >> b (p = V(A),
// c = V(B)) needs 33 bits. With p = ph 2^b + pl and c = ch 2^b + cl
// (0 <= pl, cl < 2^b):
//   t = (ph - ch) + ((pl - cl + 2^(b-1)) >> b)                    (floor shifts)
// where ph - ch fits int32 and the second term is -1, 0 or 1. Added in int32
// (wrapping) this equals the scalar's int64 -> int32 conversion.
//
// Horizontal filter. acc = sum F_k t_k needs up to 48 bits. With
// t = 2^16 th + tl (th = t >> 16 arithmetic, 0 <= tl < 2^16):
//   acc = 2^16 SH + L,  SH = sum F_k th_k (fits int32),  L = sum F_k tl_k < 2^32 - 2^15
//   u = (acc + 2^15) >> 16 = SH + ((L + 2^15) >> 16)              (L in uint32)
// SH and L each use the symmetric form above (exact mod 2^32, and both true
// values fit). th and tl of a row (with two mirrored columns on each side) are
// kept in the scratch buffer. |u| is summed per row in uint32 lanes reduced in
// uint32 (wrapping exactly like the scalar row sum); lanes of the last
// partial vector that earlier vectors covered are masked off.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/motion/motion_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstdlib>
#include <utility>

#include "features/motion/motion_kernels.hpp"

// HWY_SCALAR (one lane) is not worth a variant: the scalar reference is it.
#if HWY_TARGET != HWY_SCALAR
HWY_BEFORE_NAMESPACE();
namespace vmaf::HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using motion::kFilter;
using motion::reflect;

/// Scalar t of one column (the reference formula).
inline std::int32_t ScalarT(std::uint32_t p, std::uint32_t c, unsigned bpc) {
    const std::int64_t v = static_cast<std::int64_t>(p) - static_cast<std::int64_t>(c);
    return static_cast<std::int32_t>((v + (std::int64_t{1} << (bpc - 1))) >> bpc);
}

/// Scalar V of one column.
template <typename T>
inline std::uint32_t ScalarV(const T* const* r, unsigned x) {
    std::uint32_t acc = 0;
    for (int k = 0; k < motion::kTaps; ++k) acc += kFilter[k] * static_cast<std::uint32_t>(r[k][x]);
    return acc;
}

template <typename T>
std::uint64_t BlurredDifferenceSadT(const Plane& prev, const Plane& cur, unsigned bpc, std::int32_t* scratch) {
    const hn::ScalableTag<std::int32_t> di;
    const hn::Repartition<std::uint32_t, decltype(di)> du;
    const hn::Rebind<T, decltype(du)> dt;
    const unsigned w = prev.width, h = prev.height;
    const std::size_t n = hn::Lanes(di);
    const int iw = static_cast<int>(w);
    const int b = static_cast<int>(bpc);

    // t of column c first at th_row[c + 2] (two mirrored columns each side);
    // rows that need the split form then hold th there and tl at tl_row[c + 2].
    std::int32_t* HWY_RESTRICT th_row = scratch;
    std::int32_t* HWY_RESTRICT tl_row = scratch + (static_cast<std::size_t>(w) + 4);

    const auto low_mask = hn::Set(du, (std::uint32_t{1} << bpc) - 1u);
    const auto round_b = hn::Set(di, std::int32_t{1} << (bpc - 1));
    const auto f0u = hn::Set(du, kFilter[0]);
    const auto f1u = hn::Set(du, kFilter[1]);
    const auto f0i = hn::Set(di, static_cast<std::int32_t>(kFilter[0]));
    const auto f1i = hn::Set(di, static_cast<std::int32_t>(kFilter[1]));
    const auto f2i = hn::Set(di, static_cast<std::int32_t>(kFilter[2]));
    const auto half = hn::Set(du, 1u << 15);

    // V of columns [x, x + n) of five rows.
    auto vsum = [&](const T* const* r, std::size_t x) HWY_ATTR {
        const auto p0 = hn::PromoteTo(du, hn::LoadU(dt, r[0] + x));
        const auto p1 = hn::PromoteTo(du, hn::LoadU(dt, r[1] + x));
        const auto p2 = hn::PromoteTo(du, hn::LoadU(dt, r[2] + x));
        const auto p3 = hn::PromoteTo(du, hn::LoadU(dt, r[3] + x));
        const auto p4 = hn::PromoteTo(du, hn::LoadU(dt, r[4] + x));
        const auto two_p2 = hn::Add(p2, p2);
        const auto a = hn::Sub(hn::Add(p0, p4), two_p2);
        const auto b = hn::Sub(hn::Add(p1, p3), two_p2);
        return hn::Add(hn::ShiftLeft<16>(p2), hn::Add(hn::Mul(a, f0u), hn::Mul(b, f1u)));
    };

    // Phase 1 for columns [x, x + n): t, stored; returns t.
    auto diff = [&](const T* const* pr, const T* const* cr, std::size_t x) HWY_ATTR {
        if constexpr (sizeof(T) == 1) {
            // 8-bit: v = sum_k F_k (a_k - b_k) is exact in int32 (|v| < 255 * 2^16).
            auto dk = [&](int k) HWY_ATTR {
                return hn::Sub(hn::BitCast(di, hn::PromoteTo(du, hn::LoadU(dt, pr[k] + x))),
                               hn::BitCast(di, hn::PromoteTo(du, hn::LoadU(dt, cr[k] + x))));
            };
            const auto v = hn::Add(hn::Add(hn::Mul(hn::Add(dk(0), dk(4)), f0i), hn::Mul(hn::Add(dk(1), dk(3)), f1i)),
                                   hn::Mul(dk(2), f2i));
            const auto t = hn::ShiftRightSame(hn::Add(v, round_b), b);
            hn::StoreU(t, di, th_row + 2 + x);
            return t;
        }
        const auto p = vsum(pr, x);
        const auto c = vsum(cr, x);
        const auto hi = hn::BitCast(di, hn::Sub(hn::ShiftRightSame(p, b), hn::ShiftRightSame(c, b)));
        const auto lo = hn::Add(hn::BitCast(di, hn::Sub(hn::And(p, low_mask), hn::And(c, low_mask))), round_b);
        const auto t = hn::Add(hi, hn::ShiftRightSame(lo, b));
        hn::StoreU(t, di, th_row + 2 + x);
        return t;
    };

#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL || HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_SSE4 || \
    HWY_TARGET == HWY_SSSE3
    // 8-bit phase 1 for columns [x, x + 2n) in 16-bit lanes (x86): the
    // differences d_k = a_k - b_k and e04 = d0 + d4, e13 = d1 + d3 fit int16,
    // and v = F0 e04 + F1 e13 + F2 d2 is two pmaddwd of (e04, e13) and (d2, 0)
    // pairs (every tap < 2^15). The pairs come from per-128-bit-block
    // interleaves, so the inputs' 64-bit lanes are first reordered (lane 2b
    // <- b, 2b+1 <- N/2 + b) for the two outputs to hold columns in order.
    const hn::Repartition<std::int16_t, decltype(di)> d16;
    const hn::RebindToUnsigned<decltype(d16)> du16;
    const hn::Rebind<std::uint8_t, decltype(d16)> d8;
    const hn::Repartition<std::uint64_t, decltype(di)> d64;
    const std::size_t n64 = hn::Lanes(d64);
    HWY_ALIGN std::uint64_t order[HWY_MAX_BYTES / 8];
    for (std::size_t i = 0; i < n64; ++i) order[i] = (i % 2 == 0) ? i / 2 : n64 / 2 + i / 2;
    const auto perm = hn::SetTableIndices(d64, order);
    auto pair16 = [&](std::int32_t a, std::int32_t b2) HWY_ATTR {
        return hn::BitCast(d16, hn::Set(di, static_cast<std::int32_t>((static_cast<std::uint32_t>(a) & 0xFFFFu) |
                                                                      (static_cast<std::uint32_t>(b2) << 16))));
    };
    const auto f01 = pair16(static_cast<std::int32_t>(kFilter[0]), static_cast<std::int32_t>(kFilter[1]));
    const auto f2z = pair16(static_cast<std::int32_t>(kFilter[2]), 0);
    auto diff8x2 = [&](const T* const* pr, const T* const* cr, std::size_t x) HWY_ATTR {
        auto dk = [&](int k) HWY_ATTR {
            const auto a = hn::PromoteTo(du16, hn::LoadU(d8, reinterpret_cast<const std::uint8_t*>(pr[k] + x)));
            const auto c = hn::PromoteTo(du16, hn::LoadU(d8, reinterpret_cast<const std::uint8_t*>(cr[k] + x)));
            return hn::BitCast(d16, hn::Sub(a, c));
        };
        auto reorder = [&](hn::Vec<decltype(d16)> v) HWY_ATTR {
            return hn::BitCast(d16, hn::TableLookupLanes(hn::BitCast(d64, v), perm));
        };
        const auto e04 = reorder(hn::Add(dk(0), dk(4)));
        const auto e13 = reorder(hn::Add(dk(1), dk(3)));
        const auto d2 = reorder(dk(2));
        const auto zero16 = hn::Zero(d16);
        auto unused = hn::Zero(di);
        auto half_t = [&](hn::Vec<decltype(d16)> e, hn::Vec<decltype(d16)> m) HWY_ATTR {
            const auto v = hn::ReorderWidenMulAccumulate(
                di, m, f2z, hn::ReorderWidenMulAccumulate(di, e, f01, hn::Zero(di), unused), unused);
            return hn::ShiftRightSame(hn::Add(v, round_b), b);
        };
        const auto t0 = half_t(hn::InterleaveLower(d16, e04, e13), hn::InterleaveLower(d16, d2, zero16));
        const auto t1 = half_t(hn::InterleaveUpper(d16, e04, e13), hn::InterleaveUpper(d16, d2, zero16));
        hn::StoreU(t0, di, th_row + 2 + x);
        hn::StoreU(t1, di, th_row + 2 + x + n);
        return std::make_pair(t0, t1);
    };
#define VMAF_MOTION_DIFF8X2 1
#endif

    // Phase 2 when every t of the row lies in [-2^15, 2^15): then
    // |sum F_k t_k| <= 2^31 (and + 2^15 stays below 2^31), so the symmetric
    // form in wrapping int32 lanes is the exact sum and u one shift away.
    auto blur_narrow = [&](std::size_t x) HWY_ATTR {
        const auto t0 = hn::LoadU(di, th_row + x);
        const auto t1 = hn::LoadU(di, th_row + x + 1);
        const auto t2 = hn::LoadU(di, th_row + x + 2);
        const auto t3 = hn::LoadU(di, th_row + x + 3);
        const auto t4 = hn::LoadU(di, th_row + x + 4);
        const auto two_t2 = hn::Add(t2, t2);
        const auto acc = hn::Add(hn::ShiftLeft<16>(t2), hn::Add(hn::Mul(hn::Sub(hn::Add(t0, t4), two_t2), f0i),
                                                                hn::Mul(hn::Sub(hn::Add(t1, t3), two_t2), f1i)));
        const auto u = hn::ShiftRight<16>(hn::Add(acc, hn::BitCast(di, half)));
        return hn::BitCast(du, hn::Abs(u));
    };

    // Phase 2 for output columns [x, x + n): |u| as uint32 lanes.
    auto blur = [&](std::size_t x) HWY_ATTR {
        const auto h0 = hn::LoadU(di, th_row + x);
        const auto h1 = hn::LoadU(di, th_row + x + 1);
        const auto h2 = hn::LoadU(di, th_row + x + 2);
        const auto h3 = hn::LoadU(di, th_row + x + 3);
        const auto h4 = hn::LoadU(di, th_row + x + 4);
        const auto l0 = hn::BitCast(du, hn::LoadU(di, tl_row + x));
        const auto l1 = hn::BitCast(du, hn::LoadU(di, tl_row + x + 1));
        const auto l2 = hn::BitCast(du, hn::LoadU(di, tl_row + x + 2));
        const auto l3 = hn::BitCast(du, hn::LoadU(di, tl_row + x + 3));
        const auto l4 = hn::BitCast(du, hn::LoadU(di, tl_row + x + 4));
        const auto two_h2 = hn::Add(h2, h2);
        const auto sh = hn::Add(hn::ShiftLeft<16>(h2), hn::Add(hn::Mul(hn::Sub(hn::Add(h0, h4), two_h2), f0i),
                                                              hn::Mul(hn::Sub(hn::Add(h1, h3), two_h2), f1i)));
        const auto two_l2 = hn::Add(l2, l2);
        const auto l = hn::Add(hn::ShiftLeft<16>(l2), hn::Add(hn::Mul(hn::Sub(hn::Add(l0, l4), two_l2), f0u),
                                                             hn::Mul(hn::Sub(hn::Add(l1, l3), two_l2), f1u)));
        const auto u = hn::Add(sh, hn::BitCast(di, hn::ShiftRight<16>(hn::Add(l, half))));
        return hn::BitCast(du, hn::Abs(u));
    };

    std::uint64_t sad = 0;
    for (unsigned y = 0; y < h; ++y) {
        const T* pr[motion::kTaps];
        const T* cr[motion::kTaps];
        for (int k = 0; k < motion::kTaps; ++k) {
            const auto r = static_cast<unsigned>(reflect(static_cast<int>(y) - 2 + k, static_cast<int>(h)));
            pr[k] = prev.row<const T>(r);
            cr[k] = cur.row<const T>(r);
        }
        std::int32_t any = 0;
        bool narrow = false;
        if (w >= n) {
            auto any_v = hn::Zero(di);
            auto lo_v = hn::Zero(di), hi_v = hn::Zero(di);
            auto track = [&](decltype(any_v) t) HWY_ATTR {
                any_v = hn::Or(any_v, t);
                lo_v = hn::Min(lo_v, t);
                hi_v = hn::Max(hi_v, t);
            };
            std::size_t x = 0;
#ifdef VMAF_MOTION_DIFF8X2
            if constexpr (sizeof(T) == 1) {
                for (; x + 2 * n <= w; x += 2 * n) {
                    const auto t01 = diff8x2(pr, cr, x);
                    track(t01.first);
                    track(t01.second);
                }
            }
#endif
            for (; x + n <= w; x += n) track(diff(pr, cr, x));
            if (x < w) track(diff(pr, cr, w - n));
            any = hn::AllTrue(di, hn::Eq(any_v, hn::Zero(di))) ? 0 : 1;
            narrow = hn::AllTrue(di, hn::And(hn::Gt(lo_v, hn::Set(di, -32769)), hn::Lt(hi_v, hn::Set(di, 32768))));
        } else {
            for (unsigned x = 0; x < w; ++x) {
                const std::int32_t t = ScalarT(ScalarV(pr, x), ScalarV(cr, x), bpc);
                th_row[x + 2] = t;
                any |= t;
            }
        }
        // An all-zero row contributes nothing (the horizontal stage maps 0 to 0).
        if (!any) continue;
        for (int k = 1; k <= 2; ++k) {
            th_row[2 - k] = th_row[2 + reflect(-k, iw)];
            th_row[2 + iw - 1 + k] = th_row[2 + reflect(iw - 1 + k, iw)];
        }
        std::uint32_t row_sad = 0;  // uint32 per row, as upstream
        if (narrow) {
            auto acc = hn::Zero(du);
            std::size_t x = 0;
            for (; x + n <= w; x += n) acc = hn::Add(acc, blur_narrow(x));
            if (x < w) {
                const std::size_t done = n - (w - x);
                acc = hn::Add(acc, hn::IfThenZeroElse(hn::FirstN(du, done), blur_narrow(w - n)));
            }
            sad += hn::GetLane(hn::SumOfLanes(du, acc));
            continue;
        }
        for (unsigned c = 0; c < w + 4; ++c) {
            const std::int32_t t = th_row[c];
            th_row[c] = t >> 16;
            tl_row[c] = t & 0xFFFF;
        }
        if (w >= n) {
            auto acc = hn::Zero(du);
            std::size_t x = 0;
            for (; x + n <= w; x += n) acc = hn::Add(acc, blur(x));
            if (x < w) {
                // Last window [w - n, w): keep only the lanes not summed yet.
                const std::size_t done = n - (w - x);
                acc = hn::Add(acc, hn::IfThenZeroElse(hn::FirstN(du, done), blur(w - n)));
            }
            row_sad = hn::GetLane(hn::SumOfLanes(du, acc));
        } else {
            for (unsigned x = 0; x < w; ++x) {
                std::int64_t acc = 0;
                for (int k = 0; k < motion::kTaps; ++k) {
                    const std::int32_t t = static_cast<std::int32_t>(
                        (static_cast<std::uint32_t>(th_row[x + k]) << 16) | static_cast<std::uint32_t>(tl_row[x + k]));
                    acc += static_cast<std::int64_t>(kFilter[k]) * t;
                }
                const std::int32_t u = static_cast<std::int32_t>((acc + (std::int64_t{1} << 15)) >> 16);
                row_sad += static_cast<std::uint32_t>(std::abs(u));
            }
        }
        sad += row_sad;
    }
    return sad;
}
#undef VMAF_MOTION_DIFF8X2

std::uint64_t BlurredDifferenceSad(const Plane& prev, const Plane& cur, unsigned bpc, std::int32_t* scratch) {
    if (bpc == 8) return BlurredDifferenceSadT<std::uint8_t>(prev, cur, bpc, scratch);
    return BlurredDifferenceSadT<std::uint16_t>(prev, cur, bpc, scratch);
}

void FillMotionKernels(motion::MotionKernels& k) {
    k.blurred_difference_sad = &BlurredDifferenceSad;
}

[[maybe_unused]] const bool kRegistered = motion::motion_registry().add(HWY_TARGET, &FillMotionKernels);

}  // namespace
}  // namespace vmaf::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
#endif  // HWY_TARGET != HWY_SCALAR

#if HWY_ONCE
namespace vmaf::motion {

simd::KernelRegistry<MotionKernels>& motion_registry() {
    static simd::KernelRegistry<MotionKernels> registry;
    return registry;
}

}  // namespace vmaf::motion
#endif
