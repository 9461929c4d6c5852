// SIMD kernels of the XPSNR feature, one Highway source compiled for every
// target (foreach_target), registered in xpsnr_registry(). Bit-identical to
// the scalar reference for every input: all sums are of integers.
//
// Samples are loaded as the filter reads them (8-bit widened, deeper ones as
// int16). The high-pass and temporal differences run in int16 lanes where
// they cannot overflow ("narrow": plain high-pass up to 11 bits, whose
// |f| <= 12 (2^bpc - 1); first-order differences up to 15 bits, second-order
// up to 14), else in int32 lanes. Absolute values are widened to uint32 in
// order and added to the column sums. The downsampled kernels first form the
// rows' pair sums (zero outside the picture) in scratch, then evaluate every
// column and keep the even ones. Columns past the last full vector are done
// by the scalar formula.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/xpsnr/xpsnr_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstdlib>
#include <cstring>

#include "features/xpsnr/xpsnr_kernels.hpp"

#if HWY_TARGET != HWY_SCALAR
HWY_BEFORE_NAMESPACE();
namespace vmaf::HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;

const hn::ScalableTag<std::int16_t> di16;
const hn::Repartition<std::int32_t, decltype(di16)> di32;
const hn::Repartition<std::uint32_t, decltype(di16)> du32;
const hn::Half<decltype(di16)> dh16;

/// Lanes(di16) samples as int16, the filter's reading.
template <typename T>
HWY_INLINE hn::Vec<decltype(di16)> Load16(const T* HWY_RESTRICT p) {
    if constexpr (sizeof(T) == 1) {
        return hn::BitCast(di16, hn::PromoteTo(hn::Rebind<std::uint16_t, decltype(di16)>(),
                                               hn::LoadU(hn::Rebind<std::uint8_t, decltype(di16)>(), p)));
    } else {
        return hn::BitCast(di16, hn::LoadU(hn::Rebind<std::uint16_t, decltype(di16)>(), p));
    }
}

/// Lanes(di32) samples as int32 (16-bit containers sign-extended from int16).
template <typename T>
HWY_INLINE hn::Vec<decltype(di32)> Load32(const T* HWY_RESTRICT p) {
    if constexpr (sizeof(T) == 1) {
        return hn::PromoteTo(di32, hn::LoadU(hn::Rebind<std::uint8_t, decltype(di32)>(), p));
    } else {
        const hn::Rebind<std::int16_t, decltype(di32)> dn;
        return hn::PromoteTo(di32, hn::BitCast(dn, hn::LoadU(hn::Rebind<std::uint16_t, decltype(di32)>(), p)));
    }
}

/// col[x .. x + Lanes(di16)) += |v| (v int16, |v| <= 32767).
HWY_INLINE void AddAbs16(hn::Vec<decltype(di16)> v, std::uint32_t* HWY_RESTRICT col) {
    const hn::Vec<decltype(di16)> a = hn::Abs(v);
    const auto lo = hn::BitCast(du32, hn::PromoteTo(di32, hn::LowerHalf(dh16, a)));
    const auto hi = hn::BitCast(du32, hn::PromoteTo(di32, hn::UpperHalf(dh16, a)));
    const std::size_t n = hn::Lanes(du32);
    hn::StoreU(hn::Add(hn::LoadU(du32, col), lo), du32, col);
    hn::StoreU(hn::Add(hn::LoadU(du32, col + n), hi), du32, col + n);
}

/// col[x .. x + Lanes(di32)) += |v|.
HWY_INLINE void AddAbs32(hn::Vec<decltype(di32)> v, std::uint32_t* HWY_RESTRICT col) {
    hn::StoreU(hn::Add(hn::LoadU(du32, col), hn::BitCast(du32, hn::Abs(v))), du32, col);
}

template <class D, class V>
HWY_INLINE V Times12(D, V v) {
    return hn::Add(hn::ShiftLeft<3>(v), hn::ShiftLeft<2>(v));
}

// ---- plain spatial high-pass ---------------------------------------------

