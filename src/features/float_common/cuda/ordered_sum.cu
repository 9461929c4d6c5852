// Why the walk equals the sequential sum. Let the running sum s be a normal
// float/double of binade e and sign g, with M mantissa bits (23, 52):
// |s| = S q, q = 2^(e - M), S an integer in [2^M, 2^(M+1)). Adding t gives
// the exact |s| + g t = (S + g T) q, T = t / q. While that stays in
// [2^e, 2^(e+1)) the result is the nearest multiple of q, (S + round(g T)) q,
// and round(g T) = g round(T) does not depend on S unless T's fraction is
// exactly 1/2 (a tie, rounded to even). So for a run of terms without a tie,
// with increments b_i = round(T_i) and prefix sums P_k = b_1 + ... + b_k: if
// every S + g P_k lies in [2^M + 1, 2^(M+1) - 2] (then every exact
// intermediate lies in the binade, as |T_i - b_i| <= 1/2), the run leaves
// S + g P_last. Chunks of kChunk terms get their totals and prefix extremes
// in parallel (integers below 2^50: exact in int64) for three binades around
// a guess (the exponent of the chunk's prefix sum added in any order). One
// warp per sequence then walks 32 chunks per step: a scan of the chunks'
// totals for s's binade takes every chunk up to the first whose bounds fail
// (or that lacks s's binade); that chunk's terms go 256 per step the same way
// (a scan of the b_i, exact integers from the terms' bits), and a term that fails (binade change, tie, large
// term) or any term while s is zero, subnormal, infinite or NaN is added
// as the CPU adds it.
#include <cstdint>

#include "features/float_common/cuda/ordered_sum.hpp"

