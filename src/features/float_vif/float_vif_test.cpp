// float_vif: bit-exact against upstream's golden-full features_float reports.
#include <gtest/gtest.h>

#include "features/float_common/float_golden.hpp"
#include "vmaf/error.hpp"

namespace vmaf {
extern const ExtractorInfo kFloatVifInfo;
}

namespace {

using namespace vmaf::floatfeat::test;

class FloatVifGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(FloatVifGolden, EveryFrameEveryKeyBitExact) {
    compare_float_golden(vmaf::kFloatVifInfo, GetParam(), {"vif_scale0", "vif_scale1", "vif_scale2", "vif_scale3"});
}

INSTANTIATE_TEST_SUITE_P(FloatPairs, FloatVifGolden, ::testing::ValuesIn(kFloatGoldenPairs));

}  // namespace

namespace {

TEST(FloatVif, FramesTooSmallForTheFiltersAreAnError) {
    const vmaf::OptionValues def(vmaf::kFloatVifInfo.options, {}, "float_vif");
    EXPECT_THROW(vmaf::kFloatVifInfo.create(def, {vmaf::PixelFormat::Yuv420, 8, 15, 64}, {}), vmaf::Error);
    EXPECT_NO_THROW(vmaf::kFloatVifInfo.create(def, {vmaf::PixelFormat::Yuv420, 8, 16, 16}, {}));
    // A 3x kernel widens every filter: 16x16 is no longer enough.
    const vmaf::OptionValues ks3(vmaf::kFloatVifInfo.options, {{"vif_kernelscale", "3.0"}}, "float_vif");
    EXPECT_THROW(vmaf::kFloatVifInfo.create(ks3, {vmaf::PixelFormat::Yuv420, 8, 16, 16}, {}), vmaf::Error);
    EXPECT_THROW(vmaf::OptionValues(vmaf::kFloatVifInfo.options, {{"vif_prescale_method", "cubic"}}, "float_vif");
                 vmaf::kFloatVifInfo.create(
                     vmaf::OptionValues(vmaf::kFloatVifInfo.options, {{"vif_prescale_method", "cubic"}}, "float_vif"),
                     {vmaf::PixelFormat::Yuv420, 8, 64, 64}, {}),
                 vmaf::Error);
}

TEST(FloatVif, KeySuffixesAndDebugOutputs) {
    const vmaf::OptionValues o(vmaf::kFloatVifInfo.options, {{"vif_enhn_gain_limit", "1"}}, "float_vif");
    EXPECT_EQ(vmaf::feature_key(vmaf::kFloatVifInfo.outputs[0], o), "vif_scale0_egl_1");
    const auto p = load_pair("p01_crf35");
    const std::vector<vmaf::Picture> r(p.refs.begin(), p.refs.begin() + 2), d(p.dists.begin(), p.dists.begin() + 2);
    const auto dbg =
        run_frames(vmaf::kFloatVifInfo, {{"debug", "true"}, {"vif_skip_scale0", "true"}}, p.info.geom, r, d);
    ASSERT_EQ(dbg.at(0).size(), 15u);
    EXPECT_EQ(dbg.at(0).at("vif_scale0_ssclz"), 0.0);
    EXPECT_EQ(dbg.at(0).at("vif_den_scale0_ssclz"), -1.0);
    const auto def = run_frames(vmaf::kFloatVifInfo, {}, p.info.geom, r, d);
    EXPECT_EQ(dbg.at(1).at("vif_scale2_ssclz"), def.at(1).at("vif_scale2"));  // scales 1-3 unaffected
}

}  // namespace

#include <cstring>
#include <random>

#include "features/float_common/float_scale.hpp"

namespace {

using vmaf::floatfeat::FloatImage;
using vmaf::floatfeat::ScaleMethod;

// The CUDA twin resamples from scale_axis's per-axis taps (taps j outer, i
// inner, weight wx * wy; lanczos4 divided by the weights' sum): that must be
// scale_frame bit for bit, for every method, down and up, odd sizes.
TEST(FloatVif, ScaleAxisTapsReproduceScaleFrame) {
    FloatImage src(37, 23);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-128.0f, 127.0f);
    for (unsigned y = 0; y < src.h; ++y)
        for (unsigned x = 0; x < src.w; ++x) src.row(y)[x] = u(rng);
    for (ScaleMethod m : {ScaleMethod::Nearest, ScaleMethod::Bicubic, ScaleMethod::Lanczos4})
        for (auto [dw, dh] : {std::pair{28u, 17u}, std::pair{46u, 29u}, std::pair{19u, 31u}}) {
            const FloatImage ref = vmaf::floatfeat::scale_frame(m, src, dw, dh);
            const auto ax = vmaf::floatfeat::scale_axis(m, src.w, dw), ay = vmaf::floatfeat::scale_axis(m, src.h, dh);
            ASSERT_EQ(ax.idx.size(), std::size_t{dw} * ax.taps);
            for (unsigned y = 0; y < dh; ++y)
                for (unsigned x = 0; x < dw; ++x) {
                    float v = 0.0f, wsum = 0.0f;
                    if (m == ScaleMethod::Nearest) {
                        v = src.row(ay.idx[y])[ax.idx[x]];
                    } else {
                        const int t = ax.taps;
                        for (int j = 0; j < t; ++j)
                            for (int i = 0; i < t; ++i) {
                                const float wgt = ax.w[x * t + i] * ay.w[y * t + j];
                                wsum += wgt;
                                v += src.row(ay.idx[y * t + j])[ax.idx[x * t + i]] * wgt;
                            }
                        if (m == ScaleMethod::Lanczos4) v = v / wsum;
                    }
                    ASSERT_EQ(std::memcmp(&v, &ref.row(y)[x], sizeof v), 0)
                        << "method " << static_cast<int>(m) << " " << dw << "x" << dh << " at " << x << "," << y;
                }
        }
}

TEST(FloatVif, GainLimitIsTheGroupOption) {
    ASSERT_EQ(vmaf::kFloatVifInfo.group_options.size(), 1u);
    EXPECT_EQ(vmaf::kFloatVifInfo.group_options[0], "vif_enhn_gain_limit");
    EXPECT_EQ(vmaf::kFloatVifInfo.create_group, nullptr);  // the CPU kind: one extractor per set
}

}  // namespace
