// The chunked ordered sum (the CPU's sequential `T acc = 0; for (i...) acc +=
// t[i];` in float or double, bit for bit) over a source of terms, for .cu
// files: stored terms (ordered_sum.cu's launch_ordered_sums), or terms that
// are cheaper to recompute in each pass than to store, several per index
// (the ssimulacra2 twin's six map terms per pixel, computed once per pixel and
// pass). A Source:
//
//   struct Source {
//       static constexpr int kTerms;                                   // terms per index
//       __host__ __device__ unsigned long long n(unsigned g) const;    // indices of group g
//       __device__ void terms(unsigned g, unsigned long long i, T* out) const;  // out[0 .. kTerms)
//   };
//
// Sequence g * kTerms + q is term q of group g's indices 0, 1, ..., n(g) - 1.
//
// Ties are taken whole for s > 0 (their rounding depends only on the parity
// of S, see below), terms up to 2^52 units, and the walk takes spans of 32
// chunks at a step where it can.
//
// Why the chunked walk equals the sequential sum. Let the running sum s be a
// normal float/double of binade e and sign g, with M mantissa bits (23, 52):
// |s| = S q, q = 2^(e - M), S an integer in [2^M, 2^(M+1)). Adding t gives
// the exact |s| + g t = (S + g T) q, T = t / q. While that stays in
// [2^e, 2^(e+1)) the result is the nearest multiple of q, (S + round(g T)) q,
// and round(g T) = g round(T) does not depend on S unless T's fraction is
// exactly 1/2 (a tie, rounded to even: for g = +1, with m = floor(T), S + m
// when S + m is even, else S + m + 1; either way S becomes even). So with
// increments b_i = round(T_i) (m_i at a tie) and prefix sums P_k = b_1 + ...
// + b_k, the run leaves S + g (P_last + E), where E counts the ties rounded
// up: for g = +1 a function of S's parity alone (each tie's rounding is fixed
// by the parity of S + P before it plus the ties before it, and after a tie S
// is even), composed associatively from any split of the run into parts. If
// every S + g P_k (+ the ties up to k) lies in [2^M + 1, 2^(M+1) - 2], every
// exact intermediate lies in the binade (|T_i - b_i| <= 1/2 or the tie's
// 1/2). Per chunk of kChunk terms its totals for both parities of S and the
// extremes of P (plus the ties) are computed in parallel for a guessed binade
// (the exponent of the chunk's prefix sum added in any order; for float sums
// also the binades either side of it),
// in double: every |T_i| < 2^52 and the sum of |b_i| below 2^52 (computed in
// any order from non-negative terms: it rounds to 2^52 or more when the exact
// sum is that large), so every partial sum is an exact integer. Spans of
// kSpan chunks combine their chunks' figures for one binade when every
// chunk's prefixes lie below 2^47 (so the span's are below 2^52), the totals
// by composing the chunks' parity functions, the extremes bounded by the
// least and greatest totals before each chunk. One warp per sequence walks
// the spans in order, taking a span whole when s's binade is its binade and
// the bounds hold, else its chunks, each whole on the same condition, else
// its terms one by one (the start, binade changes, ties while s < 0, large
// terms, s zero or subnormal, NaN and infinities).
#pragma once

#include <cstddef>
#include <cstdint>

#include "backends/gpu/portability.hpp"

