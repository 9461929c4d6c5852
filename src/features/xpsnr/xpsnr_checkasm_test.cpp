// checkasm-style tests of the xpsnr kernel table: every kernel of every SIMD
// variant against the scalar reference, bit for bit (column sums and the
// memory around them), plus the whole extractor at several cpumasks.
#include <gtest/gtest.h>

#include <bit>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/xpsnr/xpsnr_kernels.hpp"
#include "support/checkasm.hpp"
#include "support/testdata.hpp"

namespace vmaf {
extern const ExtractorInfo kXpsnrInfo;
}

namespace {

using namespace vmaf;
using test::as_plane;
using test::GuardedBuf;
using test::GuardedPlane;

enum class Fill { Random, Zeros, Max, Mid };

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

/// Three planes (current, previous, the one before), every kernel against the reference.
template <typename T>
void check_all(const xpsnr::XpsnrKernels& k, unsigned bpc, unsigned w, unsigned h, unsigned extra, const Fill (&f)[3],
               std::mt19937_64& rng) {
    GuardedPlane<T> a(w, h, extra), b(w, h, extra), c(w, h, extra);
    fill(a, f[0], bpc, rng);
    fill(b, f[1], bpc, rng);
    fill(c, f[2], bpc, rng);
    const Plane pa = as_plane(a), pb = as_plane(b), pc = as_plane(c);
    const xpsnr::XpsnrKernels ref;
    const std::string what = "bpc " + std::to_string(bpc) + " " + std::to_string(w) + "x" + std::to_string(h) +
                             " extra " + std::to_string(extra);
    auto compare = [&](const char* name, auto&& run) {
        GuardedBuf<std::uint32_t> want(w, 7), got(w, 7);
        GuardedBuf<std::int32_t> s1(xpsnr::spatial_scratch_size(w), 0), s2(xpsnr::spatial_scratch_size(w), 0);
        run(ref, want.data(), s1.data());
        run(k, got.data(), s2.data());
        ASSERT_EQ(std::vector<std::uint32_t>(want.data(), want.data() + w),
                  std::vector<std::uint32_t>(got.data(), got.data() + w))
            << name << " " << what;
        ASSERT_TRUE(got.intact() && s2.intact()) << name << " wrote outside its buffers, " << what;
    };
    if (h >= 3)
        compare("spatial_plain", [&](const xpsnr::XpsnrKernels& t, std::uint32_t* col, std::int32_t*) {
            t.spatial_plain(pa, bpc, 1, h - 1, col);
        });
    if (h >= 3)
        compare("spatial_down", [&](const xpsnr::XpsnrKernels& t, std::uint32_t* col, std::int32_t* s) {
            t.spatial_down(pa, bpc, 2, h, col, s);
        });
    for (unsigned order : {1u, 2u}) {
        compare("temporal_plain", [&](const xpsnr::XpsnrKernels& t, std::uint32_t* col, std::int32_t*) {
            t.temporal_plain(pa, pb, pc, bpc, order, 0, h, col);
        });
        compare("temporal_down", [&](const xpsnr::XpsnrKernels& t, std::uint32_t* col, std::int32_t* s) {
            t.temporal_down(pa, pb, pc, bpc, order, 0, h, col, s);
        });
    }
    if (bpc <= 14)
        compare("sse_cols", [&](const xpsnr::XpsnrKernels& t, std::uint32_t* col, std::int32_t*) {
            t.sse_cols(pa, pb, bpc, 0, h, col);
        });
    ASSERT_TRUE(a.intact() && b.intact() && c.intact()) << what;
}

TEST(XpsnrCheckasm, HasVariants) {
    const auto variants = xpsnr::xpsnr_registry().variants();
    ASSERT_FALSE(variants.empty());
    for (const auto& [name, t] : variants) std::printf("  variant %s\n", name.c_str());
}

TEST(XpsnrCheckasm, KernelsMatchScalar) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed() ^ 0x5851f42d4c957f2dull);
    const Fill fills[][3] = {{Fill::Random, Fill::Random, Fill::Random}, {Fill::Max, Fill::Zeros, Fill::Max},
                             {Fill::Zeros, Fill::Max, Fill::Zeros},       {Fill::Mid, Fill::Zeros, Fill::Max},
                             {Fill::Max, Fill::Max, Fill::Zeros},         {Fill::Zeros, Fill::Zeros, Fill::Max}};
    for (const auto& [name, k] : xpsnr::xpsnr_registry().variants()) {
        SCOPED_TRACE(name);
        for (unsigned bpc : {8u, 10u, 11u, 12u, 14u, 15u, 16u})
            for (unsigned w : {1u, 2u, 3u, 5u, 8u, 13u, 17u, 31u, 32u, 33u, 47u, 64u, 67u})
                for (unsigned h : {1u, 3u, 4u, 7u})
                    for (unsigned extra : {0u, 9u})
                        for (const auto& f : fills) {
                            if (bpc == 8)
                                check_all<std::uint8_t>(k, bpc, w, h, extra, f, rng);
                            else
                                check_all<std::uint16_t>(k, bpc, w, h, extra, f, rng);
                            if (HasFatalFailure()) return;
                        }
        const Fill random[3] = {Fill::Random, Fill::Random, Fill::Random};
        check_all<std::uint8_t>(k, 8, 1920, 6, 64, random, rng);
        check_all<std::uint16_t>(k, 10, 1921, 5, 0, random, rng);
        check_all<std::uint16_t>(k, 16, 1283, 5, 3, random, rng);
    }
}

