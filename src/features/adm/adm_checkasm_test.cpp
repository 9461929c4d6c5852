// checkasm-style verification of the integer ADM kernels: every kernel of
// every compiled SIMD variant against the scalar reference, bit for bit, on
// random (seeded: VMAF_CHECKASM_SEED reproduces) and edge inputs, many widths,
// stride > width and guard zones; plus whole pipelines and the extractor at
// several --cpumask values on a real clip.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <type_traits>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/adm/adm_kernels.hpp"
#include "features/adm/adm_simd.hpp"
#include "support/checkasm.hpp"
#include "support/testdata.hpp"

namespace vmaf {
extern const ExtractorInfo kAdmInfo;
}

namespace {

using namespace vmaf;
using namespace vmaf::adm;
using test::GuardedPlane;

using i16 = std::int16_t;
using i32 = std::int32_t;
using i64 = std::int64_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

const AdmKernels& ref_k() { return scalar_kernels(); }

std::vector<std::pair<std::string, AdmKernels>> variants() {
    auto v = adm_registry().variants();
    return v;
}

TEST(AdmCheckasm, HasVariants) {
    const auto v = variants();
    std::string names;
    for (const auto& [n, k] : v) names += n + " ";
    std::printf("ADM SIMD variants on this CPU: %s\n", names.c_str());
#if defined(__x86_64__) || defined(__aarch64__)
    EXPECT_FALSE(v.empty());
#endif
    // Each vectorised kernel is installed by some variant (the comparisons
    // below then test SIMD code, not the reference against itself); targets
    // skip kernels that would be slower than the reference there.
    const AdmKernels& s = ref_k();
    auto any = [&](auto get) {
        for (const auto& [n, k] : v)
            if (get(k) != get(s)) return true;
        return false;
    };
#define ADM_EXPECT_SIMD(f) EXPECT_TRUE(any([](const AdmKernels& k) { return k.f; })) << #f
    ADM_EXPECT_SIMD(dwt0_vert8);
    ADM_EXPECT_SIMD(dwt0_vert16);
    ADM_EXPECT_SIMD(dwt0_horz);
    ADM_EXPECT_SIMD(decouple0);
    ADM_EXPECT_SIMD(csf0);
    ADM_EXPECT_SIMD(den0);
    ADM_EXPECT_SIMD(cm0);
    ADM_EXPECT_SIMD(dwt1_vert);
    ADM_EXPECT_SIMD(dwt123_vert);
    ADM_EXPECT_SIMD(dwt123_horz);
    ADM_EXPECT_SIMD(csf123);
    ADM_EXPECT_SIMD(den123);
    ADM_EXPECT_SIMD(cm123);
#undef ADM_EXPECT_SIMD
}

/// Value generators: random over the full range, extremes, zeros.
enum class Fill { Random, Max, Min, Zero, Small, MaxMin };
constexpr Fill kFills[] = {Fill::Random, Fill::Max, Fill::Min, Fill::Zero, Fill::Small, Fill::MaxMin};

template <typename T>
std::function<T()> gen(std::mt19937_64& rng, Fill f, i64 lo, i64 hi) {
    switch (f) {
        case Fill::Max: return [hi] { return static_cast<T>(hi); };
        case Fill::Min: return [lo] { return static_cast<T>(lo); };
        case Fill::Zero: return [] { return T{}; };
        case Fill::Small:
            return [&rng, lo, hi] {
                const i64 v = static_cast<i64>(rng() % 65) - 32;
                return static_cast<T>(std::clamp(v, lo, hi));
            };
        case Fill::MaxMin:
            return [&rng, lo, hi] { return static_cast<T>((rng() & 1) ? hi : lo); };
        case Fill::Random:
        default:
            return [&rng, lo, hi] {
                return static_cast<T>(lo + static_cast<i64>(rng() % static_cast<u64>(hi - lo + 1)));
            };
    }
}

template <typename T>
bool same_rows(const GuardedPlane<T>& a, const GuardedPlane<T>& b) {
    for (unsigned y = 0; y < a.height(); ++y)
        if (std::memcmp(a.row(y), b.row(y), a.width() * sizeof(T)) != 0) return false;
    return true;
}

std::vector<int> widths(int lo, int hi) {
    std::vector<int> w;
    for (int x = lo; x <= hi; ++x) w.push_back(x);
    for (int x : {127, 128, 129, 255, 481, 960, 961}) w.push_back(x);
    return w;
}

// ---------------------------------------------------------------------------
// DWT

TEST(AdmCheckasm, Dwt0Vert8) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed());
    for (const auto& [name, k] : variants()) {
        SCOPED_TRACE(name);
        for (int w : widths(1, 67)) {
            for (Fill f : kFills) {
                GuardedPlane<std::uint8_t> src(w, 4, 1 + rng() % 40);
                src.fill(gen<std::uint8_t>(rng, f, 0, 255));
                const std::uint8_t* r[4] = {src.row(0), src.row(1), src.row(2), src.row(3)};
                GuardedPlane<i16> lo0(w, 1), hi0(w, 1), lo1(w, 1), hi1(w, 1);
                ref_k().dwt0_vert8(r, w, lo0.row(0), hi0.row(0));
                k.dwt0_vert8(r, w, lo1.row(0), hi1.row(0));
                ASSERT_TRUE(same_rows(lo0, lo1) && same_rows(hi0, hi1)) << "w=" << w << " fill=" << int(f);
                ASSERT_TRUE(lo1.intact() && hi1.intact()) << "w=" << w;
            }
        }
    }
}

