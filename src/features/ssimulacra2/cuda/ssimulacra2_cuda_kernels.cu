// Device kernels of the ssimulacra2 twin: one thread per sample (conversion,
// downsampling, XYB), per row (horizontal blur), per column (vertical blur),
// and the map sums (map_sums), each running a body of
// ssimulacra2_cuda_pipeline.hpp. Compiled with --fmad=false -prec-div=true
// -prec-sqrt=true; the bodies use explicit _rn intrinsics besides.
#include "ssimulacra2_cuda_kernels.hpp"

namespace vmaf::ssimulacra2::cuda {

namespace {

__global__ void k_to_linear(Planes3 in, S2Geometry g, S2Constants k, S2Scale sc) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < g.w && y < g.h) to_linear_px(in, g, k, sc, x, y, blockIdx.z);
}

__global__ void k_downsample(Downsample d, unsigned iw, unsigned ih) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < (iw + 1) / 2 && y < (ih + 1) / 2) downsample_px(d.in[blockIdx.z], d.out[blockIdx.z], iw, ih, x, y);
}

__global__ void k_to_xyb(S2Scale sc, unsigned n, S2Constants k) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) xyb_px(sc.img[blockIdx.y], i, k);
}

__global__ void k_blur_h(BlurJobs jobs, unsigned w, unsigned h, S2Constants k) {
    const unsigned y = blockIdx.x * blockDim.x + threadIdx.x;
    if (y >= h) return;
    const unsigned j = blockIdx.y;
    const std::size_t o = static_cast<std::size_t>(y) * w;
    blur_h_row(jobs.a[j] + o, jobs.b[j] ? jobs.b[j] + o : nullptr, jobs.out[j] + o, static_cast<int>(w), k);
}

__global__ void k_blur_v(BlurJobs jobs, unsigned w, unsigned h, S2Constants k) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < w) blur_v_col(jobs.a[blockIdx.y] + x, jobs.out[blockIdx.y] + x, w, static_cast<int>(h), k);
}

/// Producer warps of map_sums; each of their threads computes one pixel's terms per chunk.
constexpr unsigned kProducerWarps = 8;
constexpr unsigned kChunk = 32 * kProducerWarps;
/// Stage rows padded by one double, so the six adding lanes (one row each)
/// read different banks.
constexpr unsigned kStageRow = kChunk + 1;

/// MapSums of channel blockIdx.x of scale blockIdx.y over its n pixels: sum
/// k = the double sum from 0 of term k of pixel 0, 1, ..., n - 1 (raster
/// order: the CPU's add_row chains, continued from row to row), lane k of
/// warp 0 adding chain k.
/// Warps 1..kProducerWarps stage chunk t of the terms while warp 0 adds chunk
/// t - 1 (two buffers, one barrier per step). Launch: 3 x scales blocks of
/// 32 * (1 + kProducerWarps) threads.
__global__ void k_map_sums(MapJobs jobs, float c2, double* sums) {
    __shared__ double stage[2][6][kStageRow];
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const MapInputs m = jobs.c[blockIdx.y][blockIdx.x];
    const unsigned long long n = jobs.n[blockIdx.y];
    double* out = sums + (blockIdx.y * 3 + blockIdx.x) * 6;
    const unsigned long long chunks = (n + kChunk - 1) / kChunk;
    double acc = 0.0;
    for (unsigned long long t = 0; t <= chunks; ++t) {
        if (warp >= 1 && t < chunks) {
            const unsigned j = threadIdx.x - 32;
            const unsigned long long i = t * kChunk + j;
            if (i < n) {
                double v[6];
                map_terms(m, i, c2, v);
#pragma unroll
                for (int q = 0; q < 6; ++q) stage[t & 1][q][j] = v[q];
            }
        }
        if (warp == 0 && lane < 6 && t > 0) {
            const unsigned long long base = (t - 1) * kChunk;
            const unsigned cnt = n - base < kChunk ? static_cast<unsigned>(n - base) : kChunk;
            const double* s = stage[(t - 1) & 1][lane];
            unsigned j = 0;
            for (; j + 8 <= cnt; j += 8) {  // eight loads in flight, then the eight additions in order
                double v[8];
#pragma unroll
                for (int q = 0; q < 8; ++q) v[q] = s[j + q];
#pragma unroll
                for (int q = 0; q < 8; ++q) acc = __dadd_rn(acc, v[q]);
            }
            for (; j < cnt; ++j) acc = __dadd_rn(acc, s[j]);
        }
        __syncthreads();
    }
    if (warp == 0 && lane < 6) out[lane] = acc;
}

/// run_pipeline's steps as kernel launches on one stream.
struct DeviceExec {
    const S2Geometry& g;
    const S2Constants& k;
    cudaStream_t s;

    void to_linear(const Planes3& in, const S2Scale& sc) {
        k_to_linear<<<dim3((g.w + 31) / 32, (g.h + 7) / 8, 2), dim3(32, 8), 0, s>>>(in, g, k, sc);
    }
    void downsample(const Downsample& d, unsigned iw, unsigned ih) {
        const unsigned ow = (iw + 1) / 2, oh = (ih + 1) / 2;
        k_downsample<<<dim3((ow + 31) / 32, (oh + 7) / 8, 6), dim3(32, 8), 0, s>>>(d, iw, ih);
    }
    void xyb(const S2Scale& sc, std::size_t n) {
        k_to_xyb<<<dim3(static_cast<unsigned>((n + 255) / 256), 2), 256, 0, s>>>(sc, static_cast<unsigned>(n), k);
    }
    void blur_h(const BlurJobs& j, unsigned w, unsigned h) {
        k_blur_h<<<dim3((h + 63) / 64, 5), 64, 0, s>>>(j, w, h, k);
    }
    void blur_v(const BlurJobs& j, unsigned w, unsigned h) {
        k_blur_v<<<dim3((w + 63) / 64, 5), 64, 0, s>>>(j, w, h, k);
    }
    void map_sums(const MapJobs& j, double* sums) {
        k_map_sums<<<dim3(3, static_cast<unsigned>(j.scales)), 32 * (1 + kProducerWarps), 0, s>>>(j, k.c2, sums);
    }
};

}  // namespace

void launch_ssimulacra2(const Planes3& in, const S2Geometry& g, const S2Constants& k, const S2Scratch& scratch,
                        double* sums, cudaStream_t s) {
    DeviceExec e{g, k, s};
    run_pipeline(e, in, g, scratch, sums);
}

}  // namespace vmaf::ssimulacra2::cuda
