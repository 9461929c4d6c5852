// checkasm-style tests of the motion kernel table: every kernel of every SIMD
// variant against the scalar reference, bit for bit, plus the whole extractor
// at several cpumasks on real clips.
#include <gtest/gtest.h>

#include <bit>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/motion/motion_kernels.hpp"
#include "support/checkasm.hpp"
#include "support/testdata.hpp"

namespace vmaf {
extern const ExtractorInfo kMotionInfo;
}

namespace {

using namespace vmaf;
using test::as_plane;
using test::GuardedBuf;
using test::GuardedPlane;

// Mid: 2^(bpc-1), so that Mid against Zeros gives t = +-2^15 on flat areas, the
// edge of the SIMD kernels' narrow (int32-only) horizontal path.
enum class Fill { Random, Zeros, Max, Mid };
const char* fill_name(Fill f) {
    return f == Fill::Random ? "random" : f == Fill::Zeros ? "zeros" : f == Fill::Max ? "max" : "mid";
}

template <typename T>
void fill(GuardedPlane<T>& g, Fill f, unsigned bpc, std::mt19937_64& rng) {
    const std::uint32_t maxv = (1u << bpc) - 1u;
    std::uniform_int_distribution<std::uint32_t> dist(0, maxv);
    switch (f) {
        case Fill::Random: g.fill([&] { return dist(rng); }); break;
        case Fill::Zeros: g.fill([] { return 0u; }); break;
        case Fill::Max: g.fill([&] { return maxv; }); break;
        case Fill::Mid: g.fill([&] { return (maxv + 1) / 2; }); break;
    }
}

/// Both planes filled, then the kernel against the scalar reference.
template <typename T>
void check_sad(const motion::MotionKernels& k, unsigned bpc, unsigned w, unsigned h, unsigned extra, Fill fa,
               Fill fb, std::mt19937_64& rng) {
    GuardedPlane<T> a(w, h, extra), b(w, h, extra);
    fill(a, fa, bpc, rng);
    fill(b, fb, bpc, rng);
    std::vector<std::int32_t> row(motion::sad_scratch_size(w));
    const std::uint64_t want = motion::blurred_difference_sad(as_plane(a), as_plane(b), bpc, row.data());
    GuardedBuf<std::int32_t> scratch(motion::sad_scratch_size(w));
    const std::uint64_t got = k.blurred_difference_sad(as_plane(a), as_plane(b), bpc, scratch.data());
    ASSERT_EQ(want, got) << "blurred_difference_sad bpc " << bpc << " " << w << "x" << h << " extra stride " << extra
                         << " " << fill_name(fa) << " vs " << fill_name(fb);
    ASSERT_TRUE(scratch.intact()) << "blurred_difference_sad wrote outside its scratch, " << w << "x" << h;
    ASSERT_TRUE(a.intact() && b.intact()) << w << "x" << h;
}

template <typename T>
void check_sad_fills(const motion::MotionKernels& k, unsigned bpc, unsigned w, unsigned h, unsigned extra,
                     std::mt19937_64& rng) {
    const Fill fills[][2] = {{Fill::Random, Fill::Random}, {Fill::Max, Fill::Zeros}, {Fill::Zeros, Fill::Max},
                             {Fill::Zeros, Fill::Zeros},   {Fill::Max, Fill::Max},   {Fill::Random, Fill::Zeros},
                             {Fill::Mid, Fill::Zeros},     {Fill::Zeros, Fill::Mid}};
    for (const auto& [fa, fb] : fills) {
        check_sad<T>(k, bpc, w, h, extra, fa, fb, rng);
        if (::testing::Test::HasFatalFailure()) return;
    }
}

TEST(MotionCheckasm, HasVariants) {
    const auto variants = motion::motion_registry().variants();
    ASSERT_FALSE(variants.empty());
    for (const auto& [name, t] : variants) std::printf("  variant %s\n", name.c_str());
}

TEST(MotionCheckasm, BlurredDifferenceSadMatchesScalar) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed() ^ 0x9e3779b97f4a7c15ull);
    for (const auto& [name, k] : motion::motion_registry().variants()) {
        SCOPED_TRACE(name);
        for (unsigned bpc : {8u, 10u, 12u, 16u})
            for (unsigned w = 1; w <= 67; ++w)
                for (unsigned h : {1u, 2u, 3u, 5u, 7u})
                    for (unsigned extra : {0u, 9u}) {
                        if (bpc == 8)
                            check_sad_fills<std::uint8_t>(k, bpc, w, h, extra, rng);
                        else
                            check_sad_fills<std::uint16_t>(k, bpc, w, h, extra, rng);
                        if (HasFatalFailure()) return;
                    }
        check_sad_fills<std::uint8_t>(k, 8, 1920, 5, 64, rng);
        check_sad_fills<std::uint16_t>(k, 16, 1920, 5, 64, rng);
        check_sad_fills<std::uint16_t>(k, 10, 1920, 9, 0, rng);
    }
}

// ---- the whole extractor at several cpumasks ----------------------------

struct Rec final : ScoreWriter {
    std::vector<std::uint64_t> bits;  // frame, output, value bits in write order
    unsigned count = 0;
    void write(unsigned frame, unsigned output, double value) override {
        bits.insert(bits.end(), {frame, output, std::bit_cast<std::uint64_t>(value)});
        ++count;
    }
    void write_aggregate(unsigned output, double value) override {
        bits.insert(bits.end(), {~0ull, output, std::bit_cast<std::uint64_t>(value)});
        ++count;
    }
};

Rec run_at(unsigned cpumask, const OptionDict& dict, const VideoGeometry& geom, const std::vector<Picture>& refs) {
    auto ex = kMotionInfo.create(OptionValues(kMotionInfo.options, dict, "motion"), geom, ExtractorContext{cpumask});
    Rec r;
    for (unsigned i = 0; i < refs.size(); ++i) {
        auto st = static_cast<const FeatureExtractor&>(*ex).compute(i, refs[i], refs[i]);
        ex->finish(i, *st, r);
    }
    ex->flush(r);
    return r;
}

void check_clip(const std::string& pair, unsigned frames) {
    SCOPED_TRACE(pair);
    const auto info = test::pair_info(pair);
    // Motion reads the reference only; run over the reference and the distorted clip.
    for (const std::string& clip : {info.ref, info.dist}) {
        SCOPED_TRACE(clip);
        const std::string path = test::clip_path(clip);
        std::vector<Picture> pics;
        for (unsigned i = 0; i < frames && i < info.frames; ++i) pics.push_back(test::load_raw_frame(path, info.geom, i));
        for (const OptionDict& dict : {OptionDict{{"debug", "true"}}, OptionDict{{"motion_five_frame_window", "true"}}}) {
            const Rec scalar = run_at(63, dict, info.geom, pics);
            ASSERT_GT(scalar.count, 0u);
            for (unsigned mask : {0u, 16u, 48u, 56u}) EXPECT_EQ(run_at(mask, dict, info.geom, pics).bits, scalar.bits)
                                                          << "cpumask " << mask;
            std::printf("  %s (%s): %zu frames, %u scores identical at cpumask 0/16/48/56/63\n", clip.c_str(),
                        dict[0].first.c_str(), pics.size(), scalar.count);
        }
    }
}

TEST(MotionCheckasm, ExtractorCpumasks8bit) { check_clip("p01_crf35", 12); }
TEST(MotionCheckasm, ExtractorCpumasks10bit) { check_clip("p03_crf28", 6); }

}  // namespace
