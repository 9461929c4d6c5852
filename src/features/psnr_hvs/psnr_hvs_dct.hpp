// Daala's 8-point forward integer DCT (od_bin_fdct8) as lifting steps over
// an abstract lane type, so the scalar reference and the SIMD kernels run
// the very same sequence of integer operations.
#pragma once

#include <cstdint>

namespace vmaf::psnr_hvs {

/// Lane operations of the scalar reference (int32, wrapping as upstream's int).
struct ScalarOps {
    using V = std::int32_t;
    static V add(V a, V b) { return static_cast<V>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b)); }
    static V sub(V a, V b) { return static_cast<V>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b)); }
    /// a / 2 rounded toward zero (Daala's unbiased shift by one).
    static V half(V a) { return add(a, static_cast<V>(static_cast<std::uint32_t>(a) >> 31)) >> 1; }
    /// (a * C + R) >> S, arithmetic shift.
    template <std::int32_t C, std::int32_t R, int S>
    static V mul_round(V a) {
        return add(static_cast<V>(static_cast<std::uint32_t>(a) * static_cast<std::uint32_t>(C)), R) >> S;
    }
};

/// In place: x[0..7] samples in, coefficients out (DC first).
template <class Ops, class V>
void fdct8(V* x) {
    V t0 = x[0], t4 = x[1], t2 = x[2], t6 = x[3], t7 = x[4], t3 = x[5], t5 = x[6], t1 = x[7];
    // +1/-1 butterflies
    t1 = Ops::sub(t0, t1);
    const V t1h = Ops::half(t1);
    t0 = Ops::sub(t0, t1h);
    t4 = Ops::add(t4, t5);
    const V t4h = Ops::half(t4);
    t5 = Ops::sub(t5, t4h);
    t3 = Ops::sub(t2, t3);
    t2 = Ops::sub(t2, Ops::half(t3));
    t6 = Ops::add(t6, t7);
    const V t6h = Ops::half(t6);
    t7 = Ops::sub(t6h, t7);
    // even half: 4-point DCT-II
    t0 = Ops::add(t0, t6h);
    t6 = Ops::sub(t0, t6);
    t2 = Ops::sub(t4h, t2);
    t4 = Ops::sub(t2, t4);
    // 2-point DCT-II rotation (pi/4)
    t0 = Ops::sub(t0, Ops::template mul_round<13573, 16384, 15>(t4));
    t4 = Ops::add(t4, Ops::template mul_round<11585, 8192, 14>(t0));
    t0 = Ops::sub(t0, Ops::template mul_round<13573, 16384, 15>(t4));
    // 2-point DST-IV rotation (3pi/8)
    t6 = Ops::sub(t6, Ops::template mul_round<21895, 16384, 15>(t2));
    t2 = Ops::add(t2, Ops::template mul_round<15137, 8192, 14>(t6));
    t6 = Ops::sub(t6, Ops::template mul_round<21895, 16384, 15>(t2));
    // odd half: 4-point DST-IV
    t3 = Ops::add(t3, Ops::template mul_round<19195, 16384, 15>(t5));
    t5 = Ops::add(t5, Ops::template mul_round<11585, 8192, 14>(t3));
    t3 = Ops::sub(t3, Ops::template mul_round<7489, 4096, 13>(t5));
    t7 = Ops::sub(Ops::half(t5), t7);
    t5 = Ops::sub(t5, t7);
    t3 = Ops::sub(t1h, t3);
    t1 = Ops::sub(t1, t3);
    // rotations by pi/16 and 3pi/16
    t7 = Ops::add(t7, Ops::template mul_round<3227, 16384, 15>(t1));
    t1 = Ops::sub(t1, Ops::template mul_round<6393, 16384, 15>(t7));
    t7 = Ops::add(t7, Ops::template mul_round<3227, 16384, 15>(t1));
    t5 = Ops::add(t5, Ops::template mul_round<2485, 4096, 13>(t3));
    t3 = Ops::sub(t3, Ops::template mul_round<18205, 16384, 15>(t5));
    t5 = Ops::add(t5, Ops::template mul_round<2485, 4096, 13>(t3));
    x[0] = t0, x[1] = t1, x[2] = t2, x[3] = t3, x[4] = t4, x[5] = t5, x[6] = t6, x[7] = t7;
}

}  // namespace vmaf::psnr_hvs