TEST(AdmCheckasm, Dwt0Vert16) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed() + 1);
    for (const auto& [name, k] : variants()) {
        SCOPED_TRACE(name);
        for (unsigned bpc : {9u, 10u, 12u, 14u, 16u}) {
            for (int w : widths(1, 67)) {
                for (Fill f : kFills) {
                    for (bool any_u16 : {false, true}) {  // also samples beyond bpc bits
                        GuardedPlane<u16> src(w, 4, 1 + rng() % 40);
                        src.fill(gen<u16>(rng, f, 0, any_u16 ? 65535 : (1 << bpc) - 1));
                        const u16* r[4] = {src.row(0), src.row(1), src.row(2), src.row(3)};
                        GuardedPlane<i16> lo0(w, 1), hi0(w, 1), lo1(w, 1), hi1(w, 1);
                        ref_k().dwt0_vert16(r, w, bpc, lo0.row(0), hi0.row(0));
                        k.dwt0_vert16(r, w, bpc, lo1.row(0), hi1.row(0));
                        ASSERT_TRUE(same_rows(lo0, lo1) && same_rows(hi0, hi1))
                            << "bpc=" << bpc << " w=" << w << " fill=" << int(f) << " any=" << any_u16;
                        ASSERT_TRUE(lo1.intact() && hi1.intact());
                    }
                }
            }
        }
    }
}

TEST(AdmCheckasm, Dwt0Horz) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed() + 2);
    for (const auto& [name, k] : variants()) {
        SCOPED_TRACE(name);
        for (int w : widths(2, 67)) {
            const int ow = (w + 1) / 2;
            for (Fill f : kFills) {
                for (bool lo_only : {false, true}) {
                    GuardedPlane<i16> in(w, 2, rng() % 9);
                    in.fill(gen<i16>(rng, f, -32768, 32767));
                    GuardedPlane<i16> o0(ow, 4, 3), o1(ow, 4, 3);
                    auto run = [&](const AdmKernels& kk, GuardedPlane<i16>& o) {
                        if (lo_only)
                            kk.dwt0_horz(in.row(0), in.row(1), w, o.row(0), nullptr, nullptr, nullptr);
                        else
                            kk.dwt0_horz(in.row(0), in.row(1), w, o.row(0), o.row(1), o.row(2), o.row(3));
                    };
                    run(ref_k(), o0);
                    run(k, o1);
                    ASSERT_TRUE(same_rows(o0, o1)) << "w=" << w << " fill=" << int(f) << " lo_only=" << lo_only;
                    ASSERT_TRUE(o1.intact());
                }
            }
        }
    }
}