template <typename T, bool Narrow>
void SpatialPlainT(const Plane& p, unsigned bpc, unsigned y0, unsigned y1, std::uint32_t* col) {
    const std::size_t n = Narrow ? hn::Lanes(di16) : hn::Lanes(di32);
    const unsigned w = p.width;
    for (unsigned y = y0; y < y1; ++y) {
        const T* HWY_RESTRICT up = p.row<const T>(y - 1);
        const T* HWY_RESTRICT c = p.row<const T>(y);
        const T* HWY_RESTRICT dn = p.row<const T>(y + 1);
        std::size_t x = 1;
        for (; x + n + 1 <= w; x += n) {
            if constexpr (Narrow) {
                const auto s_l = hn::Add(Load16(up + x - 1), Load16(dn + x - 1));
                const auto s_c = hn::Add(Load16(up + x), Load16(dn + x));
                const auto s_r = hn::Add(Load16(up + x + 1), Load16(dn + x + 1));
                const auto edges = hn::Add(hn::Add(Load16(c + x - 1), Load16(c + x + 1)), s_c);
                const auto f = hn::Sub(Times12(di16, Load16(c + x)), hn::Add(hn::Add(edges, edges), hn::Add(s_l, s_r)));
                AddAbs16(f, col + x);
            } else {
                const auto s_l = hn::Add(Load32(up + x - 1), Load32(dn + x - 1));
                const auto s_c = hn::Add(Load32(up + x), Load32(dn + x));
                const auto s_r = hn::Add(Load32(up + x + 1), Load32(dn + x + 1));
                const auto edges = hn::Add(hn::Add(Load32(c + x - 1), Load32(c + x + 1)), s_c);
                const auto f = hn::Sub(Times12(di32, Load32(c + x)), hn::Add(hn::Add(edges, edges), hn::Add(s_l, s_r)));
                AddAbs32(f, col + x);
            }
        }
        for (; x + 1 < w; ++x) {
            const int edges = xpsnr::sample(p, bpc, x - 1, y) + xpsnr::sample(p, bpc, x + 1, y) +
                              xpsnr::sample(p, bpc, x, y - 1) + xpsnr::sample(p, bpc, x, y + 1);
            const int corners = xpsnr::sample(p, bpc, x - 1, y - 1) + xpsnr::sample(p, bpc, x + 1, y - 1) +
                                xpsnr::sample(p, bpc, x - 1, y + 1) + xpsnr::sample(p, bpc, x + 1, y + 1);
            col[x] += static_cast<std::uint32_t>(std::abs(12 * xpsnr::sample(p, bpc, x, y) - 2 * edges - corners));
        }
    }
}

void SpatialPlain(const Plane& p, unsigned bpc, unsigned y0, unsigned y1, std::uint32_t* col) {
    if (bpc == 8)
        SpatialPlainT<std::uint8_t, true>(p, bpc, y0, y1, col);
    else if (bpc <= 11)
        SpatialPlainT<std::uint16_t, true>(p, bpc, y0, y1, col);
    else
        SpatialPlainT<std::uint16_t, false>(p, bpc, y0, y1, col);
}

// ---- plain temporal difference -------------------------------------------

template <typename T, bool Narrow, bool Second>
void TemporalPlainT(const Plane& cur, const Plane& p1, const Plane& p2, unsigned bpc, unsigned y0, unsigned y1,
                    std::uint32_t* col) {
    const std::size_t n = Narrow ? hn::Lanes(di16) : hn::Lanes(di32);
    const unsigned w = cur.width;
    for (unsigned y = y0; y < y1; ++y) {
        const T* HWY_RESTRICT c = cur.row<const T>(y);
        const T* HWY_RESTRICT a = p1.row<const T>(y);
        const T* HWY_RESTRICT b = p2.row<const T>(y);
        std::size_t x = 0;
        for (; x + n <= w; x += n) {
            if constexpr (Narrow) {
                auto t = hn::Sub(Load16(c + x), Load16(a + x));
                if constexpr (Second) t = hn::Add(hn::Sub(t, Load16(a + x)), Load16(b + x));
                AddAbs16(t, col + x);
            } else {
                auto t = hn::Sub(Load32(c + x), Load32(a + x));
                if constexpr (Second) t = hn::Add(hn::Sub(t, Load32(a + x)), Load32(b + x));
                AddAbs32(t, col + x);
            }
        }
        for (; x < w; ++x) {
            int t = xpsnr::sample(cur, bpc, x, y) - xpsnr::sample(p1, bpc, x, y);
            if (Second) t = t - xpsnr::sample(p1, bpc, x, y) + xpsnr::sample(p2, bpc, x, y);
            col[x] += static_cast<std::uint32_t>(std::abs(t));
        }
    }
}