namespace vmaf::floatfeat::cuda::source_sum {

constexpr unsigned kChunk = 1024, kThreads = 256, kPer = kChunk / kThreads, kWarps = kThreads / 32;
constexpr unsigned kSpan = 32;       ///< chunks per span (one per lane of the span kernel)
constexpr unsigned kMaxGroups = 24;  ///< groups of one launch

template <typename T>
struct Bits;
template <>
struct Bits<float> {
    using U = std::uint32_t;
    static constexpr int kMant = 23, kBias = 127;
    /// Candidate binades figured: guess - 1 .. guess + 1 (a float running sum
    /// may stray a binade from the double prefix the guess comes from).
    static constexpr int kCandFirst = 0, kCandLast = 2;
    static constexpr unsigned kExpMask = 0xff;
    __device__ static U of(float v) { return __float_as_uint(v); }
    __device__ static float from(U u) { return __uint_as_float(u); }
};
template <>
struct Bits<double> {
    using U = unsigned long long;
    static constexpr int kMant = 52, kBias = 1023;
    /// The guess only: a double running sum sits in another binade than the
    /// prefix added in another order only within a few ulps of a power of two
    /// (or after cancellation), and a chunk there is added term by term.
    static constexpr int kCandFirst = 1, kCandLast = 1;
    static constexpr unsigned kExpMask = 0x7ff;
    __device__ static U of(double v) { return static_cast<U>(__double_as_longlong(v)); }
    __device__ static double from(U u) { return __longlong_as_double(static_cast<long long>(u)); }
};

/// A chunk's (or span's) figures for binades guess - 1, guess, guess + 1
/// (candidate j = 0, 1, 2): P_last + E for S even and odd, bounds on P_k
/// (plus the ties up to k).
struct ChunkMeta {
    double total[2][3], lo[3], hi[3];
    int guess;
    unsigned flags;  ///< bit j: candidate j usable; bit 3: every term is +-0; bit 4 + j: ties at candidate j
};

/// What a run of terms does to the parity of S (g = +1): from parity p, E
/// grows by e[p] and the parity becomes o[p]; packed as e0 | o0 << 12 | e1 <<
/// 16 | o1 << 28 (runs of at most 1024 terms).
__host__ __device__ inline unsigned parity_fn(unsigned e0, unsigned o0, unsigned e1, unsigned o1) {
    return e0 | o0 << 12 | e1 << 16 | o1 << 28;
}
/// f, then g.
__host__ __device__ inline unsigned parity_then(unsigned f, unsigned g) {
    const unsigned g0 = g >> (16 * (f >> 12 & 1u)), g1 = g >> (16 * (f >> 28 & 1u));  // g from f's parities
    return parity_fn((f & 0xfffu) + (g0 & 0xfffu), g0 >> 12 & 1u, (f >> 16 & 0xfffu) + (g1 & 0xfffu), g1 >> 12 & 1u);
}
constexpr unsigned kParityIdentity = 1u << 28;  // e = 0, parity kept

__host__ __device__ inline unsigned long long chunk_count(unsigned long long n) {
    return (n + kChunk - 1) / kChunk;
}
__host__ __device__ inline unsigned long long span_count(unsigned long long n) {
    return (chunk_count(n) + kSpan - 1) / kSpan;
}

inline std::size_t align256(std::size_t b) {
    return (b + 255) & ~std::size_t{255};
}

/// Where each group's chunks and spans start in the scratch arrays (in
/// indices; sequence q of a group's chunk c is entry (chunk[g] + c) * kTerms + q).
struct Offsets {
    unsigned long long chunk[kMaxGroups + 1], span[kMaxGroups + 1];
    unsigned long long widest_chunks, widest_spans;
    unsigned groups;
};

template <class Src>
Offsets offsets(const Src& src, unsigned groups) {
    Offsets o{};
    o.groups = groups;
    for (unsigned g = 0; g < groups; ++g) {
        const unsigned long long c = chunk_count(src.n(g)), sp = span_count(src.n(g));
        o.chunk[g + 1] = o.chunk[g] + c;
        o.span[g + 1] = o.span[g] + sp;
        o.widest_chunks = c > o.widest_chunks ? c : o.widest_chunks;
        o.widest_spans = sp > o.widest_spans ? sp : o.widest_spans;
    }
    return o;
}

/// Scratch bytes of launch_ordered: chunk sums, chunk and span figures.
template <int G>
std::size_t scratch_bytes(const Offsets& o) {
    return align256(o.chunk[o.groups] * G * sizeof(double)) + align256(o.chunk[o.groups] * G * sizeof(ChunkMeta)) +
           align256(o.span[o.groups] * G * sizeof(ChunkMeta));
}

/// Whether pred holds in every lane of this group of 32 (a warp on NVIDIA).
__device__ inline bool all32(bool pred) {
    return __ballot_sync(0xffffffffu, pred) == 0xffffffffu;
}

// Scans and extremes over groups of 32 lanes (a warp on NVIDIA, half a wave64 on AMD).
__device__ inline double warp_scan(double v) {
    const unsigned lane = threadIdx.x % 32;
    for (unsigned o = 1; o < 32; o <<= 1) {
        const double u = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= o) v = v + u;
    }
    return v;
}
__device__ inline double warp_min(double v) {
    for (unsigned o = 16; o > 0; o >>= 1) {
        const double u = __shfl_xor_sync(0xffffffffu, v, o);
        v = u < v ? u : v;
    }
    return v;
}
__device__ inline double warp_max(double v) {
    for (unsigned o = 16; o > 0; o >>= 1) {
        const double u = __shfl_xor_sync(0xffffffffu, v, o);
        v = u > v ? u : v;
    }
    return v;
}

