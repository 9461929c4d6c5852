#include "backends/cuda/reduce.cuh"
#include "motion_cuda_kernels.hpp"

namespace vmaf::motion::cuda {

namespace {

constexpr unsigned kThreads = 256;

/// Mirror about the edge samples without repeating them (as the CPU's reflect).
__device__ __forceinline__ int reflect(int idx, int size) {
    if (size <= 1) return 0;
    while (idx < 0 || idx >= size) {
        if (idx < 0) idx = -idx;
        if (idx >= size) idx = 2 * size - idx - 2;
    }
    return idx;
}

/// A 32-lane group takes kRows rows of 128 columns: each lane four
/// consecutive columns, the vertical filter of its own four only; lanes 1 to
/// 30 score theirs (120 columns a group), taking the two columns on either
/// side from their neighbours (a shuffle each), and lanes 0 and 31 only lend
/// theirs. A block is kGroups groups stacked down the picture. Each lane
/// holds its columns' last five rows (the differences, as below): a row is
/// loaded once for the lane's kRows rows.
constexpr int kLane = 4, kGroupLanes = 32, kScoredCols = kLane * (kGroupLanes - 2), kRows = 8;
constexpr unsigned kGroups = kThreads / kGroupLanes;
static_assert(kThreads % gpu::kWarpSize == 0 && gpu::kWarpSize % kGroupLanes == 0, "whole groups in whole warps");

/// The filter's taps (the CPU's, summing to 2^16).
constexpr int kF0 = 3571, kF1 = 16004, kF2 = 26386;

/// Four samples at p (4-sample aligned) by one vector load.
__device__ __forceinline__ void load4(const unsigned short* p, int (&v)[kLane]) {
    const uint2 x = *reinterpret_cast<const uint2*>(p);
    v[0] = static_cast<int>(x.x & 0xffffu), v[1] = static_cast<int>(x.x >> 16);
    v[2] = static_cast<int>(x.y & 0xffffu), v[3] = static_cast<int>(x.y >> 16);
}
__device__ __forceinline__ void load4(const unsigned char* p, int (&v)[kLane]) {
    const unsigned x = *reinterpret_cast<const unsigned*>(p);
#pragma unroll
    for (int i = 0; i < kLane; ++i) v[i] = static_cast<int>((x >> (8 * i)) & 0xffu);
}

/// One column's vertical filter of the differences, rounded and shifted
/// (8 bits: every sum fits 32 bits; wider samples, even out of range, need 64).
template <typename T>
__device__ __forceinline__ int vertical(int d0, int d1, int d2, int d3, int d4, unsigned bpc) {
    if constexpr (sizeof(T) == 1) {
        return (kF2 * d2 + kF0 * (d0 + d4) + kF1 * (d1 + d3) + 128) >> 8;
    } else {
        const long long v = static_cast<long long>(kF2) * d2 + static_cast<long long>(kF0) * (d0 + d4) +
                            static_cast<long long>(kF1) * (d1 + d3);
        return static_cast<int>((v + (1ll << (bpc - 1))) >> bpc);
    }
}

/// The SAD of the blurred difference (the CPU's blurred_difference_sad). The
/// CPU forms both frames' vertical filter sums V (u32, exact) and takes
/// t = (V(prev) - V(cur) + round) >> bpc in 64 bits; the filter is linear and
/// integer, so V(prev) - V(cur) = V(prev - cur) exactly, and a lane keeps the
/// samples' differences (one register a tap, not two). Then the horizontal
/// filter of t and |u|. Columns (and rows) outside the picture are the CPU's
/// reflections: a lane filters the reflected column's samples. The CPU sums
/// |u| along a row in u32 (it may wrap where samples exceed the bit depth)
/// and the rows in 64 bits: here each group's part of a row is added to
/// rows[y] by a u32 atomic (the same sum modulo 2^32, in any order), and
/// fold_rows() adds the rows.
template <typename T>
__global__ void __launch_bounds__(kThreads) sad(const unsigned char* prev, const unsigned char* cur, std::size_t pitch,
                                                unsigned w, unsigned h, unsigned bpc, unsigned* rows) {
    const int lane = static_cast<int>(threadIdx.x) % kGroupLanes;
    const int y0 = static_cast<int>((blockIdx.y * kGroups + threadIdx.x / kGroupLanes) * kRows);
    if (y0 >= static_cast<int>(h)) return;  // the whole group: its lanes share y0
    const int c0 = static_cast<int>(blockIdx.x) * kScoredCols - kLane + kLane * lane;  // this lane's first column
    const int iw = static_cast<int>(w);
    // Rows 4-sample aligned (w % 4 == 0, buffers from cudaMalloc): one vector load a row and frame.
    const bool vec = w % 4 == 0 && c0 >= 0 && c0 + kLane <= iw;
    int col[kLane];
#pragma unroll
    for (int m = 0; m < kLane; ++m) col[m] = min(reflect(c0 + m, iw), iw - 1);  // past the end: feeds nothing scored
    int d[5][kLane];  // the last five rows: row r in slot r % 5 (prev - cur)
    const auto load = [&](int r, int (&out_row)[kLane]) {
        const std::size_t off = static_cast<std::size_t>(reflect(r, static_cast<int>(h))) * pitch;
        const T* pa = reinterpret_cast<const T*>(prev + off);
        const T* qa = reinterpret_cast<const T*>(cur + off);
        if (vec) {
            int a[kLane], b[kLane];
            load4(pa + c0, a);
            load4(qa + c0, b);
#pragma unroll
            for (int m = 0; m < kLane; ++m) out_row[m] = a[m] - b[m];
            return;
        }
#pragma unroll
        for (int m = 0; m < kLane; ++m) out_row[m] = static_cast<int>(pa[col[m]]) - static_cast<int>(qa[col[m]]);
    };
#pragma unroll
    for (int m = 0; m < 4; ++m) load(y0 - 2 + m, d[m]);
    const bool scores = lane > 0 && lane < kGroupLanes - 1;
#pragma unroll
    for (int j = 0; j < kRows; ++j) {
        if (y0 + j >= static_cast<int>(h)) break;
        load(y0 + j + 2, d[(j + 4) % 5]);
        const int(&r0)[kLane] = d[j % 5], (&r1)[kLane] = d[(j + 1) % 5], (&r2)[kLane] = d[(j + 2) % 5],
                 (&r3)[kLane] = d[(j + 3) % 5], (&r4)[kLane] = d[(j + 4) % 5];
        int t[kLane + 4];  // columns c0 - 2 .. c0 + 5
#pragma unroll
        for (int m = 0; m < kLane; ++m) t[m + 2] = vertical<T>(r0[m], r1[m], r2[m], r3[m], r4[m], bpc);
        t[0] = gpu::shfl_up(t[kLane], 1, kGroupLanes);
        t[1] = gpu::shfl_up(t[kLane + 1], 1, kGroupLanes);
        t[kLane + 2] = gpu::shfl_down(t[2], 1, kGroupLanes);
        t[kLane + 3] = gpu::shfl_down(t[3], 1, kGroupLanes);
        unsigned acc = 0;
        if (scores) {
#pragma unroll
            for (int i = 0; i < kLane; ++i) {
                if (c0 + i >= iw) break;
                const long long a = static_cast<long long>(kF2) * t[i + 2] +
                                    static_cast<long long>(kF0) * (t[i] + t[i + 4]) +
                                    static_cast<long long>(kF1) * (t[i + 1] + t[i + 3]);
                const int u = static_cast<int>((a + (1ll << 15)) >> 16);
                acc += static_cast<unsigned>(u < 0 ? -u : u);
            }
        }
        acc = vmaf::cuda::group32_sum(acc);
        if (lane == 0 && acc) atomicAdd(rows + y0 + j, acc);
    }
}

/// Adds the h row sums to *out (64 bits) and zeroes them for the next SAD.
__global__ void __launch_bounds__(kThreads) fold_rows(unsigned* rows, unsigned h, unsigned long long* out) {
    unsigned long long total = 0;
    for (unsigned y = threadIdx.x; y < h; y += kThreads) {
        total += rows[y];
        rows[y] = 0;
    }
    total = vmaf::cuda::block_sum<kThreads>(total);
    if (threadIdx.x == 0) *out += total;
}

}  // namespace

void launch_sad(const void* prev, const void* cur, std::size_t pitch, unsigned w, unsigned h, unsigned bpc,
                unsigned* rows, unsigned long long* out, cudaStream_t s) {
    if (!w || !h) return;
    const dim3 grid((w + kScoredCols - 1) / kScoredCols, (h + kRows * kGroups - 1) / (kRows * kGroups));
    const auto* a = static_cast<const unsigned char*>(prev);
    const auto* b = static_cast<const unsigned char*>(cur);
    if (bpc == 8)
        sad<unsigned char><<<grid, kThreads, 0, s>>>(a, b, pitch, w, h, bpc, rows);
    else
        sad<unsigned short><<<grid, kThreads, 0, s>>>(a, b, pitch, w, h, bpc, rows);
    fold_rows<<<1, kThreads, 0, s>>>(rows, h, out);
}

}  // namespace vmaf::motion::cuda
