// checkasm-style tests of the PSNR kernel table: every kernel of every SIMD
// variant against the scalar reference, bit for bit, plus the whole extractor
// at several cpumasks on real clips.
#include <gtest/gtest.h>

#include <bit>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/psnr/psnr_kernels.hpp"
#include "support/checkasm.hpp"
#include "support/testdata.hpp"

namespace vmaf {
extern const ExtractorInfo kPsnrInfo;
}

namespace {

using namespace vmaf;
using test::as_plane;
using test::GuardedPlane;

enum class Fill { Random, Zeros, MaxVsZero, ZeroVsMax, Max };

template <typename T>
void fill_pair(GuardedPlane<T>& a, GuardedPlane<T>& b, Fill f, unsigned bpc, std::mt19937_64& rng) {
    const std::uint32_t maxv = (1u << bpc) - 1u;
    std::uniform_int_distribution<std::uint32_t> dist(0, maxv);
    auto rnd = [&] { return dist(rng); };
    auto zero = [] { return 0u; };
    auto max = [&] { return maxv; };
    switch (f) {
        case Fill::Random: a.fill(rnd), b.fill(rnd); break;
        case Fill::Zeros: a.fill(zero), b.fill(zero); break;
        case Fill::MaxVsZero: a.fill(max), b.fill(zero); break;
        case Fill::ZeroVsMax: a.fill(zero), b.fill(max); break;
        case Fill::Max: a.fill(max), b.fill(max); break;
    }
}

const char* fill_name(Fill f) {
    switch (f) {
        case Fill::Random: return "random";
        case Fill::Zeros: return "zeros";
        case Fill::MaxVsZero: return "max-vs-zero";
        case Fill::ZeroVsMax: return "zero-vs-max";
        case Fill::Max: return "max";
    }
    return "?";
}

/// One variant's kernel vs the scalar reference on one (w, h, stride, fill).
template <typename T>
void check_one(const psnr::PsnrKernels& k, unsigned bpc, unsigned w, unsigned h, unsigned extra, Fill f,
               std::mt19937_64& rng) {
    GuardedPlane<T> a(w, h, extra), b(w, h, extra);
    fill_pair(a, b, f, bpc, rng);
    const Plane pa = as_plane(a), pb = as_plane(b);
    const std::uint64_t want = sizeof(T) == 1 ? psnr::sse_u8(pa, pb) : psnr::sse_u16(pa, pb);
    const std::uint64_t got = sizeof(T) == 1 ? k.sse_u8(pa, pb) : k.sse_u16(pa, pb);
    ASSERT_EQ(want, got) << "bpc " << bpc << " " << w << "x" << h << " extra stride " << extra << " "
                         << fill_name(f);
    ASSERT_TRUE(a.intact() && b.intact()) << w << "x" << h;
}

TEST(PsnrCheckasm, HasVariants) {
    const auto variants = psnr::psnr_registry().variants();
    ASSERT_FALSE(variants.empty());
    for (const auto& [name, t] : variants) std::printf("  variant %s\n", name.c_str());
}

TEST(PsnrCheckasm, SseMatchesScalar) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed());
    for (const auto& [name, k] : psnr::psnr_registry().variants()) {
        SCOPED_TRACE(name);
        for (unsigned bpc : {8u, 10u, 12u, 16u})
            for (unsigned w = 1; w <= 67; ++w)
                for (unsigned h : {1u, 2u, 3u, 5u})
                    for (unsigned extra : {0u, 7u})
                        for (Fill f : {Fill::Random, Fill::Zeros, Fill::MaxVsZero, Fill::ZeroVsMax, Fill::Max}) {
                            if (bpc == 8)
                                check_one<std::uint8_t>(k, bpc, w, h, extra, f, rng);
                            else
                                check_one<std::uint16_t>(k, bpc, w, h, extra, f, rng);
                            if (HasFatalFailure()) return;
                        }
    }
}

TEST(PsnrCheckasm, LargePlanes) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed() ^ 0x9e3779b97f4a7c15ull);
    for (const auto& [name, k] : psnr::psnr_registry().variants()) {
        SCOPED_TRACE(name);
        for (Fill f : {Fill::Random, Fill::MaxVsZero}) {
            check_one<std::uint8_t>(k, 8, 1920, 9, 64, f, rng);
            check_one<std::uint16_t>(k, 10, 1920, 9, 64, f, rng);
            check_one<std::uint16_t>(k, 16, 1920, 9, 64, f, rng);
            // 8-bit rows whose uint32 sum wraps (> 66052 maximal squares).
            check_one<std::uint8_t>(k, 8, 70001, 3, 5, f, rng);
            // 16-bit rows long enough to flush the uint32 lane sums repeatedly.
            check_one<std::uint16_t>(k, 16, 1100003, 2, 3, f, rng);
        }
    }
}

// ---- the whole extractor at several cpumasks ----------------------------

struct Scores {
    std::vector<std::uint64_t> bits;  // frame, output, value bits in write order
    unsigned count = 0;
};

struct Rec final : ScoreWriter {
    Scores s;
    void write(unsigned frame, unsigned output, double value) override {
        s.bits.insert(s.bits.end(), {frame, output, std::bit_cast<std::uint64_t>(value)});
        ++s.count;
    }
    void write_aggregate(unsigned output, double value) override {
        s.bits.insert(s.bits.end(), {~0ull, output, std::bit_cast<std::uint64_t>(value)});
        ++s.count;
    }
};

Scores run_at(unsigned cpumask, const VideoGeometry& geom, const std::vector<Picture>& refs,
              const std::vector<Picture>& dists) {
    const OptionDict dict{{"enable_mse", "true"}, {"enable_apsnr", "true"}};
    auto ex = kPsnrInfo.create(OptionValues(kPsnrInfo.options, dict, "psnr"), geom, ExtractorContext{cpumask});
    Rec r;
    for (unsigned i = 0; i < refs.size(); ++i) {
        auto st = static_cast<const FeatureExtractor&>(*ex).compute(i, refs[i], dists[i]);
        ex->finish(i, *st, r);
    }
    ex->flush(r);
    return r.s;
}

void check_clip(const std::string& pair, unsigned frames) {
    SCOPED_TRACE(pair);
    const auto info = test::pair_info(pair);
    const std::string rp = test::clip_path(info.ref), dp = test::clip_path(info.dist);
    std::vector<Picture> refs, dists;
    for (unsigned i = 0; i < frames && i < info.frames; ++i) {
        refs.push_back(test::load_raw_frame(rp, info.geom, i));
        dists.push_back(test::load_raw_frame(dp, info.geom, i));
    }
    const Scores scalar = run_at(63, info.geom, refs, dists);
    ASSERT_GT(scalar.count, 0u);
    for (unsigned mask : {0u, 16u, 48u, 56u}) {
        const Scores s = run_at(mask, info.geom, refs, dists);
        EXPECT_EQ(s.bits, scalar.bits) << "cpumask " << mask;
    }
    std::printf("  %s: %zu frames, %u scores identical at cpumask 0/16/48/56/63\n", pair.c_str(), refs.size(),
                scalar.count);
}

TEST(PsnrCheckasm, ExtractorCpumasks8bit) { check_clip("p01_crf35", 12); }
TEST(PsnrCheckasm, ExtractorCpumasks10bit) { check_clip("p03_crf28", 6); }

}  // namespace