/// csum[(chunk[g] + c) * G + q]: term q of chunk c of group g added in double, any order (a guess only).
template <typename T, class Src>
__global__ void chunk_sums(Src src, Offsets o, const int* gate, double* csum) {
    constexpr int G = Src::kTerms;
    __shared__ double part[kWarps][G];
    if (gate && *gate == 0) return;
    const unsigned g = blockIdx.y;
    const unsigned long long n = src.n(g), base = blockIdx.x * static_cast<unsigned long long>(kChunk);
    if (base >= n) return;  // uniform per block
    double v[G] = {};
#pragma unroll
    for (unsigned r = 0; r < kPer; ++r) {
        const unsigned long long i = base + r * kThreads + threadIdx.x;
        if (i < n) {
            T t[G];
            src.terms(g, i, t);
#pragma unroll
            for (int q = 0; q < G; ++q) v[q] = v[q] + static_cast<double>(t[q]);
        }
    }
#pragma unroll
    for (int q = 0; q < G; ++q) {
        for (unsigned d = 16; d > 0; d >>= 1) v[q] = v[q] + __shfl_xor_sync(0xffffffffu, v[q], d);
        if (threadIdx.x % 32 == 0) part[threadIdx.x / 32][q] = v[q];
    }
    __syncthreads();
    if (threadIdx.x < G) {
        double s = 0.0;
        for (unsigned w = 0; w < kWarps; ++w) s = s + part[w][threadIdx.x];
        csum[(o.chunk[g] + blockIdx.x) * G + threadIdx.x] = s;
    }
}

/// meta[(chunk[g] + c) * G + q].guess: the binade (in T) of the sum of chunks < c of sequence (g, q).
/// Block g * G + q, 1024 threads.
template <typename T, int G>
__global__ void chunk_guesses(Offsets o, const int* gate, const double* csum, ChunkMeta* meta) {
    __shared__ double scan[1024];
    if (gate && *gate == 0) return;
    const unsigned g = blockIdx.x / G, q = blockIdx.x % G;
    const unsigned long long chunks = o.chunk[g + 1] - o.chunk[g];
    const double* cs = csum + o.chunk[g] * G + q;
    ChunkMeta* m = meta + o.chunk[g] * G + q;
    const unsigned long long per = (chunks + 1023) / 1024, c0 = threadIdx.x * per;
    double local = 0.0;
    for (unsigned long long c = c0; c < c0 + per && c < chunks; ++c) local = local + cs[c * G];
    scan[threadIdx.x] = local;
    __syncthreads();
    for (unsigned d = 1; d < 1024; d <<= 1) {
        const double add = threadIdx.x >= d ? scan[threadIdx.x - d] : 0.0;
        __syncthreads();
        scan[threadIdx.x] = scan[threadIdx.x] + add;
        __syncthreads();
    }
    double prefix = scan[threadIdx.x] - local;
    for (unsigned long long c = c0; c < c0 + per && c < chunks; ++c) {
        const auto bits = Bits<T>::of(static_cast<T>(prefix));
        m[c * G].guess = static_cast<int>((bits >> Bits<T>::kMant) & Bits<T>::kExpMask) - Bits<T>::kBias;
        prefix = prefix + cs[c * G];
    }
}

/// The increment of one term at binade e: round(t / 2^(e - M)), or its
/// floor at a tie (tie set); false for a term of 2^52 units or more (NaN and
/// infinities included). `scale` = 2^(M - e).
template <typename T>
__device__ inline bool increment(double t, double scale, double& b, bool& tie) {
    // Exact (a power-of-two scaling; an underflowing result is far below 1/2, so its b is 0 either way).
    const double u = t * scale;
    const double whole = floor(u), frac = u - whole;
    tie = frac == 0.5;
    b = whole + (frac > 0.5 ? 1.0 : 0.0);
    return fabs(u) < 0x1p52;
}

