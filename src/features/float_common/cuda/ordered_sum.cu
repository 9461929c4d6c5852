// Why the chunked walk equals the sequential sum. Let the running sum s be a
// normal float/double of binade e and sign g, with M mantissa bits (23, 52):
// |s| = S q, q = 2^(e - M), S an integer in [2^M, 2^(M+1)). Adding t gives
// the exact |s| + g t = (S + g T) q, T = t / q. While that stays in
// [2^e, 2^(e+1)) the result is the nearest multiple of q, (S + round(g T)) q,
// and round(g T) = g round(T) does not depend on S unless T's fraction is
// exactly 1/2 (a tie, rounded to even). So for a chunk of terms without a
// tie, with increments b_i = round(T_i) and prefix sums P_k = b_1 + ... +
// b_k: if every S + g P_k lies in [2^M + 1, 2^(M+1) - 2] (then every exact
// intermediate lies in the binade, as |T_i - b_i| <= 1/2), the chunk leaves
// S + g P_last. Chunk totals and the extremes of P are computed in parallel
// (integers below 2^50: exact in double and int64) for three binades around
// a guess (the exponent of the chunk's prefix sum added in any order); one
// warp per sequence walks the chunks in order, taking a chunk whole when s's
// binade is a usable candidate and the bounds hold, and adding its terms one
// by one otherwise (the start, binade changes, ties, large terms, s zero or
// subnormal, NaN and infinities).
#include <cstdint>

#include "features/float_common/cuda/ordered_sum.hpp"

