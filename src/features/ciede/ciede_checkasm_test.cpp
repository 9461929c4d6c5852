// checkasm-style test of the CIEDE2000 kernel table: the colour-difference
// kernel of every SIMD variant against the scalar reference, bit for bit, on
// colours of real YUV samples (every depth) and on edge colours (equal pairs,
// achromatic points, hues across the +-pi wrap, extreme values).
#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <vector>

#include "features/ciede/ciede_color.hpp"
#include "features/ciede/ciede_kernels.hpp"
#include "support/checkasm.hpp"

namespace {

using namespace vmaf;

struct Pairs {
    std::vector<float> c[6];
    void add(const ciede::Lab& x, const ciede::Lab& y) {
        c[0].push_back(x.l), c[1].push_back(x.a), c[2].push_back(x.b);
        c[3].push_back(y.l), c[4].push_back(y.a), c[5].push_back(y.b);
    }
};

void check(const ciede::CiedeKernels& k, Pairs p) {
    const std::size_t n = p.c[0].size();
    const std::size_t cap = (n + ciede::kColumnPad - 1) / ciede::kColumnPad * ciede::kColumnPad;
    for (auto& v : p.c) v.resize(cap, 0.f);
    const ciede::LabColumns in{p.c[0].data(), p.c[1].data(), p.c[2].data(),
                               p.c[3].data(), p.c[4].data(), p.c[5].data()};
    std::vector<float> want(cap), got(cap + 1, -1.f);
    ciede::delta_e_columns(in, n, want.data());
    k.delta_e(in, n, got.data());
    for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(std::bit_cast<std::uint32_t>(want[i]), std::bit_cast<std::uint32_t>(got[i]))
            << "pair " << i << " of " << n << ": (" << in.l1[i] << "," << in.a1[i] << "," << in.b1[i] << ") vs ("
            << in.l2[i] << "," << in.a2[i] << "," << in.b2[i] << "): " << want[i] << " vs " << got[i];
    ASSERT_EQ(got[cap], -1.f) << "wrote past the padded columns";
}

TEST(CiedeCheckasm, DeltaEEveryVariantBitExact) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed());
    const auto variants = ciede::ciede_registry().variants();
    ASSERT_FALSE(variants.empty());
    for (const auto& [name, k] : variants) {
        SCOPED_TRACE(name);
        for (unsigned bpc : {8u, 10u, 12u, 16u}) {  // colours of random samples, near and far pairs
            std::uniform_int_distribution<unsigned> s(0, (1u << bpc) - 1), near(0, 2u << (bpc - 8));
            for (std::size_t n : {1u, 3u, 16u, 37u, 500u}) {
                Pairs p;
                for (std::size_t i = 0; i < n; ++i) {
                    const unsigned y = s(rng), u = s(rng), v = s(rng);
                    const bool close = i % 2;
                    const unsigned y2 = close ? std::min(y + near(rng), (1u << bpc) - 1) : s(rng);
                    const unsigned u2 = close ? u : s(rng),
                                   v2 = close ? std::min(v + near(rng), (1u << bpc) - 1) : s(rng);
                    p.add(ciede::yuv_to_lab(y, u, v, bpc), ciede::yuv_to_lab(y2, u2, v2, bpc));
                }
                check(k, p);
            }
        }
        Pairs e;  // edge colours
        const ciede::Lab grey{50.f, 0.f, 0.f}, black{0.f, 0.f, 0.f}, red{53.f, 80.f, 67.f}, blue{32.f, 79.f, -108.f};
        for (const auto& x : {grey, black, red, blue}) {
            e.add(x, x);
            e.add(x, grey);
            e.add(grey, x);
        }
        e.add({50.f, -1e-3f, 1e-3f}, {50.f, -1e-3f, -1e-3f});  // hues either side of +-pi
        e.add({50.f, -40.f, 0.5f}, {50.f, -40.f, -0.5f});
        e.add({100.f, 127.f, 127.f}, {0.f, -128.f, -128.f});
        e.add({50.f, 0.f, 30.f}, {50.f, 0.f, -30.f});
        e.add({50.f, 1e-20f, 0.f}, {50.f, 0.f, 1e-20f});
        check(k, e);
    }
}

}  // namespace