namespace vmaf::floatfeat::cuda {

namespace {

constexpr unsigned kChunk = 1024, kThreads = 256, kPer = kChunk / kThreads, kWarps = kThreads / 32;
constexpr unsigned kFull = 0xffffffffu;
constexpr int kLargeLog2 = 40;  ///< |T| >= 2^40 is added term by term (keeps every sum below 2^50)

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
    long long total[3], lo[3], hi[3];  ///< P_last, min P_k, max P_k for binades guess - 1, guess, guess + 1
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

__device__ unsigned lane_id() {
    return threadIdx.x & 31u;
}

__device__ long long warp_inclusive_sum(long long v) {
    for (unsigned o = 1; o < 32; o <<= 1) {
        const long long u = __shfl_up_sync(kFull, v, o);
        if (lane_id() >= o) v += u;
    }
    return v;
}

template <bool Max>
__device__ long long warp_extreme(long long v) {
    for (unsigned o = 16; o > 0; o >>= 1) {
        const long long u = __shfl_xor_sync(kFull, v, o);
        v = Max ? (u > v ? u : v) : (u < v ? u : v);
    }
    return v;
}

/// The increment b = round(v / q) with q = 2^(e - M), in integers (exact), or false for a tie or a large term
/// (|v / q| >= 2^40), an infinity or NaN.
template <typename T>
__device__ bool increment(T v, int e, long long& b) {
    using B = Bits<T>;
    const auto bits = B::of(v);
    const unsigned ex = static_cast<unsigned>(bits >> B::kMant) & B::kExpMask;
    if (ex == B::kExpMask) return false;
    constexpr unsigned long long kImplicit = 1ull << B::kMant;
    const unsigned long long m = (static_cast<unsigned long long>(bits) & (kImplicit - 1)) | (ex ? kImplicit : 0);
    // |v| = m 2^(E - bias - M) with E = max(ex, 1), so |v| / q = m / 2^sh.
    const int sh = e + B::kBias - (ex ? static_cast<int>(ex) : 1);
    if (m == 0) {
        b = 0;
        return true;
    }
    if (sh <= -kLargeLog2 || (kLargeLog2 + sh < 64 && m >= 1ull << (kLargeLog2 + sh))) return false;
    unsigned long long mag;
    if (sh <= 0) {
        mag = m << -sh;
    } else if (sh > 62) {
        mag = 0;  // m < 2^53 <= 2^(sh - 1): below one half
    } else {
        const unsigned long long half = 1ull << (sh - 1), rem = m & ((half << 1) - 1);
        if (rem == half) return false;
        mag = (m >> sh) + (rem > half ? 1 : 0);
    }
    const bool neg = (bits >> (8 * sizeof(bits) - 1)) != 0;
    b = neg ? -static_cast<long long>(mag) : static_cast<long long>(mag);
    return true;
}

/// s's integer significand S, sign and binade, when s is normal.
template <typename T>
struct Running {
    using B = Bits<T>;
    using U = typename B::U;
    static constexpr U kOne = U{1} << B::kMant;  // the implicit bit
    U bits;
    long long S;
    int e;
    bool neg, normal;
    __device__ explicit Running(T s) : bits(B::of(s)) {
        const unsigned ex = static_cast<unsigned>(bits >> B::kMant) & B::kExpMask;
        normal = ex != 0 && ex != B::kExpMask;
        e = static_cast<int>(ex) - B::kBias;
        neg = (bits >> (8 * sizeof(U) - 1)) != 0;
        S = static_cast<long long>((bits & (kOne - 1)) | kOne);
    }
    /// S after a signed increment run of P (P added to |s| for s >= 0, taken from it for s < 0).
    __device__ long long after(long long P) const { return neg ? S - P : S + P; }
    __device__ static bool inside(long long v) {
        constexpr auto one = static_cast<long long>(kOne);
        return v >= one + 1 && v <= 2 * one - 2;
    }
    __device__ T with(long long next) const {
        return B::from((bits & ~(kOne - 1)) | (static_cast<U>(next) - kOne));
    }
};

/// csum[first[k] + c]: chunk c of sequence k added in double, any order (a guess only).
template <typename T>
__global__ void chunk_sums(Layout<T> L, const int* gate, double* csum) {
    __shared__ double warp_sum[kWarps];
    if (gate && *gate == 0) return;
    const unsigned k = blockIdx.y;
    const unsigned long long n = L.seqs.n[k], base = blockIdx.x * static_cast<unsigned long long>(kChunk);
    if (base >= n) return;  // uniform per block
    const T* t = L.seqs.term[k];
    double v = 0.0;
    for (unsigned i = threadIdx.x; i < kChunk; i += kThreads)
        if (base + i < n) v = v + static_cast<double>(t[base + i]);
    for (unsigned o = 16; o > 0; o >>= 1) v = v + __shfl_xor_sync(kFull, v, o);
    if (lane_id() == 0) warp_sum[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        double total = 0.0;
        for (unsigned w = 0; w < kWarps; ++w) total = total + warp_sum[w];
        csum[L.first[k] + blockIdx.x] = total;
    }
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
    __shared__ long long wtotal[3][kWarps], wlo[3][kWarps], whi[3][kWarps];
    __shared__ unsigned wflags[kWarps];
    if (gate && *gate == 0) return;
    const unsigned k = blockIdx.y;
    const unsigned long long n = L.seqs.n[k], base = blockIdx.x * static_cast<unsigned long long>(kChunk);
    if (base >= n) return;  // uniform per block
    const T* t = L.seqs.term[k];
    ChunkMeta& m = meta[L.first[k] + blockIdx.x];
    const int guess = m.guess;
    T v[kPer];
    bool zero = true;
    for (unsigned r = 0; r < kPer; ++r) {
        const unsigned long long i = base + kPer * threadIdx.x + r;
        v[r] = i < n ? t[i] : T(0);
        zero = zero && v[r] == T(0);
    }
    const unsigned w = threadIdx.x / 32;
    unsigned flags = __ballot_sync(kFull, zero) == kFull ? 8u : 0u;
    for (int j = 0; j < 3; ++j) {
        const int e = guess + j - 1;
        bool ok = e >= 1 - Bits<T>::kBias && e <= Bits<T>::kBias;
        long long p = 0, pmin = 0, pmax = 0;  // this thread's prefixes, relative to its start
        for (unsigned r = 0; r < kPer; ++r) {
            long long b = 0;
            ok = increment(v[r], e, b) && ok;
            p += ok ? b : 0;
            pmin = r == 0 || p < pmin ? p : pmin;
            pmax = r == 0 || p > pmax ? p : pmax;
        }
        const long long incl = warp_inclusive_sum(p), before = incl - p;
        const long long lo = warp_extreme<false>(before + pmin), hi = warp_extreme<true>(before + pmax);
        if (__ballot_sync(kFull, ok) == kFull) flags |= 1u << j;
        if (lane_id() == 31) {
            wtotal[j][w] = incl;
            wlo[j][w] = lo;
            whi[j][w] = hi;
        }
    }
    if (lane_id() == 0) wflags[w] = flags;
    __syncthreads();
    if (threadIdx.x < 3) {  // thread j joins the warps' runs for candidate j
        const unsigned j = threadIdx.x;
        long long total = 0, lo = 0, hi = 0;
        for (unsigned x = 0; x < kWarps; ++x) {
            const long long l = total + wlo[j][x], h = total + whi[j][x];
            lo = x == 0 || l < lo ? l : lo;
            hi = x == 0 || h > hi ? h : hi;
            total += wtotal[j][x];
        }
        m.total[j] = total;
        m.lo[j] = lo;
        m.hi[j] = hi;
    } else if (threadIdx.x == 32) {
        unsigned f = 0xfu;
        for (unsigned x = 0; x < kWarps; ++x) f &= wflags[x];
        m.flags = f;
    }
}

/// The sequential sum continued from s over t[0 .. len), len <= kChunk, by one warp (s the same in every
/// lane); lane i looks at kLaneTerms consecutive terms of each step.
template <typename T>
__device__ T walk_terms(const T* t, unsigned len, T s, T* stage) {
    constexpr unsigned kLaneTerms = 8, kStep = 32 * kLaneTerms;
    for (unsigned i = lane_id(); i < len; i += 32) stage[i] = t[i];
    __syncwarp();
    unsigned i0 = 0;
    while (i0 < len) {
        const Running<T> r(s);
        if (!r.normal) {  // zero, subnormal, infinite or NaN: the CPU's addition
            s = s + stage[i0++];
            continue;
        }
        const unsigned first = i0 + kLaneTerms * lane_id();
        long long b[kLaneTerms], lane_total = 0;
        unsigned ok = 0;
#pragma unroll
        for (unsigned k = 0; k < kLaneTerms; ++k) {
            b[k] = 0;
            if (first + k < len && increment(stage[first + k], r.e, b[k])) ok |= 1u << k;
            lane_total += (ok >> k & 1u) ? b[k] : 0;
        }
        const long long incl = warp_inclusive_sum(lane_total);
        long long P = incl - lane_total, P_fail = 0;  // P_fail: the run's total before this lane's first failure
        unsigned fail = kLaneTerms;
#pragma unroll
        for (unsigned k = 0; k < kLaneTerms; ++k) {
            const long long next = P + ((ok >> k & 1u) ? b[k] : 0);
            if (fail == kLaneTerms && !((ok >> k & 1u) && Running<T>::inside(r.after(next)))) {
                fail = k;
                P_fail = P;
            }
            P = next;
        }
        const unsigned bad = __ballot_sync(kFull, fail < kLaneTerms);
        unsigned taken;
        long long P_taken;
        if (bad == 0) {
            taken = kStep;
            P_taken = __shfl_sync(kFull, incl, 31);
        } else {
            const unsigned lane = static_cast<unsigned>(__ffs(static_cast<int>(bad))) - 1;
            taken = kLaneTerms * lane + __shfl_sync(kFull, fail, lane);
            P_taken = __shfl_sync(kFull, P_fail, lane);
        }
        if (taken > 0) s = r.with(r.after(P_taken));
        i0 += taken;
        if (taken < kStep && i0 < len) s = s + stage[i0++];  // the term that fails, as the CPU adds it
    }
    __syncwarp();
    return s;
}

__device__ ChunkMeta load_meta(const ChunkMeta* cm, unsigned long long c, unsigned long long chunks) {
    ChunkMeta x{};
    if (c < chunks) x = cm[c];
    return x;
}

/// Lane src's metadata (fields one by one: no local-memory copy).
__device__ ChunkMeta shfl_meta(const ChunkMeta& x, unsigned src) {
    ChunkMeta y;
#pragma unroll
    for (int j = 0; j < 3; ++j) {
        y.total[j] = __shfl_sync(kFull, x.total[j], src);
        y.lo[j] = __shfl_sync(kFull, x.lo[j], src);
        y.hi[j] = __shfl_sync(kFull, x.hi[j], src);
    }
    y.guess = __shfl_sync(kFull, x.guess, src);
    y.flags = __shfl_sync(kFull, x.flags, src);
    return y;
}

/// a[j] for j in 0..2 without indexing (which would put the metadata in local memory).
__device__ long long pick(const long long (&a)[3], int j) {
    return j == 0 ? a[0] : (j == 1 ? a[1] : a[2]);
}

/// Block k (one warp): sums[k] = the sequential sum of sequence k.
template <typename T>
__global__ void walk(Layout<T> L, const int* gate, const ChunkMeta* meta, T* sums) {
    __shared__ T stage[kChunk];
    if (gate && *gate == 0) return;
    const unsigned k = blockIdx.x;
    const unsigned long long n = L.seqs.n[k], chunks = chunk_count(n);
    const T* t = L.seqs.term[k];
    const ChunkMeta* cm = meta + L.first[k];
    T s = 0;  // the same value in every lane
    unsigned long long c = 0;
    ChunkMeta x = load_meta(cm, c + lane_id(), chunks), next = load_meta(cm, c + 32 + lane_id(), chunks);
    while (c < chunks) {
        // Lane i: chunk c + i, taken whole if every chunk before it in this step was.
        const Running<T> r(s);
        const int j = r.e - x.guess + 1;
        const bool usable = r.normal && c + lane_id() < chunks && j >= 0 && j < 3 && (x.flags >> j & 1u);
        const long long total = usable ? pick(x.total, j) : 0, lo = usable ? pick(x.lo, j) : 0,
                        hi = usable ? pick(x.hi, j) : 0;
        const long long incl = warp_inclusive_sum(total), start = r.after(incl - total);
        const long long low = r.neg ? start - hi : start + lo, high = r.neg ? start - lo : start + hi;
        const unsigned bad = __ballot_sync(kFull, !(usable && Running<T>::inside(low) && Running<T>::inside(high)));
        const unsigned taken = bad ? static_cast<unsigned>(__ffs(static_cast<int>(bad))) - 1 : 32u;
        const long long incl_taken = __shfl_sync(kFull, incl, taken == 0 ? 0 : taken - 1);
        if (taken > 0) s = r.with(r.after(incl_taken));
        if (taken == 32) {
            c += 32;
            x = next;
            next = load_meta(cm, c + 32 + lane_id(), chunks);
            continue;
        }
        c += taken;
        if (c >= chunks) break;
        // Chunk c, term by term from s (or skipped: +0 plus zeros of either sign stays +0).
        const unsigned zeros = __shfl_sync(kFull, x.flags, taken) & 8u;
        if (!(Bits<T>::of(s) == 0 && zeros)) {
            const unsigned long long base = c * kChunk;
            s = walk_terms(t + base, n - base < kChunk ? static_cast<unsigned>(n - base) : kChunk, s, stage);
        }
        // On from chunk c + 1: lane i's chunks move down by d lanes (x from x or next, next from next or memory).
        const unsigned d = taken + 1, from = (lane_id() + d) & 31u;
        const bool low_half = lane_id() + d < 32;
        const ChunkMeta x_shift = shfl_meta(x, from), next_shift = shfl_meta(next, from);
        ++c;
        x = low_half ? x_shift : next_shift;
        next = low_half ? next_shift : load_meta(cm, c + 32 + lane_id(), chunks);
    }
    if (lane_id() == 0) sums[k] = s;
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
