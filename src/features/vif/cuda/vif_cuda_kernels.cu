#include "backends/cuda/reduce.cuh"
#include "vif_cuda_kernels.hpp"

namespace vmaf::vif::cuda {

namespace {

constexpr unsigned kThreads = 256;
constexpr int kSigmaNsq = 65536 << 1;

__constant__ unsigned kTaps[4] = {17, 9, 5, 3};
__constant__ unsigned kCoeff[4][17] = {
    {489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784, 7455, 6547, 5274, 3896, 2640, 1640, 935, 489},
    {1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244},
    {3571, 16004, 26386, 16004, 3571},
    {10904, 43728, 10904},
};

/// Mirror into [0, n) without repeating the edge sample (as the CPU's).
__device__ __forceinline__ unsigned mirror(int i, unsigned n) {
    if (i < 0) return static_cast<unsigned>(-i);
    if (i >= static_cast<int>(n)) return static_cast<unsigned>(2 * (static_cast<int>(n) - 1) - i);
    return static_cast<unsigned>(i);
}

__device__ __forceinline__ int log2_q11(const std::uint16_t* table, unsigned long long v) {
    const int bw = v ? 64 - __clzll(static_cast<long long>(v)) : 0;
    const int k = bw - 16 > 0 ? bw - 16 : 0;
    return static_cast<int>(table[v >> k]) + 2048 * k;
}

struct Sums {
    long long num_log[kMaxGainLimits] = {}, den_log = 0, num_non_log = 0, den_non_log = 0;
};

__device__ __forceinline__ void accumulate(Sums& s, unsigned mu1, unsigned mu2, unsigned long long xx,
                                           unsigned long long yy, unsigned long long xy, const GainLimits& egl,
                                           const std::uint16_t* table) {
    constexpr unsigned long long kHalf32 = 1ull << 31;
    const auto mu1_sq = static_cast<unsigned>((static_cast<unsigned long long>(mu1) * mu1 + kHalf32) >> 32);
    const auto mu2_sq = static_cast<unsigned>((static_cast<unsigned long long>(mu2) * mu2 + kHalf32) >> 32);
    const auto mu1_mu2 = static_cast<unsigned>((static_cast<unsigned long long>(mu1) * mu2 + kHalf32) >> 32);
    const auto xx_f = static_cast<unsigned>((xx + 32768) >> 16);
    const auto yy_f = static_cast<unsigned>((yy + 32768) >> 16);
    const auto xy_f = static_cast<unsigned>((xy + 32768) >> 16);
    const int sigma1_sq = static_cast<int>(xx_f - mu1_sq);
    int sigma2_sq = static_cast<int>(yy_f - mu2_sq);
    sigma2_sq = sigma2_sq > 0 ? sigma2_sq : 0;
    const int sigma12 = static_cast<int>(xy_f - mu1_mu2);
    if (sigma1_sq < kSigmaNsq) {
        s.num_non_log += sigma2_sq;
        s.den_non_log += 1;
        return;
    }
    s.den_log += log2_q11(table, static_cast<unsigned>(static_cast<long long>(kSigmaNsq) + sigma1_sq)) - 2048 * 17;
    if (sigma12 > 0 && sigma2_sq > 0) {
        const double eps = 65536 * 1.0e-10;
        const double g0 = __ddiv_rn(static_cast<double>(sigma12), __dadd_rn(static_cast<double>(sigma1_sq), eps));
        int sv_sq = static_cast<int>(__dsub_rn(static_cast<double>(sigma2_sq), __dmul_rn(g0, static_cast<double>(sigma12))));
        sv_sq = sv_sq > 0 ? sv_sq : 0;
        const auto denom = static_cast<unsigned>(static_cast<long long>(sv_sq) + kSigmaNsq);
        const int log_denom = log2_q11(table, denom);
        // Only the clamp of the gain differs between limits (the CPU's order per limit).
#pragma unroll
        for (unsigned j = 0; j < kMaxGainLimits; ++j) {
            if (j >= egl.n) break;
            const double g = (g0 < egl.v[j]) ? g0 : egl.v[j];
            const long long numer =
                static_cast<long long>(__dmul_rn(__dmul_rn(g, g), static_cast<double>(sigma1_sq))) + denom;
            s.num_log[j] += log2_q11(table, static_cast<unsigned long long>(numer)) - log_denom;
        }
    }
}

/// Adds the block's sums to out[0..sums_per_scale(n)) (one atomic per sum and block).
__device__ void add_block_sums(const Sums& acc, unsigned n, long long* out) {
    auto add = [&](long long v, unsigned j) {
        const auto t = vmaf::cuda::block_sum<kThreads>(static_cast<unsigned long long>(v));
        if (threadIdx.x == 0 && t) atomicAdd(reinterpret_cast<unsigned long long*>(out + j), t);
        __syncthreads();  // block_sum's shared scratch is reused by the next sum
    };
#pragma unroll
    for (unsigned j = 0; j < kMaxGainLimits; ++j)
        if (j < n) add(acc.num_log[j], j);
    add(acc.den_log, n);
    add(acc.num_non_log, n + 1);
    add(acc.den_non_log, n + 2);
}

constexpr unsigned kTaps0[4] = {17, 9, 5, 3};

/// One scale's statistic, fused: a block loads a tile of both pictures (with
/// the filter's halo, mirrored at the borders) into shared memory, filters it
/// vertically there, then horizontally, and adds its pixels' integer sums to
/// out[4]. Bit-exact with separate passes: the same integer filter sums.
template <typename T, unsigned Scale>
__global__ void __launch_bounds__(kThreads) statistic_tile(const unsigned char* ref, const unsigned char* dis,
                                                           std::size_t pitch, unsigned w, unsigned h, unsigned shift_mu,
                                                           unsigned round_mu, unsigned shift_sq,
                                                           unsigned long long round_sq, GainLimits egl,
                                                           const std::uint16_t* table, long long* out) {
    constexpr int kT = kTaps0[Scale], kHalf = kT / 2;
    constexpr int kTx = 64, kTy = 16;
    constexpr int kSw = kTx + 2 * kHalf, kSh = kTy + 2 * kHalf;
    __shared__ std::uint16_t s_ref[kSh][kSw], s_dis[kSh][kSw];
    __shared__ std::uint16_t v_mu1[kTy][kSw], v_mu2[kTy][kSw];
    __shared__ std::uint32_t v_xx[kTy][kSw], v_yy[kTy][kSw], v_xy[kTy][kSw];
    const int x0 = static_cast<int>(blockIdx.x) * kTx, y0 = static_cast<int>(blockIdx.y) * kTy;
    const unsigned* coeff = kCoeff[Scale];

    for (int i = threadIdx.x; i < kSh * kSw; i += kThreads) {
        const int r = i / kSw, c = i % kSw;
        // Rows/columns no output needs may mirror out of range on tiny planes: clamp those.
        const unsigned gy = min(mirror(y0 - kHalf + r, h), h - 1), gx = min(mirror(x0 - kHalf + c, w), w - 1);
        s_ref[r][c] = reinterpret_cast<const T*>(ref + gy * pitch)[gx];
        s_dis[r][c] = reinterpret_cast<const T*>(dis + gy * pitch)[gx];
    }
    __syncthreads();
    for (int i = threadIdx.x; i < kTy * kSw; i += kThreads) {
        const int r = i / kSw, c = i % kSw;
        unsigned a_mu1 = 0, a_mu2 = 0;
        unsigned long long a_xx = 0, a_yy = 0, a_xy = 0;
#pragma unroll
        for (int k = 0; k < kT; ++k) {
            const unsigned rv = s_ref[r + k][c], dv = s_dis[r + k][c];
            const unsigned cr = coeff[k] * rv, cd = coeff[k] * dv;
            a_mu1 += cr;
            a_mu2 += cd;
            a_xx += static_cast<unsigned long long>(cr) * rv;
            a_yy += static_cast<unsigned long long>(cd) * dv;
            a_xy += static_cast<unsigned long long>(cr) * dv;
        }
        v_mu1[r][c] = static_cast<std::uint16_t>((a_mu1 + round_mu) >> shift_mu);
        v_mu2[r][c] = static_cast<std::uint16_t>((a_mu2 + round_mu) >> shift_mu);
        v_xx[r][c] = static_cast<unsigned>((a_xx + round_sq) >> shift_sq);
        v_yy[r][c] = static_cast<unsigned>((a_yy + round_sq) >> shift_sq);
        v_xy[r][c] = static_cast<unsigned>((a_xy + round_sq) >> shift_sq);
    }
    __syncthreads();
    Sums acc;
    for (int i = threadIdx.x; i < kTy * kTx; i += kThreads) {
        const int r = i / kTx, c = i % kTx;
        if (y0 + r >= static_cast<int>(h) || x0 + c >= static_cast<int>(w)) continue;
        unsigned a_mu1 = 0, a_mu2 = 0;
        unsigned long long a_xx = 0, a_yy = 0, a_xy = 0;
#pragma unroll
        for (int k = 0; k < kT; ++k) {
            const unsigned cf = coeff[k];
            a_mu1 += cf * v_mu1[r][c + k];
            a_mu2 += cf * v_mu2[r][c + k];
            a_xx += cf * static_cast<unsigned long long>(v_xx[r][c + k]);
            a_yy += cf * static_cast<unsigned long long>(v_yy[r][c + k]);
            a_xy += cf * static_cast<unsigned long long>(v_xy[r][c + k]);
        }
        accumulate(acc, a_mu1, a_mu2, a_xx, a_yy, a_xy, egl, table);
    }
    add_block_sums(acc, egl.n, out);
}

/// Decimation, vertical half: filter the even rows with the next scale's kernel.
template <typename T>
__global__ void decimate_v(const unsigned char* src, std::size_t pitch, unsigned w, unsigned h, unsigned next_scale,
                           unsigned shift_v, unsigned round_v, std::uint32_t* tmp) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned oy = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || oy >= h / 2) return;
    const unsigned taps = kTaps[next_scale];
    const int half = static_cast<int>(taps / 2);
    const int i = static_cast<int>(2 * oy);
    unsigned acc = 0;
    for (unsigned k = 0; k < taps; ++k)
        acc += kCoeff[next_scale][k] *
               static_cast<unsigned>(reinterpret_cast<const T*>(src + mirror(i - half + static_cast<int>(k), h) * pitch)[x]);
    tmp[static_cast<std::size_t>(oy) * w + x] = static_cast<std::uint16_t>((acc + round_v) >> shift_v);
}