/// 2^(M - e) for a binade e of T, if a normal double (else 0: the binade is not figured).
template <typename T>
__device__ inline double unit_scale(int e) {
    const int x = 1023 + Bits<T>::kMant - e;  // the biased exponent
    return x >= 1 && x <= 2046 ? __longlong_as_double(static_cast<long long>(x) << 52) : 0.0;
}

__device__ inline unsigned parity_of(double integer) {
    return static_cast<unsigned>(static_cast<long long>(integer) & 1);
}

/// Chunk figures (totals, prefix extremes, flags) of every sequence of the
/// group. Thread r holds indices kPer r .. kPer r + kPer - 1 of the chunk.
template <typename T, class Src>
__global__ void chunk_meta(Src src, Offsets o, const int* gate, ChunkMeta* meta) {
    constexpr int G = Src::kTerms;
    __shared__ double s_tot[kWarps][G][3], s_lo[kWarps][G][3], s_hi[kWarps][G][3], s_abs[kWarps][G][3];
    __shared__ unsigned s_ties[kWarps][G][3], s_par[kWarps][G][3], s_ok[kWarps];
    if (gate && *gate == 0) return;
    const unsigned g = blockIdx.y, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const unsigned long long n = src.n(g), base = blockIdx.x * static_cast<unsigned long long>(kChunk);
    if (base >= n) return;  // uniform per block
    ChunkMeta* m = meta + (o.chunk[g] + blockIdx.x) * G;
    double v[kPer][G];
#pragma unroll
    for (unsigned r = 0; r < kPer; ++r) {
        const unsigned long long i = base + kPer * threadIdx.x + r;
        T t[G];
        if (i < n) {
            src.terms(g, i, t);
        } else {
#pragma unroll
            for (int q = 0; q < G; ++q) t[q] = T(0);
        }
#pragma unroll
        for (int q = 0; q < G; ++q) v[r][q] = static_cast<double>(t[q]);
    }
    unsigned ok_bits = 0;  // bit 4 q + j: candidate j of sequence q; bit 4 q + 3: all zero
#pragma unroll
    for (int q = 0; q < G; ++q) {
        const int guess = m[q].guess;
        bool zero = true;
#pragma unroll
        for (unsigned r = 0; r < kPer; ++r) zero = zero && v[r][q] == 0.0;
        if (all32(zero)) ok_bits |= 8u << (4 * q);
#pragma unroll
        for (int j = Bits<T>::kCandFirst; j <= Bits<T>::kCandLast; ++j) {
            const int e = guess + j - 1;
            const double scale = unit_scale<T>(e);
            bool ok = e >= 1 - Bits<T>::kBias && e <= Bits<T>::kBias && scale != 0.0;
            // This thread's prefixes (relative to its start), sum of |b|, ties, parity function.
            double p = 0.0, pmin = 0.0, pmax = 0.0, abs_sum = 0.0;
            unsigned tie_bits = 0, par0 = 0, par1 = 1, e0 = 0, e1 = 0;
            bool nonneg = true;
#pragma unroll
            for (unsigned r = 0; r < kPer; ++r) {
                double b;
                bool tie;
                ok = increment<T>(v[r][q], scale, b, tie) && ok;
                if (!ok) b = 0.0;
                nonneg = nonneg && b >= 0.0;
                p = p + b;
                abs_sum = abs_sum + fabs(b);
                pmin = r == 0 || p < pmin ? p : pmin;
                pmax = r == 0 || p > pmax ? p : pmax;
                const unsigned pb = parity_of(b);
                if (tie && ok) {
                    tie_bits |= 1u << r;
                    e0 += (par0 + pb) & 1u;
                    e1 += (par1 + pb) & 1u;
                    par0 = par1 = 0;
                } else {
                    par0 = (par0 + pb) & 1u;
                    par1 = (par1 + pb) & 1u;
                }
            }
            const double incl = warp_scan(p), total = __shfl_sync(0xffffffffu, incl, 31);
            double lo, hi;
            if (all32(nonneg)) {  // the warp's prefixes rise from 0 to its total, which is its sum of |b|
                lo = 0.0;
                hi = total;
                abs_sum = total;
            } else {
                const double offset = incl - p;
                lo = warp_min(offset + pmin);
                hi = warp_max(offset + pmax);
                for (unsigned d = 16; d > 0; d >>= 1) abs_sum = abs_sum + __shfl_xor_sync(0xffffffffu, abs_sum, d);
            }
            unsigned ties = 0;
#pragma unroll
            for (unsigned r = 0; r < kPer; ++r) ties += __popc(__ballot_sync(0xffffffffu, tie_bits >> r & 1u));
            // The lanes' parity functions composed in lane order (lane 0 ends with lanes 0..31);
            // without ties, the total's parity alone.
            const unsigned pt = parity_of(total);
            unsigned f = parity_fn(0, pt, 0, (1u + pt) & 1u);
            if (ties > 0) {
                f = parity_fn(e0, par0, e1, par1);
                for (unsigned d = 1; d < 32; d <<= 1) {
                    const unsigned next = __shfl_down_sync(0xffffffffu, f, d);
                    if (lane + d < 32) f = parity_then(f, next);
                }
            }
            if (all32(ok)) ok_bits |= 1u << (4 * q + j);
            if (lane == 31) {
                s_tot[warp][q][j] = incl;
                s_lo[warp][q][j] = lo;
                s_hi[warp][q][j] = hi;
                s_abs[warp][q][j] = abs_sum;
                s_ties[warp][q][j] = ties;
            }
            if (lane == 0) s_par[warp][q][j] = f;
        }
    }
    if (lane == 0) s_ok[warp] = ok_bits;
    __syncthreads();
    if (threadIdx.x < G) {
        const int q = static_cast<int>(threadIdx.x);
        unsigned all = ~0u;
        for (unsigned w = 0; w < kWarps; ++w) all &= s_ok[w];
        ChunkMeta x{};
        x.guess = m[q].guess;
        x.flags = (all >> (4 * q)) & 0xfu;
        for (int j = Bits<T>::kCandFirst; j <= Bits<T>::kCandLast; ++j) {
            double off = 0.0, lo = 0.0, hi = 0.0, abs_sum = 0.0;
            unsigned ties = 0, f = kParityIdentity;
            for (unsigned w = 0; w < kWarps; ++w) {
                const double l = off + s_lo[w][q][j], h = off + s_hi[w][q][j];
                lo = w == 0 || l < lo ? l : lo;
                hi = w == 0 || h > hi ? h : hi;
                off = off + s_tot[w][q][j];
                abs_sum = abs_sum + s_abs[w][q][j];
                ties += s_ties[w][q][j];
                f = parity_then(f, s_par[w][q][j]);
            }
            if (!(abs_sum < 0x1p52)) x.flags &= ~(1u << j);
            if (ties > 0) x.flags |= 16u << j;
            x.total[0][j] = off + static_cast<double>(f & 0xfffu);
            x.total[1][j] = off + static_cast<double>(f >> 16 & 0xfffu);
            x.lo[j] = lo;
            x.hi[j] = hi + static_cast<double>(ties);
        }
        m[q] = x;
    }
}