void TemporalPlain(const Plane& cur, const Plane& p1, const Plane& p2, unsigned bpc, unsigned order, unsigned y0,
                   unsigned y1, std::uint32_t* col) {
    if (order == 1) {
        if (bpc == 8)
            TemporalPlainT<std::uint8_t, true, false>(cur, p1, p2, bpc, y0, y1, col);
        else if (bpc <= 15)
            TemporalPlainT<std::uint16_t, true, false>(cur, p1, p2, bpc, y0, y1, col);
        else
            TemporalPlainT<std::uint16_t, false, false>(cur, p1, p2, bpc, y0, y1, col);
    } else {
        if (bpc == 8)
            TemporalPlainT<std::uint8_t, true, true>(cur, p1, p2, bpc, y0, y1, col);
        else if (bpc <= 14)
            TemporalPlainT<std::uint16_t, true, true>(cur, p1, p2, bpc, y0, y1, col);
        else
            TemporalPlainT<std::uint16_t, false, true>(cur, p1, p2, bpc, y0, y1, col);
    }
}

// ---- downsampled kernels ---------------------------------------------------

/// Lane mask of the even columns (vectors start at even columns).
HWY_INLINE hn::Mask<decltype(di32)> EvenLanes() {
    return hn::Eq(hn::And(hn::Iota(di32, 0), hn::Set(di32, 1)), hn::Zero(di32));
}

/// out[x + kPad] = row_a[x] + row_b[x] for x in [0, w) (a null row reads as
/// 0), and 0 in the kPad columns on either side.
constexpr std::size_t kPad = 4;
template <typename T>
void PairSums(const T* a, const T* b, unsigned w, std::int32_t* out) {
    const std::size_t n = hn::Lanes(di32);
    std::memset(out, 0, kPad * sizeof(std::int32_t));
    std::memset(out + kPad + w, 0, kPad * sizeof(std::int32_t));
    std::size_t x = 0;
    for (; x + n <= w; x += n) {
        auto v = a ? Load32(a + x) : hn::Zero(di32);
        if (b) v = hn::Add(v, Load32(b + x));
        hn::StoreU(v, di32, out + kPad + x);
    }
    for (; x < w; ++x) {
        auto s = [](const T* r, std::size_t i) {
            return r ? (sizeof(T) == 1 ? int{r[i]} : int{static_cast<std::int16_t>(r[i])}) : 0;
        };
        out[kPad + x] = s(a, x) + s(b, x);
    }
}