/// Decimation, horizontal half: even columns of the filtered rows.
__global__ void decimate_h(const std::uint32_t* tmp, unsigned w, unsigned oh, unsigned next_scale, std::uint16_t* dst) {
    const unsigned ox = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned oy = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned ow = w / 2;
    if (ox >= ow || oy >= oh) return;
    const unsigned taps = kTaps[next_scale];
    const int half = static_cast<int>(taps / 2);
    const std::uint32_t* row = tmp + static_cast<std::size_t>(oy) * w;
    unsigned acc = 0;
    for (unsigned k = 0; k < taps; ++k)
        acc += kCoeff[next_scale][k] * row[mirror(static_cast<int>(2 * ox) - half + static_cast<int>(k), w)];
    dst[static_cast<std::size_t>(oy) * ow + ox] = static_cast<std::uint16_t>((acc + 32768) >> 16);
}

std::size_t align(std::size_t v) { return (v + 255) & ~std::size_t{255}; }

template <typename T>
void statistic(const void* ref, const void* dis, std::size_t pitch, unsigned w, unsigned h, unsigned scale,
               unsigned bpc, const GainLimits& egl, const Scratch& s, long long* sums, cudaStream_t st) {
    unsigned shift_mu = 16, round_mu = 32768, shift_sq = 16;
    unsigned long long round_sq = 32768;
    if (scale == 0) {
        shift_mu = bpc;
        round_mu = 1u << (bpc - 1);
        shift_sq = 2 * (bpc - 8);
        round_sq = shift_sq == 0 ? 0 : 1ull << (shift_sq - 1);
    }
    const dim3 grid((w + 63) / 64, (h + 15) / 16);
    const auto* r = static_cast<const unsigned char*>(ref);
    const auto* d = static_cast<const unsigned char*>(dis);
    long long* out = sums + sums_per_scale(egl.n) * scale;
#define VMAF_VIF_TILE(S) \
    statistic_tile<T, S><<<grid, kThreads, 0, st>>>(r, d, pitch, w, h, shift_mu, round_mu, shift_sq, round_sq, egl, s.log2_table, out)
    switch (scale) {
        case 0: VMAF_VIF_TILE(0); break;
        case 1: VMAF_VIF_TILE(1); break;
        case 2: VMAF_VIF_TILE(2); break;
        default: VMAF_VIF_TILE(3);
    }
#undef VMAF_VIF_TILE
}

