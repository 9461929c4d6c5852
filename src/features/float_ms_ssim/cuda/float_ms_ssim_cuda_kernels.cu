#include "features/float_common/cuda/float_device.cuh"
#include "features/float_ms_ssim/cuda/float_ms_ssim_cuda_kernels.hpp"

namespace vmaf::ssimfeat::cuda {

namespace {

using floatfeat::cuda::mirror_repeat;
using floatfeat::cuda::sample;

std::size_t align(std::size_t bytes) {
    return (bytes + 255) & ~std::size_t{255};
}

/// floatfeat::to_float (offset 0) of both luma planes.
__global__ void to_float(const unsigned char* ref, const unsigned char* dist, std::size_t pitch, unsigned w, unsigned h,
                         unsigned bpc, float* a, float* b) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    const float scaler = bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : 256.0f;
    const std::size_t o = static_cast<std::size_t>(y) * w + x;
    a[o] = sample(ref + y * pitch, x, bpc, scaler);
    b[o] = sample(dist + y * pitch, x, bpc, scaler);
}

/// decimate(img, 2, lpf, 9): per output a double sum from 0 over the 9 x 9
/// taps around (2x, 2y), rows outer and columns inner, of the float products
/// sample * k, rounded to float; taps mirrored with the edge repeated.
__global__ void decimate2(const float* a, const float* b, unsigned w, unsigned h, MsSsimConstants k, unsigned sw,
                          unsigned sh, float* oa, float* ob) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= sw || y >= sh) return;
    int col[9];
#pragma unroll
    for (int u = 0; u < 9; ++u) col[u] = mirror_repeat(2 * static_cast<int>(x) - 4 + u, static_cast<int>(w));
    double sa = 0.0, sb = 0.0;
#pragma unroll
    for (int v = 0; v < 9; ++v) {
        const std::size_t row =
            static_cast<std::size_t>(mirror_repeat(2 * static_cast<int>(y) - 4 + v, static_cast<int>(h))) * w;
#pragma unroll
        for (int u = 0; u < 9; ++u) {
            const float f = k.lpf[v * 9 + u];
            sa = sa + static_cast<double>(a[row + col[u]] * f);
            sb = sb + static_cast<double>(b[row + col[u]] * f);
        }
    }
    const std::size_t o = static_cast<std::size_t>(y) * sw + x;
    oa[o] = static_cast<float>(sa);
    ob[o] = static_cast<float>(sb);
}

std::size_t image_bytes(const IqaGeometry& g) {
    return align(std::size_t{g.sw} * g.sh * sizeof(float));
}

constexpr IqaTerms kLcs{false, true};

}  // namespace

std::size_t ms_ssim_scratch_bytes(const MsSsimGeometry& g) {
    std::size_t n = 0;
    for (const IqaGeometry& s : g.scale) n += 2 * image_bytes(s);
    return n + iqa_scratch_bytes(g.scale[0], kLcs);
}

MsSsimScratch ms_ssim_scratch_layout(void* base, const MsSsimGeometry& g) {
    auto* p = static_cast<unsigned char*>(base);
    MsSsimScratch s{};
    for (int i = 0; i < kMsScales; ++i) {
        s.a[i] = reinterpret_cast<float*>(p);
        s.b[i] = reinterpret_cast<float*>(p + image_bytes(g.scale[i]));
        p += 2 * image_bytes(g.scale[i]);
    }
    s.iqa = iqa_scratch_layout(p, g.scale[0], kLcs);
    return s;
}

void launch_float_ms_ssim(const void* ref, const void* dist, std::size_t pitch, const MsSsimGeometry& g,
                          const MsSsimConstants& k, const MsSsimScratch& sc, double* sums, cudaStream_t s) {
    const dim3 block(32, 8);
    const IqaGeometry& g0 = g.scale[0];
    to_float<<<dim3((g0.sw + 31) / 32, (g0.sh + 7) / 8), block, 0, s>>>(static_cast<const unsigned char*>(ref),
                                                                        static_cast<const unsigned char*>(dist), pitch,
                                                                        g0.sw, g0.sh, g.bpc, sc.a[0], sc.b[0]);
    for (int i = 0; i < kMsScales; ++i) {
        const IqaGeometry& gi = g.scale[i];
        if (i > 0) {
            const IqaGeometry& up = g.scale[i - 1];
            decimate2<<<dim3((gi.sw + 31) / 32, (gi.sh + 7) / 8), block, 0, s>>>(sc.a[i - 1], sc.b[i - 1], up.sw, up.sh,
                                                                                 k, gi.sw, gi.sh, sc.a[i], sc.b[i]);
        }
        launch_iqa_ssim(sc.a[i], sc.b[i], gi, k.iqa, kLcs, sc.iqa, sums + 3 * i, s);
    }
}

}  // namespace vmaf::ssimfeat::cuda
