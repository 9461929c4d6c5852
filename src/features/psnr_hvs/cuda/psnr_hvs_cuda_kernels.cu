#include <cstdint>

#include "features/psnr_hvs/cuda/psnr_hvs_cuda_kernels.hpp"

namespace vmaf::psnr_hvs::cuda {

namespace {

// The DCT's lane operations on one int32 (wrapping, as the CPU's ScalarOps).
struct DeviceOps {
    using V = std::int32_t;
    __device__ static V add(V a, V b) {
        return static_cast<V>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
    }
    __device__ static V sub(V a, V b) {
        return static_cast<V>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b));
    }
    __device__ static V half(V a) { return add(a, static_cast<V>(static_cast<std::uint32_t>(a) >> 31)) >> 1; }
    template <std::int32_t C, std::int32_t R, int S>
    __device__ static V mul_round(V a) {
        return add(static_cast<V>(static_cast<std::uint32_t>(a) * static_cast<std::uint32_t>(C)), R) >> S;
    }
};

#define PSNR_HVS_DCT_FN __device__ __forceinline__
#include "features/psnr_hvs/psnr_hvs_dct.inc"

/// psnr_hvs::fdct8x8: vertical transforms, then horizontal ones.
__device__ void fdct8x8(std::int32_t* blk) {
    std::int32_t t[64];
    for (unsigned col = 0; col < 8; ++col) {
        std::int32_t v[8];
        for (unsigned r = 0; r < 8; ++r) v[r] = blk[8 * r + col];
        fdct8<DeviceOps>(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
        for (unsigned r = 0; r < 8; ++r) t[8 * col + r] = v[r];
    }
    for (unsigned f = 0; f < 8; ++f) {
        std::int32_t v[8];
        for (unsigned col = 0; col < 8; ++col) v[col] = t[8 * col + f];
        fdct8<DeviceOps>(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
        for (unsigned h = 0; h < 8; ++h) blk[8 * f + h] = v[h];
    }
}

__device__ __forceinline__ unsigned quadrant(unsigned k) {
    return (k >> 5) + ((k & 4) >> 1);
}

/// psnr_hvs's variance_ratio, float operations in its order.
__device__ float variance_ratio(const std::int32_t* s) {
    float gmean = 0, means[4] = {0, 0, 0, 0};
    for (unsigned k = 0; k < 64; ++k) {
        gmean = gmean + static_cast<float>(s[k]);
        means[quadrant(k)] = means[quadrant(k)] + static_cast<float>(s[k]);
    }
    gmean = __fdiv_rn(gmean, 64.f);
    for (float& m : means) m = __fdiv_rn(m, 16.f);
    float gvar = 0, vars[4] = {0, 0, 0, 0};
    for (unsigned k = 0; k < 64; ++k) {
        const float dg = static_cast<float>(s[k]) - gmean;
        const float dq = static_cast<float>(s[k]) - means[quadrant(k)];
        gvar = gvar + dg * dg;
        vars[quadrant(k)] = vars[quadrant(k)] + dq * dq;
    }
    gvar = gvar * (__fdiv_rn(1.f, 63.f) * 64.f);
    for (float& v : vars) v = v * (__fdiv_rn(1.f, 15.f) * 16.f);
    if (gvar > 0) gvar = __fdiv_rn(vars[0] + vars[1] + vars[2] + vars[3], gvar);
    return gvar;
}

/// psnr_hvs's block_mask: float sum in coefficient order, the root in double.
__device__ float block_mask(const std::int32_t* c, float ratio, const float* mask) {
    float m = 0;
    for (unsigned k = 1; k < 64; ++k) {
        const auto sq = static_cast<std::int32_t>(static_cast<std::uint32_t>(c[k]) * static_cast<std::uint32_t>(c[k]));
        m = m + static_cast<float>(sq) * mask[k];
    }
    return __double2float_rn(__ddiv_rn(__dsqrt_rn(static_cast<double>(m * ratio)), static_cast<double>(32.f)));
}

template <typename T>
__device__ void load_block(const void* plane, std::size_t pitch, unsigned x, unsigned y, std::int32_t* out) {
    for (unsigned i = 0; i < 8; ++i) {
        const T* row = reinterpret_cast<const T*>(static_cast<const unsigned char*>(plane) + (y + i) * pitch) + x;
        for (unsigned j = 0; j < 8; ++j) out[8 * i + j] = row[j];
    }
}

/// One thread per block: out[(by * nx + b) * 64 + k] = (err_k * csf_k)^2 as block_row_t.
template <typename T>
__global__ void block_errors(HvsPlane p, float* out) {
    const unsigned b = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned by = blockIdx.y;
    if (b >= p.nx) return;
    std::int32_t s[64], d[64];
    load_block<T>(p.ref, p.pitch, 7 * b, 7 * by, s);
    load_block<T>(p.dist, p.pitch, 7 * b, 7 * by, d);
    const float s_ratio = variance_ratio(s), d_ratio = variance_ratio(d);
    fdct8x8(s);
    fdct8x8(d);
    float mask = block_mask(s, s_ratio, p.mask);
    const float d_mask = block_mask(d, d_ratio, p.mask);
    if (d_mask > mask) mask = d_mask;
    float* o = out + (static_cast<std::size_t>(by) * p.nx + b) * 64;
    for (unsigned k = 0; k < 64; ++k) {
        const std::int32_t diff = s[k] - d[k];
        float err = static_cast<float>(diff < 0 ? -diff : diff);
        if (k != 0) {
            const float t = __fdiv_rn(mask, p.mask[k]);
            err = err < t ? 0 : err - t;
        }
        o[k] = (err * p.csf[k]) * (err * p.csf[k]);
    }
}

// The plane's float sum, in the CPU's order, without one thread adding every
// term. The terms t are >= 0. While the running sum s is a normal float of
// binade e (s = S q, q = 2^(e - 23), S an integer in [2^23, 2^24)), adding t
// gives fl(s + t) = (S + round(t / q)) q exactly, as long as t / q is not a
// tie (fraction exactly 1/2) and S + round(t / q) < 2^24: the exact sum then
// lies in the same binade, whose floats are the multiples of q, and
// round-to-nearest of a non-tie does not depend on S. So a chunk of terms
// adds sum_i round(t_i / q) to S when that stays below 2^24 and no term is a
// tie. Chunk totals are computed in parallel (in double: integers below
// 2^35, exact) for three binades around a guess (the exponent of the
// chunk's exact prefix sum); one warp per plane then walks the chunks in
// order, taking a chunk's total when s's binade is a candidate the chunk
// allows and the sum stays in the binade, else adding that chunk's terms one
// by one (the CPU's loop): at the start (s = 0 or subnormal), at binade
// changes, at ties, for NaN, infinite or negative terms.
constexpr unsigned kChunk = 1024;
constexpr unsigned kChunkThreads = 256;

struct ChunkMeta {
    double total[3];  ///< sum of round(t / q) for binades guess - 1, guess, guess + 1
    int guess;
    unsigned flags;  ///< bit j: total[j] usable; bit 3: every term is 0
};

template <typename T>
__device__ T block_sum_tree(T v, T* red) {
    red[threadIdx.x] = v;
    __syncthreads();
    for (unsigned o = kChunkThreads / 2; o > 0; o >>= 1) {
        if (threadIdx.x < o) red[threadIdx.x] = red[threadIdx.x] + red[threadIdx.x + o];
        __syncthreads();
    }
    const T r = red[0];
    __syncthreads();
    return r;
}

/// csum[c] = the terms of chunk c added in double (any order: only a guess).
__global__ void chunk_sums(const float* t, unsigned long long n, double* csum) {
    __shared__ double red[kChunkThreads];
    const unsigned long long base = static_cast<unsigned long long>(blockIdx.x) * kChunk;
    double v = 0.0;
    for (unsigned i = threadIdx.x; i < kChunk; i += kChunkThreads)
        if (base + i < n) v = v + static_cast<double>(t[base + i]);
    v = block_sum_tree(v, red);
    if (threadIdx.x == 0) csum[blockIdx.x] = v;
}

/// guess[c] = the binade of the float nearest the exact sum of chunks < c
/// (-127 for 0 and subnormals). One block of 1024 threads.
__global__ void chunk_guesses(const double* csum, unsigned chunks, ChunkMeta* meta) {
    __shared__ double scan[1024];
    const unsigned per = (chunks + 1023) / 1024, c0 = threadIdx.x * per;
    double local = 0.0;
    for (unsigned c = c0; c < c0 + per && c < chunks; ++c) local = local + csum[c];
    scan[threadIdx.x] = local;
    __syncthreads();
    for (unsigned o = 1; o < 1024; o <<= 1) {
        const double add = threadIdx.x >= o ? scan[threadIdx.x - o] : 0.0;
        __syncthreads();
        scan[threadIdx.x] = scan[threadIdx.x] + add;
        __syncthreads();
    }
    double prefix = scan[threadIdx.x] - local;
    for (unsigned c = c0; c < c0 + per && c < chunks; ++c) {
        const unsigned bits = __float_as_uint(__double2float_rn(prefix));
        meta[c].guess = static_cast<int>((bits >> 23) & 0xff) - 127;
        prefix = prefix + csum[c];
    }
}

/// meta[c]'s totals and flags for the three candidate binades.
__global__ void chunk_totals(const float* t, unsigned long long n, ChunkMeta* meta) {
    __shared__ double red[kChunkThreads];
    const unsigned long long base = static_cast<unsigned long long>(blockIdx.x) * kChunk;
    const int guess = meta[blockIdx.x].guess;
    double total[3] = {0.0, 0.0, 0.0};
    bool ok[3] = {true, true, true}, zero = true;
    for (int j = 0; j < 3; ++j) {
        const int e = guess + j - 1;
        if (e < -126 || e > 127) ok[j] = false;
    }
    for (unsigned i = threadIdx.x; i < kChunk; i += kChunkThreads) {
        const float v = base + i < n ? t[base + i] : 0.0f;
        zero = zero && v == 0.0f;
        const bool valid = v >= 0.0f && v < INFINITY;
#pragma unroll
        for (int j = 0; j < 3; ++j) {
            const double q = scalbn(static_cast<double>(v), 23 - (guess + j - 1));  // exact: a power-of-two scaling
            const double whole = floor(q), frac = q - whole;
            if (!valid || !(q < 0x1p25) || frac == 0.5) ok[j] = false;
            total[j] = total[j] + (whole + (frac > 0.5 ? 1.0 : 0.0));
        }
    }
    unsigned flags = 0;
    for (int j = 0; j < 3; ++j) {
        const double s = block_sum_tree(ok[j] ? total[j] : 0.0, red);
        if (__syncthreads_and(ok[j])) flags |= 1u << j;
        if (threadIdx.x == 0) meta[blockIdx.x].total[j] = s;
    }
    if (__syncthreads_and(zero)) flags |= 8u;
    if (threadIdx.x == 0) meta[blockIdx.x].flags = flags;
}

struct PlaneErrs {
    const float* err[3];
    unsigned long long n[3];
    const ChunkMeta* meta[3];
};

/// Block p (one warp): sums[p] = plane_error's float sum of err[p] in order.
__global__ void ordered_float_sums(PlaneErrs e, float* sums) {
    __shared__ ChunkMeta smeta[32];
    __shared__ float stage[kChunk];
    const float* src = e.err[blockIdx.x];
    const unsigned long long n = e.n[blockIdx.x];
    const unsigned chunks = static_cast<unsigned>((n + kChunk - 1) / kChunk);
    const ChunkMeta* meta = e.meta[blockIdx.x];
    float s = 0.0f;  // the same value in every lane
    for (unsigned c0 = 0; c0 < chunks; c0 += 32) {
        if (c0 + threadIdx.x < chunks) smeta[threadIdx.x] = meta[c0 + threadIdx.x];
        __syncwarp();
        const unsigned m = chunks - c0 < 32 ? chunks - c0 : 32;
        for (unsigned k = 0; k < m; ++k) {
            const ChunkMeta& cm = smeta[k];
            const unsigned bits = __float_as_uint(s), ex = (bits >> 23) & 0xff;
            bool done = false;
            if (s == 0.0f && (cm.flags & 8u)) {
                done = true;  // +0 plus zeros
            } else if (ex != 0 && ex != 255) {
                const int j = static_cast<int>(ex) - 127 - cm.guess + 1;
                if (j >= 0 && j < 3 && (cm.flags >> j & 1u)) {
                    const double next = static_cast<double>((bits & 0x7fffffu) | 0x800000u) + cm.total[j];
                    if (next < 0x1p24) {
                        s = __uint_as_float((bits & 0xff800000u) | (static_cast<unsigned>(next) - 0x800000u));
                        done = true;
                    }
                }
            }
            if (!done) {  // the CPU's loop over this chunk
                const unsigned long long base = static_cast<unsigned long long>(c0 + k) * kChunk;
                const unsigned len = n - base < kChunk ? static_cast<unsigned>(n - base) : kChunk;
                for (unsigned j = threadIdx.x; j < len; j += 32) stage[j] = src[base + j];
                __syncwarp();
                if (threadIdx.x == 0)
                    for (unsigned j = 0; j < len; ++j) s = s + stage[j];
                s = __shfl_sync(0xffffffffu, s, 0);
                __syncwarp();
            }
        }
        __syncwarp();
    }
    if (threadIdx.x == 0) sums[blockIdx.x] = s;
}

}  // namespace

std::size_t hvs_scratch_bytes(const HvsPlane (&p)[3]) {
    std::size_t bytes = 0;
    for (const HvsPlane& q : p) {
        const std::size_t n = std::size_t{64} * q.nx * q.ny, chunks = (n + kChunk - 1) / kChunk;
        bytes += n * sizeof(float) + chunks * (sizeof(ChunkMeta) + sizeof(double));
        bytes = (bytes + 255) & ~std::size_t{255};
    }
    return bytes;
}

void launch_psnr_hvs(const HvsPlane (&p)[3], unsigned bpc, void* scratch, float* sums, cudaStream_t s) {
    PlaneErrs e{};
    auto* at = static_cast<unsigned char*>(scratch);
    for (int i = 0; i < 3; ++i) {
        const unsigned long long n = 64ull * p[i].nx * p[i].ny;
        const unsigned chunks = static_cast<unsigned>((n + kChunk - 1) / kChunk);
        auto* err = reinterpret_cast<float*>(at);
        auto* meta = reinterpret_cast<ChunkMeta*>(at + n * sizeof(float));
        auto* csum = reinterpret_cast<double*>(at + n * sizeof(float) + chunks * sizeof(ChunkMeta));
        at += ((n * sizeof(float) + chunks * (sizeof(ChunkMeta) + sizeof(double))) + 255) & ~std::size_t{255};
        e.err[i] = err;
        e.n[i] = n;
        e.meta[i] = meta;
        if (n == 0) continue;
        const dim3 grid((p[i].nx + 63) / 64, p[i].ny);
        if (bpc == 8)
            block_errors<std::uint8_t><<<grid, 64, 0, s>>>(p[i], err);
        else
            block_errors<std::uint16_t><<<grid, 64, 0, s>>>(p[i], err);
        chunk_sums<<<chunks, kChunkThreads, 0, s>>>(err, n, csum);
        chunk_guesses<<<1, 1024, 0, s>>>(csum, chunks, meta);
        chunk_totals<<<chunks, kChunkThreads, 0, s>>>(err, n, meta);
    }
    ordered_float_sums<<<3, 32, 0, s>>>(e, sums);
}

}  // namespace vmaf::psnr_hvs::cuda