/// Span figures: span sp of sequence (g, q) at binades around its first
/// chunk's guess, usable where each chunk is at that binade with prefixes
/// below 2^47. Block g * G + q (grid.y), one warp; lane l takes chunk kSpan sp + l.
template <int G>
__global__ void span_meta(Offsets o, const int* gate, const ChunkMeta* meta, ChunkMeta* span) {
    if (gate && *gate == 0) return;
    const unsigned g = blockIdx.y / G, q = blockIdx.y % G, lane = threadIdx.x;
    const unsigned long long chunks = o.chunk[g + 1] - o.chunk[g],
                             c0 = blockIdx.x * static_cast<unsigned long long>(kSpan);
    if (c0 >= chunks) return;  // uniform per block
    const bool in = c0 + lane < chunks;
    ChunkMeta x{};
    if (in) x = meta[(o.chunk[g] + c0 + lane) * G + q];
    const int guess = __shfl_sync(0xffffffffu, x.guess, 0);
    ChunkMeta out{};
    out.guess = guess;
    if (all32(!in || (x.flags & 8u))) out.flags |= 8u;
    for (int j = 0; j < 3; ++j) {
        const int jj = guess + j - 1 - x.guess + 1;  // this chunk's candidate at that binade
        bool ok = true, ties = false;
        double t0 = 0.0, t1 = 0.0, lo = 0.0, hi = 0.0;  // lanes past the last chunk: nothing added
        if (in) {
            ok = jj >= 0 && jj < 3 && (x.flags >> jj & 1u);
            if (ok) {
                t0 = x.total[0][jj];
                t1 = x.total[1][jj];
                lo = x.lo[jj];
                hi = x.hi[jj];
                ties = (x.flags >> (4 + jj) & 1u) != 0;
                ok = fabs(lo) < 0x1p47 && fabs(hi) < 0x1p47;
            }
            if (!ok) t0 = t1 = lo = hi = 0.0;
        }
        // Offsets of this chunk: at least the least totals before it, at most the greatest.
        const double least = t0 < t1 ? t0 : t1, most = t0 < t1 ? t1 : t0;
        const double least_incl = warp_scan(least), most_incl = warp_scan(most);
        const double l = warp_min(least_incl - least + lo), h = warp_max(most_incl - most + hi);
        // The totals for S even and odd: the chunks' functions composed in lane order.
        double f0 = t0, f1 = t1;
        unsigned fo = (parity_of(t0) & 1u) | ((1u + parity_of(t1)) & 1u) << 1;  // parity after, from even / odd
        for (unsigned d = 1; d < 32; d <<= 1) {
            const double n0 = __shfl_down_sync(0xffffffffu, f0, d), n1 = __shfl_down_sync(0xffffffffu, f1, d);
            const unsigned no = __shfl_down_sync(0xffffffffu, fo, d);
            if (lane + d < 32) {
                const unsigned a0 = fo & 1u, a1 = fo >> 1 & 1u;
                f0 = f0 + (a0 ? n1 : n0);
                f1 = f1 + (a1 ? n1 : n0);
                fo = (no >> a0 & 1u) | (no >> a1 & 1u) << 1;
            }
        }
        if (all32(ok)) out.flags |= 1u << j;
        if (!all32(!ties)) out.flags |= 16u << j;
        out.total[0][j] = __shfl_sync(0xffffffffu, f0, 0);
        out.total[1][j] = __shfl_sync(0xffffffffu, f1, 0);
        out.lo[j] = l;
        out.hi[j] = h;
    }
    if (lane == 0) span[(o.span[g] + blockIdx.x) * G + q] = out;
}