template <typename T>
void decimate(const void* src, std::size_t pitch, unsigned w, unsigned h, unsigned scale, unsigned bpc,
              const Scratch& s, std::uint16_t* dst, cudaStream_t st) {
    const unsigned shift_v = scale == 0 ? bpc : 16;
    const unsigned round_v = 1u << (shift_v - 1);
    const dim3 block(32, 8);
    decimate_v<T><<<dim3((w + 31) / 32, (h / 2 + 7) / 8), block, 0, st>>>(static_cast<const unsigned char*>(src), pitch,
                                                                           w, h, scale + 1, shift_v, round_v, s.tmp);
    decimate_h<<<dim3((w / 2 + 31) / 32, (h / 2 + 7) / 8), block, 0, st>>>(s.tmp, w, h / 2, scale + 1, dst);
}

}  // namespace

std::size_t scratch_bytes(unsigned w, unsigned h) {
    const std::size_t q = static_cast<std::size_t>(w / 2) * (h / 2);
    return align(static_cast<std::size_t>(w) * (h / 2) * 4) + 4 * align(q * 2);
}

Scratch scratch_layout(void* base, unsigned w, unsigned h, const std::uint16_t* table) {
    const std::size_t q = static_cast<std::size_t>(w / 2) * (h / 2);
    auto* p = static_cast<unsigned char*>(base);
    auto take = [&](std::size_t bytes) {
        void* r = p;
        p += align(bytes);
        return r;
    };
    Scratch s{};
    s.tmp = static_cast<std::uint32_t*>(take(static_cast<std::size_t>(w) * (h / 2) * 4));
    for (auto& pp : s.scale)
        for (auto& side : pp) side = static_cast<std::uint16_t*>(take(q * 2));
    s.log2_table = table;
    return s;
}

