// speed_chroma / speed_temporal: bit-exact against upstream's golden-full
// reports (every frame, every key), plus options and errors.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "core/feature_name.hpp"
#include "features/speed/speed_linalg.hpp"
#include "support/testdata.hpp"
#include "vmaf/error.hpp"

namespace vmaf {
extern const ExtractorInfo kSpeedChromaInfo;
extern const ExtractorInfo kSpeedTemporalInfo;
}  // namespace vmaf

namespace {

using namespace vmaf;

struct Recorder final : ScoreWriter {
    std::map<std::pair<unsigned, unsigned>, double> at;
    void write(unsigned frame, unsigned output, double value) override {
        EXPECT_TRUE(at.emplace(std::pair{frame, output}, value).second);
    }
    void write_aggregate(unsigned, double) override { ADD_FAILURE() << "no aggregates expected"; }
    double get(unsigned frame, unsigned output) const {
        auto it = at.find({frame, output});
        if (it == at.end()) {
            ADD_FAILURE() << "missing frame " << frame << " output " << output;
            return -1;
        }
        return it->second;
    }
};

std::string g17(double v) {
    char b[40];
    std::snprintf(b, sizeof b, "%.17g", v);
    return b;
}

/// compute() for all frames in reverse order, then finish() in order, then flush().
Recorder run(const ExtractorInfo& info, const OptionDict& dict, const VideoGeometry& geom,
             const std::vector<Picture>& refs, const std::vector<Picture>& dists) {
    auto ex = info.create(OptionValues(info.options, dict, std::string(info.name)), geom, {});
    std::vector<std::unique_ptr<FrameState>> states(refs.size());
    for (std::size_t i = refs.size(); i-- > 0;)
        states[i] = static_cast<const FeatureExtractor&>(*ex).compute(static_cast<unsigned>(i), refs[i], dists[i]);
    Recorder r;
    for (std::size_t i = 0; i < refs.size(); ++i) ex->finish(static_cast<unsigned>(i), *states[i], r);
    ex->flush(r);
    return r;
}

void compare_golden(const std::string& pair) {
    SCOPED_TRACE(pair);
    const auto info = test::pair_info(pair);
    const auto golden = test::golden_full(pair + "__features");
    ASSERT_EQ(golden.at("frames").size(), info.frames);
    const std::string rp = test::clip_path(info.ref), dp = test::clip_path(info.dist);
    std::vector<Picture> refs, dists;
    for (unsigned i = 0; i < info.frames; ++i) {
        refs.push_back(test::load_raw_frame(rp, info.geom, i));
        dists.push_back(test::load_raw_frame(dp, info.geom, i));
    }
    unsigned compared = 0, equal = 0;
    auto check = [&](const Recorder& r, unsigned output, const char* key) {
        for (unsigned f = 0; f < info.frames; ++f) {
            const double g = test::golden_value(golden, f, key), v = r.get(f, output);
            EXPECT_EQ(g, v) << key << " frame " << f << ": golden " << g17(g) << " ours " << g17(v);
            ++compared;
            equal += g == v;
        }
    };
    const Recorder c = run(kSpeedChromaInfo, {}, info.geom, refs, dists);
    check(c, 0, "speed_chroma_u");
    check(c, 1, "speed_chroma_v");
    check(c, 2, "speed_chroma_uv");
    const Recorder t = run(kSpeedTemporalInfo, {}, info.geom, refs, dists);
    check(t, 0, "speed_temporal");
    std::printf("  %s__features: %u/%u speed values equal\n", pair.c_str(), equal, compared);
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
    EXPECT_THROW(make(kSpeedChromaInfo, {}, VideoGeometry{PixelFormat::Yuv400, 8, 576, 324}), Error);
    EXPECT_THROW(make(kSpeedTemporalInfo, {}, VideoGeometry{PixelFormat::Yuv420, 8, 64, 64}), Error);
    EXPECT_NO_THROW(make(kSpeedTemporalInfo, {{"speed_kernelscale", "2"}}, g));
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

}  // namespace