TEST(AdmCheckasm, Dwt1Vert) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed() + 41);
    for (const auto& [name, k] : variants()) {
        SCOPED_TRACE(name);
        for (int w : widths(1, 67)) {
            for (Fill f : kFills) {
                GuardedPlane<i16> src(w, 4, rng() % 9);
                src.fill(gen<i16>(rng, f, -32768, 32767));
                const i16* r[4] = {src.row(0), src.row(1), src.row(2), src.row(3)};
                GuardedPlane<i32> v0(w, 2), v1(w, 2);
                ref_k().dwt1_vert(r, w, v0.row(0), v0.row(1));
                k.dwt1_vert(r, w, v1.row(0), v1.row(1));
                ASSERT_TRUE(same_rows(v0, v1)) << "w=" << w << " fill=" << int(f);
                ASSERT_TRUE(v1.intact());
                // The contract: dwt123_vert of the widened rows at scale 1's rounding (none).
                GuardedPlane<i32> wide(w, 4), v2(w, 2);
                for (unsigned y = 0; y < 4; ++y)
                    for (int x = 0; x < w; ++x) wide.row(y)[x] = src.row(y)[x];
                const i32* rw[4] = {wide.row(0), wide.row(1), wide.row(2), wide.row(3)};
                ref_k().dwt123_vert(rw, w, 0, 0, v2.row(0), v2.row(1));
                ASSERT_TRUE(same_rows(v0, v2)) << "w=" << w << " fill=" << int(f);
            }
        }
    }
}

