// Why these equal the CPU's values bit for bit: every filtered, rescaled or
// loaded sample is the same float expression as speed_core.cpp's, evaluated
// in the same order (compiled with --fmad=false, IEEE division; the rescaled
// samples come from the shared speed_rescale.hpp over the host's tables); each
// output sample of a filter pass is accumulated from 0 in tap order, as
// weighted_rows. The 25 means and 325 covariance sums are each formed by one
// thread adding its terms in the CPU's raster order (float means, double sums).
#include "features/speed/cuda/speed_cuda_kernels.hpp"
#include "features/speed/speed_rescale.hpp"

namespace vmaf::speed::cuda {

namespace {

/// Mirror without repeating the edge sample (speed_core.cpp's mirror_index).
__device__ __forceinline__ int mirror_index(int q, int n) {
    return q < 0 ? -q : (q >= n ? 2 * n - q - 2 : q);
}

/// Estimator::load's samples of a plane in device memory.
struct PlaneSrc {
    const unsigned char* p;
    std::size_t pitch;
    unsigned bpc;
    float scaler, offset;
    __device__ float operator()(int y, int x) const {
        const unsigned char* row = p + static_cast<std::size_t>(y) * pitch;
        if (bpc == 8) return static_cast<float>(row[x]) + offset;
        return static_cast<float>(reinterpret_cast<const unsigned short*>(row)[x]) / scaler + offset;
    }
};

/// Estimator::subtract: a - b of two loaded planes.
struct DiffSrc {
    const float *a, *b;
    unsigned w;
    __device__ float operator()(int y, int x) const {
        const std::size_t i = static_cast<std::size_t>(y) * w + x;
        return a[i] - b[i];
    }
};

/// The sample (y, x) of the image after prescaling (method M, or none: M < 0).
template <int M, typename Src>
__device__ __forceinline__ float scaled_at(const Src& src, const RescaleTables& t, int y, int x) {
    if constexpr (M < 0) {
        return src(y, x);
    } else {
        constexpr Rescale m = static_cast<Rescale>(M);
        constexpr int n = rescale_taps(m);
        return rescaled_sample(m, t.x_idx + x * n, t.x_w + x * n, t.y_idx + y * n, t.y_w + y * n, src);
    }
}

/// filter_decimate16's vertical pass at the kept rows 16 i: tmp (op_h x sw).
template <int M, typename Src>
__global__ void antialias_rows(Src src, Plan p, float* tmp) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int i = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= static_cast<int>(p.sw) || i >= static_cast<int>(p.op_h)) return;
    const int r = p.antialias.taps / 2, h = static_cast<int>(p.sh);
    float acc = 0.0f;
    for (int t = 0; t < p.antialias.taps; ++t)
        acc = acc + p.antialias.f[t] * scaled_at<M>(src, p.tables, mirror_index(16 * i - r + t, h), x);
    tmp[static_cast<std::size_t>(i) * p.sw + x] = acc;
}

/// filter_decimate16's horizontal pass at the kept columns 16 j: dec (op_h x op_w).
__global__ void antialias_cols(const float* tmp, Plan p, float* dec) {
    const int j = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int i = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (j >= static_cast<int>(p.op_w) || i >= static_cast<int>(p.op_h)) return;
    const int r = p.antialias.taps / 2, w = static_cast<int>(p.sw);
    const float* row = tmp + static_cast<std::size_t>(i) * p.sw;
    float acc = 0.0f;
    for (int t = 0; t < p.antialias.taps; ++t) acc = acc + p.antialias.f[t] * row[mirror_index(16 * j - r + t, w)];
    dec[static_cast<std::size_t>(i) * p.op_w + j] = acc;
}

/// The low-pass filter's vertical pass over dec (op_h x op_w), rows < trunc_h: lpv (trunc_h x op_w).
__global__ void lowpass_rows(const float* dec, Plan p, float* lpv) {
    const int j = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int i = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (j >= static_cast<int>(p.op_w) || i >= static_cast<int>(p.trunc_h)) return;
    const int r = p.lowpass.taps / 2, h = static_cast<int>(p.op_h);
    float acc = 0.0f;
    for (int t = 0; t < p.lowpass.taps; ++t)
        acc = acc + p.lowpass.f[t] * dec[static_cast<std::size_t>(mirror_index(i - r + t, h)) * p.op_w + j];
    lpv[static_cast<std::size_t>(i) * p.op_w + j] = acc;
}

/// The horizontal pass and the local-mean removal: band = dec - low-passed
/// (trunc_h x trunc_w, packed).
__global__ void lowpass_cols_subtract(const float* dec, const float* lpv, Plan p, float* band) {
    const int j = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int i = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (j >= static_cast<int>(p.trunc_w) || i >= static_cast<int>(p.trunc_h)) return;
    const int r = p.lowpass.taps / 2, w = static_cast<int>(p.op_w);
    const float* row = lpv + static_cast<std::size_t>(i) * p.op_w;
    float acc = 0.0f;
    for (int t = 0; t < p.lowpass.taps; ++t) acc = acc + p.lowpass.f[t] * row[mirror_index(j - r + t, w)];
    band[static_cast<std::size_t>(i) * p.trunc_w + j] = dec[static_cast<std::size_t>(i) * p.op_w + j] - acc;
}

