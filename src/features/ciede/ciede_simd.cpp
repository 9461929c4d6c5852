// SIMD kernel of CIEDE2000, one Highway source compiled for every target
// (foreach_target), registered in ciede_registry().
//
// delta_e2000 mixes float and double arithmetic with libm calls. The
// arithmetic between the calls runs vector-wide in exactly the scalar
// reference's precision and order (float ops on float lanes, double ops on
// double lanes, conversions where C converts; IEEE add/sub/mul/div/sqrt are
// correctly rounded, so lane results equal the scalar ones). The libm calls
// stay scalar and are the very calls upstream makes: Highway's or any vector
// math library's pow/atan2/sin/cos/exp are not bit-identical to glibc's.
// Three passes over the columns:
//   A (vector) chromas, mean chroma, lightness terms;
//   B (scalar) pow(C-bar, 7);
//   C (vector) a', C', C-bar', delta C', S_C;
//   D (scalar) hue angles (atan2), hue difference, sin(delta h' / 2), mean
//              hue, T (4 x cos), R_T (powf, exp, sin);
//   E (vector) delta H', S_H, the three weighted terms and the final sqrt.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/ciede/ciede_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <math.h>

#include <vector>

#include "features/ciede/ciede_color.hpp"
#include "features/ciede/ciede_kernels.hpp"

#if HWY_TARGET != HWY_SCALAR
HWY_BEFORE_NAMESPACE();
namespace vmaf::HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using DD = hn::ScalableTag<double>;
using DF = hn::Rebind<float, DD>;  // as many float lanes as double lanes

// Per-thread intermediate columns.
struct Columns {
    std::vector<float> dl, s_l, ch1, ch2, c_bar, a1p, a2p, cp1, cp2, cp_bar, dc, s_c, t, r_t;
    std::vector<double> c_bar7, sin_half;
    void resize(std::size_t n) {
        for (auto* v : {&dl, &s_l, &ch1, &ch2, &c_bar, &a1p, &a2p, &cp1, &cp2, &cp_bar, &dc, &s_c, &t, &r_t})
            v->resize(n);
        c_bar7.resize(n);
        sin_half.resize(n);
    }
};

