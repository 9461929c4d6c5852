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

/// Vertical pass: first moments (truncated to 16 bits), second moments.
template <typename T>
__global__ void vertical(const unsigned char* ref, const unsigned char* dis, std::size_t pitch, unsigned w, unsigned h,
                         unsigned scale, unsigned shift_mu, unsigned round_mu, unsigned shift_sq,
                         unsigned long long round_sq, Scratch s) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    const unsigned taps = kTaps[scale];
    const int half = static_cast<int>(taps / 2);
    unsigned a_mu1 = 0, a_mu2 = 0;
    unsigned long long a_xx = 0, a_yy = 0, a_xy = 0;
    for (unsigned k = 0; k < taps; ++k) {
        const unsigned row = mirror(static_cast<int>(y) - half + static_cast<int>(k), h);
        const unsigned c = kCoeff[scale][k];
        const unsigned r = reinterpret_cast<const T*>(ref + row * pitch)[x];
        const unsigned d = reinterpret_cast<const T*>(dis + row * pitch)[x];
        const unsigned cr = c * r, cd = c * d;
        a_mu1 += cr;
        a_mu2 += cd;
        a_xx += static_cast<unsigned long long>(cr) * r;
        a_yy += static_cast<unsigned long long>(cd) * d;
        a_xy += static_cast<unsigned long long>(cr) * d;
    }
    const std::size_t o = static_cast<std::size_t>(y) * w + x;
    s.mu1[o] = static_cast<std::uint16_t>((a_mu1 + round_mu) >> shift_mu);
    s.mu2[o] = static_cast<std::uint16_t>((a_mu2 + round_mu) >> shift_mu);
    s.xx[o] = static_cast<unsigned>((a_xx + round_sq) >> shift_sq);
    s.yy[o] = static_cast<unsigned>((a_yy + round_sq) >> shift_sq);
    s.xy[o] = static_cast<unsigned>((a_xy + round_sq) >> shift_sq);
}

struct Sums {
    long long num_log = 0, den_log = 0, num_non_log = 0, den_non_log = 0;
};

__device__ __forceinline__ void accumulate(Sums& s, unsigned mu1, unsigned mu2, unsigned long long xx,
                                           unsigned long long yy, unsigned long long xy, double egl,
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
        double g = __ddiv_rn(static_cast<double>(sigma12), __dadd_rn(static_cast<double>(sigma1_sq), eps));
        int sv_sq = static_cast<int>(__dsub_rn(static_cast<double>(sigma2_sq), __dmul_rn(g, static_cast<double>(sigma12))));
        sv_sq = sv_sq > 0 ? sv_sq : 0;
        g = (g < egl) ? g : egl;
        const auto denom = static_cast<unsigned>(static_cast<long long>(sv_sq) + kSigmaNsq);
        const long long numer =
            static_cast<long long>(__dmul_rn(__dmul_rn(g, g), static_cast<double>(sigma1_sq))) + denom;
        s.num_log += log2_q11(table, static_cast<unsigned long long>(numer)) - log2_q11(table, denom);
    }
}

using vmaf::cuda::warp_sum;

