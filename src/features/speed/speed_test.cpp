// speed_chroma / speed_temporal: bit-exact against upstream's golden-full
// reports (every frame, every key), plus options and errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "core/feature_name.hpp"
#include "features/speed/speed_core.hpp"
#include "features/speed/speed_test_pattern.hpp"
#include "features/speed/speed_linalg.hpp"
#include "support/extractor_run.hpp"
#include "vmaf/error.hpp"

namespace vmaf {
extern const ExtractorInfo kSpeedChromaInfo;
extern const ExtractorInfo kSpeedTemporalInfo;
}  // namespace vmaf

namespace {

using namespace vmaf;

void compare_golden(const std::string& pair) {
    SCOPED_TRACE(pair);
    const test::PairFrames p = test::load_pair(pair);
    const auto golden = test::golden_full(pair + "__features");
    ASSERT_EQ(golden.at("frames").size(), p.info.frames);
    const unsigned n = p.info.frames;
    const test::ScoreLog c = test::run_extractor(kSpeedChromaInfo, {}, p.info.geom, p.refs, p.dists);
    unsigned equal = test::expect_golden(c, 0, golden, "speed_chroma_u", n);
    equal += test::expect_golden(c, 1, golden, "speed_chroma_v", n);
    equal += test::expect_golden(c, 2, golden, "speed_chroma_uv", n);
    const test::ScoreLog t = test::run_extractor(kSpeedTemporalInfo, {}, p.info.geom, p.refs, p.dists);
    equal += test::expect_golden(t, 0, golden, "speed_temporal", n);
    std::printf("  %s__features: %u/%u speed values equal\n", pair.c_str(), equal, 4 * n);
}

TEST(SpeedGolden, P01_420_8bit) { compare_golden("p01_crf35"); }
TEST(SpeedGolden, P03_420_10bit) { compare_golden("p03_crf28"); }
TEST(SpeedGolden, P04a_444) { compare_golden("p04a_crf30"); }
TEST(SpeedGolden, P04b_422) { compare_golden("p04b_crf30"); }
TEST(SpeedGolden, P05_OddSize) { compare_golden("p05_crf30"); }

TEST(Speed, KeysAndErrors) {
    const OptionValues d(kSpeedChromaInfo.options, {}, "speed_chroma");
    EXPECT_EQ(feature_key(kSpeedChromaInfo.outputs[2], d), "speed_chroma_uv");
    const OptionValues o(kSpeedChromaInfo.options, {{"speed_prescale", "2"}, {"speed_prescale_method", "bicubic"}},
                         "speed_chroma");
    EXPECT_EQ(feature_key(kSpeedChromaInfo.outputs[0], o), "speed_chroma_u_ps_2_psm_bicubic");
    const VideoGeometry g{PixelFormat::Yuv420, 8, 576, 324};
    auto make = [&](const ExtractorInfo& info, const OptionDict& dict, const VideoGeometry& geom) {
        return info.create(OptionValues(info.options, dict, std::string(info.name)), geom, {});
    };
    EXPECT_THROW(make(kSpeedChromaInfo, {{"speed_kernelscale", "1.3"}}, g), Error);
    EXPECT_THROW(make(kSpeedChromaInfo, {{"speed_prescale_method", "area"}}, g), Error);
    // Within 1e-3 of 1 nothing is rescaled: a factor that still changes the size is refused.
    EXPECT_THROW(make(kSpeedChromaInfo, {{"speed_prescale", "1.0005"}}, VideoGeometry{PixelFormat::Yuv420, 8, 3840, 2160}),
                 Error);
    EXPECT_NO_THROW(make(kSpeedChromaInfo, {{"speed_prescale", "1.0001"}}, VideoGeometry{PixelFormat::Yuv420, 8, 640, 480}));
    EXPECT_THROW(make(kSpeedChromaInfo, {}, VideoGeometry{PixelFormat::Yuv400, 8, 576, 324}), Error);
    EXPECT_THROW(make(kSpeedTemporalInfo, {}, VideoGeometry{PixelFormat::Yuv420, 8, 64, 64}), Error);
    EXPECT_NO_THROW(make(kSpeedTemporalInfo, {{"speed_kernelscale", "2"}}, g));
}

using speed::test::pattern;

// The CUDA twins' split: device_result (what the kernels compute) finished by
// finish_estimate and combine must give score()'s value and error flag bit
// for bit, for every prescale method, several kernel scales and odd sizes.
TEST(Speed, DeviceResultFinishesAsScore) {
    struct Case {
        unsigned w, h, bpc;
        speed::Options o;
    };
    const auto opts = [](double ks, double ps, speed::Rescale m, int wvm) {
        speed::Options o;
        o.kernelscale = ks;
        o.prescale = ps;
        o.method = m;
        o.weight_var_mode = wvm;
        o.sigma_nn = 0.19;
        o.nn_floor = 0.1;
        return o;
    };
    const Case cases[] = {
        {161, 97, 8, opts(1.0, 1.0, speed::Rescale::Nearest, 0)},  // 6 samples per shift: singular
        {257, 241, 8, opts(1.0, 1.0, speed::Rescale::Nearest, 4)},
        {576, 324, 10, opts(1.0, 0.5, speed::Rescale::Bilinear, 5)},
        {601, 433, 16, opts(2.0, 0.6, speed::Rescale::Bilinear, 3)},
        {129, 121, 8, opts(0.5, 2.0, speed::Rescale::Bicubic, 1)},
        {181, 171, 12, opts(1.5, 1.5, speed::Rescale::Lanczos4, 6)},
        {211, 199, 8, opts(3.0, 1.25, speed::Rescale::Nearest, 2)},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(std::to_string(c.w) + "x" + std::to_string(c.h) + " ps " + std::to_string(c.o.prescale));
        const speed::Estimator est(c.o, c.w, c.h);
        auto ref = pattern(c.w, c.h, c.bpc, 1), dis = pattern(c.w, c.h, c.bpc, 2);
        std::vector<std::uint8_t> ref8(ref.size()), dis8(dis.size());
        for (std::size_t i = 0; i < ref.size(); ++i) {
            ref8[i] = static_cast<std::uint8_t>(ref[i]);
            dis8[i] = static_cast<std::uint8_t>(dis[i]);
        }
        const bool deep = c.bpc > 8;
        const Plane pr{deep ? static_cast<void*>(ref.data()) : ref8.data(),
                       static_cast<std::ptrdiff_t>(c.w * (deep ? 2 : 1)), c.w, c.h};
        const Plane pd{deep ? static_cast<void*>(dis.data()) : dis8.data(),
                       static_cast<std::ptrdiff_t>(c.w * (deep ? 2 : 1)), c.w, c.h};
        speed::Image r, d;
        const auto load = [&] {
            est.shape(r);
            est.shape(d);
            est.load(r, pr, c.bpc, -128);
            est.load(d, pd, c.bpc, -128);
        };
        load();
        bool err = false;
        const float want = est.score(r, d, err);

        load();
        const speed::Estimator::Geometry g = est.geometry();
        const std::size_t band = g.trunc_w * g.trunc_h, n = band + speed::Estimator::kCovPairs;
        std::vector<float> rr(n), rd(n), er, vr, ed, vd;
        est.device_result(r, rr.data());
        est.device_result(d, rd.data());
        const bool ok_r = est.finish_estimate(rr.data(), g.trunc_w, rr.data() + band, er, vr);
        const bool ok_d = est.finish_estimate(rd.data(), g.trunc_w, rd.data() + band, ed, vd);
        bool err2 = true;
        const float got = est.combine(er, vr, ok_r, ed, vd, ok_d, err2);
        EXPECT_EQ(std::memcmp(&want, &got, sizeof want), 0) << want << " != " << got;
        EXPECT_EQ(err, err2);
        if (c.w == 161) {
            EXPECT_TRUE(err);
        } else {
            EXPECT_GT(want, 0.0f) << "err " << err;
        }
    }
}

TEST(SpeedLinalg, SolveAndEigenvalues) {
    // diag(4, 9) rotated: eigenvalues 4 and 9 (to float accuracy); A x = b with known x.
    const float a[4] = {6.5f, 2.5f, 2.5f, 6.5f};
    float eig[2];
    speed::symmetric_eigenvalues(a, eig, 2);
    EXPECT_NEAR(std::min(eig[0], eig[1]), 4.0f, 1e-5);
    EXPECT_NEAR(std::max(eig[0], eig[1]), 9.0f, 1e-5);
    const float b[2] = {6.5f + 5.0f, 2.5f + 13.0f};  // x = (1, 2)
    float x[2];
    ASSERT_TRUE(speed::solve(a, 2, b, 1, x));
    EXPECT_NEAR(x[0], 1.0f, 1e-5);
    EXPECT_NEAR(x[1], 2.0f, 1e-5);
    const float singular[4] = {1, 2, 2, 4};
    EXPECT_FALSE(speed::solve(singular, 2, b, 1, x));
}

// solve() skips the parts of each Householder product that add only signed
// zeros; where it succeeds, its solution must be the full products' bit for
// bit, on every kernel table: covariances (as SpEED's), general and diagonal
// matrices, zero rows and columns (a reflector that is not finite), sparse
// ones with signed zeros, sizes 1 to 25.
TEST(SpeedLinalg, SolveEqualsFullProducts) {
    std::mt19937 rng(7);
    for (const auto& [name, k] : speed::speed_registry().variants()) {
        int solved = 0;
        for (int t = 0; t < 600; ++t) {
            const int n = t % 7 == 0 ? 1 + t % 25 : 25, cols = 1 + t % 40, kind = t % 9;
            std::normal_distribution<float> nd(0.0f, t % 3 == 0 ? 1e-3f : t % 3 == 1 ? 10.0f : 1e4f);
            std::vector<float> a(static_cast<std::size_t>(n) * n, 0.0f), b(static_cast<std::size_t>(n) * cols);
            if (kind < 4) {  // a covariance of 10..69 samples
                const int samples = 10 + t % 60;
                std::vector<double> c(a.size(), 0.0);
                std::vector<float> v(n);
                for (int s = 0; s < samples; ++s) {
                    for (float& e : v) e = nd(rng);
                    for (int i = 0; i < n; ++i)
                        for (int j = 0; j < n; ++j) c[i * n + j] += static_cast<double>(v[i]) * v[j] / samples;
                }
                for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(c[i]);
            } else if (kind == 4) {
                for (float& e : a) e = nd(rng);
            } else if (kind == 6) {  // one zero row and column, of either sign
                for (float& e : a) e = nd(rng);
                for (int i = 0; i < n; ++i) a[i * n + t % n] = a[(t % n) * n + i] = t & 1 ? -0.0f : 0.0f;
            } else if (kind == 7) {
                for (int i = 0; i < n; ++i) a[i * n + i] = nd(rng);
            } else if (kind == 8) {
                for (float& e : a) e = rng() % 3 == 0 ? nd(rng) : rng() & 1 ? -0.0f : 0.0f;
            }  // kind 5: all zero
            for (float& e : b) e = nd(rng);
            std::vector<float> x(b.size(), 0.0f), ref(b.size(), 0.0f);
            const bool ok = speed::solve(a.data(), n, b.data(), cols, x.data(), k);
            const bool ok_ref = speed::solve_full_products(a.data(), n, b.data(), cols, ref.data(), k);
            ASSERT_EQ(ok, ok_ref) << name << " case " << t;
            if (!ok) continue;
            ++solved;
            ASSERT_EQ(std::memcmp(x.data(), ref.data(), x.size() * sizeof(float)), 0) << name << " case " << t;
        }
        EXPECT_GT(solved, 400) << name;
    }
}

}  // namespace
