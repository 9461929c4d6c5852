// SIMD kernels of the PSNR feature: sum of squared differences of two planes,
// one Highway source compiled for every target (foreach_target), registered
// in psnr_registry(). Bit-identical to the scalar reference for every input:
//
// 8-bit:  |a - b| (saturating subtractions) zero-extended to int16, squared and
//         pair-summed by a widening multiply-add into uint32 lanes. A row's
//         lanes are reduced in uint32 before entering the uint64 total, so the
//         per-row uint32 sum wraps exactly as the scalar row sum does
//         (addition mod 2^32 is associative and commutative).
// 16-bit: e = |a - b| (uint16), e^2 = hi * 2^16 + lo from the low and high
//         halves of the 16x16 product; lo and hi are summed separately in
//         uint32 lanes (at most 2 * 65535 per lane and step, flushed into
//         uint64 lanes well before they could overflow), total = sum(lo) +
//         2^16 * sum(hi): the exact uint64 sum of the squares.
// Columns past the last full vector are done by the scalar formula.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/psnr/psnr_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "features/psnr/psnr_kernels.hpp"

// HWY_SCALAR (one lane) is not worth a variant: the scalar reference is it.
#if HWY_TARGET != HWY_SCALAR
HWY_BEFORE_NAMESPACE();
namespace vmaf::HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;

[[maybe_unused]] std::uint64_t SseU8(const Plane& a, const Plane& b) {
    const hn::ScalableTag<std::uint8_t> d8;
    const hn::Repartition<std::uint16_t, decltype(d8)> d16;
    const hn::Repartition<std::int16_t, decltype(d8)> di16;
    const hn::Repartition<std::int32_t, decltype(d8)> di32;
    const hn::Repartition<std::uint32_t, decltype(d8)> du32;
    const std::size_t n = hn::Lanes(d8);
    const auto zero8 = hn::Zero(d8);
    const unsigned w = a.width;

    std::uint64_t total = 0;
    for (unsigned y = 0; y < a.height; ++y) {
        const std::uint8_t* HWY_RESTRICT ra = a.row<const std::uint8_t>(y);
        const std::uint8_t* HWY_RESTRICT rb = b.row<const std::uint8_t>(y);
        auto acc = hn::Zero(du32);
        std::size_t x = 0;
        for (; x + n <= w; x += n) {
            const auto va = hn::LoadU(d8, ra + x);
            const auto vb = hn::LoadU(d8, rb + x);
            const auto ad = hn::Or(hn::SaturatedSub(va, vb), hn::SaturatedSub(vb, va));
            const auto lo = hn::BitCast(di16, hn::ZipLower(d16, ad, zero8));
            const auto hi = hn::BitCast(di16, hn::ZipUpper(d16, ad, zero8));
            auto s1 = hn::Zero(di32);
            const auto s0 = hn::ReorderWidenMulAccumulate(di32, lo, lo, hn::Zero(di32), s1);
            auto s3 = hn::Zero(di32);
            const auto s2 = hn::ReorderWidenMulAccumulate(di32, hi, hi, hn::Zero(di32), s3);
            acc = hn::Add(acc, hn::Add(hn::Add(hn::BitCast(du32, s0), hn::BitCast(du32, s1)),
                                       hn::Add(hn::BitCast(du32, s2), hn::BitCast(du32, s3))));
        }
        std::uint32_t row = hn::GetLane(hn::SumOfLanes(du32, acc));
        for (; x < w; ++x) {
            const std::int32_t e = static_cast<std::int32_t>(ra[x]) - static_cast<std::int32_t>(rb[x]);
            row += static_cast<std::uint32_t>(e * e);
        }
        total += row;
    }
    return total;
}

std::uint64_t SseU16(const Plane& a, const Plane& b) {
    const hn::ScalableTag<std::uint16_t> d16;
    const hn::Repartition<std::uint32_t, decltype(d16)> du32;
    const hn::Repartition<std::uint64_t, decltype(d16)> du64;
    const std::size_t n = hn::Lanes(d16);
    const auto mask16 = hn::Set(du32, 0xFFFFu);
    const auto mask32 = hn::Set(du64, 0xFFFFFFFFull);
    const unsigned w = a.width;
    // Each step adds at most 2 * 65535 to a uint32 lane: flush after at most
    // 2^14 steps (2^14 * 131070 < 2^32).
    constexpr std::size_t kMaxSteps = std::size_t{1} << 14;

    auto total = hn::Zero(du64);
    std::uint64_t tail = 0;
    for (unsigned y = 0; y < a.height; ++y) {
        const std::uint16_t* HWY_RESTRICT ra = a.row<const std::uint16_t>(y);
        const std::uint16_t* HWY_RESTRICT rb = b.row<const std::uint16_t>(y);
        std::size_t x = 0;
        while (x + n <= w) {
            auto slo = hn::Zero(du32);
            auto shi = hn::Zero(du32);
            for (std::size_t steps = 0; steps < kMaxSteps && x + n <= w; ++steps, x += n) {
                const auto va = hn::LoadU(d16, ra + x);
                const auto vb = hn::LoadU(d16, rb + x);
                const auto e = hn::Or(hn::SaturatedSub(va, vb), hn::SaturatedSub(vb, va));
                const auto lo = hn::BitCast(du32, hn::Mul(e, e));
                const auto hi = hn::BitCast(du32, hn::MulHigh(e, e));
                slo = hn::Add(slo, hn::Add(hn::And(lo, mask16), hn::ShiftRight<16>(lo)));
                shi = hn::Add(shi, hn::Add(hn::And(hi, mask16), hn::ShiftRight<16>(hi)));
            }
            const auto lo64 = hn::BitCast(du64, slo);
            const auto hi64 = hn::BitCast(du64, shi);
            total = hn::Add(total, hn::Add(hn::And(lo64, mask32), hn::ShiftRight<32>(lo64)));
            total = hn::Add(total, hn::ShiftLeft<16>(hn::Add(hn::And(hi64, mask32), hn::ShiftRight<32>(hi64))));
        }
        for (; x < w; ++x) {
            const std::uint32_t e = ra[x] > rb[x] ? ra[x] - rb[x] : rb[x] - ra[x];
            tail += e * e;
        }
    }
    return hn::GetLane(hn::SumOfLanes(du64, total)) + tail;
}

void FillPsnrKernels(psnr::PsnrKernels& k) {
    // With 128-bit vectors the 8-bit kernel is no faster than the compiler's
    // auto-vectorised scalar reference (measured slower with SSE4): keep it.
#if HWY_TARGET != HWY_SSSE3 && HWY_TARGET != HWY_SSE4
    k.sse_u8 = &SseU8;
#endif
    k.sse_u16 = &SseU16;
}

[[maybe_unused]] const bool kRegistered = psnr::psnr_registry().add(HWY_TARGET, &FillPsnrKernels);

}  // namespace
}  // namespace vmaf::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
#endif  // HWY_TARGET != HWY_SCALAR

#if HWY_ONCE
namespace vmaf::psnr {

simd::KernelRegistry<PsnrKernels>& psnr_registry() {
    static simd::KernelRegistry<PsnrKernels> registry;
    return registry;
}

}  // namespace vmaf::psnr
#endif
