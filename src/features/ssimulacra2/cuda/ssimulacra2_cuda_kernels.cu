// Device kernels of the ssimulacra2 twin: one thread per 2x2 block (conversion,
// downsampling, XYB), per row (horizontal blur, in tiles through shared
// memory), per column (vertical blur, in tiles), each running a body of
// ssimulacra2_cuda_pipeline.hpp; the map sums are the chunked walk of
// float_common/cuda/source_ordered_sum.cuh over map_terms (exactly the CPU's
// sequential double sums). Compiled with --fmad=false -prec-div=true
// -prec-sqrt=true; the bodies use explicit _rn intrinsics besides. Kernels
// index their parameter arrays with constants only: an index from blockIdx
// would copy the array to local memory in every thread.
#include "backends/gpu/portability.hpp"
#include "features/float_common/cuda/source_ordered_sum.cuh"
#include "ssimulacra2_cuda_kernels.hpp"

namespace vmaf::ssimulacra2::cuda {

namespace {

/// prepare_block over the scale's blocks; `next` null at the last scale.
__global__ void k_prepare(Planes3 in, bool from_input, S2Geometry g, S2Constants k, S2Scale cur, S2Scale next,
                          bool has_next) {
    const unsigned bx = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned by = blockIdx.y * blockDim.y + threadIdx.y;
    if (bx < (cur.w + 1) / 2 && by < (cur.h + 1) / 2)
        prepare_block(in, from_input, g, k, cur, has_next ? &next : nullptr, bx, by);
}

/// k_blur_h's tiles: 32 rows (one per lane) by kTile columns. The input ring
/// holds four tiles: the one being blurred, the one before and the one after
/// (its inputs reach radius + 1 columns either way: radius <= kTile - 2, it
/// is 5) and the next one arriving.
constexpr int kTile = 32, kRing = 4 * kTile;

/// blur_h_row of rows 32 blockIdx.x .. + 31 of job blockIdx.y, lane r
/// walking row r tile by tile: each tile of inputs (the products, for a
/// product job) is read and each tile of outputs written a row at a time by
/// the whole warp, through shared memory. Launch: 32 threads.
__global__ void __launch_bounds__(32) k_blur_h(BlurJobs jobs, unsigned w, unsigned h, S2Constants k) {
    __shared__ float ring[32][kRing + 1];  // + 1: lanes reading one column hit distinct banks
    __shared__ float tile_out[32][kTile + 1];
    const unsigned lane = threadIdx.x, y0 = blockIdx.x * 32, rows = h - y0 < 32 ? h - y0 : 32;
    const float *a = nullptr, *b = nullptr;
    float* out = nullptr;
#pragma unroll
    for (unsigned j = 0; j < kBlurJobs; ++j)  // constant indices (see the file comment)
        if (j == blockIdx.y) {
            a = jobs.a[j];
            b = jobs.b[j];
            out = jobs.out[j];
        }
    const int tiles = static_cast<int>((w + kTile - 1) / kTile);
    float va[32], vb[32];  // column `lane` of one tile, per row
    auto fetch = [&](int t) {
        const unsigned x = static_cast<unsigned>(t * kTile) + lane;
#pragma unroll
        for (unsigned r = 0; r < 32; ++r) {
            const bool inside = r < rows && x < w;
            const std::size_t o = static_cast<std::size_t>(y0 + r) * w + x;
            va[r] = inside ? a[o] : 0.0f;
            vb[r] = inside && b && b != a ? b[o] : va[r];  // a square: the samples once
        }
    };
    auto keep = [&](int t) {  // into the ring: the CPU's stored product, or the sample
        const unsigned c = static_cast<unsigned>(t * kTile + static_cast<int>(lane)) % kRing;
#pragma unroll
        for (unsigned r = 0; r < 32; ++r) ring[r][c] = b ? f_mul(va[r], vb[r]) : va[r];
    };
    fetch(0);
    keep(0);
    fetch(1);
    keep(1);
    gpu::sync_warp();
    const float* mine = ring[lane];
    auto in = [mine](int i) { return mine[static_cast<unsigned>(i) % kRing]; };  // 0 <= i < w
    float* my_out = tile_out[lane];
    auto put = [my_out](int i, float v) { my_out[static_cast<unsigned>(i) % kTile] = v; };
    BlurHState st;
    for (int t = 0; t < tiles; ++t) {
        fetch(t + 2);  // in flight while this tile is blurred
        const int x0 = t * kTile, x1 = x0 + kTile < static_cast<int>(w) ? x0 + kTile : static_cast<int>(w);
        blur_h_span(in, put, t == 0 ? blur_h_first(k) : x0, x1, static_cast<int>(w), k, st);
        gpu::sync_warp();
        const unsigned x = static_cast<unsigned>(x0) + lane;
        if (x < w)
            for (unsigned r = 0; r < rows; ++r) out[static_cast<std::size_t>(y0 + r) * w + x] = tile_out[r][lane];
        keep(t + 2);  // over tile t - 2's columns
        gpu::sync_warp();
    }
}

/// blur_v_column of columns 32 blockIdx.x .. + 31 of job blockIdx.y, lane c
/// walking column c tile by tile (kTile rows; the ring as k_blur_h's, one
/// column per lane): each row of a tile is read and written by the whole
/// warp, the next tile's samples in flight while one is blurred. In place
/// (a == out) as well: a row is read two tiles before its output is written,
/// and only read once. Launch: 32 threads.
__global__ void __launch_bounds__(32) k_blur_v(BlurJobs jobs, unsigned w, unsigned h, S2Constants k) {
    __shared__ float ring[kRing][32];  // lane c's column only: no sharing between lanes
    const unsigned lane = threadIdx.x, x = blockIdx.x * 32 + lane;
    const float* a = nullptr;
    float* out = nullptr;
#pragma unroll
    for (unsigned j = 0; j < kBlurJobs; ++j)  // constant indices (see the file comment)
        if (j == blockIdx.y) {
            a = jobs.a[j];
            out = jobs.out[j];
        }
    const int tiles = static_cast<int>((h + kTile - 1) / kTile);
    float v[kTile];
    auto fetch = [&](int t) {
#pragma unroll
        for (unsigned r = 0; r < kTile; ++r) {
            const unsigned y = static_cast<unsigned>(t * kTile) + r;
            v[r] = x < w && y < h ? a[static_cast<std::size_t>(y) * w + x] : 0.0f;
        }
    };
    auto keep = [&](int t) {
#pragma unroll
        for (unsigned r = 0; r < kTile; ++r) ring[(static_cast<unsigned>(t * kTile) + r) % kRing][lane] = v[r];
    };
    fetch(0);
    keep(0);
    fetch(1);
    keep(1);
    float* const column = &ring[0][lane];
    auto in = [column](int i) { return column[static_cast<unsigned>(i) % kRing * 32]; };  // 0 <= i < h
    auto put = [out, x, w](int i, float val) {
        if (x < w) out[static_cast<std::size_t>(i) * w + x] = val;
    };
    BlurHState st;
    for (int t = 0; t < tiles; ++t) {
        fetch(t + 2);  // in flight while this tile is blurred
        const int y0 = t * kTile, y1 = y0 + kTile < static_cast<int>(h) ? y0 + kTile : static_cast<int>(h);
        blur_v_span(in, put, t == 0 ? blur_h_first(k) : y0, y1, static_cast<int>(h), k, st);
        keep(t + 2);  // over tile t - 2's rows
    }
}

/// The map terms as an ordered-sum source: group scale * 3 + channel, its
/// six MapSums terms per pixel (raster order: the CPU's add_row chains,
/// continued from row to row), so sequence g * 6 + k is sum k of that map.
struct MapSource {
    static constexpr int kTerms = 6;
    MapJobs jobs;
    float c2;
    __host__ __device__ unsigned long long n(unsigned g) const { return jobs.n[g / 3]; }
    __device__ void terms(unsigned g, unsigned long long i, double* out) const {
        map_terms(jobs.c[g / 3][g % 3], static_cast<std::size_t>(i), c2, out);
    }
};
static_assert(6 * 3 <= floatfeat::cuda::source_sum::kMaxGroups);

/// run_pipeline's steps as kernel launches on one stream.
struct DeviceExec {
    const S2Geometry& g;
    const S2Constants& k;
    cudaStream_t s;

