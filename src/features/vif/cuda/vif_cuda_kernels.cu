#include <cstdlib>
#include <string_view>

#include "backends/cuda/reduce.cuh"
#include "vif_cuda_kernels.hpp"

namespace vmaf::vif::cuda {

namespace {

constexpr unsigned kThreads = 256;
constexpr int kSigmaNsq = 65536 << 1;

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
template <unsigned kBlockThreads = kThreads>
__device__ void add_block_sums(const Sums& acc, unsigned n, long long* out) {
    auto add = [&](long long v, unsigned j) {
        const auto t = vmaf::cuda::block_sum<kBlockThreads>(static_cast<unsigned long long>(v));
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

/// The taps as doubles, for the second moments' horizontal sums in double:
/// every value there (32-bit samples times 16-bit taps, and their sums, below
/// 2^48) is an integer below 2^53, so each fused multiply-add is exact.
__constant__ double kCoeffD[4][17] = {
    {489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784, 7455, 6547, 5274, 3896, 2640, 1640, 935, 489},
    {1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244},
    {3571, 16004, 26386, 16004, 3571},
    {10904, 43728, 10904},
};

/// v (< 2^32) as a double, exactly: 2^52 + v has v in its low mantissa bits.
__device__ __forceinline__ double u32_to_double(unsigned v) {
    return __dadd_rn(__hiloint2double(0x43300000, static_cast<int>(v)), -4503599627370496.0);
}

/// An integer-valued double in [0, 2^52) as an integer, exactly.
__device__ __forceinline__ unsigned long long double_to_u64(double v) {
    return static_cast<unsigned long long>(__double_as_longlong(__dadd_rn(v, 4503599627370496.0))) -
           0x4330000000000000ull;
}

/// One scale's statistic, fused: a block loads a tile of both pictures (with
/// the filter's halo, mirrored at the borders) into shared memory, filters it
/// vertically there, then horizontally, and adds its pixels' integer sums to
/// out[4]. Bit-exact with separate passes: the same integer filter sums,
/// computed exactly in other orders (the taps are symmetric, so samples at
/// mirrored taps are added before their multiply: the first moments in 32
/// bits as the CPU's, whose wrap-free sums are the same modulo 2^32 in any
/// order; the second moments in 64 bits or, below 2^53, in double). Each
/// thread filters kBlock outputs that share their taps' samples (a column's
/// consecutive rows, then a row's consecutive columns), so each sample is
/// read from shared memory once per thread, not once per tap.
constexpr int kBlock = 4;
/// Outputs a thread at scale s: fewer at the small scales, for more blocks.
constexpr int kBlockOf[4] = {kBlock, kBlock, 2, 1};

/// How the vertical pass sums the second moments (c * x * y of 16-bit
/// x, y: the CPU's u64 sums).
enum class Moments {
    Narrow,  ///< 8-bit scale 0: every sum is below 65536 * 255^2 < 2^32, so u32 sums are exact
    Pair32,  ///< 9..15-bit scale 0: x*y < 2^30, so two of them add in 32 bits, then one 32x32->64 multiply
             ///< (a tile with a sample of 2^15 or more, out of the bit depth's range, takes PerTap)
    Wide,    ///< 16-bit samples: x*y < 2^32, two of them add in 32 bits with a carry; the carries'
             ///< taps are summed apart (below 2^17) and added at 2^32
    PerTap,  ///< per tap, as the CPU (Pair32's fallback: fewer registers than Wide)
};

/// kBlock consecutive outputs of a kT-tap filter over a shared-memory row of
/// 16-bit values starting at `row` (16-byte aligned), read as 4-sample
/// vectors (kVec of them cover the kT + kBlock - 1 samples); mirrored taps
/// paired, in u32 (the CPU's width).
template <int kT, int kVec, int B>
__device__ __forceinline__ void filter_row16(const std::uint16_t* row, const unsigned* coeff, unsigned out[B]) {
    unsigned v[4 * kVec];
    if constexpr (B % 4 == 0) {
#pragma unroll
        for (int q = 0; q < kVec; ++q) {
            const uint2 a = reinterpret_cast<const uint2*>(row)[q];
            v[4 * q] = a.x & 0xffffu, v[4 * q + 1] = a.x >> 16, v[4 * q + 2] = a.y & 0xffffu, v[4 * q + 3] = a.y >> 16;
        }
    } else {  // not 8-byte aligned: one sample a read
#pragma unroll
        for (int k = 0; k < kT + B - 1; ++k) v[k] = row[k];
    }
#pragma unroll
    for (int j = 0; j < B; ++j) {
        unsigned s = coeff[kT / 2] * v[j + kT / 2];
#pragma unroll
        for (int k = 0; k < kT / 2; ++k) s += coeff[k] * (v[j + k] + v[j + kT - 1 - k]);
        out[j] = s;
    }
}

/// As filter_row16 over 32-bit values, the sums (below 2^48) in double; the
/// samples streamed (each converted once, then added to the outputs it is a
/// tap of), so that only the outputs' sums stay live.
template <int kT, int kVec, unsigned Scale, int B>
__device__ __forceinline__ void filter_row32(const std::uint32_t* row, unsigned long long out[B]) {
    double s[B] = {};
    auto add = [&](int k, unsigned u) {  // sample k is tap k - j of output j
        const double v = u32_to_double(u);
#pragma unroll
        for (int j = 0; j < B; ++j)
            if (k - j >= 0 && k - j < kT) s[j] = __fma_rn(kCoeffD[Scale][k - j], v, s[j]);
    };
    if constexpr (B % 4 == 0) {
#pragma unroll
        for (int q = 0; q < kVec; ++q) {
            const uint4 a = reinterpret_cast<const uint4*>(row)[q];
            const unsigned u[4] = {a.x, a.y, a.z, a.w};
#pragma unroll
            for (int e = 0; e < 4; ++e)
                if (4 * q + e < kT + B - 1) add(4 * q + e, u[e]);
        }
    } else {  // not 16-byte aligned: one sample a read
#pragma unroll
        for (int k = 0; k < kT + B - 1; ++k) add(k, row[k]);
    }
#pragma unroll
    for (int j = 0; j < B; ++j) out[j] = double_to_u64(s[j]);
}

/// The vertical pass of one item: kBlock consecutive output rows of column c.
template <int kT, int kSw, Moments M, int B>
__device__ __forceinline__ void vertical_item(const std::uint16_t (*s_ref)[kSw], const std::uint16_t (*s_dis)[kSw],
                                              int r0, int c, const unsigned* coeff, unsigned shift_mu,
                                              unsigned round_mu, unsigned shift_sq, unsigned long long round_sq,
                                              std::uint16_t* mu1, std::uint16_t* mu2, std::uint32_t* xx,
                                              std::uint32_t* yy, std::uint32_t* xy, int stride16, int stride32) {
    constexpr int kHalf = kT / 2, kSpan = kT + B - 1;
    unsigned x[kSpan], y[kSpan];
#pragma unroll
    for (int k = 0; k < kSpan; ++k) x[k] = s_ref[r0 + k][c], y[k] = s_dis[r0 + k][c];
#pragma unroll
    for (int j = 0; j < B; ++j) {
        unsigned a1 = coeff[kHalf] * x[j + kHalf], a2 = coeff[kHalf] * y[j + kHalf];
#pragma unroll
        for (int k = 0; k < kHalf; ++k) {
            a1 += coeff[k] * (x[j + k] + x[j + kT - 1 - k]);
            a2 += coeff[k] * (y[j + k] + y[j + kT - 1 - k]);
        }
        mu1[j * stride16] = static_cast<std::uint16_t>((a1 + round_mu) >> shift_mu);
        mu2[j * stride16] = static_cast<std::uint16_t>((a2 + round_mu) >> shift_mu);
    }
    if constexpr (M == Moments::PerTap) {
#pragma unroll
        for (int j = 0; j < B; ++j) {
            unsigned long long a_xx = 0, a_yy = 0, a_xy = 0;
#pragma unroll
            for (int k = 0; k < kT; ++k) {
                const unsigned cr = coeff[k] * x[j + k], cd = coeff[k] * y[j + k];
                a_xx += static_cast<unsigned long long>(cr) * x[j + k];
                a_yy += static_cast<unsigned long long>(cd) * y[j + k];
                a_xy += static_cast<unsigned long long>(cr) * y[j + k];
            }
            xx[j * stride32] = static_cast<unsigned>((a_xx + round_sq) >> shift_sq);
            yy[j * stride32] = static_cast<unsigned>((a_yy + round_sq) >> shift_sq);
            xy[j * stride32] = static_cast<unsigned>((a_xy + round_sq) >> shift_sq);
        }
    } else {
        // One product array at a time (registers): x*x, then y*y, then x*y.
        auto moment = [&](const unsigned (&p)[kSpan], std::uint32_t* out) {
#pragma unroll
            for (int j = 0; j < B; ++j) {
                if constexpr (M == Moments::Narrow) {
                    unsigned a = coeff[kHalf] * p[j + kHalf];
#pragma unroll
                    for (int k = 0; k < kHalf; ++k) a += coeff[k] * (p[j + k] + p[j + kT - 1 - k]);
                    out[j * stride32] = static_cast<unsigned>((a + round_sq) >> shift_sq);
                } else if constexpr (M == Moments::Pair32) {
                    unsigned long long a = static_cast<unsigned long long>(coeff[kHalf]) * p[j + kHalf];
#pragma unroll
                    for (int k = 0; k < kHalf; ++k)
                        a += static_cast<unsigned long long>(coeff[k]) * (p[j + k] + p[j + kT - 1 - k]);
                    out[j * stride32] = static_cast<unsigned>((a + round_sq) >> shift_sq);
                } else {
                    unsigned long long a = static_cast<unsigned long long>(coeff[kHalf]) * p[j + kHalf];
                    unsigned carried = 0;  // the taps of the pairs that wrapped: each adds tap * 2^32
#pragma unroll
                    for (int k = 0; k < kHalf; ++k) {
                        const unsigned lo = p[j + k] + p[j + kT - 1 - k];
                        carried += lo < p[j + k] ? coeff[k] : 0u;
                        a += static_cast<unsigned long long>(coeff[k]) * lo;
                    }
                    a += static_cast<unsigned long long>(carried) << 32;
                    out[j * stride32] = static_cast<unsigned>((a + round_sq) >> shift_sq);
                }
            }
        };
        unsigned p[kSpan];
#pragma unroll
        for (int k = 0; k < kSpan; ++k) p[k] = x[k] * x[k];
        moment(p, xx);
#pragma unroll
        for (int k = 0; k < kSpan; ++k) p[k] = y[k] * y[k];
        moment(p, yy);
#pragma unroll
        for (int k = 0; k < kSpan; ++k) p[k] = x[k] * y[k];
        moment(p, xy);
    }
}

/// Loads the kSh x kSw samples of both pictures from (x0, y0) (the tile's
/// top-left output minus the filter's half width, so possibly negative) into
/// shared memory as 16-bit values, mirrored at the borders as the CPU's.
/// Returns the or of the samples' bits this thread loaded.
template <typename T, int kSh, int kSw, int kPitch, int kBlockThreads>
__device__ __forceinline__ unsigned load_tile(const unsigned char* ref, const unsigned char* dis, std::size_t pitch,
                                              unsigned w, unsigned h, int x0, int y0, std::uint16_t (*s_ref)[kPitch],
                                              std::uint16_t (*s_dis)[kPitch]) {
    unsigned seen = 0;
    if (x0 >= 0 && x0 + kSw <= static_cast<int>(w) && y0 >= 0 && y0 + kSh <= static_cast<int>(h)) {  // no mirroring
        const std::size_t off = static_cast<std::size_t>(y0) * pitch + x0 * sizeof(T);
        for (int i = threadIdx.x; i < kSh * kSw; i += kBlockThreads) {
            const int r = i / kSw, c = i % kSw;
            const std::size_t at = off + static_cast<std::size_t>(r) * pitch + c * sizeof(T);
            const unsigned a = *reinterpret_cast<const T*>(ref + at), b = *reinterpret_cast<const T*>(dis + at);
            s_ref[r][c] = static_cast<std::uint16_t>(a);
            s_dis[r][c] = static_cast<std::uint16_t>(b);
            seen |= a | b;
        }
    } else {
        for (int i = threadIdx.x; i < kSh * kSw; i += kBlockThreads) {
            const int r = i / kSw, c = i % kSw;
            // Rows/columns no output needs may mirror out of range on tiny planes: clamp those.
            const unsigned gy = min(mirror(y0 + r, h), h - 1), gx = min(mirror(x0 + c, w), w - 1);
            const unsigned a = reinterpret_cast<const T*>(ref + gy * pitch)[gx];
            const unsigned b = reinterpret_cast<const T*>(dis + gy * pitch)[gx];
            s_ref[r][c] = static_cast<std::uint16_t>(a);
            s_dis[r][c] = static_cast<std::uint16_t>(b);
            seen |= a | b;
        }
    }
    return seen;
}

/// Four blocks an SM, shared memory's limit at scale 0 (31 KB a block): 64
/// registers, not 80 (scale 0 then ran three blocks an SM, 37.5% occupancy).
/// Scale 0's few spilled bytes cost less than the fourth block gains (H200,
/// session 16: 4K 10-bit scale 0 296 -> 270 us under ncu, GPU side +3%).
template <typename T, unsigned Scale, Moments M>
__global__ void __launch_bounds__(kThreads, 4) statistic_tile(const unsigned char* ref, const unsigned char* dis,
                                                           std::size_t pitch, unsigned w, unsigned h, unsigned shift_mu,
                                                           unsigned round_mu, unsigned shift_sq,
                                                           unsigned long long round_sq, GainLimits egl,
                                                           const std::uint16_t* table, long long* out) {
    constexpr int kT = kTaps0[Scale], kHalf = kT / 2, B = kBlockOf[Scale];
    constexpr int kTx = 64, kTy = kThreads * B / kTx;
    constexpr int kSw = kTx + 2 * kHalf, kSh = kTy + 2 * kHalf;
    constexpr int kSpan = kT + B - 1;  // samples B consecutive outputs read
    constexpr int kVec = (kSpan + 3) / 4;
    // Whole 4-sample vectors in the horizontal pass (and its reads stay in the row).
    constexpr int kSwPad = (((kSw > kTx - B + 4 * kVec) ? kSw : kTx - B + 4 * kVec) + 3) & ~3;
    static_assert(kThreads == kTy * (kTx / B), "one thread per B outputs");
    __shared__ std::uint16_t s_ref[kSh][kSw], s_dis[kSh][kSw];
    __shared__ __align__(16) std::uint16_t v_mu1[kTy][kSwPad], v_mu2[kTy][kSwPad];
    __shared__ __align__(16) std::uint32_t v_xx[kTy][kSwPad], v_yy[kTy][kSwPad], v_xy[kTy][kSwPad];
    const int x0 = static_cast<int>(blockIdx.x) * kTx, y0 = static_cast<int>(blockIdx.y) * kTy;
    const unsigned* coeff = kCoeff[Scale];

    const unsigned seen = load_tile<T, kSh, kSw, kSw, kThreads>(ref, dis, pitch, w, h, x0 - kHalf, y0 - kHalf, s_ref, s_dis);
    const bool wide = __syncthreads_or(M == Moments::Pair32 && seen >= 32768u);
    // Vertical: B consecutive rows of one column per item.
    for (int item = threadIdx.x; item < (kTy / B) * kSw; item += kThreads) {
        const int r0 = item / kSw * B, c = item % kSw;
        if (M == Moments::Pair32 && wide)
            vertical_item<kT, kSw, Moments::PerTap, B>(s_ref, s_dis, r0, c, coeff, shift_mu, round_mu, shift_sq, round_sq,
                                                  &v_mu1[r0][c], &v_mu2[r0][c], &v_xx[r0][c], &v_yy[r0][c],
                                                  &v_xy[r0][c], kSwPad, kSwPad);
        else
            vertical_item<kT, kSw, M, B>(s_ref, s_dis, r0, c, coeff, shift_mu, round_mu, shift_sq, round_sq,
                                      &v_mu1[r0][c], &v_mu2[r0][c], &v_xx[r0][c], &v_yy[r0][c], &v_xy[r0][c], kSwPad,
                                      kSwPad);
    }
    __syncthreads();
    // Horizontal: B consecutive columns of one row per thread, read as
    // 4-sample vectors (columns past kSw are never a tap of an output here).
    const int r = static_cast<int>(threadIdx.x) / (kTx / B);
    const int c0 = static_cast<int>(threadIdx.x) % (kTx / B) * B;
    unsigned a_mu1[B], a_mu2[B];
    unsigned long long a_xx[B], a_yy[B], a_xy[B];
    filter_row16<kT, kVec, B>(&v_mu1[r][c0], coeff, a_mu1);
    filter_row16<kT, kVec, B>(&v_mu2[r][c0], coeff, a_mu2);
    filter_row32<kT, kVec, Scale, B>(&v_xx[r][c0], a_xx);
    filter_row32<kT, kVec, Scale, B>(&v_yy[r][c0], a_yy);
    filter_row32<kT, kVec, Scale, B>(&v_xy[r][c0], a_xy);
    Sums acc;
#pragma unroll
    for (int j = 0; j < B; ++j)
        if (y0 + r < static_cast<int>(h) && x0 + c0 + j < static_cast<int>(w))
            accumulate(acc, a_mu1[j], a_mu2[j], a_xx[j], a_yy[j], a_xy[j], egl, table);
    add_block_sums(acc, egl.n, out);
}

#if !defined(VMAF_GPU_HIP)
/// Scales 0 and 1 on the FP64 tensor cores: the same tile (64 x 16 outputs)
/// and the same integer sums as statistic_tile, with both separable passes
/// as banded matrix products on mma.m16n8k4.f64 (16 x 8 outputs a warp step).
/// Every operand is an integer below 2^32 and every sum is below 2^48 (the
/// taps of a scale add up to 2^16 and a sample's products are below 2^32), so
/// each product and partial sum is exact in any order the unit adds in: the
/// sums are the CPU's u32 and u64 ones, at every bit depth and for samples
/// out of the depth's range alike. (m8n8k4, the sm_80 shape, runs at half
/// the rate on sm_90: no faster than statistic_tile on an H200.)
constexpr int kMmaRows = 16;  ///< output rows of a tile: one m16 fragment
constexpr unsigned kMmaThreads = 160;  ///< five warps: two 16 x 8 blocks each of scale 0's ten vertical ones
constexpr int kMmaPad = 4;    ///< a filtered row's padding: an A fragment's eight rows fall in distinct banks

/// D (16 x 8) += A (16 x 4) B (4 x 8). With g = lane / 4 and q = lane % 4, a
/// lane holds A[g][q] (a0) and A[g + 8][q] (a1), B[q][g], and D[g][2q + {0, 1}]
/// (d[0], d[1]) and D[g + 8][2q + {0, 1}] (d[2], d[3]).
__device__ __forceinline__ void mma1684(double (&d)[4], double a0, double a1, double b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};\n"
                 : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
                 : "d"(a0), "d"(a1), "d"(b));
#else
    __trap();  // launched only where fp64_mma_here()
#endif
}

/// Five blocks an SM (25 warps): 72 registers and a few spilled bytes (102
/// unbounded). Six blocks (64 registers, 300 spilled bytes) measured the same.
template <typename T, unsigned Scale>
__global__ void __launch_bounds__(kMmaThreads, 5) statistic_mma(const unsigned char* ref, const unsigned char* dis,
                                                          std::size_t pitch, unsigned w, unsigned h, unsigned shift_mu,
                                                          unsigned round_mu, unsigned shift_sq,
                                                          unsigned long long round_sq, GainLimits egl,
                                                          const std::uint16_t* table, long long* out) {
    static_assert(Scale <= 1, "one 16-row fragment a tile (scales 0 and 1)");
    constexpr int kT = kTaps0[Scale], kHalf = kT / 2;
    constexpr int kTx = 64, kTy = kMmaRows;
    constexpr int kSw = kTx + 2 * kHalf, kSh = kTy + 2 * kHalf;
    constexpr int kVSteps = (kTy + kT - 1 + 3) / 4;  // k steps over a column's kSh inputs (16 outputs)
    constexpr int kHSteps = (8 + kT - 1 + 3) / 4;    // k steps over the 8 + kT - 1 inputs of 8 outputs
    static_assert(kVSteps * 4 == kSh && kSw % 8 == 0, "whole k steps over the tile's rows; whole 8-column blocks");
    constexpr int kP = kSw + kMmaPad;  // the filtered rows' pitch (the samples' rows need none)
    constexpr int kWarps = kMmaThreads / 32;
    __shared__ std::uint16_t s_ref[kSh][kSw], s_dis[kSh][kSw];
    __shared__ std::uint16_t v_mu1[kTy][kP], v_mu2[kTy][kP];
    __shared__ std::uint32_t v_xx[kTy][kP], v_yy[kTy][kP], v_xy[kTy][kP];
    const int x0 = static_cast<int>(blockIdx.x) * kTx, y0 = static_cast<int>(blockIdx.y) * kTy;
    const int lane = static_cast<int>(threadIdx.x) % 32, warp = static_cast<int>(threadIdx.x) / 32;
    const int g = lane / 4, q = lane % 4;

    // The banded tap matrix, A[r][k] = tap[k - r] vertically and B[k][c] =
    // tap[k - c] horizontally, gives a lane band[4 s] = tap[4 s + q - g] at
    // step s (a0 and b), and a1 = A[g + 8][4 s + q] = band[4 s - 8]. The band
    // lives in shared memory, zero outside the taps (registers are short).
    __shared__ double s_band[4 * kVSteps + 16];
    for (int i = threadIdx.x; i < 4 * kVSteps + 16; i += kMmaThreads)
        s_band[i] = (i >= 15 && i - 15 < kT) ? static_cast<double>(kCoeff[Scale][i - 15]) : 0.0;
    const double* band = s_band + 15 + q - g;
    load_tile<T, kSh, kSw, kSw, kMmaThreads>(ref, dis, pitch, w, h, x0 - kHalf, y0 - kHalf, s_ref, s_dis);
    __syncthreads();

    // Vertical: out[r][c] = sum_t tap_t in[r + t][c], the tile's 16 rows by 8
    // of its kSw columns a warp step: the means, then the second moments (a
    // step's five products at once would need 116 registers).
    for (int b = warp; b < kSw / 8; b += kWarps) {
        const int c0 = b * 8;
        double d[3][4] = {};
#pragma unroll
        for (int st = 0; st < kVSteps; ++st) {
            const unsigned x = s_ref[4 * st + q][c0 + g], y = s_dis[4 * st + q][c0 + g];  // B[4 st + q][g]
            const double a0 = band[4 * st], a1 = band[4 * st - 8];
            mma1684(d[0], a0, a1, static_cast<double>(x));
            mma1684(d[1], a0, a1, static_cast<double>(y));
        }
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const int r = g + 8 * (e / 2), c = c0 + 2 * q + e % 2;
            v_mu1[r][c] = static_cast<std::uint16_t>((static_cast<unsigned>(double_to_u64(d[0][e])) + round_mu) >> shift_mu);
            v_mu2[r][c] = static_cast<std::uint16_t>((static_cast<unsigned>(double_to_u64(d[1][e])) + round_mu) >> shift_mu);
            d[0][e] = d[1][e] = 0.0;
        }
#pragma unroll
        for (int st = 0; st < kVSteps; ++st) {
            const unsigned x = s_ref[4 * st + q][c0 + g], y = s_dis[4 * st + q][c0 + g];
            const double a0 = band[4 * st], a1 = band[4 * st - 8];
            mma1684(d[0], a0, a1, static_cast<double>(x * x));
            mma1684(d[1], a0, a1, static_cast<double>(y * y));
            mma1684(d[2], a0, a1, static_cast<double>(x * y));
        }
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const int r = g + 8 * (e / 2), c = c0 + 2 * q + e % 2;
            v_xx[r][c] = static_cast<unsigned>((double_to_u64(d[0][e]) + round_sq) >> shift_sq);
            v_yy[r][c] = static_cast<unsigned>((double_to_u64(d[1][e]) + round_sq) >> shift_sq);
            v_xy[r][c] = static_cast<unsigned>((double_to_u64(d[2][e]) + round_sq) >> shift_sq);
        }
    }
    __syncthreads();

