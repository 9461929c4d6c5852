// checkasm-style test of the SSIMULACRA 2 kernels: every compiled SIMD target
// against the scalar reference, bit for bit, on random and edge inputs, with
// guard zones around every output.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "features/ssimulacra2/ssimulacra2_core.hpp"
#include "features/ssimulacra2/ssimulacra2_kernels.hpp"
#include "support/checkasm.hpp"

namespace {

using namespace vmaf;
using namespace vmaf::ssimulacra2;
using test::GuardedPlane;

const unsigned kWidths[] = {1, 2, 3, 7, 8, 15, 16, 17, 31, 33, 64, 67, 130};

bool same_bits(const float* a, const float* b, std::size_t n) {
    return std::memcmp(a, b, n * sizeof(float)) == 0;
}

std::vector<float> uniform(std::mt19937_64& rng, std::size_t n, float lo, float hi) {
    std::uniform_real_distribution<float> u(lo, hi);
    std::vector<float> v(n);
    for (float& x : v) x = u(rng);
    return v;
}

class Ssimulacra2Checkasm : public ::testing::Test {
protected:
    void SetUp() override {
        variants_ = ssimulacra2_registry().variants();
        if (variants_.empty()) GTEST_SKIP() << "no SIMD target on this CPU";
    }
    std::vector<std::pair<std::string, Kernels>> variants_;
    const Kernels ref_{};
};

TEST_F(Ssimulacra2Checkasm, YuvToLinearRow) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed());
    for (const auto& [name, k] : variants_)
        for (unsigned bpc : {8u, 10u, 12u, 16u})
            for (int m = 0; m < 4; ++m)
                for (unsigned n : kWidths) {
                    SCOPED_TRACE(name + " bpc " + std::to_string(bpc) + " matrix " + std::to_string(m) + " n " +
                                 std::to_string(n));
                    const YuvCoeffs c = yuv_coeffs(static_cast<YuvMatrix>(m), bpc);
                    const float top = static_cast<float>((1u << bpc) - 1);
                    std::vector<float> y = uniform(rng, n, 0, top), u = uniform(rng, n, 0, top),
                                       v = uniform(rng, n, 0, top);
                    for (auto* p : {&y, &u, &v})
                        for (float& s : *p) s = static_cast<float>(static_cast<unsigned>(s));  // code values
                    y[0] = 0;  // extremes: clamping and the linear segment
                    u[n - 1] = top;
                    GuardedPlane<float> o1(n, 3), o2(n, 3);
                    ref_.yuv_to_linear_row(y.data(), u.data(), v.data(), o1.row(0), o1.row(1), o1.row(2), n, c);
                    k.yuv_to_linear_row(y.data(), u.data(), v.data(), o2.row(0), o2.row(1), o2.row(2), n, c);
                    for (unsigned r = 0; r < 3; ++r) EXPECT_TRUE(same_bits(o1.row(r), o2.row(r), n));
                    EXPECT_TRUE(o2.intact());
                }
}

TEST_F(Ssimulacra2Checkasm, DownsampleRow) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed());
    for (const auto& [name, k] : variants_)
        for (unsigned w : kWidths) {
            SCOPED_TRACE(name + " width " + std::to_string(w));
            const std::vector<float> a = uniform(rng, w, 0, 1), b = uniform(rng, w, 0, 1);
            const unsigned ow = (w + 1) / 2;
            GuardedPlane<float> o1(ow, 1), o2(ow, 1);
            ref_.downsample_row(a.data(), b.data(), w, o1.row(0));
            k.downsample_row(a.data(), b.data(), w, o2.row(0));
            EXPECT_TRUE(same_bits(o1.row(0), o2.row(0), ow));
            EXPECT_TRUE(o2.intact());
        }
}

TEST_F(Ssimulacra2Checkasm, XybRow) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed());
    for (const auto& [name, k] : variants_)
        for (unsigned n : kWidths) {
            SCOPED_TRACE(name + " n " + std::to_string(n));
            std::vector<float> r = uniform(rng, n, 0, 1), g = uniform(rng, n, 0, 1), b = uniform(rng, n, 0, 1);
            r[0] = g[0] = b[0] = 0.0f;  // black, white, tiny
            if (n > 1) r[1] = g[1] = b[1] = 1.0f;
            if (n > 2) r[2] = 1e-30f;
            GuardedPlane<float> o1(n, 3), o2(n, 3);
            ref_.xyb_row(r.data(), g.data(), b.data(), o1.row(0), o1.row(1), o1.row(2), n);
            k.xyb_row(r.data(), g.data(), b.data(), o2.row(0), o2.row(1), o2.row(2), n);
            for (unsigned i = 0; i < 3; ++i) EXPECT_TRUE(same_bits(o1.row(i), o2.row(i), n));
            EXPECT_TRUE(o2.intact());
            std::vector<float> x = r, y = g, z = b;  // in place
            k.xyb_row(x.data(), y.data(), z.data(), x.data(), y.data(), z.data(), n);
            EXPECT_TRUE(same_bits(o1.row(0), x.data(), n) && same_bits(o1.row(1), y.data(), n) &&
                        same_bits(o1.row(2), z.data(), n));
        }
}