TEST(AdmCheckasm, Dwt123) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed() + 3);
    struct Round {
        i64 add;
        int shift;
    };
    // The three levels' (vertical, horizontal) roundings.
    const Round kV[] = {{0, 0}, {32768, 16}};
    const Round kH[] = {{16384, 15}, {32768, 16}};
    for (const auto& [name, k] : variants()) {
        SCOPED_TRACE(name);
        for (int w : widths(2, 67)) {
            const int ow = (w + 1) / 2;
            for (Fill f : kFills) {
                // Scale 1 reads int16-range values; deeper scales any int32.
                for (i64 range : {i64{32768}, i64{1} << 31}) {
                    GuardedPlane<i32> src(w, 4, rng() % 9);
                    src.fill(gen<i32>(rng, f, -range, range - 1));
                    const i32* r[4] = {src.row(0), src.row(1), src.row(2), src.row(3)};
                    for (const Round& rv : kV) {
                        GuardedPlane<i32> v0(w, 2), v1(w, 2);
                        ref_k().dwt123_vert(r, w, rv.add, rv.shift, v0.row(0), v0.row(1));
                        k.dwt123_vert(r, w, rv.add, rv.shift, v1.row(0), v1.row(1));
                        ASSERT_TRUE(same_rows(v0, v1)) << "vert w=" << w << " shift=" << rv.shift;
                        ASSERT_TRUE(v1.intact());
                    }
                    for (const Round& rh : kH) {
                        GuardedPlane<i32> o0(ow, 4, 3), o1(ow, 4, 3);
                        ref_k().dwt123_horz(src.row(0), src.row(1), w, rh.add, rh.shift, o0.row(0), o0.row(1),
                                            o0.row(2), o0.row(3));
                        k.dwt123_horz(src.row(0), src.row(1), w, rh.add, rh.shift, o1.row(0), o1.row(1), o1.row(2),
                                      o1.row(3));
                        ASSERT_TRUE(same_rows(o0, o1)) << "horz w=" << w << " shift=" << rh.shift;
                        ASSERT_TRUE(o1.intact());
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// decouple

template <typename T>
void fill_decouple(std::mt19937_64& rng, Fill f, i64 lo, i64 hi, GuardedPlane<T>& o, GuardedPlane<T>& t) {
    o.fill(gen<T>(rng, f, lo, hi));
    const int mode = static_cast<int>(rng() % 4);
    for (unsigned y = 0; y < o.height(); ++y)
        for (unsigned x = 0; x < o.width(); ++x) {
            const i64 ov = o.row(y)[x];
            i64 tv;
            switch (mode) {
                case 0: tv = lo + static_cast<i64>(rng() % static_cast<u64>(hi - lo + 1)); break;
                // Attenuated / amplified copies of ref (angle test true, gain active).
                case 1: tv = ov * static_cast<i64>(rng() % 5) / 4 + static_cast<i64>(rng() % 3) - 1; break;
                case 2: tv = (rng() % 8 == 0) ? 0 : ov / 2; break;
                default: tv = ov * 2; break;
            }
            t.row(y)[x] = static_cast<T>(std::clamp(tv, lo, hi));
        }
}

/// Optional override of the D rows of o and t after fill_decouple (to mix
/// ranges between orientations).
using DRowFill = void (*)(std::mt19937_64& rng, i32* o, i32* t, int n);

template <typename T, typename Fn>
void check_decouple(Fn get, i64 lo, i64 hi, u64 seed_off, DRowFill d_fill = nullptr) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed() + seed_off);
    for (const auto& [name, k] : variants()) {
        SCOPED_TRACE(name);
        for (int n : widths(1, 67)) {
            for (Fill f : kFills) {
                for (double egl : {1.0, 100.0, 1.0 + static_cast<double>(rng() % 9900) / 100.0}) {
                    GuardedPlane<T> o(n, 3, rng() % 5), t(n, 3, rng() % 5);
                    fill_decouple(rng, f, lo, hi, o, t);
                    if constexpr (std::is_same_v<T, i32>)
                        if (d_fill) d_fill(rng, o.row(2), t.row(2), n);
                    const T* op[3] = {o.row(0), o.row(1), o.row(2)};
                    const T* tp[3] = {t.row(0), t.row(1), t.row(2)};
                    GuardedPlane<T> r0(n, 3), a0(n, 3), r1(n, 3), a1(n, 3);
                    T* rp0[3] = {r0.row(0), r0.row(1), r0.row(2)};
                    T* ap0[3] = {a0.row(0), a0.row(1), a0.row(2)};
                    T* rp1[3] = {r1.row(0), r1.row(1), r1.row(2)};
                    T* ap1[3] = {a1.row(0), a1.row(1), a1.row(2)};
                    get(ref_k())(op, tp, n, egl, rp0, ap0);
                    get(k)(op, tp, n, egl, rp1, ap1);
                    ASSERT_TRUE(same_rows(r0, r1) && same_rows(a0, a1))
                        << "n=" << n << " fill=" << int(f) << " egl=" << egl;
                    ASSERT_TRUE(r1.intact() && a1.intact());
                }
            }
        }
    }
}

TEST(AdmCheckasm, Decouple0) {
    check_decouple<i16>([](const AdmKernels& k) { return k.decouple0; }, -32768, 32767, 4);
}

// Every int16 denominator (the reciprocal of the integer kernels), against
// numerators at the extremes, small, random and proportional values.
TEST(AdmCheckasm, Decouple0AllDenominators) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed() + 40);
    constexpr int n = 65536;
    std::vector<i16> o(3 * n), t(3 * n);
    // The t in [1, |o|] (the unclamped range; the last 2048 of it) where the
    // rounded quotient is most sensitive to an error in L = trunc(2^30 / |o|):
    // (L * t + 2^14) mod 2^15 closest to a multiple of 2^15, relative to t.
    auto boundary_t = [&](i64 ov) {
        const i64 av = ov < 0 ? -ov : ov;
        if (av == 0) return i64{0};
        const i64 L = (i64{1} << 30) / av;
        i64 best = av;
        double best_ratio = 1e30;
        for (i64 tv = av; tv > 0 && tv > av - 2048; --tv) {
            const i64 m = (L * tv + 16384) % 32768;
            const double ratio = static_cast<double>(std::min(m + 1, 32768 - m)) / static_cast<double>(tv);
            if (ratio < best_ratio) best_ratio = ratio, best = tv;
        }
        return ov < 0 ? -best : best;
    };
    for (int pass = 0; pass < 7; ++pass) {
        for (int th = 0; th < 3; ++th)
            for (int j = 0; j < n; ++j) {
                const i64 ov = th == pass % 3 || pass == 6 ? j - 32768 : static_cast<i64>(rng() % 65536) - 32768;
                i64 tv;
                switch (pass) {
                    case 0:
                        tv = static_cast<i64>(rng() % 65536) - 32768;
                        break;
                    case 1:
                        tv = (rng() & 1) ? 32767 : -32768;
                        break;
                    case 2:
                        tv = ov * static_cast<i64>(rng() % 9) / 8 + static_cast<i64>(rng() % 5) - 2;
                        break;
                    case 3:
                        tv = static_cast<i64>(rng() % 9) - 4;
                        break;
                    case 6:
                        tv = th == 0 ? boundary_t(ov) : ov;
                        break;
                    default:
                        tv = ov * (pass == 4 ? 1 : -1);
                        break;
                }
                o[th * n + j] = static_cast<i16>(ov);
                t[th * n + j] = static_cast<i16>(std::clamp<i64>(tv, -32768, 32767));
            }
        const i16* op[3] = {&o[0], &o[n], &o[2 * n]};
        const i16* tp[3] = {&t[0], &t[n], &t[2 * n]};
        std::vector<i16> out0(6 * n), out1(6 * n);
        i16* r0[3] = {&out0[0], &out0[n], &out0[2 * n]};
        i16* a0[3] = {&out0[3 * n], &out0[4 * n], &out0[5 * n]};
        i16* r1[3] = {&out1[0], &out1[n], &out1[2 * n]};
        i16* a1[3] = {&out1[3 * n], &out1[4 * n], &out1[5 * n]};
        for (double egl : {1.0, 100.0, 32767.0, 2.5}) {
            ref_k().decouple0(op, tp, n, egl, r0, a0);
            for (const auto& [name, k] : variants()) {
                std::fill(out1.begin(), out1.end(), i16{0x5a5a});
                k.decouple0(op, tp, n, egl, r1, a1);
                ASSERT_TRUE(out0 == out1) << name << " pass=" << pass << " egl=" << egl;
            }
        }
    }
}

TEST(AdmCheckasm, Decouple123) {
    // Realistic range (|x| < 2^24) and the full int32 range.
    check_decouple<i32>([](const AdmKernels& k) { return k.decouple123; }, -(1 << 24), (1 << 24) - 1, 5);
    check_decouple<i32>([](const AdmKernels& k) { return k.decouple123; }, INT32_MIN, INT32_MAX, 6);
    // Around 2^26 (angle sums near 2^53: exact double vs sticky rounding),
    // 2^22 (|lut * t| near 2^53 when |o| < 2^15) and 2^15 (shift 0/1):
    // Max/Min fills put every lane on either side of them.
    for (const i64 b : {i64{1} << 26, i64{1} << 22, i64{1} << 15}) {
        check_decouple<i32>([](const AdmKernels& k) { return k.decouple123; }, -b, b - 1, 11);
        check_decouple<i32>([](const AdmKernels& k) { return k.decouple123; }, -b + 1, b, 12);
        check_decouple<i32>([](const AdmKernels& k) { return k.decouple123; }, -b - 2, b + 1, 13);
    }
    // H/V in some range, D anywhere in int32 (D is not in the angle test).
    const DRowFill d_full = [](std::mt19937_64& rng, i32* o, i32* t, int n) {
        for (int x = 0; x < n; ++x) {
            const u64 v = rng();
            switch (v % 4) {
                case 0: o[x] = static_cast<i32>(v >> 32); t[x] = static_cast<i32>(rng()); break;
                case 1: o[x] = static_cast<i32>(v >> 40); t[x] = o[x] + static_cast<i32>(rng() % 65) - 32; break;
                case 2: o[x] = static_cast<i32>(rng() % 65536) - 32768; t[x] = static_cast<i32>(rng()); break;
                default: o[x] = (v & 256) ? INT32_MIN : INT32_MAX; t[x] = (v & 512) ? INT32_MIN : o[x] / 2; break;
            }
        }
    };
    check_decouple<i32>([](const AdmKernels& k) { return k.decouple123; }, -(1 << 26) + 1, (1 << 26) - 1, 14, d_full);
    check_decouple<i32>([](const AdmKernels& k) { return k.decouple123; }, -(1 << 20), 1 << 20, 15, d_full);
}

// ---------------------------------------------------------------------------
// CSF

TEST(AdmCheckasm, Csf0) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed() + 7);
    for (const auto& [name, k] : variants()) {
        SCOPED_TRACE(name);
        for (int n : widths(1, 67)) {
            for (Fill f : kFills) {
                for (u16 rf : {u16{36453}, u16{49417}, u16{65535}, u16{0}, static_cast<u16>(rng())}) {
                    for (auto [shift, add] : {std::pair{15, 16384}, std::pair{17, 65535}}) {
                        GuardedPlane<i16> src(n, 1, rng() % 5);
                        src.fill(gen<i16>(rng, f, -32768, 32767));
                        GuardedPlane<i16> o0(n, 1), o1(n, 1);
                        // fsum starts anywhere (wrap-around included).
                        GuardedPlane<i32> s0(n, 1), s1(n, 1);
                        s0.fill(gen<i32>(rng, f, INT32_MIN, INT32_MAX));
                        std::memcpy(s1.row(0), s0.row(0), static_cast<std::size_t>(n) * sizeof(i32));
                        ref_k().csf0(src.row(0), n, rf, shift, add, o0.row(0), s0.row(0));
                        k.csf0(src.row(0), n, rf, shift, add, o1.row(0), s1.row(0));
                        ASSERT_TRUE(same_rows(o0, o1) && same_rows(s0, s1))
                            << "n=" << n << " rf=" << rf << " shift=" << shift;
                        ASSERT_TRUE(o1.intact() && s1.intact());
                    }
                }
            }
        }
    }
}