    // Horizontal: out[r][c] = sum_t tap_t v[r][c + t], 16 rows by 8 of the 64
    // output columns a warp step (the means first, kept as integers); a lane
    // then holds four outputs of a step.
    Sums acc;
    for (int b = warp; b < kTx / 8; b += kWarps) {
        const int c0 = b * 8;
        double d[3][4] = {};
#pragma unroll
        for (int st = 0; st < kHSteps; ++st) {
            const int k = c0 + 4 * st + q;  // A[g][4 st + q] and A[g + 8][4 st + q]
            const double tap = band[4 * st];
            mma1684(d[0], static_cast<double>(v_mu1[g][k]), static_cast<double>(v_mu1[g + 8][k]), tap);
            mma1684(d[1], static_cast<double>(v_mu2[g][k]), static_cast<double>(v_mu2[g + 8][k]), tap);
        }
        unsigned mu1[4], mu2[4];
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            mu1[e] = static_cast<unsigned>(double_to_u64(d[0][e])), mu2[e] = static_cast<unsigned>(double_to_u64(d[1][e]));
            d[0][e] = d[1][e] = 0.0;
        }
#pragma unroll
        for (int st = 0; st < kHSteps; ++st) {
            const int k = c0 + 4 * st + q;
            const double tap = band[4 * st];
            mma1684(d[0], static_cast<double>(v_xx[g][k]), static_cast<double>(v_xx[g + 8][k]), tap);
            mma1684(d[1], static_cast<double>(v_yy[g][k]), static_cast<double>(v_yy[g + 8][k]), tap);
            mma1684(d[2], static_cast<double>(v_xy[g][k]), static_cast<double>(v_xy[g + 8][k]), tap);
        }
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const int r = g + 8 * (e / 2), c = c0 + 2 * q + e % 2;
            if (y0 + r < static_cast<int>(h) && x0 + c < static_cast<int>(w))
                accumulate(acc, mu1[e], mu2[e], double_to_u64(d[0][e]), double_to_u64(d[1][e]), double_to_u64(d[2][e]),
                           egl, table);
        }
    }
    add_block_sums<kMmaThreads>(acc, egl.n, out);
}
#endif  // !VMAF_GPU_HIP