TEST_F(Ssimulacra2Checkasm, Blur) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed());
    const std::pair<unsigned, unsigned> sizes[] = {{1, 1}, {3, 5}, {8, 8}, {17, 9}, {33, 40}, {64, 19}, {130, 37}};
    for (const auto& [name, k] : variants_)
        for (auto [w, h] : sizes)
            for (int fill = 0; fill < 2; ++fill) {
                SCOPED_TRACE(name + " " + std::to_string(w) + "x" + std::to_string(h));
                GuardedPlane<float> in(w, h, 3);
                std::uniform_real_distribution<float> u(0, 1);
                in.fill([&] { return fill ? u(rng) : 1.0f; });
                auto view = [](GuardedPlane<float>& p) { return PlaneF{p.data(), p.stride(), p.width(), p.height()}; };
                std::vector<float> scratch(blur_scratch_floats(w));
                GuardedPlane<float> in2(w, h, 1);
                in2.fill([&] { return u(rng); });
                for (int pass = 0; pass < 3; ++pass) {  // horizontal, horizontal of a product, vertical
                    GuardedPlane<float> o1(w, h, 5), o2(w, h, 5);
                    if (pass == 0) {
                        ref_.blur_h(view(in), view(o1), scratch.data());
                        k.blur_h(view(in), view(o2), scratch.data());
                    } else if (pass == 1) {
                        ref_.blur_h_product(view(in), view(in2), view(o1), scratch.data());
                        k.blur_h_product(view(in), view(in2), view(o2), scratch.data());
                    } else {
                        ref_.blur_v(view(in), view(o1), scratch.data());
                        k.blur_v(view(in), view(o2), scratch.data());
                    }
                    for (unsigned y = 0; y < h; ++y) EXPECT_TRUE(same_bits(o1.row(y), o2.row(y), w)) << "row " << y;
                    EXPECT_TRUE(o2.intact());
                }
            }
}

TEST_F(Ssimulacra2Checkasm, MapValuesRow) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed());
    for (const auto& [name, k] : variants_)
        for (unsigned n : kWidths) {
            SCOPED_TRACE(name + " n " + std::to_string(n));
            // Realistic ranges: XYB-like samples, blurred means near them,
            // second moments slightly above the squared means.
            std::vector<float> i1 = uniform(rng, n, 0, 1), i2 = uniform(rng, n, 0, 1);
            std::vector<float> m1(n), m2(n), s11(n), s22(n), s12(n);
            const std::vector<float> e = uniform(rng, 5 * n, -0.05f, 0.05f);
            for (unsigned x = 0; x < n; ++x) {
                m1[x] = i1[x] + e[x];
                m2[x] = i2[x] + e[n + x];
                s11[x] = m1[x] * m1[x] + std::abs(e[2 * n + x]);
                s22[x] = m2[x] * m2[x] + std::abs(e[3 * n + x]);
                s12[x] = m1[x] * m2[x] + e[4 * n + x] * 0.1f;
            }
            if (n > 1) {  // identical pixel: ssim and edge maps exactly 0
                i2[1] = i1[1];
                m2[1] = m1[1];
                s22[1] = s12[1] = s11[1];
            }
            GuardedPlane<double> o1(n, 3), o2(n, 3);
            ref_.map_values_row(i1.data(), m1.data(), i2.data(), m2.data(), s11.data(), s22.data(), s12.data(), n,
                                o1.row(0), o1.row(1), o1.row(2));
            k.map_values_row(i1.data(), m1.data(), i2.data(), m2.data(), s11.data(), s22.data(), s12.data(), n,
                             o2.row(0), o2.row(1), o2.row(2));
            for (unsigned r = 0; r < 3; ++r) EXPECT_EQ(0, std::memcmp(o1.row(r), o2.row(r), n * sizeof(double)));
            EXPECT_TRUE(o2.intact());
        }
}

}  // namespace
