#include "backends/cuda/reduce.cuh"
#include "motion_cuda_kernels.hpp"

namespace vmaf::motion::cuda {

namespace {

constexpr unsigned kThreads = 256;
__constant__ unsigned kF[5] = {3571, 16004, 26386, 16004, 3571};

/// Mirror about the edge samples without repeating them (as the CPU's reflect).
__device__ __forceinline__ int reflect(int idx, int size) {
    if (size <= 1) return 0;
    while (idx < 0 || idx >= size) {
        if (idx < 0) idx = -idx;
        if (idx >= size) idx = 2 * size - idx - 2;
    }
    return idx;
}

/// A thread's share: kSx consecutive columns of kRows consecutive rows. Its
/// taps are kCols columns (kSx + 4) of the rows y - 2 .. y + 2, held in
/// registers as a ring of five rows: each row is loaded once for the
/// thread's kRows rows (kRows + 4 loads a column, not 5 * kRows). A block is
/// kBx threads across and kBy down; a warp (32 or 64 lanes) lies within one
/// run of kBx threads, so its lanes share their rows and take neighbouring
/// columns (coalesced loads).
constexpr int kSx = 4, kRows = 8, kCols = kSx + 4;
constexpr unsigned kBx = 64, kBy = kThreads / kBx;
static_assert(kBx % gpu::kWarpSize == 0, "a warp's lanes share their rows");

/// Samples p[0, 12) by three aligned vector loads (p 4-sample aligned).
__device__ __forceinline__ void load12(const unsigned short* p, int (&v)[12]) {
    const uint2* q = reinterpret_cast<const uint2*>(p);
#pragma unroll
    for (int k = 0; k < 3; ++k) {
        const uint2 x = q[k];
        v[4 * k] = static_cast<int>(x.x & 0xffffu), v[4 * k + 1] = static_cast<int>(x.x >> 16);
        v[4 * k + 2] = static_cast<int>(x.y & 0xffffu), v[4 * k + 3] = static_cast<int>(x.y >> 16);
    }
}
__device__ __forceinline__ void load12(const unsigned char* p, int (&v)[12]) {
    const unsigned* q = reinterpret_cast<const unsigned*>(p);
#pragma unroll
    for (int k = 0; k < 3; ++k) {
        const unsigned x = q[k];
#pragma unroll
        for (int i = 0; i < 4; ++i) v[4 * k + i] = static_cast<int>((x >> (8 * i)) & 0xffu);
    }
}

/// The SAD of the blurred difference (the CPU's blurred_difference_sad). The
/// CPU forms both frames' vertical filter sums V (u32, exact) and takes
/// t = (V(prev) - V(cur) + round) >> bpc in 64 bits; the filter is linear and
/// integer, so V(prev) - V(cur) = V(prev - cur) exactly, and the ring holds
/// the samples' differences (one register a tap, not two). Then the
/// horizontal filter of t and |u|. The CPU sums |u| along a row in u32 (it
/// may wrap where samples exceed the bit depth) and the rows in 64 bits:
/// here each warp's part of a row is added to rows[y] by a u32 atomic (the
/// same sum modulo 2^32, in any order), and fold_rows() adds the rows.
template <typename T>
__global__ void __launch_bounds__(kThreads) sad(const unsigned char* prev, const unsigned char* cur, std::size_t pitch,
                                                unsigned w, unsigned h, unsigned bpc, unsigned* rows) {
    const unsigned x0 = kSx * (blockIdx.x * kBx + threadIdx.x % kBx);
    const int y0 = static_cast<int>((blockIdx.y * kBy + threadIdx.x / kBx) * kRows);
    if (y0 >= static_cast<int>(h)) return;  // the whole warp: its lanes share y0
    unsigned col[kCols];
    const bool inner = x0 >= 2 && x0 + kSx + 2 <= w;  // no reflection needed
#pragma unroll
    for (int m = 0; m < kCols; ++m) {
        const int c = static_cast<int>(x0) - 2 + m;
        // Columns past the row's end only feed outputs past it (none counted): any in-range column does.
        col[m] = inner ? static_cast<unsigned>(c) : min(static_cast<unsigned>(reflect(c, static_cast<int>(w))), w - 1);
    }
    // Rows 4-sample aligned (w % 4 == 0, buffers from cudaMalloc) and columns
    // x0 - 4 .. x0 + 7 in the row: three aligned vector loads a row and frame.
    const bool vec = w % 4 == 0 && x0 >= 4 && x0 + 8 <= w;
    int d[5][kCols];  // ring of rows: row r of the taps in slot r % 5 (prev - cur)
    const auto load = [&](int r, int (&out_row)[kCols]) {
        const std::size_t off = static_cast<std::size_t>(reflect(r, static_cast<int>(h))) * pitch;
        const T* pa = reinterpret_cast<const T*>(prev + off);
        const T* qa = reinterpret_cast<const T*>(cur + off);
        if (vec) {
            int a[12], b[12];
            load12(pa + x0 - 4, a);
            load12(qa + x0 - 4, b);
#pragma unroll
            for (int m = 0; m < kCols; ++m) out_row[m] = a[m + 2] - b[m + 2];
            return;
        }
#pragma unroll
        for (int m = 0; m < kCols; ++m) out_row[m] = static_cast<int>(pa[col[m]]) - static_cast<int>(qa[col[m]]);
    };
#pragma unroll
    for (int m = 0; m < 4; ++m) load(y0 - 2 + m, d[m]);
    const long long round_v = 1ll << (bpc - 1);
#pragma unroll
    for (int j = 0; j < kRows; ++j) {
        if (y0 + j >= static_cast<int>(h)) break;
        load(y0 + j + 2, d[(j + 4) % 5]);
        const int(&r0)[kCols] = d[j % 5], (&r1)[kCols] = d[(j + 1) % 5], (&r2)[kCols] = d[(j + 2) % 5],
                 (&r3)[kCols] = d[(j + 3) % 5], (&r4)[kCols] = d[(j + 4) % 5];
        int t[kCols];
#pragma unroll
        for (int m = 0; m < kCols; ++m) {
            const long long v = static_cast<long long>(kF[2]) * r2[m] + static_cast<long long>(kF[0]) * (r0[m] + r4[m]) +
                                static_cast<long long>(kF[1]) * (r1[m] + r3[m]);
            t[m] = static_cast<int>((v + round_v) >> bpc);
        }
        unsigned acc = 0;
#pragma unroll
        for (int i = 0; i < kSx; ++i) {
            if (x0 + i >= w) break;
            const long long a = static_cast<long long>(kF[2]) * t[i + 2] +
                                static_cast<long long>(kF[0]) * (t[i] + t[i + 4]) +
                                static_cast<long long>(kF[1]) * (t[i + 1] + t[i + 3]);
            const int u = static_cast<int>((a + (1ll << 15)) >> 16);
            acc += static_cast<unsigned>(u < 0 ? -u : u);
        }
        acc = vmaf::cuda::warp_sum(acc);
        if (threadIdx.x % gpu::kWarpSize == 0 && acc) atomicAdd(rows + y0 + j, acc);
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
    const dim3 grid((w + kSx * kBx - 1) / (kSx * kBx), (h + kRows * kBy - 1) / (kRows * kBy));
    const auto* a = static_cast<const unsigned char*>(prev);
    const auto* b = static_cast<const unsigned char*>(cur);
    if (bpc == 8)
        sad<unsigned char><<<grid, kThreads, 0, s>>>(a, b, pitch, w, h, bpc, rows);
    else
        sad<unsigned short><<<grid, kThreads, 0, s>>>(a, b, pitch, w, h, bpc, rows);
    fold_rows<<<1, kThreads, 0, s>>>(rows, h, out);
}

}  // namespace vmaf::motion::cuda