/// s after a chunk or span with figures x, when it can be taken whole (see
/// the file comment); false and s unchanged otherwise.
template <typename T>
__device__ inline bool take_whole(T& s, const ChunkMeta& x) {
    using B = Bits<T>;
    using U = typename B::U;
    constexpr U kOne = U{1} << B::kMant;  // the implicit bit
    constexpr U kSignExp = ~(kOne - 1);
    const U bits = B::of(s);
    const unsigned ex = static_cast<unsigned>(bits >> B::kMant) & B::kExpMask;
    if (bits == 0 && (x.flags & 8u)) return true;  // +0 plus zeros of either sign
    if (ex == 0 || ex == B::kExpMask) return false;
    const int j = static_cast<int>(ex) - B::kBias - x.guess + 1;
    if (j < 0 || j >= 3 || !(x.flags >> j & 1u)) return false;
    const bool neg = (bits >> (8 * sizeof(U) - 1)) != 0;
    if (neg && (x.flags >> (4 + j) & 1u)) return false;  // ties: figured for s > 0 only
    const auto S = static_cast<long long>((bits & (kOne - 1)) | kOne);
    const auto total = static_cast<long long>(x.total[S & 1][j]), lo = static_cast<long long>(x.lo[j]),
               hi = static_cast<long long>(x.hi[j]);
    const long long low = neg ? S - hi : S + lo, high = neg ? S - lo : S + hi;
    constexpr auto one = static_cast<long long>(kOne);
    if (low < one + 1 || high > 2 * one - 2) return false;
    const long long next = neg ? S - total : S + total;
    s = B::from((bits & kSignExp) | (static_cast<U>(next) - kOne));
    return true;
}

