// checkasm-style test of the SSIM kernels (valid convolutions, SSIM map row,
// decimation): every compiled SIMD variant against the scalar reference, bit
// for bit (floats and the double sums compared as bit patterns), on random,
// extreme, flat and tiny inputs, with guard zones; then whole float_ssim and
// float_ms_ssim runs across cpumasks.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/ssim_common/ssim_core.hpp"
#include "features/ssim_common/ssim_kernels.hpp"
#include "support/checkasm.hpp"

namespace vmaf {
extern const ExtractorInfo kFloatSsimInfo;
extern const ExtractorInfo kFloatMsSsimInfo;
}  // namespace vmaf

namespace {

using namespace vmaf::ssimfeat;
using vmaf::test::GuardedPlane;
using vmaf::test::seed_trace;

std::vector<std::pair<std::string, SsimKernels>> variants() {
    auto v = ssim_registry().variants();
    EXPECT_FALSE(v.empty()) << "no SIMD variant registered";
    return v;
}

bool same_bits(float a, float b) {
    return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}
bool same_bits(double a, double b) {
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

enum class Fill { Random, Extreme, Flat };

/// Samples in the 8-bit float range (as the features see them), or edge values.
void fill(GuardedPlane<float>& p, std::mt19937& rng, Fill how) {
    std::uniform_real_distribution<float> u(0.0f, 255.0f);
    p.fill([&]() -> float {
        switch (how) {
            case Fill::Random:
                return u(rng);
            case Fill::Extreme: {
                const float v[] = {0.0f, -0.0f, 255.0f, 1e-30f, 255.99609375f, 0.25f};
                return v[rng() % 6];
            }
            case Fill::Flat:
                return 77.25f;
        }
        return 0.0f;
    });
}

const float kGauss[11] = {0.001028f, 0.007599f, 0.036001f, 0.109361f, 0.213006f, 0.266012f,
                          0.213006f, 0.109361f, 0.036001f, 0.007599f, 0.001028f};
const int kWidths[] = {1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 257, 566};

TEST(SsimCheckasm, ConvHMatchesReference) {
    SCOPED_TRACE(seed_trace());
    std::mt19937 rng(static_cast<unsigned>(vmaf::test::checkasm_seed()));
    for (const auto& [name, k] : variants())
        for (Tap tap : {Tap::Value, Tap::Square, Tap::Product})
            for (Fill how : {Fill::Random, Fill::Extreme, Fill::Flat})
                for (int n : kWidths) {
                    const unsigned w = static_cast<unsigned>(n + 10);
                    GuardedPlane<float> a(w, 1), b(w, 1), ref(n, 1), out(n, 1);
                    fill(a, rng, how);
                    fill(b, rng, how);
                    conv_h(kGauss, 11, a.data(), b.data(), tap, ref.data(), n);
                    k.conv_h(kGauss, 11, a.data(), b.data(), tap, out.data(), n);
                    for (int x = 0; x < n; ++x)
                        ASSERT_TRUE(same_bits(ref.data()[x], out.data()[x]))
                            << name << " tap " << static_cast<int>(tap) << " n " << n << " x " << x;
                    ASSERT_TRUE(out.intact()) << name << " wrote outside its row";
                }
}

TEST(SsimCheckasm, ConvVMatchesReference) {
    SCOPED_TRACE(seed_trace());
    std::mt19937 rng(static_cast<unsigned>(vmaf::test::checkasm_seed()));
    for (const auto& [name, k] : variants())
        for (Fill how : {Fill::Random, Fill::Extreme, Fill::Flat})
            for (int n : kWidths) {
                GuardedPlane<float> src(n, 11), ref(n, 1), out(n, 1);
                fill(src, rng, how);
                const float* rows[11];
                for (unsigned v = 0; v < 11; ++v) rows[v] = src.row(v);
                conv_v(kGauss, 11, rows, ref.data(), n);
                k.conv_v(kGauss, 11, rows, out.data(), n);
                for (int x = 0; x < n; ++x)
                    ASSERT_TRUE(same_bits(ref.data()[x], out.data()[x])) << name << " n " << n << " x " << x;
                ASSERT_TRUE(out.intact()) << name << " wrote outside its row";
            }
}

/// Filtered statistics as the SSIM map sees them: local means and second
/// moments of random, edge or flat windows (variances may round below 0).
void make_stats(std::mt19937& rng, Fill how, int n, std::vector<std::vector<float>>& st) {
    GuardedPlane<float> a(n + 10, 11), b(n + 10, 11);
    fill(a, rng, how);
    fill(b, rng, how);
    if (rng() % 2) b = a;  // identical windows: the clamped-covariance corner case
    st.assign(5, std::vector<float>(n));
    const Tap taps[5] = {Tap::Value, Tap::Value, Tap::Square, Tap::Square, Tap::Product};
    std::vector<float> h(static_cast<std::size_t>(11 * n));
    for (int i = 0; i < 5; ++i) {
        const float* rows[11];
        for (unsigned v = 0; v < 11; ++v) {
            const float* src = (i == 1 || i == 3) ? b.row(v) : a.row(v);
            conv_h(kGauss, 11, src, b.row(v), taps[i], h.data() + v * n, n);
            rows[v] = h.data() + v * n;
        }
        conv_v(kGauss, 11, rows, st[i].data(), n);
    }
}

TEST(SsimCheckasm, SsimRowMatchesReference) {
    SCOPED_TRACE(seed_trace());
    std::mt19937 rng(static_cast<unsigned>(vmaf::test::checkasm_seed()));
    const SsimConsts c = ssim_consts();
    for (const auto& [name, k] : variants())
        for (Fill how : {Fill::Random, Fill::Extreme, Fill::Flat})
            for (int n : {1, 3, 4, 8, 9, 16, 255, 256, 257, 600}) {
                std::vector<std::vector<float>> s;
                make_stats(rng, how, n, s);
                SsimSums ref{0.5, 0.25, -1.0, 3.0}, out = ref;  // sums continue from earlier rows
                ssim_row(s[0].data(), s[1].data(), s[2].data(), s[3].data(), s[4].data(), n, c, ref);
                k.ssim_row(s[0].data(), s[1].data(), s[2].data(), s[3].data(), s[4].data(), n, c, out);
                ASSERT_TRUE(same_bits(ref.ssim, out.ssim) && same_bits(ref.l, out.l) && same_bits(ref.c, out.c) &&
                            same_bits(ref.s, out.s))
                    << name << " n " << n << " fill " << static_cast<int>(how);
            }
}

TEST(SsimCheckasm, DecimateRowMatchesReference) {
    SCOPED_TRACE(seed_trace());
    std::mt19937 rng(static_cast<unsigned>(vmaf::test::checkasm_seed()));
    std::uniform_real_distribution<float> uk(-0.1f, 0.4f);
    for (const auto& [name, k] : variants())
        for (int step = 1; step <= 6; ++step)
            for (int kw : {2, 3, 4, 9, 10})
                for (Fill how : {Fill::Random, Fill::Extreme})
                    for (int n : {1, 2, 3, 5, 8, 9, 17, 100}) {
                        std::vector<float> ker(static_cast<std::size_t>(kw * kw));
                        for (float& v : ker) v = uk(rng);
                        // Rows hold exactly the samples the contract lets a kernel read.
                        const unsigned len = static_cast<unsigned>((n - 1) * step + kw);
                        GuardedPlane<float> src(len, static_cast<unsigned>(kw)), ref(n, 1), out(n, 1);
                        fill(src, rng, how);
                        std::vector<const float*> rows;
                        for (int v = 0; v < kw; ++v) rows.push_back(src.row(static_cast<unsigned>(v)));
                        decimate_row(ker.data(), kw, kw, rows.data(), step, ref.data(), n);
                        k.decimate_row(ker.data(), kw, kw, rows.data(), step, out.data(), n);
                        for (int x = 0; x < n; ++x)
                            ASSERT_TRUE(same_bits(ref.data()[x], out.data()[x]))
                                << name << " step " << step << " kw " << kw << " n " << n << " x " << x;
                        ASSERT_TRUE(out.intact()) << name << " wrote outside its row";
                    }
}

/// decimate() (edge strips + in-place interior) against the definition:
/// sample mirror(x * f - kw/2 + u), rows alike, summed in double v-major.
TEST(SsimCheckasm, DecimateEqualsDefinitionAtEveryEdge) {
    SCOPED_TRACE(seed_trace());
    std::mt19937 rng(static_cast<unsigned>(vmaf::test::checkasm_seed()));
    std::uniform_real_distribution<float> u(0.0f, 255.0f), uk(-0.1f, 0.4f);
    auto mirror = [](int i, int n) { return i < 0 ? -1 - i : (i >= n ? 2 * n - 1 - i : i); };
    for (const auto& [name, k] : variants())
        for (int f = 2; f <= 6; ++f)
            for (int kw : {f, 9})
                for (unsigned w : {23u, 24u, 37u, 64u})
                    for (unsigned h : {12u, 13u}) {
                        FloatImage img(w, h);
                        for (unsigned y = 0; y < h; ++y)
                            for (unsigned x = 0; x < w; ++x) img.row(y)[x] = u(rng);
                        std::vector<float> ker(static_cast<std::size_t>(kw * kw));
                        for (float& v : ker) v = uk(rng);
                        const FloatImage out = decimate(k, img, f, ker.data(), kw);
                        ASSERT_EQ(out.w, decimated_size(w, f));
                        ASSERT_EQ(out.h, decimated_size(h, f));
                        for (int y = 0; y < static_cast<int>(out.h); ++y)
                            for (int x = 0; x < static_cast<int>(out.w); ++x) {
                                double sum = 0.0;
                                for (int v = 0; v < kw; ++v)
                                    for (int t = 0; t < kw; ++t)
                                        sum += img.at(static_cast<unsigned>(mirror(x * f - kw / 2 + t, int(w))),
                                                      static_cast<unsigned>(mirror(y * f - kw / 2 + v, int(h)))) *
                                               ker[v * kw + t];
                                ASSERT_TRUE(same_bits(static_cast<float>(sum), out.at(x, y)))
                                    << name << " f " << f << " kw " << kw << " " << w << "x" << h << " at " << x << ","
                                    << y;
                            }
                    }
}

vmaf::Picture noise_picture(unsigned w, unsigned h, unsigned bpc, std::mt19937& rng) {
    vmaf::Picture p(vmaf::PixelFormat::Yuv400, bpc, w, h);
    std::uniform_int_distribution<unsigned> u(0, (1u << bpc) - 1);
    for (unsigned y = 0; y < h; ++y)
        for (unsigned x = 0; x < w; ++x) {
            const unsigned v = (x * 3 + y * 5) % (1u << bpc) / 2 + u(rng) / 2;
            if (bpc == 8)
                p.plane(0).row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
            else
                p.plane(0).row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
        }
    return p;
}

/// Whole extractors: the scalar table (cpumask 255 disables every SIMD
/// target) and the default selection give the same scores, bit for bit.
TEST(SsimCheckasm, ExtractorsAgreeAcrossCpumasks) {
    SCOPED_TRACE(seed_trace());
    std::mt19937 rng(static_cast<unsigned>(vmaf::test::checkasm_seed()));
    struct Case {
        const vmaf::ExtractorInfo* info;
        vmaf::OptionDict opts;
        unsigned w, h, bpc;
    };
    const Case cases[] = {
        {&vmaf::kFloatSsimInfo, {{"enable_lcs", "true"}}, 203, 97, 8},
        {&vmaf::kFloatSsimInfo, {{"scale", "2"}, {"enable_lcs", "true"}}, 203, 97, 10},
        {&vmaf::kFloatSsimInfo, {{"scale", "3"}}, 301, 100, 8},
        {&vmaf::kFloatSsimInfo, {{"scale", "4"}}, 301, 100, 8},
        {&vmaf::kFloatSsimInfo, {{"scale", "5"}}, 301, 100, 12},
        {&vmaf::kFloatMsSsimInfo, {{"enable_lcs", "true"}}, 179, 181, 8},
    };
    for (const Case& c : cases) {
        const vmaf::Picture r = noise_picture(c.w, c.h, c.bpc, rng), d = noise_picture(c.w, c.h, c.bpc, rng);
        auto run = [&](unsigned cpumask) {
            const vmaf::OptionValues opts(c.info->options, c.opts, c.info->name);
            auto ex = c.info->create(opts, {vmaf::PixelFormat::Yuv400, c.bpc, c.w, c.h}, {.cpumask = cpumask});
            return static_cast<const vmaf::FeatureExtractor&>(*ex).compute(0, r, d)->scores;
        };
        const auto ref = run(255), out = run(0);
        ASSERT_EQ(ref.size(), out.size());
        for (std::size_t i = 0; i < ref.size(); ++i)
            EXPECT_TRUE(ref[i].first == out[i].first && same_bits(ref[i].second, out[i].second))
                << c.info->name << " output " << ref[i].first << ": " << ref[i].second << " vs " << out[i].second;
    }
}

}  // namespace