void launch_vif(const void* ref, const void* dis, std::size_t pitch, unsigned w, unsigned h, unsigned bpc,
                const GainLimits& egl, bool skip_scale0, const Scratch& s, long long* sums, cudaStream_t st) {
    if (bpc == 8) {
        if (!skip_scale0) statistic<unsigned char>(ref, dis, pitch, w, h, 0, bpc, egl, s, sums, st);
        decimate<unsigned char>(ref, pitch, w, h, 0, bpc, s, s.scale[0][0], st);
        decimate<unsigned char>(dis, pitch, w, h, 0, bpc, s, s.scale[0][1], st);
    } else {
        if (!skip_scale0) statistic<unsigned short>(ref, dis, pitch, w, h, 0, bpc, egl, s, sums, st);
        decimate<unsigned short>(ref, pitch, w, h, 0, bpc, s, s.scale[0][0], st);
        decimate<unsigned short>(dis, pitch, w, h, 0, bpc, s, s.scale[0][1], st);
    }
    unsigned cw = w / 2, ch = h / 2;
    int cur = 0;
    for (unsigned scale = 1; scale < 4; ++scale) {
        if (scale > 1) {
            const std::size_t p = static_cast<std::size_t>(cw) * 2;
            decimate<unsigned short>(s.scale[cur][0], p, cw, ch, scale - 1, bpc, s, s.scale[cur ^ 1][0], st);
            decimate<unsigned short>(s.scale[cur][1], p, cw, ch, scale - 1, bpc, s, s.scale[cur ^ 1][1], st);
            cur ^= 1;
            cw /= 2;
            ch /= 2;
        }
        statistic<unsigned short>(s.scale[cur][0], s.scale[cur][1], static_cast<std::size_t>(cw) * 2, cw, ch, scale, bpc,
                                  egl, s, sums, st);
    }
}

}  // namespace vmaf::vif::cuda
