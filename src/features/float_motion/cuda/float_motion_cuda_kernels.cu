#include "features/float_common/cuda/float_device.cuh"
#include "float_motion_cuda_kernels.hpp"

namespace vmaf::floatfeat::cuda {

namespace {

/// conv_rows (Tap::Value) of the converted samples: per output a float sum
/// from 0 of f[k] * sample(row y - r + k), k in order.
__global__ void blur_vertical(const unsigned char* plane, std::size_t pitch, int w, int h, unsigned bpc, MotionFilter f,
                              float* out) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= w || y >= h) return;
    const float scaler = bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : 256.0f;
    const int r = f.taps / 2;
    float acc = 0.0f;
    for (int k = 0; k < f.taps; ++k) {
        const unsigned char* row = plane + static_cast<std::size_t>(mirror_skip(y - r + k, h)) * pitch;
        const float v = sample(row, static_cast<unsigned>(x), bpc, scaler) + -128.0f;
        acc = acc + f.f[k] * v;
    }
    out[static_cast<std::size_t>(y) * w + x] = acc;
}

/// conv_cols: per output a float sum from 0 of f[k] * in(column x - r + k), k in order.
__global__ void blur_horizontal(const float* in, int w, int h, MotionFilter f, float* out) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= w || y >= h) return;
    const float* row = in + static_cast<std::size_t>(y) * w;
    const int r = f.taps / 2;
    float acc = 0.0f;
    for (int k = 0; k < f.taps; ++k) acc = acc + f.f[k] * row[mirror_skip(x - r + k, w)];
    out[static_cast<std::size_t>(y) * w + x] = acc;
}

/// scale_frame's bilinear expression, evaluated left to right as the CPU's.
__global__ void scale_bilinear(const float* src, unsigned w, float* dst, unsigned sw, unsigned sh, BilinearTaps t) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= sw || y >= sh) return;
    const float dy = t.y_d[y], dx = t.x_d[x];
    const float* r1 = src + static_cast<std::size_t>(t.y_lo[y]) * w;
    const float* r2 = src + static_cast<std::size_t>(t.y_hi[y]) * w;
    const int x1 = t.x_lo[x], x2 = t.x_hi[x];
    dst[static_cast<std::size_t>(y) * sw + x] = (1.0f - dy) * (1.0f - dx) * r1[x1] + (1.0f - dy) * dx * r1[x2] +
                                                dy * (1.0f - dx) * r2[x1] + dy * dx * r2[x2];
}

struct AbsDiff {
    const float *a, *b;
    unsigned w;
    __device__ void operator()(unsigned x, unsigned y, float* t) const {
        const std::size_t i = static_cast<std::size_t>(y) * w + x;
        t[0] = fabsf(a[i] - b[i]);
    }
};

}  // namespace

void launch_motion_blur(const void* plane, std::size_t pitch, unsigned w, unsigned h, unsigned bpc,
                        const MotionFilter& f, float* tmp, float* out, cudaStream_t s) {
    if (!w || !h) return;
    const dim3 block(32, 8), grid((w + 31) / 32, (h + 7) / 8);
    blur_vertical<<<grid, block, 0, s>>>(static_cast<const unsigned char*>(plane), pitch, static_cast<int>(w),
                                         static_cast<int>(h), bpc, f, tmp);
    blur_horizontal<<<grid, block, 0, s>>>(tmp, static_cast<int>(w), static_cast<int>(h), f, out);
}

void launch_motion_scale(const float* src, unsigned w, float* dst, unsigned sw, unsigned sh, const BilinearTaps& t,
                         cudaStream_t s) {
    if (!sw || !sh) return;
    const dim3 block(32, 8), grid((sw + 31) / 32, (sh + 7) / 8);
    scale_bilinear<<<grid, block, 0, s>>>(src, w, dst, sw, sh, t);
}

void launch_abs_diff_rows(const float* a, const float* b, unsigned w, unsigned h, float* rows, cudaStream_t s) {
    if (!w || !h) return;
    row_sums<1><<<(h + kRowSumRows - 1) / kRowSumRows, dim3(32, 8), 0, s>>>(AbsDiff{a, b, w}, w, h, rows);
}

}  // namespace vmaf::floatfeat::cuda