/// Decimation to the next scale in one pass, both pictures (blockIdx.z): the
/// next scale's filter over the even rows into shared memory (rounded to 16
/// bits as the CPU's rows), then over the even columns of those rows. The
/// block's threads split into kDecGroups groups of kDecIn: a thread filters
/// one input column for kDecY / kDecGroups output rows from one run of loaded
/// samples (the block's input columns fit one pass), then a thread filters
/// one output column of kDecY / 4 rows.
constexpr int kDecY = 8, kDecIn = 128, kDecGroups = 2, kDecThreads = kDecIn * kDecGroups;
/// Output columns a block covers for a kT-tap filter: 2 * x - 1 + kT - 1 <= kDecIn input columns.
template <int kT>
constexpr int kDecCols = (kDecIn + 2 - kT) / 2;

template <typename T, unsigned Next>
__global__ void __launch_bounds__(kDecThreads) decimate(const unsigned char* ref, const unsigned char* dis,
                                                        std::size_t pitch, unsigned w, unsigned h, unsigned shift_v,
                                                        unsigned round_v, std::uint16_t* out_ref,
                                                        std::uint16_t* out_dis) {
    constexpr int kT = kTaps0[Next], kHalf = kT / 2, kDecX = kDecCols<kT>;
    constexpr int kRowsPerGroup = kDecY / kDecGroups;
    constexpr int kRun = 2 * (kRowsPerGroup - 1) + kT;  // input rows a group's outputs read
    static_assert(2 * kDecX - 1 + 2 * kHalf <= kDecIn && kDecX <= 64, "one pass, one 64-column output row");
    __shared__ std::uint16_t rows[kDecY][kDecIn];
    const unsigned char* src = blockIdx.z ? dis : ref;
    std::uint16_t* dst = blockIdx.z ? out_dis : out_ref;
    const int ox0 = static_cast<int>(blockIdx.x) * kDecX, oy0 = static_cast<int>(blockIdx.y) * kDecY;
    const unsigned ow = w / 2, oh = h / 2;
    const unsigned* coeff = kCoeff[Next];
    {
        const int c = static_cast<int>(threadIdx.x) % kDecIn, grp = static_cast<int>(threadIdx.x) / kDecIn;
        const unsigned x = min(mirror(2 * ox0 - kHalf + c, w), w - 1);
        const int y0 = 2 * (oy0 + grp * kRowsPerGroup) - kHalf;
        unsigned v[kRun];
        if (y0 >= 0 && y0 + kRun <= static_cast<int>(h)) {
            const unsigned char* p = src + static_cast<std::size_t>(y0) * pitch + x * sizeof(T);
#pragma unroll
            for (int m = 0; m < kRun; ++m) v[m] = *reinterpret_cast<const T*>(p + m * pitch);
        } else {
#pragma unroll
            for (int m = 0; m < kRun; ++m)  // rows past the picture's are clamped: no output reads them
                v[m] = reinterpret_cast<const T*>(src + static_cast<std::size_t>(min(mirror(y0 + m, h), h - 1)) *
                                                            pitch)[x];
        }
#pragma unroll
        for (int r = 0; r < kRowsPerGroup; ++r) {
            unsigned acc = coeff[kHalf] * v[2 * r + kHalf];
#pragma unroll
            for (int k = 0; k < kHalf; ++k) acc += coeff[k] * (v[2 * r + k] + v[2 * r + kT - 1 - k]);
            rows[grp * kRowsPerGroup + r][c] = static_cast<std::uint16_t>((acc + round_v) >> shift_v);
        }
    }
    __syncthreads();
    const int tx = static_cast<int>(threadIdx.x) % 64, rq = static_cast<int>(threadIdx.x) / 64;
    const unsigned ox = static_cast<unsigned>(ox0 + tx);
    if (tx >= kDecX || ox >= ow) return;
#pragma unroll
    for (int q = 0; q < kDecY / 4; ++q) {
        const int ty = rq * (kDecY / 4) + q;
        const unsigned oy = static_cast<unsigned>(oy0 + ty);
        if (oy >= oh) break;
        unsigned acc = coeff[kHalf] * rows[ty][2 * tx + kHalf];
#pragma unroll
        for (int k = 0; k < kHalf; ++k) acc += coeff[k] * (rows[ty][2 * tx + k] + rows[ty][2 * tx + kT - 1 - k]);
        dst[static_cast<std::size_t>(oy) * ow + ox] = static_cast<std::uint16_t>((acc + 32768) >> 16);
    }
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
    const unsigned ty = kThreads * kBlockOf[scale] / 64;  // the tile's rows (statistic_tile's kTy)
    const dim3 grid((w + 63) / 64, (h + ty - 1) / ty);
    const auto* r = static_cast<const unsigned char*>(ref);
    const auto* d = static_cast<const unsigned char*>(dis);
    long long* out = sums + sums_per_scale(egl.n) * scale;
#if !defined(VMAF_GPU_HIP)
    if (s.fp64_mma && scale <= 1) {
        const dim3 g((w + 63) / 64, (h + kMmaRows - 1) / kMmaRows);
        if (scale == 0)
            statistic_mma<T, 0><<<g, kMmaThreads, 0, st>>>(r, d, pitch, w, h, shift_mu, round_mu, shift_sq, round_sq, egl,
                                                        s.log2_table, out);
        else
            statistic_mma<T, 1><<<g, kMmaThreads, 0, st>>>(r, d, pitch, w, h, shift_mu, round_mu, shift_sq, round_sq, egl,
                                                        s.log2_table, out);
        return;
    }
#endif
#define VMAF_VIF_TILE(S, M) \
    statistic_tile<T, S, M><<<grid, kThreads, 0, st>>>(r, d, pitch, w, h, shift_mu, round_mu, shift_sq, round_sq, egl, s.log2_table, out)
    switch (scale) {
        case 0:
            if constexpr (sizeof(T) == 1)
                VMAF_VIF_TILE(0, Moments::Narrow);
            else if (bpc <= 15)
                VMAF_VIF_TILE(0, Moments::Pair32);
            else
                VMAF_VIF_TILE(0, Moments::Wide);
            break;
        case 1: VMAF_VIF_TILE(1, Moments::Wide); break;
        case 2: VMAF_VIF_TILE(2, Moments::Wide); break;
        default: VMAF_VIF_TILE(3, Moments::Wide);
    }
#undef VMAF_VIF_TILE
}

