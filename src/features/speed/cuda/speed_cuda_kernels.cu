// Why these equal the CPU's values bit for bit: every filtered, rescaled or
// loaded sample is the same float expression as speed_core.cpp's, evaluated
// in the same order (compiled with --fmad=false, IEEE division; the rescaled
// samples come from the shared speed_rescale.hpp over the host's tables); each
// output sample of a filter pass is accumulated from 0 in tap order, as
// weighted_rows (a fused kernel recomputes the vertical pass's values its
// horizontal taps read: the same values, and the anti-alias filter only at
// the columns the 1/16 decimation keeps). The 25 means and 325 covariance sums are each formed by one
// thread adding its terms in the CPU's raster order (float means, double
// sums): the adds of one sum form a chain no reordering may shorten, so the
// kernels keep the chains fed (loads ahead of the adds, the centred factors
// double(sample) - mean computed once per term and shift into shared memory,
// not once per pair, the pairs spread over several SMs). A frame's images
// share each launch.
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

/// One batched filter launch's sources (blockIdx.z picks the image).
template <typename Src>
struct Sources {
    Src src[kMaxImages];
    /// Source z, selected with constant indices (a computed one would copy the array to local memory).
    __device__ Src pick(unsigned z) const {
        Src s = src[0];
#pragma unroll
        for (unsigned k = 1; k < kMaxImages; ++k)
            if (z == k) s = src[k];
        return s;
    }
};

/// filter_decimate16's kept sample (16 i, 16 j) of image blockIdx.z: the
/// vertical pass at each column the horizontal taps read (each accumulated
/// from 0 in tap order, as weighted_rows), then the horizontal pass; dec
/// (op_h x op_w per image).
template <int M, typename Src>
__global__ void antialias(Sources<Src> in, Plan p, float* dec) {
    const int j = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int i = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (j >= static_cast<int>(p.op_w) || i >= static_cast<int>(p.op_h)) return;
    const Src src = in.pick(blockIdx.z);
    const int taps = p.antialias.taps, r = taps / 2, h = static_cast<int>(p.sh), w = static_cast<int>(p.sw);
    float acc = 0.0f;
    for (int t = 0; t < taps; ++t) {
        const int x = mirror_index(16 * j - r + t, w);
        float v = 0.0f;
        for (int u = 0; u < taps; ++u)
            v = v + p.antialias.f[u] * scaled_at<M>(src, p.tables, mirror_index(16 * i - r + u, h), x);
        acc = acc + p.antialias.f[t] * v;
    }
    dec[(static_cast<std::size_t>(blockIdx.z) * p.op_h + i) * p.op_w + j] = acc;
}

/// The low-pass filter (vertical pass at each column the horizontal taps
/// read, then the horizontal pass) and the local-mean removal of image
/// blockIdx.z: its result's band = dec - low-passed (trunc_h x trunc_w, packed).
__global__ void lowpass(const float* dec, Plan p, float* results, std::size_t result_stride) {
    const int j = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int i = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (j >= static_cast<int>(p.trunc_w) || i >= static_cast<int>(p.trunc_h)) return;
    const float* d = dec + static_cast<std::size_t>(blockIdx.z) * p.op_h * p.op_w;
    const int taps = p.lowpass.taps, r = taps / 2, h = static_cast<int>(p.op_h), w = static_cast<int>(p.op_w);
    float acc = 0.0f;
    for (int t = 0; t < taps; ++t) {
        const int x = mirror_index(j - r + t, w);
        float v = 0.0f;
        for (int u = 0; u < taps; ++u)
            v = v + p.lowpass.f[u] * d[static_cast<std::size_t>(mirror_index(i - r + u, h)) * p.op_w + x];
        acc = acc + p.lowpass.f[t] * v;
    }
    results[blockIdx.z * result_stride + static_cast<std::size_t>(i) * p.trunc_w + j] =
        d[static_cast<std::size_t>(i) * p.op_w + j] - acc;
}

