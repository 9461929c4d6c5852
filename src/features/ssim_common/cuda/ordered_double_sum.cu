// Why the chunked walk equals the sequential sum. Let the running sum s be a
// normal double of binade e and sign g: |s| = S q, q = 2^(e - 52), S an
// integer in [2^52, 2^53). Adding t gives the exact |s| + g t = (S + g T) q,
// T = t / q. While that stays in [2^e, 2^(e+1)) the result is the nearest
// multiple of q, (S + round(g T)) q, and round(g T) = g round(T) does not
// depend on S unless T's fraction is exactly 1/2 (a tie, rounded to even).
// So for a chunk of terms with no tie, per-term increments b_i = round(T_i)
// and prefix sums P_k = b_1 + ... + b_k: if every S + g P_k lies in
// [2^52 + 1, 2^53 - 2] (then every exact intermediate lies in the binade,
// since |T_i - b_i| <= 1/2), the chunk leaves S + g P_last. Chunk totals
// and the extremes of P are computed in parallel (integers below 2^50, exact
// in double) for three binades around a guess (the exponent of the chunk's
// prefix sum in any order); one warp per sum walks the chunks in order,
// taking a chunk whole when s's binade is a usable candidate and the bounds
// hold, and adding its terms one by one otherwise (the start, binade
// changes, ties, large terms, s zero or subnormal, NaN and infinities).
#include "features/ssim_common/cuda/ordered_double_sum.hpp"

