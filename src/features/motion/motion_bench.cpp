// Motion benchmarks at 1920x1080: each kernel of the scalar reference and of
// every SIMD variant, and the whole extractor per frame (compute + finish of a
// frame after the first) at cpumask 63 (scalar) and 0 (best SIMD).
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/motion/motion_kernels.hpp"
#include "support/feature_bench.hpp"

namespace vmaf {
extern const ExtractorInfo kMotionInfo;
}

namespace {

using namespace vmaf;
using bench::kHeight, bench::kWidth;

/// Smooth content plus noise (rows are rarely all-zero after differencing).
Picture frame(unsigned bpc, std::uint64_t seed) {
    const unsigned maxv = (1u << bpc) - 1u;
    return bench::synthetic_picture(bpc, seed, [maxv](unsigned, unsigned x, unsigned y, std::mt19937_64& rng) {
        return ((x + y) * (maxv / 64) / 64 + static_cast<unsigned>(rng() % (maxv / 16 + 1))) % (maxv + 1);
    });
}

/// Each frame is its own ref and dis; frames alternate between two pictures.
std::vector<bench::PicturePair> frames(unsigned bpc) {
    const Picture a = frame(bpc, 1), b = frame(bpc, 2);
    return {{a, a}, {b, b}};
}

void register_kernels(const std::string& variant, motion::MotionKernels k) {
    for (unsigned bpc : {8u, 10u}) {
        const std::string suffix = "/" + variant + "/" + std::to_string(bpc) + "bit/1920x1080";
        benchmark::RegisterBenchmark(("blurred_difference_sad" + suffix).c_str(), [k, bpc](benchmark::State& st) {
            const Picture a = frame(bpc, 1), b = frame(bpc, 2);
            std::vector<std::int32_t> scratch(motion::sad_scratch_size(kWidth));
            for (auto _ : st)
                benchmark::DoNotOptimize(k.blurred_difference_sad(a.plane(0), b.plane(0), bpc, scratch.data()));
            st.SetItemsProcessed(st.iterations() * kWidth * kHeight);
        });
    }
}

}  // namespace

int main(int argc, char** argv) {
    for (const auto& [name, k] : bench::kernel_tables(motion::MotionKernels{}, motion::motion_registry().variants()))
        register_kernels(name, k);
    bench::register_extractor_frames({.info = &kMotionInfo, .loop = bench::FrameLoop::ComputeFinish, .frames = frames},
                                     {63, 0}, {8, 10});
    return bench::run_benchmarks(argc, argv);
}
