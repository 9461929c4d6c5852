#include "features/float_common/cuda/float_device.cuh"
#include "float_ansnr_cuda_kernels.hpp"

namespace vmaf::floatfeat::cuda {

namespace {

/// filter2d's reflection: -1 -> 1 (edge not repeated), n -> n - 1 (repeated).
__device__ __forceinline__ int reflect(int i, int n) {
    return i < 0 ? -i : (i >= n ? 2 * n - i - 1 : i);
}

/// One output of the CPU's filter2d at (x, y): per filter row an inner float
/// sum over the columns in order, the rows' sums added in order, all from 0.
template <int Fw>
__device__ float filter2d_at(const unsigned char* plane, std::size_t pitch, int w, int h, int x, int y, unsigned bpc,
                             float scaler, const float* f) {
    constexpr int r = Fw / 2;
    float acc = 0.0f;
#pragma unroll
    for (int fi = 0; fi < Fw; ++fi) {
        const unsigned char* row = plane + static_cast<std::size_t>(reflect(y - r + fi, h)) * pitch;
        float inner = 0.0f;
#pragma unroll
        for (int fj = 0; fj < Fw; ++fj) {
            const float v = sample(row, static_cast<unsigned>(reflect(x - r + fj, w)), bpc, scaler) + -128.0f;
            inner = inner + f[fi * Fw + fj] * v;
        }
        acc = acc + inner;
    }
    return acc;
}

struct AnsnrTerms {
    const unsigned char *ref, *dist;
    std::size_t pitch;
    int w, h;
    unsigned bpc;
    float scaler;
    AnsnrFilters f;
    __device__ void operator()(unsigned x, unsigned y, float* t) const {
        const float a = filter2d_at<3>(ref, pitch, w, h, static_cast<int>(x), static_cast<int>(y), bpc, scaler, f.ref3);
        const float b = filter2d_at<5>(dist, pitch, w, h, static_cast<int>(x), static_cast<int>(y), bpc, scaler, f.dis5);
        t[0] = a * a;
        t[1] = (a - b) * (a - b);
    }
};

}  // namespace

void launch_float_ansnr(const void* ref, const void* dist, std::size_t pitch, unsigned w, unsigned h, unsigned bpc,
                        const AnsnrFilters& f, float* rows, cudaStream_t s) {
    if (!w || !h) return;
    const float scaler = bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : 256.0f;
    const AnsnrTerms t{static_cast<const unsigned char*>(ref), static_cast<const unsigned char*>(dist), pitch,
                       static_cast<int>(w), static_cast<int>(h), bpc, scaler, f};
    row_sums<2><<<(h + kRowSumRows - 1) / kRowSumRows, dim3(32, 8), 0, s>>>(t, w, h, rows);
}

}  // namespace vmaf::floatfeat::cuda