TEST(XpsnrCheckasm, SseLineX86) {
    // Exact below 15 bits; at 16 bits the int16 difference and the 32-bit lanes wrap.
    std::vector<std::uint16_t> a(70, 0), b(70, 0);
    for (unsigned i = 0; i < 70; ++i) a[i] = static_cast<std::uint16_t>((i * 977u) & 0x3fffu);
    std::uint64_t exact = 0;
    for (unsigned i = 0; i < 70; ++i) exact += std::uint64_t{a[i]} * a[i];
    EXPECT_EQ(xpsnr::sse_line_x86(a.data(), b.data(), 70), exact);
    std::fill(a.begin(), a.end(), 65535);
    // 64 SIMD samples: difference -1 as int16, square 1; 6 tail samples: exact 65535^2.
    EXPECT_EQ(xpsnr::sse_line_x86(a.data(), b.data(), 70), 64u + 6u * 65535ull * 65535ull);
    std::fill(a.begin(), a.end(), 30000);
    // A lane: 8 squares of 30000 = 7.2e9, taken mod 2^32.
    const std::uint64_t lane = (8ull * 30000 * 30000) & 0xffffffffull;
    EXPECT_EQ(xpsnr::sse_line_x86(a.data(), b.data(), 32), 4 * lane);
}

// ---- the whole extractor at several cpumasks ----------------------------

struct Rec final : ScoreWriter {
    std::vector<std::uint64_t> bits;
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

Rec run_at(unsigned cpumask, const OptionDict& dict, const VideoGeometry& geom, const std::vector<Picture>& refs,
           const std::vector<Picture>& dists) {
    ExtractorContext ctx;
    ctx.cpumask = cpumask;
    auto ex = kXpsnrInfo.create(OptionValues(kXpsnrInfo.options, dict, "xpsnr"), geom, ctx);
    Rec r;
    for (unsigned i = 0; i < refs.size(); ++i) {
        auto st = static_cast<const FeatureExtractor&>(*ex).compute(i, refs[i], dists[i]);
        ex->finish(i, *st, r);
    }
    ex->flush(r);
    return r;
}

void check_clip(const std::string& pair, unsigned frames) {
    SCOPED_TRACE(pair);
    const auto info = test::pair_info(pair);
    std::vector<Picture> refs, dists;
    for (unsigned i = 0; i < frames && i < info.frames; ++i) {
        refs.push_back(test::load_raw_frame(test::clip_path(info.ref), info.geom, i));
        dists.push_back(test::load_raw_frame(test::clip_path(info.dist), info.geom, i));
    }
    for (const OptionDict& dict : {OptionDict{}, OptionDict{{"fps", "60"}}}) {
        const Rec scalar = run_at(63, dict, info.geom, refs, dists);
        ASSERT_GT(scalar.count, 0u);
        for (unsigned mask : {0u, 16u, 48u, 56u})
            EXPECT_EQ(run_at(mask, dict, info.geom, refs, dists).bits, scalar.bits) << "cpumask " << mask;
        std::printf("  %s (%s): %zu frames, %u scores identical at cpumask 0/16/48/56/63\n", pair.c_str(),
                    dict.empty() ? "25 fps" : "60 fps", refs.size(), scalar.count);
    }
}

TEST(XpsnrCheckasm, ExtractorCpumasks8bit) { check_clip("p01_crf35", 8); }
TEST(XpsnrCheckasm, ExtractorCpumasks10bit) { check_clip("p03_crf28", 4); }
TEST(XpsnrCheckasm, ExtractorCpumasksOdd) { check_clip("p05_noise", 6); }

}  // namespace