void DeltaE(const ciede::LabColumns& in, std::size_t n, float* out) {
    const DD dd;
    const DF df;
    const std::size_t N = hn::Lanes(dd);
    const std::size_t cap = (n + ciede::kColumnPad - 1) / ciede::kColumnPad * ciede::kColumnPad;
    thread_local Columns c;
    c.resize(cap);
    auto wide = [&](hn::Vec<DF> v) { return hn::PromoteTo(dd, v); };
    auto narrow = [&](hn::Vec<DD> v) { return hn::DemoteTo(df, v); };
    auto sq = [](hn::Vec<DD> v) { return hn::Mul(v, v); };
    const auto half = hn::Set(df, 2.f);
    const auto one = hn::Set(dd, 1.0);

    for (std::size_t i = 0; i < n; i += N) {  // A
        const auto l1 = hn::LoadU(df, in.l1 + i), l2 = hn::LoadU(df, in.l2 + i);
        hn::StoreU(hn::Sub(l2, l1), df, c.dl.data() + i);
        const auto l_bar = hn::Div(hn::Add(l1, l2), half);
        const auto ch1 =
            narrow(hn::Sqrt(hn::Add(sq(wide(hn::LoadU(df, in.a1 + i))), sq(wide(hn::LoadU(df, in.b1 + i))))));
        const auto ch2 =
            narrow(hn::Sqrt(hn::Add(sq(wide(hn::LoadU(df, in.a2 + i))), sq(wide(hn::LoadU(df, in.b2 + i))))));
        hn::StoreU(ch1, df, c.ch1.data() + i);
        hn::StoreU(ch2, df, c.ch2.data() + i);
        hn::StoreU(hn::Div(hn::Add(ch1, ch2), half), df, c.c_bar.data() + i);
        const auto l50 = sq(wide(hn::Sub(l_bar, hn::Set(df, 50.f))));
        const auto s_l =
            hn::Add(one, hn::Div(hn::Mul(hn::Set(dd, 0.015), l50), hn::Sqrt(hn::Add(hn::Set(dd, 20.0), l50))));
        hn::StoreU(narrow(s_l), df, c.s_l.data() + i);
    }
    for (std::size_t i = 0; i < n; ++i) c.c_bar7[i] = pow(static_cast<double>(c.c_bar[i]), 7.0);  // B
    for (std::size_t i = 0; i < n; i += N) {                                                      // C
        const auto c7 = hn::LoadU(dd, c.c_bar7.data() + i);
        const auto g = hn::Sub(one, hn::Sqrt(hn::Div(c7, hn::Add(c7, hn::Set(dd, 6103515625.0)))));
        const auto a1 = hn::LoadU(df, in.a1 + i), a2 = hn::LoadU(df, in.a2 + i);
        const auto a1p = narrow(hn::Add(wide(a1), hn::Mul(wide(hn::Div(a1, half)), g)));
        const auto a2p = narrow(hn::Add(wide(a2), hn::Mul(wide(hn::Div(a2, half)), g)));
        hn::StoreU(a1p, df, c.a1p.data() + i);
        hn::StoreU(a2p, df, c.a2p.data() + i);
        const auto cp1 = narrow(hn::Sqrt(hn::Add(sq(wide(a1p)), sq(wide(hn::LoadU(df, in.b1 + i))))));
        const auto cp2 = narrow(hn::Sqrt(hn::Add(sq(wide(a2p)), sq(wide(hn::LoadU(df, in.b2 + i))))));
        hn::StoreU(cp1, df, c.cp1.data() + i);
        hn::StoreU(cp2, df, c.cp2.data() + i);
        const auto cp_bar = hn::Div(hn::Add(cp1, cp2), half);
        hn::StoreU(cp_bar, df, c.cp_bar.data() + i);
        hn::StoreU(hn::Sub(cp2, cp1), df, c.dc.data() + i);
        hn::StoreU(narrow(hn::Add(one, hn::Mul(hn::Set(dd, 0.045), wide(cp_bar)))), df, c.s_c.data() + i);
    }
    for (std::size_t i = 0; i < n; ++i) {  // D
        const float h1 = ciede::hue_angle(in.b1[i], c.a1p[i]);
        const float h2 = ciede::hue_angle(in.b2[i], c.a2p[i]);
        const float dh = ciede::hue_difference(c.ch1[i], c.ch2[i], h1, h2);
        c.sin_half[i] = sin(static_cast<double>(dh) / 2.0);
        const float h_bar = ciede::mean_hue(h1, h2);
        c.t[i] = ciede::hue_weight_t(h_bar);
        c.r_t[i] = ciede::rotation_term(c.cp_bar[i], h_bar);
    }
    for (std::size_t i = 0; i < n; i += N) {  // E
        const auto cp_bar = hn::LoadU(df, c.cp_bar.data() + i);
        const auto root = hn::Sqrt(wide(hn::Mul(hn::LoadU(df, c.cp1.data() + i), hn::LoadU(df, c.cp2.data() + i))));
        const auto d_big_h = narrow(hn::Mul(hn::Mul(hn::Set(dd, 2.0), root), hn::LoadU(dd, c.sin_half.data() + i)));
        const auto s_h = narrow(
            hn::Add(one, hn::Mul(hn::Mul(hn::Set(dd, 0.015), wide(cp_bar)), wide(hn::LoadU(df, c.t.data() + i)))));
        const auto light =
            hn::Div(hn::LoadU(df, c.dl.data() + i), hn::Mul(hn::Set(df, 0.65f), hn::LoadU(df, c.s_l.data() + i)));
        const auto chroma =
            hn::Div(hn::LoadU(df, c.dc.data() + i), hn::Mul(hn::Set(df, 1.0f), hn::LoadU(df, c.s_c.data() + i)));
        const auto hue = hn::Div(d_big_h, hn::Mul(hn::Set(df, 4.0f), s_h));
        const auto cross = hn::Mul(hn::Mul(hn::LoadU(df, c.r_t.data() + i), chroma), hue);
        const auto total = hn::Add(hn::Add(hn::Add(sq(wide(light)), sq(wide(chroma))), sq(wide(hue))), wide(cross));
        hn::StoreU(narrow(hn::Sqrt(total)), df, out + i);
    }
}

void FillCiedeKernels(ciede::CiedeKernels& k) {
    // Whole vectors run past n up to the next multiple of N: only within the
    // kColumnPad padding (always on x86; very wide SVE/RVV keep the scalar kernel).
    if (hn::MaxLanes(DD()) <= ciede::kColumnPad) k.delta_e = &DeltaE;
}

[[maybe_unused]] const bool kRegistered = ciede::ciede_registry().add(HWY_TARGET, &FillCiedeKernels);

}  // namespace
}  // namespace vmaf::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
#endif  // HWY_TARGET != HWY_SCALAR

#if HWY_ONCE
namespace vmaf::ciede {

simd::KernelRegistry<CiedeKernels>& ciede_registry() {
    static simd::KernelRegistry<CiedeKernels> registry;
    return registry;
}

}  // namespace vmaf::ciede
#endif