/// Both pictures of one scale to the next (scale + 1), at w x h in.
template <typename T>
void decimate_pair(const void* ref, const void* dis, std::size_t pitch, unsigned w, unsigned h, unsigned scale,
                   unsigned bpc, std::uint16_t* out_ref, std::uint16_t* out_dis, cudaStream_t st) {
    const unsigned shift_v = scale == 0 ? bpc : 16;
    const unsigned round_v = 1u << (shift_v - 1);
    const unsigned cols = scale == 0 ? kDecCols<9> : scale == 1 ? kDecCols<5> : kDecCols<3>;
    const dim3 grid((w / 2 + cols - 1) / cols, (h / 2 + kDecY - 1) / kDecY, 2);
    if (grid.x == 0 || grid.y == 0) return;
    const auto* r = static_cast<const unsigned char*>(ref);
    const auto* d = static_cast<const unsigned char*>(dis);
#define VMAF_VIF_DECIMATE(N) \
    decimate<T, N><<<grid, kDecThreads, 0, st>>>(r, d, pitch, w, h, shift_v, round_v, out_ref, out_dis)
    switch (scale) {
        case 0: VMAF_VIF_DECIMATE(1); break;
        case 1: VMAF_VIF_DECIMATE(2); break;
        default: VMAF_VIF_DECIMATE(3);
    }
#undef VMAF_VIF_DECIMATE
}

}  // namespace

