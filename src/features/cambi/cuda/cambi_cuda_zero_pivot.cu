// The zero-pivot top-k order on the device (see cambi_cuda_zero_pivot.hpp):
// per scale a count of the nonzero values in c[0, k], the conditions, then
// tiles of kTile values: zeros per tile, their exclusive prefix (t(p) of each
// tile's first value), the summand flags per tile, their prefix, and the
// ordered compaction. Counts are integers: any launch order gives the same list.
#include <algorithm>

#include "cambi_cuda_zero_pivot.hpp"

namespace vmaf::cambi::cuda {

namespace {

using u32 = unsigned int;

constexpr int kTile = 1024;    // values per tile
constexpr int kThreads = 256;  // per tile block: 4 consecutive values each
constexpr int kPer = kTile / kThreads;
constexpr unsigned kTileBlocks = 512;  // per scale, each looping over tiles

struct ZState {
    u32 ok;      ///< the conditions hold (the scale was declined, c[k] == 0, enough zeros)
    u32 nzk;     ///< nonzero values in c[0, k]
    u32 t_stop;  ///< zeros before the first p with p + t(p) > n - 1
    u32 count;   ///< summands
};

std::size_t align_up(std::size_t v) {
    return (v + 255) & ~std::size_t{255};
}

__host__ __device__ std::size_t tiles(std::size_t n) {
    return (n + kTile - 1) / kTile;
}

struct Layout {
    ZState* st;
    u32* zeros;  ///< [scale][tile]: zeros, then their exclusive prefix
    u32* flags;  ///< [scale][tile]: summands, then their exclusive prefix
    std::size_t stride;
};

Layout layout(void* base, std::size_t n0) {
    Layout l{};
    l.stride = tiles(n0);
    char* p = static_cast<char*>(base);
    l.st = reinterpret_cast<ZState*>(p);
    p += align_up(kPoolScales * sizeof(ZState));
    l.zeros = reinterpret_cast<u32*>(p);
    p += align_up(kPoolScales * l.stride * sizeof(u32));
    l.flags = reinterpret_cast<u32*>(p);
    return l;
}

/// Exclusive prefix of one value per thread over a block of kThreads; `total` gets the sum.
__device__ u32 block_exclusive(u32 v, u32& total) {
    __shared__ u32 warp_sums[kThreads / 32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    u32 incl = v;
    for (int o = 1; o < 32; o <<= 1) {
        const u32 x = __shfl_up_sync(0xffffffffu, incl, o);
        if (lane >= o) incl += x;
    }
    if (lane == 31) warp_sums[warp] = incl;
    __syncthreads();
    u32 before = 0;
    total = 0;
    for (int w = 0; w < kThreads / 32; ++w) {
        if (w < warp) before += warp_sums[w];
        total += warp_sums[w];
    }
    __syncthreads();  // warp_sums is reused by the next call
    return before + incl - v;
}

__global__ void zp_count(const __grid_constant__ PoolJob job, const PoolResult* res, ZState* st) {
    const int s = blockIdx.y;
    const std::size_t n = job.n[s], k = job.k[s];
    if (res[s].status != kPoolFallback || k >= n) return;
    u32 cnt = 0;
    for (std::size_t p = blockIdx.x * std::size_t{kThreads} + threadIdx.x; p <= k;
         p += std::size_t{gridDim.x} * kThreads)
        cnt += __float_as_uint(job.c[s][p]) != 0u;
    for (int o = 16; o > 0; o >>= 1) cnt += __shfl_down_sync(0xffffffffu, cnt, o);
    if ((threadIdx.x & 31) == 0 && cnt) atomicAdd(&st[s].nzk, cnt);
}

__global__ void zp_init(ZState* st) {
    if (threadIdx.x < kPoolScales) st[threadIdx.x] = ZState{0, 0, 0, 0};
}

__global__ void zp_decide(const __grid_constant__ PoolJob job, const PoolResult* res, ZState* st) {
    const int s = threadIdx.x;
    if (s >= kPoolScales) return;
    const std::size_t n = job.n[s], k = job.k[s];
    if (res[s].status != kPoolFallback || k >= n || __float_as_uint(job.c[s][k]) != 0u) return;
    const std::size_t zeros = k + 1 - st[s].nzk;
    st[s].ok = zeros >= n - k;
}

/// Exclusive prefix, in place, of a[0, tiles(n[s])) per scale (one block of 1024 per scale).
__global__ void zp_scan(const __grid_constant__ PoolJob job, const ZState* st, u32* a, std::size_t stride,
                        int store_total, ZState* out) {
    const int s = blockIdx.x;
    if (!st[s].ok) return;
    u32* v = a + s * stride;
    const std::size_t nb = tiles(job.n[s]);
    const std::size_t per = (nb + 1023) / 1024;
    const std::size_t lo = min(nb, std::size_t{threadIdx.x} * per), hi = min(nb, lo + per);
    u32 sum = 0;
    for (std::size_t i = lo; i < hi; ++i) sum += v[i];
    __shared__ u32 scan[1024];
    scan[threadIdx.x] = sum;
    __syncthreads();
    for (int o = 1; o < 1024; o <<= 1) {
        const u32 add = static_cast<int>(threadIdx.x) >= o ? scan[threadIdx.x - o] : 0u;
        __syncthreads();
        scan[threadIdx.x] += add;
        __syncthreads();
    }
    u32 run = scan[threadIdx.x] - sum;
    for (std::size_t i = lo; i < hi; ++i) {
        const u32 x = v[i];
        v[i] = run;
        run += x;
    }
    if (store_total && threadIdx.x == 1023) out[s].count = scan[1023];
}

/// The tile kernels loop over their scale's tiles (a bounded grid: most
/// frames need no summand list, and their blocks only read `ok`).
__global__ void zp_tile_zeros(const __grid_constant__ PoolJob job, const ZState* st, u32* zeros, std::size_t stride) {
    const int s = blockIdx.y;
    if (!st[s].ok) return;
    const std::size_t n = job.n[s];
    for (std::size_t tile = blockIdx.x; tile < tiles(n); tile += gridDim.x) {
        const std::size_t base = tile * kTile;
        u32 cnt = 0;
        for (int e = 0; e < kPer; ++e) {
            const std::size_t p = base + threadIdx.x * kPer + e;
            if (p < n) cnt += __float_as_uint(job.c[s][p]) == 0u;
        }
        u32 total;
        block_exclusive(cnt, total);
        if (threadIdx.x == 0) zeros[s * stride + tile] = total;
    }
}

/// Pass over a tile: t(p) of each value, whether v(p) is a summand, and v(p).
/// emit == 0: counts the tile's summands into flags[] and finds t_stop;
/// emit == 1: writes the summands at their places in seq.
__global__ void zp_tile_summands(const __grid_constant__ PoolJob job, ZState* st, const u32* zeros, u32* flags,
                                 std::size_t stride, int emit, const __grid_constant__ SeqOut out) {
    const int s = blockIdx.y;
    if (!st[s].ok) return;
    const std::size_t n = job.n[s], k = job.k[s];
    const float* c = job.c[s];
    const std::size_t right = n - 1;
    for (std::size_t tile = blockIdx.x; tile < tiles(n); tile += gridDim.x) {
        const std::size_t first = tile * kTile + threadIdx.x * kPer;
        u32 z = 0;
        for (int e = 0; e < kPer; ++e)
            if (first + e < n) z += __float_as_uint(c[first + e]) == 0u;
        u32 total;
        std::size_t t = zeros[s * stride + tile] + block_exclusive(z, total);
        float val[kPer];
        u32 cnt = 0;
        for (int e = 0; e < kPer; ++e) {
            const std::size_t p = first + e;
            val[e] = 0.0f;
            if (p >= n) continue;
            const bool zero = __float_as_uint(c[p]) == 0u;
            const bool in_loop = p + t <= right;  // the partition's scan reaches p
            if (in_loop && p < k) {
                val[e] = zero ? c[right - t] : c[p];
                cnt += __float_as_uint(val[e]) != 0u;
            }
            const std::size_t t_next = t + zero;
            if (!emit && in_loop && p + 1 + t_next > right) st[s].t_stop = static_cast<u32>(t_next);
            t = t_next;
        }
        u32 tile_total;
        if (!emit) {
            block_exclusive(cnt, tile_total);
            if (threadIdx.x == 0) flags[s * stride + tile] = tile_total;
            continue;
        }
        std::size_t at = flags[s * stride + tile] + block_exclusive(cnt, tile_total);
        for (int e = 0; e < kPer; ++e)
            if (__float_as_uint(val[e]) != 0u) out.seq[s][at++] = val[e];
    }
}

__global__ void zp_finish(const __grid_constant__ PoolJob job, const ZState* st, PoolResult* res) {
    const int s = threadIdx.x;
    if (s >= kPoolScales || !st[s].ok) return;
    const std::size_t right = job.n[s] - 1;
    if (right - st[s].t_stop >= job.k[s]) return;  // the CPU's final check: stays declined
    res[s] = PoolResult{kPoolSequence, 0, st[s].count};
}

}  // namespace

std::size_t zero_pivot_scratch_bytes(std::size_t n0) {
    return align_up(kPoolScales * sizeof(ZState)) + 2 * align_up(kPoolScales * tiles(n0) * sizeof(u32));
}

void launch_zero_pivot(const PoolJob& job, const SeqOut& out, void* scratch, PoolResult* result, cudaStream_t s) {
    std::size_t n0 = 1;
    for (int sc = 0; sc < kPoolScales; ++sc) n0 = std::max(n0, job.n[sc]);
    const Layout l = layout(scratch, n0);
    const auto nb = static_cast<unsigned>(tiles(n0));
    const unsigned grid = std::min(nb, kTileBlocks);
    zp_init<<<1, 32, 0, s>>>(l.st);
    zp_count<<<dim3(std::min(nb, 1024u), kPoolScales), kThreads, 0, s>>>(job, result, l.st);
    zp_decide<<<1, 32, 0, s>>>(job, result, l.st);
    zp_tile_zeros<<<dim3(grid, kPoolScales), kThreads, 0, s>>>(job, l.st, l.zeros, l.stride);
    zp_scan<<<kPoolScales, 1024, 0, s>>>(job, l.st, l.zeros, l.stride, 0, l.st);
    zp_tile_summands<<<dim3(grid, kPoolScales), kThreads, 0, s>>>(job, l.st, l.zeros, l.flags, l.stride, 0, out);
    zp_scan<<<kPoolScales, 1024, 0, s>>>(job, l.st, l.flags, l.stride, 1, l.st);
    zp_tile_summands<<<dim3(grid, kPoolScales), kThreads, 0, s>>>(job, l.st, l.zeros, l.flags, l.stride, 1, out);
    zp_finish<<<1, 32, 0, s>>>(job, l.st, result);
}

}  // namespace vmaf::cambi::cuda
