// PSNR benchmarks at 1920x1080: each kernel of the scalar reference and of
// every SIMD variant, and the whole extractor (3 planes, 4:2:0) per frame at
// cpumask 63 (scalar) and 0 (best SIMD).
#include <benchmark/benchmark.h>

#include <random>
#include <string>

#include "core/feature_extractor.hpp"
#include "features/psnr/psnr_kernels.hpp"

namespace vmaf {
extern const ExtractorInfo kPsnrInfo;
}

namespace {

using namespace vmaf;

constexpr unsigned kW = 1920, kH = 1080;

Picture noise(unsigned bpc, std::uint64_t seed) {
    Picture p(PixelFormat::Yuv420, bpc, kW, kH);
    std::mt19937_64 rng(seed);
    for (unsigned pl = 0; pl < p.planes(); ++pl) {
        const Plane& q = p.plane(pl);
        for (unsigned y = 0; y < q.height; ++y)
            for (unsigned x = 0; x < q.width; ++x) {
                const auto v = rng() & ((1u << bpc) - 1u);
                if (bpc == 8)
                    q.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
                else
                    q.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
            }
    }
    return p;
}

void register_kernel(const std::string& variant, psnr::PsnrKernels k) {
    for (unsigned bpc : {8u, 10u}) {
        const std::string name = "sse_u" + std::string(bpc == 8 ? "8" : "16") + "/" + variant + "/1920x1080";
        benchmark::RegisterBenchmark(name.c_str(), [k, bpc](benchmark::State& st) {
            const Picture a = noise(bpc, 1), b = noise(bpc, 2);
            const auto fn = bpc == 8 ? k.sse_u8 : k.sse_u16;
            for (auto _ : st) benchmark::DoNotOptimize(fn(a.plane(0), b.plane(0)));
            st.SetItemsProcessed(st.iterations() * kW * kH);
        });
    }
}

void register_extractor(unsigned cpumask) {
    for (unsigned bpc : {8u, 10u}) {
        const std::string name =
            "extractor/" + std::to_string(bpc) + "bit/cpumask" + std::to_string(cpumask) + "/1080p_frame";
        benchmark::RegisterBenchmark(name.c_str(), [cpumask, bpc](benchmark::State& st) {
            const Picture a = noise(bpc, 1), b = noise(bpc, 2);
            const VideoGeometry g{PixelFormat::Yuv420, bpc, kW, kH};
            auto ex = kPsnrInfo.create(OptionValues(kPsnrInfo.options, {}, "psnr"), g, ExtractorContext{cpumask});
            for (auto _ : st) benchmark::DoNotOptimize(static_cast<const FeatureExtractor&>(*ex).compute(0, a, b));
        });
    }
}

}  // namespace

int main(int argc, char** argv) {
    // Registered here, not from static initialisers: the kernel registry is
    // filled by static initialisers of another translation unit.
    register_kernel("scalar", psnr::PsnrKernels{});
    for (const auto& [name, k] : psnr::psnr_registry().variants()) register_kernel(name, k);
    register_extractor(63);
    register_extractor(0);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