TEST(AdmCheckasm, Csf123) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed() + 8);
    for (const auto& [name, k] : variants()) {
        SCOPED_TRACE(name);
        for (int n : widths(1, 67)) {
            for (Fill f : kFills) {
                for (u32 rf : {u32{173040426}, u32{0}, u32{0xffffffff}, u32{0x80000000}, static_cast<u32>(rng())}) {
                    GuardedPlane<i32> src(n, 1, rng() % 5);
                    src.fill(gen<i32>(rng, f, INT32_MIN, INT32_MAX));
                    GuardedPlane<i32> o0(n, 2), o1(n, 2);  // rows: out, fsum
                    o0.fill(gen<i32>(rng, f, INT32_MIN, INT32_MAX));
                    for (unsigned y = 0; y < 2; ++y)
                        std::memcpy(o1.row(y), o0.row(y), static_cast<std::size_t>(n) * sizeof(i32));
                    ref_k().csf123(src.row(0), n, rf, o0.row(0), o0.row(1));
                    k.csf123(src.row(0), n, rf, o1.row(0), o1.row(1));
                    ASSERT_TRUE(same_rows(o0, o1)) << "n=" << n << " rf=" << rf << " fill=" << int(f);
                    ASSERT_TRUE(o1.intact());
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// den

TEST(AdmCheckasm, Den0) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed() + 9);
    for (const auto& [name, k] : variants()) {
        SCOPED_TRACE(name);
        for (int n : widths(1, 67)) {
            for (Fill f : kFills) {
                GuardedPlane<i16> src(n, 1, rng() % 5);
                src.fill(gen<i16>(rng, f, -32768, 32767));
                ASSERT_EQ(ref_k().den0(src.row(0), n), k.den0(src.row(0), n)) << "n=" << n << " fill=" << int(f);
            }
        }
    }
}

TEST(AdmCheckasm, Den123) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed() + 10);
    for (const auto& [name, k] : variants()) {
        SCOPED_TRACE(name);
        for (int n : widths(1, 67)) {
            for (Fill f : kFills) {
                for (u32 shift_sq : {31u, 30u, 29u}) {
                    const u32 shift_cub = static_cast<u32>(rng() % 12);
                    const u64 add_cub = shift_cub ? u64{1} << (shift_cub - 1) : 0;
                    GuardedPlane<i32> src(n, 1, rng() % 5);
                    src.fill(gen<i32>(rng, f, INT32_MIN, INT32_MAX));
                    const u64 add_sq = u64{1} << shift_sq;
                    ASSERT_EQ(ref_k().den123(src.row(0), n, shift_sq, add_sq, shift_cub, add_cub),
                              k.den123(src.row(0), n, shift_sq, add_sq, shift_cub, add_cub))
                        << "n=" << n << " fill=" << int(f) << " shift_sq=" << shift_sq;
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// contrast masking

template <typename T, typename Fn>
void check_cm(Fn get, const std::vector<std::array<u32, 3>>& rfs, i64 lo, i64 hi, u64 seed_off) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed() + seed_off);
    for (const auto& [name, k] : variants()) {
        SCOPED_TRACE(name);
        for (int w : widths(2, 67)) {
            for (Fill f : kFills) {
                for (const auto& rf : rfs) {
                    // 3 fsum rows (up, centre, down), masker and target x 3 orientations.
                    GuardedPlane<i32> fs(w, 3, rng() % 5);
                    GuardedPlane<T> msk(w, 3, rng() % 5), tgt(w, 3, rng() % 5);
                    // fsum of three orientations' flt values of the band's range (or anything).
                    const i64 fs_lo = f == Fill::MaxMin ? INT32_MIN : 3 * lo,
                              fs_hi = f == Fill::MaxMin ? INT32_MAX : 3 * hi;
                    fs.fill(gen<i32>(rng, f, std::max<i64>(fs_lo, INT32_MIN), std::min<i64>(fs_hi, INT32_MAX)));
                    msk.fill(gen<T>(rng, f, lo, hi));
                    tgt.fill(gen<T>(rng, f == Fill::Zero ? Fill::Random : f, lo, hi));
                    if (f == Fill::Small) {  // realistic: flt ~ |masker| / 30 >= 0
                        for (unsigned y = 0; y < 3; ++y)
                            for (int x = 0; x < w; ++x) fs.row(y)[x] = static_cast<i32>(std::abs(i64{fs.row(y)[x]}));
                    }
                    CmRow<T> row{};
                    for (int r = 0; r < 3; ++r) row.fsum[r] = fs.row(static_cast<unsigned>(r));
                    for (int t = 0; t < 3; ++t) {
                        row.masker[t] = msk.row(static_cast<unsigned>(t));
                        row.target[t] = tgt.row(static_cast<unsigned>(t));
                        row.rf[t] = rf[t];
                    }
                    const u32 sc = static_cast<u32>(rng() % 16);
                    for (int t = 0; t < 3; ++t) {
                        row.shift_cub[t] = sc + (t == 2 ? 1 : 0);
                        row.add_cub[t] = row.shift_cub[t] ? i64{1} << (row.shift_cub[t] - 1) : 0;
                    }
                    row.w = w;
                    const int margin = static_cast<int>(rng() % 3);
                    for (auto [j0, j1] : {std::pair{0, w}, std::pair{1, w - 1}, std::pair{margin, w - margin}}) {
                        if (j1 <= j0) continue;
                        row.j0 = j0;
                        row.j1 = j1;
                        i64 in0[3] = {1, -2, 3}, in1[3] = {1, -2, 3};
                        get(ref_k())(row, in0);
                        get(k)(row, in1);
                        ASSERT_TRUE(in0[0] == in1[0] && in0[1] == in1[1] && in0[2] == in1[2])
                            << "w=" << w << " [" << j0 << "," << j1 << ") fill=" << int(f) << " rf=" << rf[0];
                    }
                }
            }
        }
    }
}

TEST(AdmCheckasm, Cm0) {
    std::mt19937_64 rng(test::checkasm_seed() + 11);
    const u32 r = static_cast<u32>(rng() & 0xffff);
    check_cm<i16>([](const AdmKernels& k) { return k.cm0; },
                  {{36453, 36453, 49417}, {65535, 65535, 65535}, {0, 1, 2}, {r, r, r ^ 0x5555}}, -32768, 32767, 12);
}

TEST(AdmCheckasm, Cm123) {
    std::mt19937_64 rng(test::checkasm_seed() + 13);
    const u32 r = static_cast<u32>(rng());
    const std::vector<std::array<u32, 3>> rfs = {
        {173040426, 173040426, 116870563}, {0xffffffff, 0x80000000, 0x7fffffff}, {r, r, r >> 1}};
    check_cm<i32>([](const AdmKernels& k) { return k.cm123; }, rfs, -(1 << 24), (1 << 24) - 1, 14);
    check_cm<i32>([](const AdmKernels& k) { return k.cm123; }, rfs, INT32_MIN, INT32_MAX, 15);
}

// ---------------------------------------------------------------------------
// Whole pipeline on guarded planes (stride > width), smallest sizes and odd
// heights, every depth, every variant.

TEST(AdmCheckasm, PipelineSmallSizes) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed() + 16);
    const std::pair<unsigned, unsigned> sizes[] = {{33, 33}, {34, 33}, {33, 35}, {35, 47}, {47, 33},
                                                   {64, 37}, {97, 41}, {130, 67}, {67, 129}};
    for (unsigned bpc : {8u, 10u, 12u, 16u}) {
        for (const auto& size : sizes) {
            const unsigned w = size.first, h = size.second;  // named: clang 14 cannot capture structured bindings
            for (int mode = 0; mode < 3; ++mode) {
                auto make = [&](GuardedPlane<u16>& g16, GuardedPlane<std::uint8_t>& g8, bool dist) {
                    const u32 max = (1u << bpc) - 1;
                    for (unsigned y = 0; y < h; ++y)
                        for (unsigned x = 0; x < w; ++x) {
                            u32 v;
                            if (mode == 0)
                                v = static_cast<u32>(rng() % (max + 1));
                            else if (mode == 1)
                                v = ((x * 7 + y * 13 + (dist ? (x / 3) * 5 : 0)) * (max / 255)) % (max + 1);
                            else
                                v = dist ? 0 : max;
                            if (bpc == 8)
                                g8.row(y)[x] = static_cast<std::uint8_t>(v);
                            else
                                g16.row(y)[x] = static_cast<u16>(v);
                        }
                };
                GuardedPlane<u16> r16(w, h, 7), d16(w, h, 3);
                GuardedPlane<std::uint8_t> r8(w, h, 5), d8(w, h, 9);
                make(r16, r8, false);
                make(d16, d8, true);
                Plane rp, dp;
                if (bpc == 8) {
                    rp = Plane{r8.data(), r8.stride_bytes(), w, h};
                    dp = Plane{d8.data(), d8.stride_bytes(), w, h};
                } else {
                    rp = Plane{r16.data(), r16.stride_bytes(), w, h};
                    dp = Plane{d16.data(), d16.stride_bytes(), w, h};
                }
                const Result want = compute(rp, dp, bpc, Params{}, ref_k());
                for (const auto& [name, k] : variants()) {
                    const Result got = compute(rp, dp, bpc, Params{}, k);
                    for (int s = 0; s < 4; ++s) {
                        ASSERT_EQ(want.num_scale[s], got.num_scale[s])
                            << name << " bpc=" << bpc << " " << w << "x" << h << " mode=" << mode << " s=" << s;
                        ASSERT_EQ(want.den_scale[s], got.den_scale[s]) << name << " s=" << s;
                        ASSERT_EQ(want.aim_scale[s], got.aim_scale[s]) << name << " s=" << s;
                    }
                    ASSERT_EQ(want.score, got.score) << name;
                    ASSERT_EQ(want.score_aim, got.score_aim) << name;
                }
                // A group of gain limits in one call (VMAF + NEG, and more):
                // each equals the scalar reference run with that limit alone.
                const double limits[] = {100.0, 1.0, 1.5};
                Result single[3];
                for (int g = 0; g < 3; ++g) {
                    Params p;
                    p.enhn_gain_limit = limits[g];
                    single[g] = compute(rp, dp, bpc, p, ref_k());
                }
                for (const auto& [name, k] : variants()) {
                    Result group[3];
                    compute(rp, dp, bpc, Params{}, limits, group, k);
                    for (int g = 0; g < 3; ++g) {
                        for (int s = 0; s < 4; ++s) {
                            ASSERT_EQ(single[g].num_scale[s], group[g].num_scale[s])
                                << name << " group limit " << limits[g] << " bpc=" << bpc << " " << w << "x" << h
                                << " mode=" << mode << " s=" << s;
                            ASSERT_EQ(single[g].den_scale[s], group[g].den_scale[s]) << name << " s=" << s;
                            ASSERT_EQ(single[g].aim_scale[s], group[g].aim_scale[s]) << name << " s=" << s;
                        }
                        ASSERT_EQ(single[g].score, group[g].score) << name;
                        ASSERT_EQ(single[g].score_aim, group[g].score_aim) << name;
                    }
                }
                ASSERT_TRUE(r16.intact() && d16.intact() && r8.intact() && d8.intact());
            }
        }
    }
}

// ---------------------------------------------------------------------------
// The extractor at several --cpumask values on a real clip: identical scores.

class Collect final : public ScoreWriter {
public:
    std::map<unsigned, std::map<unsigned, double>> frames;
    void write(unsigned frame, unsigned output, double value) override { frames[frame][output] = value; }
    void write_aggregate(unsigned, double) override {}
};

TEST(AdmCheckasm, ExtractorCpumasksAgreeOnClip) {
    const auto info = test::pair_info("p01_crf35");
    const std::string ref_path = test::clip_path("p01_576x324_yuv420p_ref.yuv");
    const std::string dist_path = test::clip_path("p01_576x324_yuv420p_crf35.yuv");
    const OptionDict dict = {{"debug", "true"}};
    const OptionValues opts(kAdmInfo.options, dict, "adm");
    std::map<unsigned, Collect> out;
    const unsigned frames = std::min(info.frames, 12u);
    for (unsigned mask : {63u, 0u, 16u, 48u, 56u}) {
        ExtractorContext ctx;
        ctx.cpumask = mask;
        auto fex = kAdmInfo.create(opts, info.geom, ctx);
        for (unsigned f = 0; f < frames; ++f) {
            const Picture ref = test::load_raw_frame(ref_path, info.geom, f);
            const Picture dist = test::load_raw_frame(dist_path, info.geom, f);
            auto st = fex->compute(f, ref, dist);
            fex->finish(f, *st, out[mask]);
        }
    }
    for (unsigned mask : {0u, 16u, 48u, 56u}) {
        ASSERT_EQ(out[mask].frames.size(), frames);
        for (unsigned f = 0; f < frames; ++f) {
            ASSERT_EQ(out[mask].frames[f].size(), kAdmInfo.outputs.size());
            for (const auto& [o, v] : out[63].frames[f])
                EXPECT_EQ(out[mask].frames[f][o], v) << "cpumask " << mask << " frame " << f << " " << kAdmInfo.outputs[o];
        }
    }
}

}  // namespace