namespace vmaf::floatfeat::cuda {

namespace {

constexpr unsigned kChunk = 1024, kThreads = 256, kPer = kChunk / kThreads;

template <typename T>
struct Bits;
template <>
struct Bits<float> {
    using U = std::uint32_t;
    static constexpr int kMant = 23, kBias = 127;
    static constexpr unsigned kExpMask = 0xff;
    __device__ static U of(float v) { return __float_as_uint(v); }
    __device__ static float from(U u) { return __uint_as_float(u); }
};
template <>
struct Bits<double> {
    using U = unsigned long long;
    static constexpr int kMant = 52, kBias = 1023;
    static constexpr unsigned kExpMask = 0x7ff;
    __device__ static U of(double v) { return static_cast<U>(__double_as_longlong(v)); }
    __device__ static double from(U u) { return __longlong_as_double(static_cast<long long>(u)); }
};

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

/// Per sequence k: its chunks start at chunk index first[k] of the scratch arrays.
template <typename T>
struct Layout {
    OrderedSeqs<T> seqs;
    unsigned long long first[kMaxOrderedSums];
};

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

/// csum[first[k] + c]: chunk c of sequence k added in double, any order (a guess only).
template <typename T>
__global__ void chunk_sums(Layout<T> L, const int* gate, double* csum) {
    __shared__ double sh[kThreads];
    if (gate && *gate == 0) return;
    const unsigned k = blockIdx.y;
    const unsigned long long n = L.seqs.n[k], base = blockIdx.x * static_cast<unsigned long long>(kChunk);
    if (base >= n) return;  // uniform per block
    const T* t = L.seqs.term[k];
    double v = 0.0;
    for (unsigned i = threadIdx.x; i < kChunk; i += kThreads)
        if (base + i < n) v = v + static_cast<double>(t[base + i]);
    v = block_scan(v, sh);
    if (threadIdx.x == kThreads - 1) csum[L.first[k] + blockIdx.x] = v;
}

/// meta[first[k] + c].guess: the binade (in T) of the sum of chunks < c. Block k, 1024 threads.
template <typename T>
__global__ void chunk_guesses(Layout<T> L, const int* gate, const double* csum, ChunkMeta* meta) {
    __shared__ double scan[1024];
    if (gate && *gate == 0) return;
    const unsigned k = blockIdx.x;
    const unsigned long long chunks = chunk_count(L.seqs.n[k]);
    const double* cs = csum + L.first[k];
    ChunkMeta* m = meta + L.first[k];
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
        const auto bits = Bits<T>::of(static_cast<T>(prefix));
        m[c].guess = static_cast<int>((bits >> Bits<T>::kMant) & Bits<T>::kExpMask) - Bits<T>::kBias;
        prefix = prefix + cs[c];
    }
}

/// meta's totals, prefix extremes and flags. Thread r holds terms kPer r .. kPer r + kPer - 1 of the chunk.
template <typename T>
__global__ void chunk_meta(Layout<T> L, const int* gate, ChunkMeta* meta) {
    __shared__ double sh[kThreads];
    if (gate && *gate == 0) return;
    const unsigned k = blockIdx.y;
    const unsigned long long n = L.seqs.n[k], base = blockIdx.x * static_cast<unsigned long long>(kChunk);
    if (base >= n) return;  // uniform per block
    const T* t = L.seqs.term[k];
    ChunkMeta& m = meta[L.first[k] + blockIdx.x];
    const int guess = m.guess;
    double v[kPer];
    bool zero = true;
    for (unsigned r = 0; r < kPer; ++r) {
        const unsigned long long i = base + kPer * threadIdx.x + r;
        v[r] = i < n ? static_cast<double>(t[i]) : 0.0;
        zero = zero && v[r] == 0.0;
    }
    unsigned flags = 0;
    double total[3], lo[3], hi[3];
    for (int j = 0; j < 3; ++j) {
        const int e = guess + j - 1;
        bool ok = e >= 1 - Bits<T>::kBias && e <= Bits<T>::kBias;
        double p = 0.0, pmin = 0.0, pmax = 0.0;  // this thread's prefixes, relative to its start
        for (unsigned r = 0; r < kPer; ++r) {
            // Exact (a power-of-two scaling; an underflowing result is far below 1/2, so its b is 0 either way).
            const double q = scalbn(v[r], Bits<T>::kMant - e);
            const double whole = floor(q),
                         frac = q - whole;  // frac rounds monotonically: 0.5 only for a tie or near one
            if (!(fabs(q) < 0x1p40) || frac == 0.5) ok = false;
            p = p + (ok ? whole + (frac > 0.5 ? 1.0 : 0.0) : 0.0);
            pmin = r == 0 || p < pmin ? p : pmin;
            pmax = r == 0 || p > pmax ? p : pmax;
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

/// Block k (one warp): sums[k] = the sequential sum of sequence k.
template <typename T>
__global__ void walk(Layout<T> L, const int* gate, const ChunkMeta* meta, T* sums) {
    using B = Bits<T>;
    using U = typename B::U;
    __shared__ ChunkMeta smeta[32];
    __shared__ T stage[kChunk];
    if (gate && *gate == 0) return;
    const unsigned k = blockIdx.x;
    const unsigned long long n = L.seqs.n[k], chunks = chunk_count(n);
    const T* t = L.seqs.term[k];
    const ChunkMeta* cm = meta + L.first[k];
    constexpr U kOne = U{1} << B::kMant;  // the implicit bit
    constexpr U kSignExp = ~(kOne - 1);
    T s = 0;  // the same value in every lane
    for (unsigned long long c0 = 0; c0 < chunks; c0 += 32) {
        if (c0 + threadIdx.x < chunks) smeta[threadIdx.x] = cm[c0 + threadIdx.x];
        __syncwarp();
        const unsigned m = chunks - c0 < 32 ? static_cast<unsigned>(chunks - c0) : 32;
        for (unsigned c = 0; c < m; ++c) {
            const ChunkMeta& x = smeta[c];
            const U bits = B::of(s);
            const unsigned ex = static_cast<unsigned>(bits >> B::kMant) & B::kExpMask;
            bool done = false;
            if (bits == 0 && (x.flags & 8u)) {
                done = true;  // +0 plus zeros of either sign
            } else if (ex != 0 && ex != B::kExpMask) {
                const int j = static_cast<int>(ex) - B::kBias - x.guess + 1;
                if (j >= 0 && j < 3 && (x.flags >> j & 1u)) {
                    const auto S = static_cast<long long>((bits & (kOne - 1)) | kOne);
                    const auto total = static_cast<long long>(x.total[j]), lo = static_cast<long long>(x.lo[j]),
                               hi = static_cast<long long>(x.hi[j]);
                    const bool neg = (bits >> (8 * sizeof(U) - 1)) != 0;
                    const long long low = neg ? S - hi : S + lo, high = neg ? S - lo : S + hi;
                    constexpr auto one = static_cast<long long>(kOne);
                    if (low >= one + 1 && high <= 2 * one - 2) {
                        const long long next = neg ? S - total : S + total;
                        s = B::from((bits & kSignExp) | (static_cast<U>(next) - kOne));
                        done = true;
                    }
                }
            }
            if (!done) {  // the CPU's loop over this chunk
                const unsigned long long base = (c0 + c) * kChunk;
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
    if (threadIdx.x == 0) sums[k] = s;
}

template <typename T>
Layout<T> layout(const OrderedSeqs<T>& seqs, unsigned long long& chunks, unsigned long long& widest) {
    Layout<T> L{seqs, {}};
    chunks = widest = 0;
    for (int k = 0; k < seqs.count; ++k) {
        L.first[k] = chunks;
        const unsigned long long c = chunk_count(seqs.n[k]);
        chunks += c;
        widest = c > widest ? c : widest;
    }
    return L;
}

}  // namespace

template <typename T>
std::size_t ordered_sum_scratch_bytes(const OrderedSeqs<T>& seqs) {
    unsigned long long chunks = 0, widest = 0;
    (void)layout(seqs, chunks, widest);
    return align(chunks * sizeof(double)) + align(chunks * sizeof(ChunkMeta));
}

template <typename T>
void launch_ordered_sums(const OrderedSeqs<T>& seqs, const int* gate, void* scratch, T* sums, cudaStream_t s) {
    if (seqs.count <= 0) return;
    unsigned long long chunks = 0, widest = 0;
    const Layout<T> L = layout(seqs, chunks, widest);
    auto* csum = static_cast<double*>(scratch);
    auto* meta = reinterpret_cast<ChunkMeta*>(static_cast<unsigned char*>(scratch) + align(chunks * sizeof(double)));
    if (widest > 0) {
        const dim3 grid(static_cast<unsigned>(widest), static_cast<unsigned>(seqs.count));
        chunk_sums<T><<<grid, kThreads, 0, s>>>(L, gate, csum);
        chunk_guesses<T><<<seqs.count, 1024, 0, s>>>(L, gate, csum, meta);
        chunk_meta<T><<<grid, kThreads, 0, s>>>(L, gate, meta);
    }
    walk<T><<<seqs.count, 32, 0, s>>>(L, gate, meta, sums);
}

template std::size_t ordered_sum_scratch_bytes<float>(const OrderedSeqs<float>&);
template std::size_t ordered_sum_scratch_bytes<double>(const OrderedSeqs<double>&);
template void launch_ordered_sums<float>(const OrderedSeqs<float>&, const int*, void*, float*, cudaStream_t);
template void launch_ordered_sums<double>(const OrderedSeqs<double>&, const int*, void*, double*, cudaStream_t);

}  // namespace vmaf::floatfeat::cuda