/// Horizontal pass + per-pixel statistic; block sums into out[4].
__global__ void horizontal(unsigned w, unsigned h, unsigned scale, double egl, Scratch s, long long* out) {
    const unsigned taps = kTaps[scale];
    const int half = static_cast<int>(taps / 2);
    Sums acc;
    const std::size_t n = static_cast<std::size_t>(w) * h;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        const unsigned y = static_cast<unsigned>(i / w), x = static_cast<unsigned>(i % w);
        const std::size_t rowb = static_cast<std::size_t>(y) * w;
        unsigned a_mu1 = 0, a_mu2 = 0;
        unsigned long long a_xx = 0, a_yy = 0, a_xy = 0;
        for (unsigned k = 0; k < taps; ++k) {
            const std::size_t o = rowb + mirror(static_cast<int>(x) - half + static_cast<int>(k), w);
            const unsigned c = kCoeff[scale][k];
            a_mu1 += c * s.mu1[o];
            a_mu2 += c * s.mu2[o];
            a_xx += c * static_cast<unsigned long long>(s.xx[o]);
            a_yy += c * static_cast<unsigned long long>(s.yy[o]);
            a_xy += c * static_cast<unsigned long long>(s.xy[o]);
        }
        accumulate(acc, a_mu1, a_mu2, a_xx, a_yy, a_xy, egl, s.log2_table);
    }
    __shared__ unsigned long long part[4][kThreads / 32];
    unsigned long long v[4] = {static_cast<unsigned long long>(acc.num_log), static_cast<unsigned long long>(acc.den_log),
                               static_cast<unsigned long long>(acc.num_non_log),
                               static_cast<unsigned long long>(acc.den_non_log)};
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int j = 0; j < 4; ++j) {
        v[j] = warp_sum(v[j]);
        if (lane == 0) part[j][warp] = v[j];
    }
    __syncthreads();
    if (warp == 0) {
        for (int j = 0; j < 4; ++j) {
            unsigned long long t = lane < kThreads / 32 ? part[j][lane] : 0ull;
            t = warp_sum(t);
            if (lane == 0 && t) atomicAdd(reinterpret_cast<unsigned long long*>(out + j), t);
        }
    }
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
               unsigned bpc, double egl, const Scratch& s, cudaStream_t st) {
    unsigned shift_mu = 16, round_mu = 32768, shift_sq = 16;
    unsigned long long round_sq = 32768;
    if (scale == 0) {
        shift_mu = bpc;
        round_mu = 1u << (bpc - 1);
        shift_sq = 2 * (bpc - 8);
        round_sq = shift_sq == 0 ? 0 : 1ull << (shift_sq - 1);
    }
    const dim3 block(32, 8), grid((w + 31) / 32, (h + 7) / 8);
    vertical<T><<<grid, block, 0, st>>>(static_cast<const unsigned char*>(ref), static_cast<const unsigned char*>(dis),
                                        pitch, w, h, scale, shift_mu, round_mu, shift_sq, round_sq, s);
    const std::size_t n = static_cast<std::size_t>(w) * h;
    std::size_t blocks = (n + kThreads - 1) / kThreads;
    if (blocks > 2048) blocks = 2048;
    horizontal<<<static_cast<unsigned>(blocks), kThreads, 0, st>>>(w, h, scale, egl, s, s.sums + 4 * scale);
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
    const std::size_t n = static_cast<std::size_t>(w) * h;
    const std::size_t q = static_cast<std::size_t>(w / 2) * (h / 2);
    return 5 * align(n * 4) + align(static_cast<std::size_t>(w) * (h / 2) * 4) + 4 * align(q * 2) + align(16 * 8);
}

Scratch scratch_layout(void* base, unsigned w, unsigned h, const std::uint16_t* table) {
    const std::size_t n = static_cast<std::size_t>(w) * h;
    const std::size_t q = static_cast<std::size_t>(w / 2) * (h / 2);
    auto* p = static_cast<unsigned char*>(base);
    auto take = [&](std::size_t bytes) {
        void* r = p;
        p += align(bytes);
        return r;
    };
    Scratch s{};
    s.mu1 = static_cast<std::uint32_t*>(take(n * 4));
    s.mu2 = static_cast<std::uint32_t*>(take(n * 4));
    s.xx = static_cast<std::uint32_t*>(take(n * 4));
    s.yy = static_cast<std::uint32_t*>(take(n * 4));
    s.xy = static_cast<std::uint32_t*>(take(n * 4));
    s.tmp = static_cast<std::uint32_t*>(take(static_cast<std::size_t>(w) * (h / 2) * 4));
    for (auto& pp : s.scale)
        for (auto& side : pp) side = static_cast<std::uint16_t*>(take(q * 2));
    s.sums = static_cast<long long*>(take(16 * 8));
    s.log2_table = table;
    return s;
}

void launch_vif(const void* ref, const void* dis, std::size_t pitch, unsigned w, unsigned h, unsigned bpc,
                double egl, bool skip_scale0, const Scratch& s, cudaStream_t st) {
    if (bpc == 8) {
        if (!skip_scale0) statistic<unsigned char>(ref, dis, pitch, w, h, 0, bpc, egl, s, st);
        decimate<unsigned char>(ref, pitch, w, h, 0, bpc, s, s.scale[0][0], st);
        decimate<unsigned char>(dis, pitch, w, h, 0, bpc, s, s.scale[0][1], st);
    } else {
        if (!skip_scale0) statistic<unsigned short>(ref, dis, pitch, w, h, 0, bpc, egl, s, st);
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
                                  egl, s, st);
    }
}

}  // namespace vmaf::vif::cuda