/// Terms of each of an image's 25 + 325 sums (the sub-image's samples).
__host__ __device__ inline unsigned long long terms(const Plan& p) {
    return static_cast<unsigned long long>(p.sub_w) * p.sub_h;
}

constexpr unsigned kChain = 8;  // terms loaded ahead of a chain's adds

/// acc + v[0] + ... + v[n - 1], each add in order, the terms loaded kChain ahead of the adds.
__device__ __forceinline__ float chain_sum(float acc, const float* v, unsigned n) {
    unsigned j = 0;
    if (n >= kChain) {
        float cur[kChain];
#pragma unroll
        for (unsigned u = 0; u < kChain; ++u) cur[u] = v[u];
        for (j = kChain; j + kChain <= n; j += kChain) {
            float next[kChain];
#pragma unroll
            for (unsigned u = 0; u < kChain; ++u) next[u] = v[j + u];
#pragma unroll
            for (unsigned u = 0; u < kChain; ++u) {
                acc = acc + cur[u];
                cur[u] = next[u];
            }
        }
#pragma unroll
        for (unsigned u = 0; u < kChain; ++u) acc = acc + cur[u];
    }
    for (; j < n; ++j) acc = acc + v[j];
    return acc;
}

constexpr unsigned kMeanTile = 8192;    // floats of band rows staged in shared memory
constexpr unsigned kMeanThreads = 128;  // threads staging them (8 loads each in flight); lanes 0..4 sum
constexpr unsigned kMeanLoads = 8;

/// Estimator::covariance's 25 means of image blockIdx.y: block r (x), lane c
/// forms the float sum from 0 of band[(r + i) * tw + c + j] over i < sub_h,
/// j < sub_w in raster order, and stores the mean of shift (r, c) as a double
/// (the CPU's float mean, widened). The block stages whole rows of the band
/// in shared memory (all threads loading, then lanes 0..4 summing).
__global__ void __launch_bounds__(kMeanThreads)
    shift_means(const float* results, std::size_t result_stride, Plan p, double* means) {
    __shared__ float tile[kMeanTile];
    const unsigned r = blockIdx.x, c = threadIdx.x, tw = p.trunc_w;
    const float* band = results + blockIdx.y * result_stride;
    float acc = 0.0f;
    const unsigned rows = kMeanTile / tw;  // rows per stage (0: wider than the tile, read in place)
    if (rows == 0) {
        if (c < 5)
            for (unsigned i = 0; i < p.sub_h; ++i)
                acc = chain_sum(acc, band + static_cast<std::size_t>(r + i) * tw + c, p.sub_w);
    } else {
        for (unsigned i0 = 0; i0 < p.sub_h; i0 += rows) {
            const unsigned m = p.sub_h - i0 < rows ? p.sub_h - i0 : rows, total = m * tw;
            const float* src = band + static_cast<std::size_t>(r + i0) * tw;
            __syncthreads();  // the previous stage is summed
            unsigned e = c;
            for (; e + kMeanThreads * (kMeanLoads - 1) < total; e += kMeanThreads * kMeanLoads) {
                float v[kMeanLoads];
#pragma unroll
                for (unsigned u = 0; u < kMeanLoads; ++u) v[u] = src[e + kMeanThreads * u];
#pragma unroll
                for (unsigned u = 0; u < kMeanLoads; ++u) tile[e + kMeanThreads * u] = v[u];
            }
            for (; e < total; e += kMeanThreads) tile[e] = src[e];
            __syncthreads();
            if (c < 5)
                for (unsigned i = 0; i < m; ++i) acc = chain_sum(acc, tile + i * tw + c, p.sub_w);
        }
    }
    if (c < 5) means[blockIdx.y * 25 + r * 5 + c] = static_cast<double>(acc / static_cast<float>(terms(p)));
}

