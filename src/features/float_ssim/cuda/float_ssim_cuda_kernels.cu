#include "features/float_common/cuda/float_device.cuh"
#include "features/float_ssim/cuda/float_ssim_cuda_kernels.hpp"

namespace vmaf::floatfeat::cuda {

namespace {

std::size_t align(std::size_t bytes) { return (bytes + 255) & ~std::size_t{255}; }

/// The CPU's sample conversion (scale 1) or decimate_rows with the box
/// filter: per output a double sum from 0 over the scale x scale taps (rows
/// outer, columns inner) of the float products sample * box, rounded to float.
/// Taps are mirrored with the edge repeated.
__global__ void prepare(const unsigned char* ref, const unsigned char* dist, std::size_t pitch, SsimGeometry g,
                        float box, float* a, float* b) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= g.iqa.sw || y >= g.iqa.sh) return;
    const float scaler = g.bpc == 10 ? 4.0f : g.bpc == 12 ? 16.0f : 256.0f;
    const std::size_t o = static_cast<std::size_t>(y) * g.iqa.sw + x;
    if (g.scale <= 1) {
        a[o] = sample(ref + y * pitch, x, g.bpc, scaler);
        b[o] = sample(dist + y * pitch, x, g.bpc, scaler);
        return;
    }
    const int lo = g.scale / 2, w = static_cast<int>(g.w), h = static_cast<int>(g.h);
    double sa = 0.0, sb = 0.0;
    for (int v = 0; v < g.scale; ++v) {
        const std::size_t row = static_cast<std::size_t>(mirror_repeat(static_cast<int>(y) * g.scale - lo + v, h)) * pitch;
        for (int u = 0; u < g.scale; ++u) {
            const auto c = static_cast<unsigned>(mirror_repeat(static_cast<int>(x) * g.scale - lo + u, w));
            sa = sa + static_cast<double>(sample(ref + row, c, g.bpc, scaler) * box);
            sb = sb + static_cast<double>(sample(dist + row, c, g.bpc, scaler) * box);
        }
    }
    a[o] = static_cast<float>(sa);
    b[o] = static_cast<float>(sb);
}

}  // namespace

std::size_t ssim_scratch_bytes(const SsimGeometry& g) {
    const std::size_t img = align(std::size_t{g.iqa.sw} * g.iqa.sh * sizeof(float));
    return 2 * img + ssimfeat::cuda::iqa_scratch_bytes(g.iqa, {true, g.lcs});
}

SsimScratch ssim_scratch_layout(void* base, const SsimGeometry& g) {
    auto* p = static_cast<unsigned char*>(base);
    SsimScratch s{};
    const std::size_t img = align(std::size_t{g.iqa.sw} * g.iqa.sh * sizeof(float));
    s.a = reinterpret_cast<float*>(p);
    s.b = reinterpret_cast<float*>(p + img);
    s.iqa = ssimfeat::cuda::iqa_scratch_layout(p + 2 * img, g.iqa, {true, g.lcs});
    return s;
}

void launch_float_ssim(const void* ref, const void* dist, std::size_t pitch, const SsimGeometry& g,
                       const SsimConstants& k, const SsimScratch& sc, double* sums, cudaStream_t s) {
    const dim3 block(32, 8);
    prepare<<<dim3((g.iqa.sw + 31) / 32, (g.iqa.sh + 7) / 8), block, 0, s>>>(
        static_cast<const unsigned char*>(ref), static_cast<const unsigned char*>(dist), pitch, g, k.box, sc.a, sc.b);
    ssimfeat::cuda::launch_iqa_ssim(sc.a, sc.b, g.iqa, k.iqa, {true, g.lcs}, sc.iqa, sums, s);
}

}  // namespace vmaf::floatfeat::cuda