/// Block g * G + q (one warp): sums[g * G + q] = the sequential sum of sequence (g, q).
template <typename T, class Src>
__global__ void walk(Src src, Offsets o, const int* gate, const ChunkMeta* meta, const ChunkMeta* span, T* sums) {
    constexpr int G = Src::kTerms;
    __shared__ ChunkMeta smeta[kSpan], sspan[32];
    __shared__ T stage[kChunk];
    if (gate && *gate == 0) return;
    const unsigned g = blockIdx.x / G, q = blockIdx.x % G;
    const unsigned long long n = src.n(g), chunks = o.chunk[g + 1] - o.chunk[g], spans = o.span[g + 1] - o.span[g];
    const ChunkMeta* cm = meta + o.chunk[g] * G + q;
    const ChunkMeta* sm = span + o.span[g] * G + q;
    T s = 0;  // the same value in every lane
    for (unsigned long long sp = 0; sp < spans; ++sp) {
        if (sp % 32 == 0) {  // the next 32 spans' figures, loaded together
            __syncwarp();
            if (sp + threadIdx.x < spans) sspan[threadIdx.x] = sm[(sp + threadIdx.x) * G];
            __syncwarp();
        }
        if (take_whole(s, sspan[sp % 32])) continue;
        const unsigned long long c0 = sp * kSpan;
        if (c0 + threadIdx.x < chunks) smeta[threadIdx.x] = cm[(c0 + threadIdx.x) * G];
        __syncwarp();
        const unsigned m = chunks - c0 < kSpan ? static_cast<unsigned>(chunks - c0) : kSpan;
        for (unsigned c = 0; c < m; ++c) {
            if (take_whole(s, smeta[c])) continue;
            // The CPU's loop over this chunk.
            const unsigned long long base = (c0 + c) * kChunk;
            const unsigned len = n - base < kChunk ? static_cast<unsigned>(n - base) : kChunk;
#pragma unroll 8
            for (unsigned r = 0; r < kChunk / 32; ++r) {  // unrolled: the sources' loads in flight together
                const unsigned i = r * 32 + threadIdx.x;
                if (i < len) {
                    T t[G];
                    src.terms(g, base + i, t);
                    T mine = t[0];
#pragma unroll
                    for (int k = 1; k < G; ++k) mine = k == static_cast<int>(q) ? t[k] : mine;  // no local memory
                    stage[i] = mine;
                }
            }
            __syncwarp();
            if (threadIdx.x == 0) {
                unsigned i = 0;
                for (; i + 8 <= len; i += 8) {  // eight loads in flight, then the eight additions in order
                    T x[8];
#pragma unroll
                    for (unsigned r = 0; r < 8; ++r) x[r] = stage[i + r];
#pragma unroll
                    for (unsigned r = 0; r < 8; ++r) s = s + x[r];
                }
                for (; i < len; ++i) s = s + stage[i];
            }
            s = __shfl_sync(0xffffffffu, s, 0);
            __syncwarp();
        }
        __syncwarp();
    }
    if (threadIdx.x == 0) sums[blockIdx.x] = s;
}

/// sums[g * kTerms + q] (device) = the sequential sum from +0 of sequence (g, q),
/// for g < o.groups, in T (float or double). With a gate (device, may be set by
/// earlier work on `st`), only when *gate != 0; else nothing is written.
/// `scratch`: scratch_bytes<Src::kTerms>(o) bytes.
template <typename T, class Src>
void launch_ordered(const Src& src, const Offsets& o, const int* gate, void* scratch, T* sums, cudaStream_t st) {
    constexpr int G = Src::kTerms;
    if (o.groups == 0) return;
    auto* p = static_cast<unsigned char*>(scratch);
    auto* csum = reinterpret_cast<double*>(p);
    p += align256(o.chunk[o.groups] * G * sizeof(double));
    auto* meta = reinterpret_cast<ChunkMeta*>(p);
    p += align256(o.chunk[o.groups] * G * sizeof(ChunkMeta));
    auto* span = reinterpret_cast<ChunkMeta*>(p);
    if (o.widest_chunks > 0) {
        const dim3 grid(static_cast<unsigned>(o.widest_chunks), o.groups);
        chunk_sums<T, Src><<<grid, kThreads, 0, st>>>(src, o, gate, csum);
        chunk_guesses<T, G><<<o.groups * G, 1024, 0, st>>>(o, gate, csum, meta);
        chunk_meta<T, Src><<<grid, kThreads, 0, st>>>(src, o, gate, meta);
        span_meta<G><<<dim3(static_cast<unsigned>(o.widest_spans), o.groups * G), 32, 0, st>>>(o, gate, meta, span);
    }
    walk<T, Src><<<o.groups * G, 32, 0, st>>>(src, o, gate, meta, span, sums);
}

}  // namespace vmaf::floatfeat::cuda::source_sum
