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

/// Vertical sums, kVRows rows of two adjacent columns a thread: the taps'
/// rows loaded once for all of them (kVRows + 4 rows), the mirrored taps
/// paired (u32 sums below 65536 * 65535: exact in any order), the two
/// columns' sums stored as one 8-byte vector where w is even.
constexpr int kVRows = 8;
constexpr unsigned kVx = 32, kVy = 8;  // threads a block: kVx pairs of columns, kVy runs of kVRows rows

template <typename T>
__global__ void __launch_bounds__(kVx * kVy) vertical_sums(const unsigned char* luma, std::size_t pitch, unsigned w,
                                                            unsigned h, std::uint32_t* out) {
    constexpr int kRun = kVRows + 4;
    const unsigned x = 2 * (blockIdx.x * kVx + threadIdx.x);
    const int y0 = static_cast<int>((blockIdx.y * kVy + threadIdx.y) * kVRows);
    if (x >= w || y0 >= static_cast<int>(h)) return;
    const bool pair = x + 1 < w;
    unsigned a[kRun], b[kRun];
    const bool inner = y0 >= 2 && y0 - 2 + kRun <= static_cast<int>(h);  // no reflection needed
#pragma unroll
    for (int m = 0; m < kRun; ++m) {
        const int r = inner ? y0 - 2 + m : reflect(y0 - 2 + m, static_cast<int>(h));
        const T* row = reinterpret_cast<const T*>(luma + static_cast<std::size_t>(r) * pitch);
        a[m] = row[x];
        b[m] = pair ? row[x + 1] : 0u;
    }
#pragma unroll
    for (int j = 0; j < kVRows; ++j) {
        const int y = y0 + j;
        if (y >= static_cast<int>(h)) break;
        const unsigned sa = kF[2] * a[j + 2] + kF[0] * (a[j] + a[j + 4]) + kF[1] * (a[j + 1] + a[j + 3]);
        const unsigned sb = kF[2] * b[j + 2] + kF[0] * (b[j] + b[j + 4]) + kF[1] * (b[j + 1] + b[j + 3]);
        std::uint32_t* o = out + static_cast<std::size_t>(y) * w + x;
        if (pair && (w & 1u) == 0)
            *reinterpret_cast<uint2*>(o) = make_uint2(sa, sb);
        else {
            o[0] = sa;
            if (pair) o[1] = sb;
        }
    }
}

/// One row a block (blockIdx.x, striding by gridDim.x): a thread takes kSx
/// consecutive columns, forms their taps' differences t once (kSx + 4 of
/// them), filters them (mirrored taps paired: |t| < 2^25, so a pair fits an
/// int), and the row's sum of |u| is reduced in u32 (its wrap is the CPU's)
/// before it joins the 64-bit total.
constexpr int kSx = 4;

__global__ void __launch_bounds__(kThreads) sad(const std::uint32_t* prev, const std::uint32_t* cur, unsigned w,
                                                unsigned h, unsigned bpc, unsigned long long* out) {
    const long long round_v = 1ll << (bpc - 1);
    const bool vec = w % 4 == 0;  // rows start 16-byte aligned (the buffers are)
    unsigned long long total = 0;
    for (unsigned y = blockIdx.x; y < h; y += gridDim.x) {
        const std::size_t base = static_cast<std::size_t>(y) * w;
        unsigned acc = 0;
        for (unsigned x0 = threadIdx.x * kSx; x0 < w; x0 += kThreads * kSx) {
            int t[kSx + 4];
            auto diff = [&](unsigned a, unsigned b) {
                return static_cast<int>((static_cast<long long>(a) - static_cast<long long>(b) + round_v) >> bpc);
            };
            if (vec && x0 >= 4 && x0 + 8 <= w) {
                // Columns x0 - 4 .. x0 + 7 as three 16-byte vectors a picture (rows 16-byte aligned).
                const uint4* p4 = reinterpret_cast<const uint4*>(prev + base + x0) - 1;
                const uint4* c4 = reinterpret_cast<const uint4*>(cur + base + x0) - 1;
                const uint4 pa = p4[0], pb = p4[1], pc = p4[2], ca = c4[0], cb = c4[1], cc4 = c4[2];
                t[0] = diff(pa.z, ca.z), t[1] = diff(pa.w, ca.w);
                t[2] = diff(pb.x, cb.x), t[3] = diff(pb.y, cb.y), t[4] = diff(pb.z, cb.z), t[5] = diff(pb.w, cb.w);
                t[6] = diff(pc.x, cc4.x), t[7] = diff(pc.y, cc4.y);
            } else {
                const bool inner = x0 >= 2 && x0 + kSx + 2 <= w;  // no reflection needed
#pragma unroll
                for (int m = 0; m < kSx + 4; ++m) {
                    const int c = static_cast<int>(x0) - 2 + m;
                    // Columns past the row's end only feed outputs past it: any in-range column does.
                    const unsigned cc = inner ? static_cast<unsigned>(c)
                                              : min(static_cast<unsigned>(reflect(c, static_cast<int>(w))), w - 1);
                    t[m] = diff(prev[base + cc], cur[base + cc]);
                }
            }
#pragma unroll
            for (int j = 0; j < kSx; ++j) {
                if (x0 + j >= w) break;
                const long long a = static_cast<long long>(kF[2]) * t[j + 2] +
                                    static_cast<long long>(kF[0]) * (t[j] + t[j + 4]) +
                                    static_cast<long long>(kF[1]) * (t[j + 1] + t[j + 3]);
                const int u = static_cast<int>((a + (1ll << 15)) >> 16);
                acc += static_cast<unsigned>(u < 0 ? -u : u);
            }
        }
        acc = vmaf::cuda::block_sum<kThreads>(acc);
        __syncthreads();
        total += acc;
    }
    if (threadIdx.x == 0 && total) atomicAdd(out, total);
}

}  // namespace

void launch_vertical_sums(const void* luma, std::size_t pitch, unsigned w, unsigned h, unsigned bpc,
                          std::uint32_t* out, cudaStream_t s) {
    const dim3 block(kVx, kVy);
    const dim3 grid((w + 2 * kVx - 1) / (2 * kVx), (h + kVy * kVRows - 1) / (kVy * kVRows));
    if (bpc == 8)
        vertical_sums<unsigned char><<<grid, block, 0, s>>>(static_cast<const unsigned char*>(luma), pitch, w, h, out);
    else
        vertical_sums<unsigned short><<<grid, block, 0, s>>>(static_cast<const unsigned char*>(luma), pitch, w, h, out);
}

void launch_sad(const std::uint32_t* prev, const std::uint32_t* cur, unsigned w, unsigned h, unsigned bpc,
                unsigned long long* out, cudaStream_t s) {
    const unsigned blocks = h < 1024 ? h : 1024;
    if (!blocks || !w) return;
    sad<<<blocks, kThreads, 0, s>>>(prev, cur, w, h, bpc, out);
}

}  // namespace vmaf::motion::cuda
