// PSNR-HVS benchmarks at 1920x1080: the block-row kernel of the scalar
// reference and of every SIMD variant (one whole luma plane of block rows),
// and the whole extractor (3 planes, 4:2:0) per frame at cpumask 63 (scalar)
// and 0 (best SIMD).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/psnr_hvs/psnr_hvs_kernels.hpp"
#include "support/feature_bench.hpp"

namespace vmaf {
extern const ExtractorInfo kPsnrHvsInfo;
}

namespace {

using namespace vmaf;
using bench::kHeight, bench::kWidth;

// Reference: smooth gradient plus noise; distorted: reference plus small noise
// (a realistic share of masked coefficients).
std::vector<bench::PicturePair> frames(unsigned bpc) {
    const unsigned maxv = (1u << bpc) - 1u;
    const Picture ref =
        bench::synthetic_picture(bpc, 1, [bpc, maxv](unsigned, unsigned x, unsigned y, std::mt19937_64& rng) {
            return (((x + y) << (bpc - 8)) + static_cast<unsigned>(rng() % (8u << (bpc - 8)))) & maxv;
        });
    const Picture dis =
        bench::synthetic_picture(bpc, 2, [&ref, bpc, maxv](unsigned pl, unsigned x, unsigned y, std::mt19937_64& rng) {
            const Plane& b = ref.plane(pl);
            const unsigned o = bpc == 8 ? b.row<std::uint8_t>(y)[x] : b.row<std::uint16_t>(y)[x];
            return std::min(maxv, o + static_cast<unsigned>(rng() % 5));
        });
    return {{ref, dis}};
}

void register_kernel(const std::string& variant, psnr_hvs::PsnrHvsKernels k) {
    for (unsigned bpc : {8u, 10u}) {
        const std::string name = "block_row/" + variant + "/" + std::to_string(bpc) + "bit/1920x1080_plane";
        benchmark::RegisterBenchmark(name.c_str(), [k, bpc](benchmark::State& st) {
            const auto f = frames(bpc);
            const Picture &a = f[0].ref, &b = f[0].dis;
            const unsigned n = psnr_hvs::block_count(kWidth), rows = psnr_hvs::block_count(kHeight);
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

}  // namespace

int main(int argc, char** argv) {
    for (const auto& [name, k] :
         bench::kernel_tables(psnr_hvs::PsnrHvsKernels{}, psnr_hvs::psnr_hvs_registry().variants()))
        register_kernel(name, k);
    bench::register_extractor_frames({.info = &kPsnrHvsInfo, .frames = frames}, {63, 0}, {8, 10});
    return bench::run_benchmarks(argc, argv);
}