    void prepare(const Planes3& in, bool from_input, const S2Scale& cur, const S2Scale* next) {
        const unsigned bw = (cur.w + 1) / 2, bh = (cur.h + 1) / 2;
        k_prepare<<<dim3((bw + 31) / 32, (bh + 7) / 8), dim3(32, 8), 0, s>>>(in, from_input, g, k, cur,
                                                                             next ? *next : S2Scale{}, next != nullptr);
    }
    void blur_h(const BlurJobs& j, unsigned w, unsigned h) {
        k_blur_h<<<dim3((h + 31) / 32, kBlurJobs), 32, 0, s>>>(j, w, h, k);
    }
    void blur_v(const BlurJobs& j, unsigned w, unsigned h) {
        k_blur_v<<<dim3((w + 31) / 32, kBlurJobs), 32, 0, s>>>(j, w, h, k);
    }
    void* ordered;  ///< s2_sums_scratch_bytes
    void map_sums(const MapJobs& j, double* sums) {
        const MapSource src{j, k.c2};
        namespace o = floatfeat::cuda::source_sum;
        o::launch_ordered<double>(src, o::offsets(src, 3 * static_cast<unsigned>(j.scales)), nullptr, ordered, sums, s);
    }
};

}  // namespace

std::size_t s2_sums_scratch_bytes(const S2Geometry& g) {
    MapSource src{};
    for (unsigned i = 0, w = g.w, h = g.h; i < static_cast<unsigned>(g.scales); ++i, w = (w + 1) / 2, h = (h + 1) / 2)
        src.jobs.n[i] = static_cast<unsigned long long>(w) * h;
    namespace o = floatfeat::cuda::source_sum;
    return o::scratch_bytes<MapSource::kTerms>(o::offsets(src, 3 * static_cast<unsigned>(g.scales)));
}

void launch_ssimulacra2(const Planes3& in, const S2Geometry& g, const S2Constants& k, const S2Scratch& scratch,
                        void* sums_scratch, double* sums, cudaStream_t s) {
    DeviceExec e{g, k, s, sums_scratch};
    run_pipeline(e, in, g, scratch, sums);
}

}  // namespace vmaf::ssimulacra2::cuda
