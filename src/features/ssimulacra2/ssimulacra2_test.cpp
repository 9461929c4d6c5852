// ssimulacra2: per-frame scores pinned on corpus pairs (testdata/ssimulacra2/,
// produced by this implementation after its comparison with libjxl's
// ssimulacra2 program, docs/ssimulacra2.md), the scalar pipeline equal to the
// SIMD one, the scale count and final mapping, options and errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/ssimulacra2/ssimulacra2_core.hpp"
#include "support/extractor_run.hpp"
#include "vmaf/error.hpp"

namespace vmaf {
extern const ExtractorInfo kSsimulacra2Info;
}

namespace {

using namespace vmaf;

struct Recorder final : ScoreWriter {
    std::vector<double> v;
    void write(unsigned frame, unsigned output, double value) override {
        EXPECT_EQ(output, 0u);
        if (v.size() <= frame) v.resize(frame + 1, -1e300);
        v[frame] = value;
    }
    void write_aggregate(unsigned, double) override { ADD_FAILURE() << "no aggregates expected"; }
};

std::unique_ptr<FeatureExtractor> make(const OptionDict& dict, const VideoGeometry& g, unsigned cpumask = 0) {
    return kSsimulacra2Info.create(OptionValues(kSsimulacra2Info.options, dict, "ssimulacra2"), g,
                                   {.cpumask = cpumask});
}

/// Scores of the first `frames` frames of a pair.
std::vector<double> score_pair(const test::PairInfo& info, unsigned frames, unsigned cpumask,
                               const OptionDict& dict = {}) {
    const std::string rp = test::clip_path(info.ref), dp = test::clip_path(info.dist);
    auto ex = make(dict, info.geom, cpumask);
    Recorder r;
    for (unsigned i = 0; i < frames; ++i) {
        const Picture a = test::load_raw_frame(rp, info.geom, i), b = test::load_raw_frame(dp, info.geom, i);
        auto st = static_cast<const FeatureExtractor&>(*ex).compute(i, a, b);
        ex->finish(i, *st, r);
    }
    return r.v;
}

nlohmann::json golden(const std::string& pair) {
    std::ifstream f(test::testdata_dir() + "/ssimulacra2/" + pair + ".json");
    EXPECT_TRUE(f.good()) << "missing golden for " << pair;
    return nlohmann::json::parse(f);
}

/// Pinned per-frame scores of `pair` (all frames the golden holds; `scalar_frames`
/// of them again through the scalar kernels).
void compare_golden(const std::string& pair, unsigned scalar_frames) {
    SCOPED_TRACE(pair);
    const auto info = test::pair_info(pair);
    const auto g = golden(pair);
    const auto& want = g.at("ssimulacra2");
    const OptionDict dict = {{"yuv_matrix", std::to_string(g.at("yuv_matrix").get<int>())}};
    const auto simd = score_pair(info, static_cast<unsigned>(want.size()), 0, dict);
    ASSERT_EQ(simd.size(), want.size());
    for (std::size_t f = 0; f < want.size(); ++f)
        EXPECT_EQ(want[f].get<double>(), simd[f])
            << "frame " << f << ": golden " << test::g17(want[f]) << " ours " << test::g17(simd[f]);
    const auto scalar = score_pair(info, scalar_frames, ~0u, dict);
    for (std::size_t f = 0; f < scalar.size(); ++f) EXPECT_EQ(simd[f], scalar[f]) << "scalar frame " << f;
}

TEST(Ssimulacra2Golden, P01_420_8bit) {
    compare_golden("p01_crf35", 2);
}
TEST(Ssimulacra2Golden, P03_420_10bit) {
    compare_golden("p03_crf28", 1);
}
TEST(Ssimulacra2Golden, P04a_444) {
    compare_golden("p04a_crf30", 1);
}
TEST(Ssimulacra2Golden, P04b_422) {
    compare_golden("p04b_crf30", 1);
}

TEST(Ssimulacra2, EqualsLibjxlOnGrayPictures) {
    // Frame 0 of p01_crf35 with neutral chroma, full range: R' = G' = B' =
    // Y * float(1 / 255), exactly what libjxl reads from the 8-bit RGB PNG of
    // the luma. libjxl 0.11.2's ssimulacra2 (x86-64, AVX2) printed with %.17g:
    const double kLibjxl = 42.726860734592151;
    const auto info = test::pair_info("p01_crf35");
    Picture a = test::load_raw_frame(test::clip_path(info.ref), info.geom, 0);
    Picture b = test::load_raw_frame(test::clip_path(info.dist), info.geom, 0);
    for (Picture* p : {&a, &b})
        for (unsigned pl = 1; pl < 3; ++pl)
            for (unsigned y = 0; y < p->plane(pl).height; ++y)
                for (unsigned x = 0; x < p->plane(pl).width; ++x) p->plane(pl).row<std::uint8_t>(y)[x] = 128;
    for (unsigned mask : {0u, ~0u}) {
        auto ex = make({{"yuv_matrix", "2"}}, info.geom, mask);
        Recorder r;
        ex->finish(0, *static_cast<const FeatureExtractor&>(*ex).compute(0, a, b), r);
        EXPECT_EQ(r.v.at(0), kLibjxl) << "cpumask " << mask << ": ours " << test::g17(r.v.at(0));
    }
}

TEST(Ssimulacra2, IdenticalPicturesScore100) {
    const auto info = test::pair_info("p07_identical");
    const auto s = score_pair(info, 1, 0);
    EXPECT_EQ(s.at(0), 100.0);
}

TEST(Ssimulacra2, MatrixChangesTheScore) {
    const auto info = test::pair_info("p01_crf35");
    const double a = score_pair(info, 1, 0, {{"yuv_matrix", "0"}}).at(0);
    const double b = score_pair(info, 1, 0, {{"yuv_matrix", "3"}}).at(0);
    EXPECT_NE(a, b);
}

TEST(Ssimulacra2, ScaleCountFollowsLibjxl) {
    using ssimulacra2::scale_count;
    EXPECT_EQ(scale_count(576, 324), 6);
    EXPECT_EQ(scale_count(16, 16), 3);  // 16, 8 and 4: the check precedes downsampling
    EXPECT_EQ(scale_count(8, 8), 2);
    EXPECT_EQ(scale_count(8, 300), 2);
    EXPECT_EQ(scale_count(7, 300), 0);
    EXPECT_EQ(scale_count(130, 130), 6);  // 130 65 33 17 9 5
    EXPECT_EQ(scale_count(112, 200), 5);  // 1:16 is 7 wide: no 1:32
    EXPECT_EQ(scale_count(113, 200), 6);  // 1:16 is 8 wide: 1:32 (4 wide) is measured
}

TEST(Ssimulacra2, ScoreMapping) {
    // No error at any scale: 100. One unit of the X-channel 1:1 ringing
    // (artifact) L1 norm, the second weight (0.0007376606707406586), through
    // the mapping; the X-channel 1:1 SSIM L4 norm has weight 0.
    std::vector<ssimulacra2::ScaleNorms> s(6);
    EXPECT_EQ(ssimulacra2::score_from_norms(s), 100.0);
    s[0].ssim[1] = 1.0;
    EXPECT_EQ(ssimulacra2::score_from_norms(s), 100.0);
    s[0].edgediff[0] = 1.0;
    double x = 0.0007376606707406586 * 0.9562382616834844;
    x = 2.326765642916932 * x - 0.020884521182843837 * x * x + 6.248496625763138e-05 * x * x * x;
    EXPECT_EQ(ssimulacra2::score_from_norms(s), 100.0 - 10.0 * std::pow(x, 0.6276336467831387));
}

TEST(Ssimulacra2, BlurHasUnitGainAndSigma) {
    // A constant plane stays constant away from the zero-padded borders, and a
    // unit impulse spreads with variance sigma^2 = 2.25 per pass.
    const unsigned n = 64;
    std::vector<float> one(n * n, 1.0f), tmp(n * n), out(n * n), scratch(ssimulacra2::blur_scratch_floats(n));
    const ssimulacra2::PlaneF a{one.data(), n, n, n}, t{tmp.data(), n, n, n}, o{out.data(), n, n, n};
    const ssimulacra2::Kernels k;
    k.blur_h(a, t, scratch.data());
    k.blur_v(t, o, scratch.data());
    EXPECT_NEAR(out[32 * n + 32], 1.0f, 1e-5f);
    std::vector<float> imp(n, 0.0f), res(n);
    imp[32] = 1.0f;
    ssimulacra2::blur_h_row(imp.data(), res.data(), n);
    double sum = 0, var = 0;
    for (unsigned i = 0; i < n; ++i) {
        sum += res[i];
        var += res[i] * (static_cast<double>(i) - 32) * (static_cast<double>(i) - 32);
    }
    EXPECT_NEAR(sum, 1.0, 1e-5);
    EXPECT_NEAR(var, 2.25, 0.05);
}

TEST(Ssimulacra2, RejectsBadInput) {
    const VideoGeometry g{PixelFormat::Yuv420, 8, 64, 64};
    try {
        make({{"yuv_matrix", "4"}}, g);
        FAIL() << "yuv_matrix=4 accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Usage);
        EXPECT_NE(std::string(e.what()).find("yuv_matrix"), std::string::npos) << e.what();
    }
    try {
        make({}, VideoGeometry{PixelFormat::Yuv420, 8, 7, 64});
        FAIL() << "7x64 accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Input);
        EXPECT_EQ(std::string(e.what()), "ssimulacra2: pictures of 7x64 are below the 8x8 minimum");
    }
}

}  // namespace
