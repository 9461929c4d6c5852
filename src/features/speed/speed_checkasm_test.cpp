// checkasm-style tests of the SpEED kernel table: every kernel of every SIMD
// variant against the scalar reference, bit for bit, and the extractors at
// several cpumasks on a real clip.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <random>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/speed/speed_kernels.hpp"
#include "support/testdata.hpp"

namespace vmaf {
extern const ExtractorInfo kSpeedChromaInfo;
extern const ExtractorInfo kSpeedTemporalInfo;
}  // namespace vmaf

namespace {

using namespace vmaf;

TEST(SpeedCheckasm, ScaleAddEveryVariant) {
    const auto variants = speed::speed_registry().variants();
    std::mt19937 rng(7);
    // Negative coefficients too: the solver's back substitution passes them.
    std::uniform_real_distribution<float> val(-300.0f, 300.0f), coef(-0.5f, 0.5f);
    unsigned checked = 0;
    for (const auto& [name, k] : variants) {
        SCOPED_TRACE(name);
        for (std::size_t n : {0u, 1u, 3u, 7u, 8u, 15u, 16u, 17u, 31u, 64u, 65u, 960u, 1921u}) {
            for (int rep = 0; rep < 4; ++rep) {
                std::vector<float> src(n + 3), acc(n + 3);
                for (auto& v : src) v = val(rng);
                for (auto& v : acc) v = rep == 3 ? 0.0f : val(rng);
                if (rep == 2 && n) src[n / 2] = -0.0f, acc[n / 2] = 1e-30f;  // signed zero, tiny values
                std::vector<float> want = acc, got = acc;
                const float c = coef(rng);
                speed::scale_add(want.data() + 1, src.data() + 2, c, n);  // unaligned on purpose
                k.scale_add(got.data() + 1, src.data() + 2, c, n);
                for (std::size_t j = 0; j < want.size(); ++j)
                    ASSERT_EQ(std::bit_cast<std::uint32_t>(want[j]), std::bit_cast<std::uint32_t>(got[j]))
                        << "n=" << n << " j=" << j;
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 0u);
}

TEST(SpeedCheckasm, WeightedRowsEveryVariant) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> val(-300.0f, 300.0f), coef(0.0f, 0.5f);
    unsigned checked = 0;
    for (const auto& [name, k] : speed::speed_registry().variants()) {
        SCOPED_TRACE(name);
        for (int taps : {1, 3, 9, 17, 33})
            for (std::size_t n : {0u, 1u, 7u, 16u, 17u, 63u, 960u, 1921u}) {
                std::vector<std::vector<float>> src(taps, std::vector<float>(n + 1));
                std::vector<const float*> rows;
                std::vector<float> c(taps);
                for (int t = 0; t < taps; ++t) {
                    for (auto& v : src[t]) v = val(rng);
                    if (n) src[t][n / 2] = t % 2 ? -0.0f : 1e-30f;
                    rows.push_back(src[t].data() + 1);
                    c[t] = coef(rng);
                }
                std::vector<float> want(n + 2, 7.0f), got(n + 2, 7.0f);
                speed::weighted_rows(want.data() + 1, rows.data(), c.data(), taps, n);
                k.weighted_rows(got.data() + 1, rows.data(), c.data(), taps, n);
                for (std::size_t j = 0; j < want.size(); ++j)
                    ASSERT_EQ(std::bit_cast<std::uint32_t>(want[j]), std::bit_cast<std::uint32_t>(got[j]))
                        << "taps=" << taps << " n=" << n << " j=" << j;
                ++checked;
            }
    }
    EXPECT_GT(checked, 0u);
}

TEST(SpeedCheckasm, CovRowEveryVariant) {
    std::mt19937 rng(13);
    std::uniform_real_distribution<float> val(-300.0f, 300.0f);
    unsigned checked = 0;
    for (const auto& [name, k] : speed::speed_registry().variants()) {
        SCOPED_TRACE(name);
        for (std::size_t n : {0u, 1u, 2u, 5u, 8u, 17u, 56u, 116u, 235u})
            for (int rep = 0; rep < 3; ++rep) {
                std::vector<float> a(n + 4), b(n + 7);
                for (auto& v : a) v = val(rng);
                for (auto& v : b) v = val(rng);
                if (rep == 1 && n) a[n / 2] = -0.0f, b[n / 2 + 1] = 1e-30f;  // signed zero, tiny values
                if (rep == 2)
                    std::fill(b.begin() + static_cast<std::ptrdiff_t>(n + 4), b.end(), 1e30f);  // scratch lanes
                double ma[5], mb[5];
                for (int x = 0; x < 5; ++x) ma[x] = val(rng) / 8, mb[x] = val(rng) / 8;
                std::vector<double> want(5 * speed::kCovGroup), got;
                for (auto& v : want) v = rep == 0 ? 0.0 : val(rng) * 1e3;
                got = want;
                speed::cov_row(want.data(), a.data(), ma, b.data(), mb, n);
                k.cov_row(got.data(), a.data(), ma, b.data(), mb, n);
                for (std::size_t x = 0; x < 5; ++x)
                    for (std::size_t c = 0; c < 5; ++c)
                        ASSERT_EQ(std::bit_cast<std::uint64_t>(want[x * speed::kCovGroup + c]),
                                  std::bit_cast<std::uint64_t>(got[x * speed::kCovGroup + c]))
                            << "n=" << n << " x=" << x << " c=" << c;
                ++checked;
            }
    }
    EXPECT_GT(checked, 0u);
}

TEST(SpeedCheckasm, ShiftSumsEveryVariant) {
    std::mt19937 rng(17);
    std::uniform_real_distribution<float> val(-300.0f, 300.0f);
    unsigned checked = 0;
    for (const auto& [name, k] : speed::speed_registry().variants()) {
        SCOPED_TRACE(name);
        for (std::size_t n : {0u, 1u, 3u, 8u, 17u, 56u, 116u, 1000u})
            for (int rep = 0; rep < 3; ++rep) {
                std::vector<float> a(n + 7);
                for (auto& v : a) v = val(rng);
                if (rep == 1 && n) a[n / 2] = -0.0f, a[0] = 1e-30f;
                float want[speed::kCovGroup], got[speed::kCovGroup];
                for (auto& v : want) v = rep == 2 ? val(rng) * 1e4f : 0.0f;
                std::copy(std::begin(want), std::end(want), got);
                speed::shift_sums(want, a.data(), n);
                k.shift_sums(got, a.data(), n);
                for (std::size_t c = 0; c < 5; ++c)
                    ASSERT_EQ(std::bit_cast<std::uint32_t>(want[c]), std::bit_cast<std::uint32_t>(got[c]))
                        << "n=" << n << " c=" << c;
                ++checked;
            }
    }
    EXPECT_GT(checked, 0u);
}

TEST(SpeedCheckasm, LoadAndSubtractEveryVariant) {
    std::mt19937 rng(19);
    std::uniform_real_distribution<float> val(-300.0f, 300.0f);
    unsigned checked = 0;
    for (const auto& [name, k] : speed::speed_registry().variants()) {
        SCOPED_TRACE(name);
        for (std::size_t n : {0u, 1u, 7u, 16u, 17u, 33u, 320u, 961u}) {
            std::vector<std::uint8_t> s8(n + 1);
            std::vector<std::uint16_t> s16(n + 1);
            for (std::size_t j = 0; j < s8.size(); ++j) {
                s8[j] = j % 5 == 0 ? (j % 2 ? 255 : 0) : static_cast<std::uint8_t>(rng());
                s16[j] = j % 5 == 0 ? (j % 2 ? 65535 : 0) : static_cast<std::uint16_t>(rng());
            }
            auto same = [&](const std::vector<float>& want, const std::vector<float>& got, const char* what) {
                for (std::size_t j = 0; j < want.size(); ++j)
                    ASSERT_EQ(std::bit_cast<std::uint32_t>(want[j]), std::bit_cast<std::uint32_t>(got[j]))
                        << what << " n=" << n << " j=" << j;
            };
            std::vector<float> want(n + 2, 5.0f), got(n + 2, 5.0f);
            speed::load_u8(want.data() + 1, s8.data() + 1, -128.0f, n);
            k.load_u8(got.data() + 1, s8.data() + 1, -128.0f, n);
            same(want, got, "load_u8");
            for (float scaler : {4.0f, 16.0f, 256.0f}) {
                speed::load_u16(want.data() + 1, s16.data() + 1, scaler, -128.0f, n);
                k.load_u16(got.data() + 1, s16.data() + 1, scaler, -128.0f, n);
                same(want, got, "load_u16");
            }
            std::vector<float> b(n + 2);
            for (auto& v : b) v = val(rng);
            for (auto& v : want) v = val(rng);
            if (n) want[1] = -0.0f, b[2] = 0.0f;
            got = want;
            speed::subtract_row(want.data() + 1, b.data() + 2, n);
            k.subtract_row(got.data() + 1, b.data() + 2, n);
            same(want, got, "subtract_row");
            ++checked;
        }
    }
    EXPECT_GT(checked, 0u);
}

TEST(SpeedCheckasm, MatMulEveryVariant) {
    std::mt19937 rng(23);
    std::uniform_real_distribution<float> val(-2.0f, 2.0f);
    unsigned checked = 0;
    for (const auto& [name, k] : speed::speed_registry().variants()) {
        SCOPED_TRACE(name);
        for (std::size_t rows : {1u, 2u, 3u, 4u, 25u})
            for (std::size_t inner : {1u, 5u, 25u})
                for (std::size_t cols : {1u, 4u, 7u, 8u, 13u, 16u, 17u, 24u, 25u, 29u, 33u, 40u, 72u, 312u}) {
                    std::vector<float> x(rows * inner), y(inner * cols);
                    for (auto& v : x) v = val(rng);
                    for (auto& v : y) v = val(rng);
                    x[0] = -0.0f, y.back() = 1e-30f;
                    std::vector<float> want(rows * cols), got(rows * cols, 9.0f);
                    speed::mat_mul(want.data(), x.data(), y.data(), rows, inner, cols);
                    k.mat_mul(got.data(), x.data(), y.data(), rows, inner, cols);
                    for (std::size_t j = 0; j < want.size(); ++j)
                        ASSERT_EQ(std::bit_cast<std::uint32_t>(want[j]), std::bit_cast<std::uint32_t>(got[j]))
                            << rows << "x" << inner << "x" << cols << " j=" << j;
                    ++checked;
                }
    }
    EXPECT_GT(checked, 0u);
}

/// The extractors give identical scores at every cpumask (63: scalar only, 0: best SIMD).
TEST(SpeedCheckasm, ExtractorsAgreeAcrossCpumasks) {
    const auto info = test::pair_info("p01_crf35");
    const std::string rp = test::clip_path(info.ref), dp = test::clip_path(info.dist);
    std::vector<Picture> refs, dists;
    for (unsigned i = 0; i < 4; ++i) {
        refs.push_back(test::load_raw_frame(rp, info.geom, i));
        dists.push_back(test::load_raw_frame(dp, info.geom, i));
    }
    for (const ExtractorInfo* ex : {&kSpeedChromaInfo, &kSpeedTemporalInfo}) {
        std::map<unsigned, std::vector<std::pair<unsigned, double>>> by_mask;
        for (unsigned mask : {63u, 48u, 56u, 0u}) {
            auto e = ex->create(OptionValues(ex->options, {}, std::string(ex->name)), info.geom, {.cpumask = mask});
            struct W final : ScoreWriter {
                std::vector<std::pair<unsigned, double>>* out;
                void write(unsigned, unsigned o, double v) override { out->emplace_back(o, v); }
                void write_aggregate(unsigned, double) override {}
            } w;
            w.out = &by_mask[mask];
            for (unsigned i = 0; i < refs.size(); ++i) {
                auto st = static_cast<const FeatureExtractor&>(*e).compute(i, refs[i], dists[i]);
                e->finish(i, *st, w);
            }
        }
        for (const auto& [mask, v] : by_mask) EXPECT_EQ(v, by_mask[63]) << ex->name << " cpumask " << mask;
    }
}

}  // namespace
