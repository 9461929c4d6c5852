// PSNR benchmarks at 1920x1080: each kernel of the scalar reference and of
// every SIMD variant, and the whole extractor (3 planes, 4:2:0) per frame at
// cpumask 63 (scalar) and 0 (best SIMD).
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/psnr/psnr_kernels.hpp"
#include "support/feature_bench.hpp"

namespace vmaf {
extern const ExtractorInfo kPsnrInfo;
}

namespace {

using namespace vmaf;
using bench::kHeight, bench::kWidth;
constexpr auto noise = bench::noise_picture;

std::vector<bench::PicturePair> frames(unsigned bpc) {
    return {{noise(bpc, 1), noise(bpc, 2)}};
}

void register_kernel(const std::string& variant, psnr::PsnrKernels k) {
    for (unsigned bpc : {8u, 10u}) {
        const std::string name = "sse_u" + std::string(bpc == 8 ? "8" : "16") + "/" + variant + "/1920x1080";
        benchmark::RegisterBenchmark(name.c_str(), [k, bpc](benchmark::State& st) {
            const Picture a = noise(bpc, 1), b = noise(bpc, 2);
            const auto fn = bpc == 8 ? k.sse_u8 : k.sse_u16;
            for (auto _ : st) benchmark::DoNotOptimize(fn(a.plane(0), b.plane(0)));
            st.SetItemsProcessed(st.iterations() * kWidth * kHeight);
        });
    }
}

}  // namespace

int main(int argc, char** argv) {
    for (const auto& [name, k] : bench::kernel_tables(psnr::PsnrKernels{}, psnr::psnr_registry().variants()))
        register_kernel(name, k);
    bench::register_extractor_frames({.info = &kPsnrInfo, .frames = frames}, {63, 0}, {8, 10});
    return bench::run_benchmarks(argc, argv);
}