template <typename T>
void SpatialDownT(const Plane& p, unsigned y0, unsigned y1, std::uint32_t* col, std::int32_t* scratch) {
    const unsigned w = p.width, h = p.height;
    const std::size_t stride = w + 2 * kPad;
    std::int32_t* A = scratch;               // rows y, y+1
    std::int32_t* Tb = scratch + stride;     // rows y-1, y+2
    std::int32_t* O = scratch + 2 * stride;  // rows y-2, y+3
    auto row = [&](long y) -> const T* { return y >= 0 && y < static_cast<long>(h) ? p.row<const T>(static_cast<unsigned>(y)) : nullptr; };
    const std::size_t n = hn::Lanes(di32);
    const auto even = EvenLanes();
    for (long y = y0; y < static_cast<long>(y1); y += 2) {
        PairSums<T>(row(y), row(y + 1), w, A);
        PairSums<T>(row(y - 1), row(y + 2), w, Tb);
        PairSums<T>(row(y - 2), row(y + 3), w, O);
        auto f_at = [&](const std::int32_t* a, const std::int32_t* t, const std::int32_t* o) {
            // a, t, o point at column x.
            const int centre = a[0] + a[1];
            const int edges = t[0] + t[1] + a[-1] + a[2];
            const int corners = t[-1] + t[2];
            const int ring = o[-1] + o[0] + o[1] + o[2] + a[-2] + t[-2] + a[3] + t[3];
            return 12 * centre - 3 * edges - 2 * corners - ring;
        };
        std::size_t x = 2;
        for (; x + n + 2 <= w; x += n) {
            const std::int32_t* a = A + kPad + x;
            const std::int32_t* t = Tb + kPad + x;
            const std::int32_t* o = O + kPad + x;
            const auto a0 = hn::LoadU(di32, a), a1 = hn::LoadU(di32, a + 1);
            const auto t0 = hn::LoadU(di32, t), t1 = hn::LoadU(di32, t + 1);
            const auto am1 = hn::LoadU(di32, a - 1), a2 = hn::LoadU(di32, a + 2);
            const auto centre = hn::Add(a0, a1);
            const auto edges = hn::Add(hn::Add(t0, t1), hn::Add(am1, a2));
            const auto corners = hn::Add(hn::LoadU(di32, t - 1), hn::LoadU(di32, t + 2));
            const auto ring = hn::Add(
                hn::Add(hn::Add(hn::LoadU(di32, o - 1), hn::LoadU(di32, o)), hn::Add(hn::LoadU(di32, o + 1), hn::LoadU(di32, o + 2))),
                hn::Add(hn::Add(hn::LoadU(di32, a - 2), hn::LoadU(di32, t - 2)), hn::Add(hn::LoadU(di32, a + 3), hn::LoadU(di32, t + 3))));
            const auto neg = hn::Add(hn::Add(hn::Add(hn::ShiftLeft<1>(edges), edges), hn::Add(corners, corners)), ring);
            const auto f = hn::Sub(Times12(di32, centre), neg);
            hn::StoreU(hn::Add(hn::LoadU(du32, col + x), hn::BitCast(du32, hn::IfThenElseZero(even, hn::Abs(f)))), du32,
                       col + x);
        }
        if (x & 1) ++x;
        for (; x + 2 < w; x += 2)
            col[x] += static_cast<std::uint32_t>(std::abs(f_at(A + kPad + x, Tb + kPad + x, O + kPad + x)));
    }
}

void SpatialDown(const Plane& p, unsigned bpc, unsigned y0, unsigned y1, std::uint32_t* col, std::int32_t* scratch) {
    if (bpc == 8)
        SpatialDownT<std::uint8_t>(p, y0, y1, col, scratch);
    else
        SpatialDownT<std::uint16_t>(p, y0, y1, col, scratch);
}

template <typename T, bool Second>
void TemporalDownT(const Plane& cur, const Plane& p1, const Plane& p2, unsigned y0, unsigned y1, std::uint32_t* col,
                   std::int32_t* scratch) {
    const unsigned w = cur.width, h = cur.height;
    const std::size_t n = hn::Lanes(di32);
    const auto even = EvenLanes();
    std::int32_t* D = scratch;  // column sums of the two rows' differences, D[w] = 0
    D[w] = 0;
    for (unsigned y = y0; y < y1; y += 2) {
        const bool two = y + 1 < h;
        const T* c0 = cur.row<const T>(y);
        const T* a0 = p1.row<const T>(y);
        const T* b0 = p2.row<const T>(y);
        const T* c1 = two ? cur.row<const T>(y + 1) : nullptr;
        const T* a1 = two ? p1.row<const T>(y + 1) : nullptr;
        const T* b1 = two ? p2.row<const T>(y + 1) : nullptr;
        auto diff = [&](const T* c, const T* a, const T* b, std::size_t x) {
            auto t = hn::Sub(Load32(c + x), Load32(a + x));
            if constexpr (Second) t = hn::Add(hn::Sub(t, Load32(a + x)), Load32(b + x));
            return t;
        };
        std::size_t x = 0;
        for (; x + n <= w; x += n) {
            auto v = diff(c0, a0, b0, x);
            if (two) v = hn::Add(v, diff(c1, a1, b1, x));
            hn::StoreU(v, di32, D + x);
        }
        auto s = [](const T* r, std::size_t i) {
            return sizeof(T) == 1 ? int{r[i]} : int{static_cast<std::int16_t>(r[i])};
        };
        for (; x < w; ++x) {
            int v = s(c0, x) - s(a0, x);
            if (Second) v = v - s(a0, x) + s(b0, x);
            if (two) {
                int u = s(c1, x) - s(a1, x);
                if (Second) u = u - s(a1, x) + s(b1, x);
                v += u;
            }
            D[x] = v;
        }
        x = 0;
        for (; x + n + 1 <= w; x += n) {
            const auto g = hn::Add(hn::LoadU(di32, D + x), hn::LoadU(di32, D + x + 1));
            hn::StoreU(hn::Add(hn::LoadU(du32, col + x), hn::BitCast(du32, hn::IfThenElseZero(even, hn::Abs(g)))), du32,
                       col + x);
        }
        for (; x < w; x += 2) col[x] += static_cast<std::uint32_t>(std::abs(D[x] + D[x + 1]));
    }
}