bool fp64_mma_here() {
#if defined(VMAF_GPU_HIP)
    return false;
#else
    // VMAF_CUDA_FP64_MMA=0 keeps statistic_tile (the parity suite tests both kernels on one device).
    if (const char* v = std::getenv("VMAF_CUDA_FP64_MMA"); v && std::string_view(v) == "0") return false;
    int dev = 0, major = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    if (major != 9 && major != 10) return false;
    // The code this device would run must itself be sm_90 or later: a build
    // without sm_90 code runs older PTX here (JIT-compiled), where the MMA
    // is compiled out (mma1684 traps).
    cudaFuncAttributes a{};
    if (cudaFuncGetAttributes(&a, statistic_mma<std::uint16_t, 0>) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    return a.ptxVersion >= 90;
#endif
}

std::size_t scratch_bytes(unsigned w, unsigned h) {
    const std::size_t q = static_cast<std::size_t>(w / 2) * (h / 2);
    return 4 * align(q * 2);
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
    for (auto& pp : s.scale)
        for (auto& side : pp) side = static_cast<std::uint16_t*>(take(q * 2));
    s.log2_table = table;
    return s;
}

void launch_vif(const void* ref, const void* dis, std::size_t pitch, unsigned w, unsigned h, unsigned bpc,
                const GainLimits& egl, bool skip_scale0, const Scratch& s, long long* sums, cudaStream_t st) {
    if (bpc == 8) {
        if (!skip_scale0) statistic<unsigned char>(ref, dis, pitch, w, h, 0, bpc, egl, s, sums, st);
        decimate_pair<unsigned char>(ref, dis, pitch, w, h, 0, bpc, s.scale[0][0], s.scale[0][1], st);
    } else {
        if (!skip_scale0) statistic<unsigned short>(ref, dis, pitch, w, h, 0, bpc, egl, s, sums, st);
        decimate_pair<unsigned short>(ref, dis, pitch, w, h, 0, bpc, s.scale[0][0], s.scale[0][1], st);
    }
    unsigned cw = w / 2, ch = h / 2;
    int cur = 0;
    for (unsigned scale = 1; scale < 4; ++scale) {
        if (scale > 1) {
            const std::size_t p = static_cast<std::size_t>(cw) * 2;
            decimate_pair<unsigned short>(s.scale[cur][0], s.scale[cur][1], p, cw, ch, scale - 1, bpc,
                                          s.scale[cur ^ 1][0], s.scale[cur ^ 1][1], st);
            cur ^= 1;
            cw /= 2;
            ch /= 2;
        }
        statistic<unsigned short>(s.scale[cur][0], s.scale[cur][1], static_cast<std::size_t>(cw) * 2, cw, ch, scale, bpc,
                                  egl, s, sums, st);
    }
}

}  // namespace vmaf::vif::cuda