constexpr unsigned kCovThreads = 128;          // one warp per SM partition; 3 blocks an image
constexpr unsigned kCovTile = kCovThreads;     // terms per shared-memory stage (one per thread)
constexpr unsigned kCovStride = kCovTile + 1;  // doubles per shift's row of the stage (fewer bank conflicts)

/// The lower triangle of the covariance of image blockIdx.y: thread t sums
/// its pair's products (double(a) - mean[xi]) * (double(b) - mean[yi]) of the
/// samples of shifts xi and yi, in double, from 0 in the CPU's raster order,
/// each a subtract, multiply and add as the CPU's (no FMA), and stores
/// float(sum / n) as element t. Per stage of kCovTile terms each thread
/// centres one term's 25 shifted samples into shared memory (the factors
/// every pair reads), their loads in flight during the previous stage's adds.
__global__ void __launch_bounds__(kCovThreads)
    covariance(float* results, std::size_t result_stride, Plan p, const double* means) {
    __shared__ double tile[25 * kCovStride];
    __shared__ double mean[25];
    const unsigned t = blockIdx.x * kCovThreads + threadIdx.x;
    const bool active = t < kCovPairs;
    unsigned xi = 0, k = active ? t : 0;  // t = xi (xi + 1) / 2 + yi, yi <= xi
    while (k > xi) k -= ++xi;
    const unsigned yi = k;
    if (threadIdx.x < 25) mean[threadIdx.x] = means[blockIdx.y * 25 + threadIdx.x];
    const float* band = results + blockIdx.y * result_stride;
    const unsigned long long n = terms(p);
    float stage[25];
    const auto fetch = [&](unsigned long long q0) {  // term q0 + threadIdx.x's sample of each shift
        const unsigned long long q = q0 + threadIdx.x;
        if (q >= n) return;
        const float* at = band + (q / p.sub_w) * p.trunc_w + q % p.sub_w;
#pragma unroll
        for (unsigned x = 0; x < 25; ++x) stage[x] = at[(x / 5) * p.trunc_w + x % 5];
    };
    fetch(0);
    double acc = 0.0;
    for (unsigned long long q0 = 0; q0 < n; q0 += kCovTile) {
        __syncthreads();  // the previous stage is summed (and, first, the means are in place)
        if (q0 + threadIdx.x < n)
#pragma unroll
            for (unsigned x = 0; x < 25; ++x)
                tile[x * kCovStride + threadIdx.x] = static_cast<double>(stage[x]) - mean[x];
        __syncthreads();
        if (q0 + kCovTile < n) fetch(q0 + kCovTile);
        if (!active) continue;
        const unsigned m = n - q0 < kCovTile ? static_cast<unsigned>(n - q0) : kCovTile;
        const double* a = tile + xi * kCovStride;
        const double* b = tile + yi * kCovStride;
        unsigned u = 0;
        if (m >= kChain) {
            double x[kChain], y[kChain];
#pragma unroll
            for (unsigned v = 0; v < kChain; ++v) {
                x[v] = a[v];
                y[v] = b[v];
            }
            for (u = kChain; u + kChain <= m; u += kChain) {
                double nx[kChain], ny[kChain];
#pragma unroll
                for (unsigned v = 0; v < kChain; ++v) {
                    nx[v] = a[u + v];
                    ny[v] = b[u + v];
                }
#pragma unroll
                for (unsigned v = 0; v < kChain; ++v) {
                    acc = acc + x[v] * y[v];
                    x[v] = nx[v];
                    y[v] = ny[v];
                }
            }
#pragma unroll
            for (unsigned v = 0; v < kChain; ++v) acc = acc + x[v] * y[v];
        }
        for (; u < m; ++u) acc = acc + a[u] * b[u];
    }
    if (!active) return;
    float* cov = results + blockIdx.y * result_stride + std::size_t{p.trunc_w} * p.trunc_h;
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

/// Bytes of the filters' part of the scratch (first; the decimated images),
/// rounded up so that the moments' doubles after it are aligned.
std::size_t filter_bytes(const Plan& p, unsigned images) {
    const std::size_t floats = std::size_t{images} * p.op_h * p.op_w;
    return (floats * sizeof(float) + 255) & ~std::size_t{255};
}

/// The bands of `images` <= kMaxImages results (two launches for all of them).
template <typename Src>
void launch_bands(const Plan& p, const Sources<Src>& in, unsigned images, float* dec, float* results, cudaStream_t s) {
    const dim3 block(32, 8);
    dim3 grid = grid_for(p.op_w, p.op_h, block);
    grid.z = images;
    switch (p.method) {
        case static_cast<int>(Rescale::Nearest):
            antialias<static_cast<int>(Rescale::Nearest)><<<grid, block, 0, s>>>(in, p, dec);
            break;
        case static_cast<int>(Rescale::Bilinear):
            antialias<static_cast<int>(Rescale::Bilinear)><<<grid, block, 0, s>>>(in, p, dec);
            break;
        case static_cast<int>(Rescale::Bicubic):
            antialias<static_cast<int>(Rescale::Bicubic)><<<grid, block, 0, s>>>(in, p, dec);
            break;
        case static_cast<int>(Rescale::Lanczos4):
            antialias<static_cast<int>(Rescale::Lanczos4)><<<grid, block, 0, s>>>(in, p, dec);
            break;
        default:
            antialias<-1><<<grid, block, 0, s>>>(in, p, dec);
            break;
    }
    grid = grid_for(p.trunc_w, p.trunc_h, block);
    grid.z = images;
    lowpass<<<grid, block, 0, s>>>(dec, p, results, result_floats(p));
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

std::size_t scratch_bytes(const Plan& p, unsigned images) {
    return filter_bytes(p, images) + std::size_t{images} * 25 * sizeof(double);
}

void launch_bands(const Plan& p, const PlaneIn* planes, unsigned images, unsigned bpc, float offset, void* scratch,
                  float* results, cudaStream_t s) {
    for (unsigned k0 = 0; k0 < images; k0 += kMaxImages) {
        const unsigned m = images - k0 < kMaxImages ? images - k0 : kMaxImages;
        Sources<PlaneSrc> in{};
        for (unsigned k = 0; k < m; ++k)
            in.src[k] = PlaneSrc{static_cast<const unsigned char*>(planes[k0 + k].data), planes[k0 + k].pitch, bpc,
                                 scaler_for(bpc), offset};
        launch_bands(p, in, m, static_cast<float*>(scratch) + std::size_t{k0} * p.op_h * p.op_w,
                     results + k0 * result_floats(p), s);
    }
}

void launch_bands(const Plan& p, const DiffIn* diffs, unsigned images, void* scratch, float* results, cudaStream_t s) {
    for (unsigned k0 = 0; k0 < images; k0 += kMaxImages) {
        const unsigned m = images - k0 < kMaxImages ? images - k0 : kMaxImages;
        Sources<DiffSrc> in{};
        for (unsigned k = 0; k < m; ++k) in.src[k] = DiffSrc{diffs[k0 + k].a, diffs[k0 + k].b, p.w};
        launch_bands(p, in, m, static_cast<float*>(scratch) + std::size_t{k0} * p.op_h * p.op_w,
                     results + k0 * result_floats(p), s);
    }
}

void launch_moments(const Plan& p, float* results, unsigned images, void* scratch, cudaStream_t s) {
    if (images == 0) return;
    const std::size_t stride = result_floats(p);
    auto* means = reinterpret_cast<double*>(static_cast<unsigned char*>(scratch) + filter_bytes(p, images));
    shift_means<<<dim3(5, images), kMeanThreads, 0, s>>>(results, stride, p, means);
    covariance<<<dim3((kCovPairs + kCovThreads - 1) / kCovThreads, images), kCovThreads, 0, s>>>(results, stride, p,
                                                                                                 means);
}

}  // namespace vmaf::speed::cuda
