// PSNR-HVS benchmarks at 1920x1080: the block-row kernel of the scalar
// reference and of every SIMD variant (one whole luma plane of block rows),
// and the whole extractor (3 planes, 4:2:0) per frame at cpumask 63 (scalar)
// and 0 (best SIMD).
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/psnr_hvs/psnr_hvs_kernels.hpp"

namespace vmaf {
extern const ExtractorInfo kPsnrHvsInfo;
}

namespace {

using namespace vmaf;

constexpr unsigned kW = 1920, kH = 1080;

// Reference: smooth gradient plus noise; distorted: reference plus small noise
// (a realistic share of masked coefficients).
Picture frame(unsigned bpc, std::uint64_t seed, const Picture* base) {
    Picture p(PixelFormat::Yuv420, bpc, kW, kH);
    std::mt19937_64 rng(seed);
    const unsigned maxv = (1u << bpc) - 1u;
    for (unsigned pl = 0; pl < p.planes(); ++pl) {
        const Plane& q = p.plane(pl);
        for (unsigned y = 0; y < q.height; ++y)
            for (unsigned x = 0; x < q.width; ++x) {
                unsigned v;
                if (base) {
                    const Plane& b = base->plane(pl);
                    const unsigned o = bpc == 8 ? b.row<std::uint8_t>(y)[x] : b.row<std::uint16_t>(y)[x];
                    v = std::min(maxv, o + static_cast<unsigned>(rng() % 5));
                } else {
                    v = (((x + y) << (bpc - 8)) + static_cast<unsigned>(rng() % (8u << (bpc - 8)))) & maxv;
                }
                if (bpc == 8)
                    q.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
                else
                    q.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
            }
    }
    return p;
}

void register_kernel(const std::string& variant, psnr_hvs::PsnrHvsKernels k) {
    for (unsigned bpc : {8u, 10u}) {
        const std::string name = "block_row/" + variant + "/" + std::to_string(bpc) + "bit/1920x1080_plane";
        benchmark::RegisterBenchmark(name.c_str(), [k, bpc](benchmark::State& st) {
            const Picture a = frame(bpc, 1, nullptr), b = frame(bpc, 2, &a);
            const unsigned n = psnr_hvs::block_count(kW), rows = psnr_hvs::block_count(kH);
            std::vector<float> out(std::size_t{64} * n);
            for (auto _ : st)
                for (unsigned r = 0; r < rows; ++r) {
                    k.block_row(a.plane(0), b.plane(0), bpc, psnr_hvs::kStep * r, n, psnr_hvs::weights(0), out.data());
                    benchmark::DoNotOptimize(out.data());
                }
            st.SetItemsProcessed(st.iterations() * n * rows);  // blocks
        });
    }
}

void register_extractor(unsigned cpumask) {
    for (unsigned bpc : {8u, 10u}) {
        const std::string name =
            "extractor/" + std::to_string(bpc) + "bit/cpumask" + std::to_string(cpumask) + "/1080p_frame";
        benchmark::RegisterBenchmark(name.c_str(), [cpumask, bpc](benchmark::State& st) {
            const Picture a = frame(bpc, 1, nullptr), b = frame(bpc, 2, &a);
            const VideoGeometry g{PixelFormat::Yuv420, bpc, kW, kH};
            auto ex =
                kPsnrHvsInfo.create(OptionValues(kPsnrHvsInfo.options, {}, "psnr_hvs"), g, ExtractorContext{cpumask});
            for (auto _ : st) benchmark::DoNotOptimize(static_cast<const FeatureExtractor&>(*ex).compute(0, a, b));
        });
    }
}

}  // namespace

int main(int argc, char** argv) {
    // Registered here, not from static initialisers: the kernel registry is
    // filled by static initialisers of another translation unit.
    register_kernel("scalar", psnr_hvs::PsnrHvsKernels{});
    for (const auto& [name, k] : psnr_hvs::psnr_hvs_registry().variants()) register_kernel(name, k);
    register_extractor(63);
    register_extractor(0);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
