// Motion benchmarks at 1920x1080: each kernel of the scalar reference and of
// every SIMD variant, and the whole extractor per frame (compute + finish of a
// frame after the first) at cpumask 63 (scalar) and 0 (best SIMD).
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/motion/motion_kernels.hpp"

namespace vmaf {
extern const ExtractorInfo kMotionInfo;
}

namespace {

using namespace vmaf;

constexpr unsigned kW = 1920, kH = 1080;

/// Smooth content plus noise (rows are rarely all-zero after differencing).
Picture frame(unsigned bpc, std::uint64_t seed) {
    Picture p(PixelFormat::Yuv420, bpc, kW, kH);
    std::mt19937_64 rng(seed);
    const unsigned maxv = (1u << bpc) - 1u;
    for (unsigned pl = 0; pl < p.planes(); ++pl) {
        const Plane& q = p.plane(pl);
        for (unsigned y = 0; y < q.height; ++y)
            for (unsigned x = 0; x < q.width; ++x) {
                const unsigned v = ((x + y) * (maxv / 64) / 64 + static_cast<unsigned>(rng() % (maxv / 16 + 1))) % (maxv + 1);
                if (bpc == 8)
                    q.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
                else
                    q.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
            }
    }
    return p;
}

void register_kernels(const std::string& variant, motion::MotionKernels k) {
    for (unsigned bpc : {8u, 10u}) {
        const std::string suffix = "/" + variant + "/" + std::to_string(bpc) + "bit/1920x1080";
        benchmark::RegisterBenchmark(("blurred_difference_sad" + suffix).c_str(), [k, bpc](benchmark::State& st) {
            const Picture a = frame(bpc, 1), b = frame(bpc, 2);
            std::vector<std::int32_t> scratch(motion::sad_scratch_size(kW));
            for (auto _ : st)
                benchmark::DoNotOptimize(k.blurred_difference_sad(a.plane(0), b.plane(0), bpc, scratch.data()));
            st.SetItemsProcessed(st.iterations() * kW * kH);
        });
    }
}

struct Null final : ScoreWriter {
    void write(unsigned, unsigned, double) override {}
    void write_aggregate(unsigned, double) override {}
};

void register_extractor(unsigned cpumask) {
    for (unsigned bpc : {8u, 10u}) {
        const std::string name =
            "extractor/" + std::to_string(bpc) + "bit/cpumask" + std::to_string(cpumask) + "/1080p_frame";
        benchmark::RegisterBenchmark(name.c_str(), [cpumask, bpc](benchmark::State& st) {
            const Picture pics[2] = {frame(bpc, 1), frame(bpc, 2)};
            const VideoGeometry g{PixelFormat::Yuv420, bpc, kW, kH};
            auto ex = kMotionInfo.create(OptionValues(kMotionInfo.options, {}, "motion"), g, ExtractorContext{cpumask});
            Null out;
            unsigned i = 0;
            for (auto _ : st) {
                auto s = static_cast<const FeatureExtractor&>(*ex).compute(i, pics[i & 1], pics[i & 1]);
                ex->finish(i, *s, out);
                ++i;
            }
        });
    }
}

}  // namespace

int main(int argc, char** argv) {
    // Registered here, not from static initialisers: the kernel registry is
    // filled by static initialisers of another translation unit.
    register_kernels("scalar", motion::MotionKernels{});
    for (const auto& [name, k] : motion::motion_registry().variants()) register_kernels(name, k);
    register_extractor(63);
    register_extractor(0);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