constexpr unsigned kMomentThreads = 352;  // >= kCovPairs, whole warps

/// Estimator::estimate's moments of band (trunc_h x trunc_w, packed): the
/// means of the 25 shifted sub-images (float, raster order), then the lower
/// triangle of their covariance (double, raster order), into cov. One block.
__global__ void __launch_bounds__(kMomentThreads) moments(const float* band, Plan p, float* cov) {
    __shared__ double means[25];
    const unsigned t = threadIdx.x, tw = p.trunc_w;
    const unsigned long long n = static_cast<unsigned long long>(p.sub_w) * p.sub_h;
    if (t < 25) {
        const unsigned r = t / 5, c = t % 5;
        float acc = 0.0f;
        for (unsigned i = 0; i < p.sub_h; ++i) {
            const float* row = band + static_cast<std::size_t>(r + i) * tw + c;
            for (unsigned j = 0; j < p.sub_w; ++j) acc = acc + row[j];
        }
        means[t] = static_cast<double>(acc / static_cast<float>(n));
    }
    __syncthreads();
    if (t >= kCovPairs) return;
    unsigned xi = 0, k = t;  // t = xi (xi + 1) / 2 + yi, yi <= xi
    while (k > xi) k -= ++xi;
    const unsigned yi = k;
    const unsigned rx = xi / 5, cx = xi % 5, ry = yi / 5, cy = yi % 5;
    const double mx = means[xi], my = means[yi];
    double acc = 0.0;
    for (unsigned i = 0; i < p.sub_h; ++i) {
        const float* a = band + static_cast<std::size_t>(rx + i) * tw + cx;
        const float* b = band + static_cast<std::size_t>(ry + i) * tw + cy;
        for (unsigned j = 0; j < p.sub_w; ++j)
            acc = acc + (static_cast<double>(a[j]) - mx) * (static_cast<double>(b[j]) - my);
    }
    cov[t] = static_cast<float>(acc / static_cast<double>(n));
}

__global__ void load(PlaneSrc src, unsigned w, unsigned h, float* out) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    out[static_cast<std::size_t>(y) * w + x] = src(static_cast<int>(y), static_cast<int>(x));
}

dim3 grid_for(unsigned w, unsigned h, dim3 block) {
    return dim3((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
}

template <int M, typename Src>
void launch_rows(const Src& src, const Plan& p, float* tmp, cudaStream_t s) {
    const dim3 block(32, 8);
    antialias_rows<M><<<grid_for(p.sw, p.op_h, block), block, 0, s>>>(src, p, tmp);
}

template <typename Src>
void launch_estimate(const Plan& p, const Src& src, float* scratch, float* result, cudaStream_t s) {
    float* tmp = scratch;
    float* dec = tmp + std::size_t{p.op_h} * p.sw;
    float* lpv = dec + std::size_t{p.op_h} * p.op_w;
    switch (p.method) {
        case static_cast<int>(Rescale::Nearest):
            launch_rows<static_cast<int>(Rescale::Nearest)>(src, p, tmp, s);
            break;
        case static_cast<int>(Rescale::Bilinear):
            launch_rows<static_cast<int>(Rescale::Bilinear)>(src, p, tmp, s);
            break;
        case static_cast<int>(Rescale::Bicubic):
            launch_rows<static_cast<int>(Rescale::Bicubic)>(src, p, tmp, s);
            break;
        case static_cast<int>(Rescale::Lanczos4):
            launch_rows<static_cast<int>(Rescale::Lanczos4)>(src, p, tmp, s);
            break;
        default:
            launch_rows<-1>(src, p, tmp, s);
            break;
    }
    const dim3 block(32, 8);
    antialias_cols<<<grid_for(p.op_w, p.op_h, block), block, 0, s>>>(tmp, p, dec);
    lowpass_rows<<<grid_for(p.op_w, p.trunc_h, block), block, 0, s>>>(dec, p, lpv);
    lowpass_cols_subtract<<<grid_for(p.trunc_w, p.trunc_h, block), block, 0, s>>>(dec, lpv, p, result);
    moments<<<1, kMomentThreads, 0, s>>>(result, p, result + std::size_t{p.trunc_w} * p.trunc_h);
}

float scaler_for(unsigned bpc) {
    return bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : 256.0f;
}

}  // namespace

void launch_load(const void* plane, std::size_t pitch, unsigned w, unsigned h, unsigned bpc, float offset, float* out,
                 cudaStream_t s) {
    if (!w || !h) return;
    const PlaneSrc src{static_cast<const unsigned char*>(plane), pitch, bpc, scaler_for(bpc), offset};
    const dim3 block(32, 8);
    load<<<grid_for(w, h, block), block, 0, s>>>(src, w, h, out);
}

void launch_estimate_plane(const Plan& p, const void* plane, std::size_t pitch, unsigned bpc, float offset,
                           float* scratch, float* result, cudaStream_t s) {
    launch_estimate(p, PlaneSrc{static_cast<const unsigned char*>(plane), pitch, bpc, scaler_for(bpc), offset}, scratch,
                    result, s);
}

void launch_estimate_diff(const Plan& p, const float* a, const float* b, float* scratch, float* result,
                          cudaStream_t s) {
    launch_estimate(p, DiffSrc{a, b, p.w}, scratch, result, s);
}

}  // namespace vmaf::speed::cuda