void TemporalDown(const Plane& cur, const Plane& p1, const Plane& p2, unsigned bpc, unsigned order, unsigned y0,
                  unsigned y1, std::uint32_t* col, std::int32_t* scratch) {
    if (bpc == 8)
        order == 1 ? TemporalDownT<std::uint8_t, false>(cur, p1, p2, y0, y1, col, scratch)
                   : TemporalDownT<std::uint8_t, true>(cur, p1, p2, y0, y1, col, scratch);
    else
        order == 1 ? TemporalDownT<std::uint16_t, false>(cur, p1, p2, y0, y1, col, scratch)
                   : TemporalDownT<std::uint16_t, true>(cur, p1, p2, y0, y1, col, scratch);
}

// ---- squared error ---------------------------------------------------------

template <typename T>
void SseColsT(const Plane& pa, const Plane& pb, unsigned y0, unsigned y1, std::uint32_t* col) {
    const hn::Rebind<std::uint16_t, decltype(di32)> du16n;  // Lanes(di32) uint16
    const std::size_t n = hn::Lanes(di32);
    const unsigned w = pa.width;
    for (unsigned y = y0; y < y1; ++y) {
        const T* HWY_RESTRICT a = pa.row<const T>(y);
        const T* HWY_RESTRICT b = pb.row<const T>(y);
        std::size_t x = 0;
        for (; x + n <= w; x += n) {
            hn::Vec<decltype(du32)> va, vb;
            if constexpr (sizeof(T) == 1) {
                va = hn::PromoteTo(du32, hn::LoadU(hn::Rebind<std::uint8_t, decltype(di32)>(), a + x));
                vb = hn::PromoteTo(du32, hn::LoadU(hn::Rebind<std::uint8_t, decltype(di32)>(), b + x));
            } else {
                va = hn::PromoteTo(du32, hn::LoadU(du16n, a + x));
                vb = hn::PromoteTo(du32, hn::LoadU(du16n, b + x));
            }
            const auto e = hn::Sub(hn::Max(va, vb), hn::Min(va, vb));
            hn::StoreU(hn::Add(hn::LoadU(du32, col + x), hn::Mul(e, e)), du32, col + x);
        }
        for (; x < w; ++x) {
            const long e = long{a[x]} - long{b[x]};
            col[x] += static_cast<std::uint32_t>(e * e);
        }
    }
}

void SseCols(const Plane& a, const Plane& b, unsigned bpc, unsigned y0, unsigned y1, std::uint32_t* col) {
    if (bpc == 8)
        SseColsT<std::uint8_t>(a, b, y0, y1, col);
    else
        SseColsT<std::uint16_t>(a, b, y0, y1, col);
}

void FillXpsnrKernels(xpsnr::XpsnrKernels& k) {
    k.spatial_plain = &SpatialPlain;
    k.spatial_down = &SpatialDown;
    k.temporal_plain = &TemporalPlain;
    k.temporal_down = &TemporalDown;
    k.sse_cols = &SseCols;
}

[[maybe_unused]] const bool kRegistered = xpsnr::xpsnr_registry().add(HWY_TARGET, &FillXpsnrKernels);

}  // namespace
}  // namespace vmaf::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
#endif  // HWY_TARGET != HWY_SCALAR

#if HWY_ONCE
namespace vmaf::xpsnr {

simd::KernelRegistry<XpsnrKernels>& xpsnr_registry() {
    static simd::KernelRegistry<XpsnrKernels> registry;
    return registry;
}

}  // namespace vmaf::xpsnr
#endif