namespace vmaf::ssimfeat::cuda {

namespace {

constexpr unsigned kChunk = 1024, kThreads = 256, kPer = kChunk / kThreads;

struct ChunkMeta {
    double total[3], lo[3], hi[3];  ///< P_last, min P_k, max P_k for binades guess - 1, guess, guess + 1
    int guess;
    unsigned flags;  ///< bit j: candidate j usable; bit 3: every term is +-0
};

std::size_t align(std::size_t b) {
    return (b + 255) & ~std::size_t{255};
}

__host__ __device__ unsigned long long chunk_count(unsigned long long n) {
    return (n + kChunk - 1) / kChunk;
}

/// Inclusive scan of one value per thread over the block (kThreads threads).
__device__ double block_scan(double v, double* sh) {
    sh[threadIdx.x] = v;
    __syncthreads();
    for (unsigned o = 1; o < kThreads; o <<= 1) {
        const double add = threadIdx.x >= o ? sh[threadIdx.x - o] : 0.0;
        __syncthreads();
        sh[threadIdx.x] = sh[threadIdx.x] + add;
        __syncthreads();
    }
    const double r = sh[threadIdx.x];
    __syncthreads();
    return r;
}

template <bool Max>
__device__ double block_extreme(double v, double* sh) {
    sh[threadIdx.x] = v;
    __syncthreads();
    for (unsigned o = kThreads / 2; o > 0; o >>= 1) {
        if (threadIdx.x < o) {
            const double a = sh[threadIdx.x], b = sh[threadIdx.x + o];
            sh[threadIdx.x] = Max ? (a > b ? a : b) : (a < b ? a : b);
        }
        __syncthreads();
    }
    const double r = sh[0];
    __syncthreads();
    return r;
}

/// csum[k * chunks + c]: chunk c's terms of sum k added in any order (a guess only).
__global__ void chunk_sums(const double* term, unsigned long long n, const int* gate, double* csum) {
    __shared__ double sh[kThreads];
    if (*gate == 0) return;
    const unsigned long long chunks = chunk_count(n), base = blockIdx.x * static_cast<unsigned long long>(kChunk);
    const double* t = term + blockIdx.y * n;
    double v = 0.0;
    for (unsigned i = threadIdx.x; i < kChunk; i += kThreads)
        if (base + i < n) v = v + t[base + i];
    v = block_scan(v, sh);
    if (threadIdx.x == kThreads - 1) csum[blockIdx.y * chunks + blockIdx.x] = v;
}

/// meta[k * chunks + c].guess: the binade of the prefix sum of chunks < c. Block k, 1024 threads.
__global__ void chunk_guesses(const double* csum, unsigned long long n, const int* gate, ChunkMeta* meta) {
    __shared__ double scan[1024];
    if (*gate == 0) return;
    const unsigned long long chunks = chunk_count(n);
    const double* cs = csum + blockIdx.x * chunks;
    ChunkMeta* m = meta + blockIdx.x * chunks;
    const unsigned long long per = (chunks + 1023) / 1024, c0 = threadIdx.x * per;
    double local = 0.0;
    for (unsigned long long c = c0; c < c0 + per && c < chunks; ++c) local = local + cs[c];
    scan[threadIdx.x] = local;
    __syncthreads();
    for (unsigned o = 1; o < 1024; o <<= 1) {
        const double add = threadIdx.x >= o ? scan[threadIdx.x - o] : 0.0;
        __syncthreads();
        scan[threadIdx.x] = scan[threadIdx.x] + add;
        __syncthreads();
    }
    double prefix = scan[threadIdx.x] - local;
    for (unsigned long long c = c0; c < c0 + per && c < chunks; ++c) {
        const unsigned long long bits = static_cast<unsigned long long>(__double_as_longlong(prefix));
        m[c].guess = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
        prefix = prefix + cs[c];
    }
}

/// meta's totals, prefix extremes and flags. Thread r holds terms 4r .. 4r + 3 of the chunk.
__global__ void chunk_meta(const double* term, unsigned long long n, const int* gate, ChunkMeta* meta) {
    __shared__ double sh[kThreads];
    if (*gate == 0) return;
    const unsigned long long chunks = chunk_count(n), base = blockIdx.x * static_cast<unsigned long long>(kChunk);
    const double* t = term + blockIdx.y * n;
    ChunkMeta& m = meta[blockIdx.y * chunks + blockIdx.x];
    const int guess = m.guess;
    double v[kPer];
    bool zero = true;
    for (unsigned r = 0; r < kPer; ++r) {
        const unsigned long long i = base + kPer * threadIdx.x + r;
        v[r] = i < n ? t[i] : 0.0;
        zero = zero && v[r] == 0.0;
    }
    unsigned flags = 0;
    double total[3], lo[3], hi[3];
    for (int j = 0; j < 3; ++j) {
        const int e = guess + j - 1;
        bool ok = e >= -1022 && e <= 1023;
        double p = 0.0, pmin = 0.0, pmax = 0.0;  // this thread's prefixes, relative to its start
        bool first = true;
        for (unsigned r = 0; r < kPer; ++r) {
            const double q = scalbn(v[r], 52 - e);            // exact: a power-of-two scaling of a normal result
            const double whole = floor(q), frac = q - whole;  // frac: 0.5 exactly only for a tie
            if (!(fabs(q) < 0x1p40) || frac == 0.5) ok = false;
            const double b = ok ? whole + (frac > 0.5 ? 1.0 : 0.0) : 0.0;
            p = p + b;
            pmin = first || p < pmin ? p : pmin;
            pmax = first || p > pmax ? p : pmax;
            first = false;
        }
        const double incl = block_scan(p, sh), offset = incl - p;
        lo[j] = block_extreme<false>(offset + pmin, sh);
        hi[j] = block_extreme<true>(offset + pmax, sh);
        if (threadIdx.x == kThreads - 1) sh[0] = incl;  // the chunk's last prefix
        __syncthreads();
        total[j] = sh[0];
        __syncthreads();
        if (__syncthreads_and(ok)) flags |= 1u << j;
    }
    if (__syncthreads_and(zero)) flags |= 8u;
    if (threadIdx.x == 0) {
        for (int j = 0; j < 3; ++j) {
            m.total[j] = total[j];
            m.lo[j] = lo[j];
            m.hi[j] = hi[j];
        }
        m.flags = flags;
    }
}

/// Block k (one warp): sums[k] = the sequential sum of term k.
__global__ void walk(const double* term, unsigned long long n, const int* gate, const ChunkMeta* meta, double* sums) {
    __shared__ ChunkMeta smeta[32];
    __shared__ double stage[kChunk];
    if (*gate == 0) return;
    const unsigned long long chunks = chunk_count(n);
    const double* t = term + blockIdx.x * n;
    const ChunkMeta* cm = meta + blockIdx.x * chunks;
    double s = 0.0;  // the same value in every lane
    for (unsigned long long c0 = 0; c0 < chunks; c0 += 32) {
        if (c0 + threadIdx.x < chunks) smeta[threadIdx.x] = cm[c0 + threadIdx.x];
        __syncwarp();
        const unsigned m = chunks - c0 < 32 ? static_cast<unsigned>(chunks - c0) : 32;
        for (unsigned k = 0; k < m; ++k) {
            const ChunkMeta& c = smeta[k];
            const auto bits = static_cast<unsigned long long>(__double_as_longlong(s));
            const unsigned ex = static_cast<unsigned>(bits >> 52) & 0x7ff;
            bool done = false;
            if (bits == 0 && (c.flags & 8u)) {
                done = true;  // +0 plus zeros of either sign
            } else if (ex != 0 && ex != 0x7ff) {
                const int j = static_cast<int>(ex) - 1023 - c.guess + 1;
                if (j >= 0 && j < 3 && (c.flags >> j & 1u)) {
                    const long long S = static_cast<long long>((bits & 0xfffffffffffffull) | (1ull << 52));
                    const auto total = static_cast<long long>(c.total[j]), lo = static_cast<long long>(c.lo[j]),
                               hi = static_cast<long long>(c.hi[j]);
                    const bool neg = bits >> 63;
                    const long long low = neg ? S - hi : S + lo, high = neg ? S - lo : S + hi;
                    if (low >= (1ll << 52) + 1 && high <= (1ll << 53) - 2) {
                        const long long next = neg ? S - total : S + total;
                        s = __longlong_as_double(static_cast<long long>(
                            (bits & 0xfff0000000000000ull) | (static_cast<unsigned long long>(next) - (1ull << 52))));
                        done = true;
                    }
                }
            }
            if (!done) {  // the CPU's loop over this chunk
                const unsigned long long base = (c0 + k) * kChunk;
                const unsigned len = n - base < kChunk ? static_cast<unsigned>(n - base) : kChunk;
                for (unsigned i = threadIdx.x; i < len; i += 32) stage[i] = t[base + i];
                __syncwarp();
                if (threadIdx.x == 0)
                    for (unsigned i = 0; i < len; ++i) s = s + stage[i];
                s = __shfl_sync(0xffffffffu, s, 0);
                __syncwarp();
            }
        }
        __syncwarp();
    }
    if (threadIdx.x == 0) sums[blockIdx.x] = s;
}

}  // namespace

std::size_t ordered_sum_scratch_bytes(unsigned long long n, int count) {
    const std::size_t chunks = chunk_count(n) * static_cast<std::size_t>(count);
    return align(chunks * sizeof(double)) + align(chunks * sizeof(ChunkMeta));
}

void launch_ordered_sums(const double* term, unsigned long long n, int count, const int* gate, void* scratch,
                         double* sums, cudaStream_t s) {
    if (n == 0 || count == 0) return;
    const unsigned long long chunks = chunk_count(n);
    auto* csum = static_cast<double*>(scratch);
    auto* meta = reinterpret_cast<ChunkMeta*>(static_cast<unsigned char*>(scratch) +
                                              align(chunks * static_cast<std::size_t>(count) * sizeof(double)));
    const dim3 grid(static_cast<unsigned>(chunks), static_cast<unsigned>(count));
    chunk_sums<<<grid, kThreads, 0, s>>>(term, n, gate, csum);
    chunk_guesses<<<count, 1024, 0, s>>>(csum, n, gate, meta);
    chunk_meta<<<grid, kThreads, 0, s>>>(term, n, gate, meta);
    walk<<<count, 32, 0, s>>>(term, n, gate, meta, sums);
}

}  // namespace vmaf::ssimfeat::cuda
