// XPSNR benchmarks at 1920x1080: each kernel of the scalar reference and of
// every SIMD variant, and the whole extractor (4:2:0) per frame at cpumask 63
// (scalar) and 0 (best SIMD).
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/xpsnr/xpsnr_kernels.hpp"
#include "support/feature_bench.hpp"

namespace vmaf {
extern const ExtractorInfo kXpsnrInfo;
}

namespace {

using namespace vmaf;
using bench::kHeight, bench::kWidth;
constexpr auto noise = bench::noise_picture;

std::vector<bench::PicturePair> frames(unsigned bpc) {
    return {{noise(bpc, 1), noise(bpc, 2)}, {noise(bpc, 3), noise(bpc, 4)}};
}

void register_kernel(const std::string& variant, xpsnr::XpsnrKernels k) {
    for (unsigned bpc : {8u, 10u}) {
        std::string suffix = "/";  // "/<bpc>bit/<variant>/1920x1080" (appended: GCC 12's -Wrestrict false positive)
        suffix += std::to_string(bpc);
        suffix += "bit/" + variant + "/1920x1080";
        benchmark::RegisterBenchmark(("spatial_plain" + suffix).c_str(), [k, bpc](benchmark::State& st) {
            const Picture a = noise(bpc, 1);
            std::vector<std::uint32_t> col(kWidth);
            for (auto _ : st) k.spatial_plain(a.plane(0), bpc, 1, kHeight - 1, col.data());
            benchmark::DoNotOptimize(col.data());
            st.SetItemsProcessed(st.iterations() * kWidth * kHeight);
        });
        benchmark::RegisterBenchmark(("temporal_plain" + suffix).c_str(), [k, bpc](benchmark::State& st) {
            const Picture a = noise(bpc, 1), b = noise(bpc, 2);
            std::vector<std::uint32_t> col(kWidth);
            for (auto _ : st) k.temporal_plain(a.plane(0), b.plane(0), b.plane(0), bpc, 1, 0, kHeight, col.data());
            benchmark::DoNotOptimize(col.data());
            st.SetItemsProcessed(st.iterations() * kWidth * kHeight);
        });
        benchmark::RegisterBenchmark(("sse_cols" + suffix).c_str(), [k, bpc](benchmark::State& st) {
            const Picture a = noise(bpc, 1), b = noise(bpc, 2);
            std::vector<std::uint32_t> col(kWidth);
            for (auto _ : st) k.sse_cols(a.plane(0), b.plane(0), bpc, 0, 64, col.data());
            benchmark::DoNotOptimize(col.data());
            st.SetItemsProcessed(st.iterations() * kWidth * 64);
        });
    }
}

}  // namespace

int main(int argc, char** argv) {
    for (const auto& [name, k] : bench::kernel_tables(xpsnr::XpsnrKernels{}, xpsnr::xpsnr_registry().variants()))
        register_kernel(name, k);
    bench::register_extractor_frames({.info = &kXpsnrInfo, .loop = bench::FrameLoop::ComputeFinish, .frames = frames}, {63, 0}, {8, 10});
    return bench::run_benchmarks(argc, argv);
}
