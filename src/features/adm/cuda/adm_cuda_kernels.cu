// ADM on the device: per scale a fused DWT (both pictures), then per gain
// limit one pass of decouple + CSF + contrast masking + den over tiles (the
// CSF planes never leave shared memory) that adds each row's exact sums to a
// row buffer, and a small pass that rounds and shifts each row's sums as the
// CPU does and adds them to the frame's totals. The integer
// arithmetic follows adm_scalar.cpp line for line (same casts, same wraps).
#include "backends/cuda/reduce.cuh"
#include "adm_cuda_kernels.hpp"

namespace vmaf::adm::cuda {

namespace {

using i16 = short;
using i32 = int;
using i64 = long long;
using u16 = unsigned short;
using u32 = unsigned int;
using u64 = unsigned long long;

__constant__ i32 kLo[4] = {15826, 27411, 7345, -4240};
__constant__ i32 kHi[4] = {-4240, -7345, 27411, -15826};
constexpr i64 kLoSum = 46342;
constexpr i64 kQ32Round = -2147483648LL;

__device__ __forceinline__ int mirror(int k, int n) {
    if (k < 0) return -k;
    if (k >= n) return 2 * n - k - 1;
    return k;
}

struct ScaleBufs {
    i32* A[2];        ///< band A of ref / dis (int32, also scale 0)
    void* det[2][3];  ///< H, V, D of ref / dis
};

/// Per-row sums of the masking pass (kSumsPerScale per scored row), zeroed
/// before each use and emptied by finish_rows.
constexpr std::size_t row_sums_count(unsigned h) { return static_cast<std::size_t>((h + 1) / 2) * kSumsPerScale; }

std::size_t align_up(std::size_t v) { return (v + 255) & ~std::size_t{255}; }

/// Lays the four scales out in `base` (or only sizes them when base is null),
/// then the row sums.
std::size_t layout(unsigned w, unsigned h, char* base, ScaleBufs out[4], u64** rows = nullptr) {
    std::size_t off = 0;
    auto take = [&](std::size_t bytes) {
        void* p = base ? base + off : nullptr;
        off += align_up(bytes);
        return p;
    };
    unsigned bw = w, bh = h;
    for (int s = 0; s < 4; ++s) {
        bw = (bw + 1) / 2;
        bh = (bh + 1) / 2;
        const std::size_t n = static_cast<std::size_t>(bw) * bh;
        const std::size_t es = s == 0 ? 2 : 4;
        ScaleBufs b{};
        for (int side = 0; side < 2; ++side) b.A[side] = static_cast<i32*>(take(n * 4));
        for (int side = 0; side < 2; ++side)
            for (int t = 0; t < 3; ++t) b.det[side][t] = take(n * es);
        if (out) out[s] = b;
    }
    u64* r = static_cast<u64*>(take(row_sums_count(h) * sizeof(u64)));
    if (rows) *rows = r;
    return off;
}

// ---------------------------------------------------------------------------
// DWT

struct DwtOut {
    i32* A;
    void* det[3];  ///< H, V, D
};

/// Scale 0's DWT of both pictures (blockIdx.z), tiled: a thread filters one
/// input column vertically for all kDwtRows output rows of the tile from one
/// run of loaded samples (lo and hi into shared memory), then four outputs of
/// a row horizontally. `Acc` holds the vertical sums: int is exact up to 15
/// bits a sample (|sum| < 50582 * 2^15 < 2^31), long long beyond; the
/// horizontal sums of 16-bit lo/hi always fit an int (54822 * 2^15 < 2^31).
constexpr int kDwtRows = 8, kDwtCols = 128, kDwtThreads = 256;

template <typename Sample, typename Acc>
__global__ void __launch_bounds__(kDwtThreads) dwt0(const unsigned char* ref, const unsigned char* dis,
                                                    std::size_t pitch, int w, int h, int ow, int oh, unsigned bpc,
                                                    DwtOut o_ref, DwtOut o_dis) {
    constexpr int kCols = 2 * kDwtCols + 2, kRun = 2 * (kDwtRows - 1) + 4;
    __shared__ i16 s_lo[kDwtRows][kCols], s_hi[kDwtRows][kCols];
    const unsigned char* src = blockIdx.z ? dis : ref;
    const DwtOut& o = blockIdx.z ? o_dis : o_ref;
    const int i0 = static_cast<int>(blockIdx.y) * kDwtRows, j0 = static_cast<int>(blockIdx.x) * kDwtCols;
    const int shift_v = static_cast<int>(bpc);
    const Acc add_v = Acc{1} << (bpc - 1);
    for (int c = threadIdx.x; c < kCols; c += kDwtThreads) {
        // Columns and rows no output reads may mirror out of range: clamped.
        const int col = min(max(mirror(2 * j0 - 1 + c, w), 0), w - 1);
        Acc v[kRun];
#pragma unroll
        for (int m = 0; m < kRun; ++m)
            v[m] = reinterpret_cast<const Sample*>(src + min(max(mirror(2 * i0 - 1 + m, h), 0), h - 1) * pitch)[col];
#pragma unroll
        for (int r = 0; r < kDwtRows; ++r) {
            Acc acc_lo = 0, acc_hi = 0;
#pragma unroll
            for (int k = 0; k < 4; ++k) {
                acc_lo += kLo[k] * v[2 * r + k];
                acc_hi += kHi[k] * v[2 * r + k];
            }
            acc_lo -= static_cast<Acc>(kLoSum) * add_v;
            s_lo[r][c] = static_cast<i16>((acc_lo + add_v) >> shift_v);
            s_hi[r][c] = static_cast<i16>((acc_hi + add_v) >> shift_v);
        }
    }
    __syncthreads();
    const int r = static_cast<int>(threadIdx.x) / 32, i = i0 + r;
    if (i >= oh) return;
#pragma unroll
    for (int q = 0; q < kDwtCols / 32; ++q) {
        const int jj = static_cast<int>(threadIdx.x) % 32 + 32 * q, j = j0 + jj;
        if (j >= ow) break;
        i32 sa = 0, sv = 0, sh = 0, sd = 0;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const i32 lo = s_lo[r][2 * jj + k], hi = s_hi[r][2 * jj + k];
            sa += kLo[k] * lo;
            sv += kHi[k] * lo;
            sh += kLo[k] * hi;
            sd += kHi[k] * hi;
        }
        const std::size_t idx = static_cast<std::size_t>(i) * ow + j;
        o.A[idx] = static_cast<i16>((sa + 32768) >> 16);
        static_cast<i16*>(o.det[1])[idx] = static_cast<i16>((sv + 32768) >> 16);
        static_cast<i16*>(o.det[0])[idx] = static_cast<i16>((sh + 32768) >> 16);
        static_cast<i16*>(o.det[2])[idx] = static_cast<i16>((sd + 32768) >> 16);
    }
}

__global__ void dwt123(const i32* in_ref, const i32* in_dis, int w, int h, int ow, int oh, i64 add_v, int shift_v,
                       i64 add_h, int shift_h, DwtOut o_ref, DwtOut o_dis) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (j >= ow || i >= oh) return;
    const i32* src = blockIdx.z ? in_dis : in_ref;
    const DwtOut& o = blockIdx.z ? o_dis : o_ref;
    const i32* rows[4];
    for (int k = 0; k < 4; ++k) rows[k] = src + static_cast<std::size_t>(mirror(2 * i - 1 + k, h)) * w;
    i32 lo[4], hi[4];
    for (int c = 0; c < 4; ++c) {
        const int col = mirror(2 * j - 1 + c, w);
        i64 acc_lo = 0, acc_hi = 0;
        for (int k = 0; k < 4; ++k) {
            acc_lo += kLo[k] * i64{rows[k][col]};
            acc_hi += kHi[k] * i64{rows[k][col]};
        }
        lo[c] = static_cast<i32>((acc_lo + add_v) >> shift_v);
        hi[c] = static_cast<i32>((acc_hi + add_v) >> shift_v);
    }
    i64 sa = 0, sv = 0, sh = 0, sd = 0;
    for (int k = 0; k < 4; ++k) {
        sa += kLo[k] * i64{lo[k]};
        sv += kHi[k] * i64{lo[k]};
        sh += kLo[k] * i64{hi[k]};
        sd += kHi[k] * i64{hi[k]};
    }
    const std::size_t idx = static_cast<std::size_t>(i) * ow + j;
    o.A[idx] = static_cast<i32>((sa + add_h) >> shift_h);
    static_cast<i32*>(o.det[1])[idx] = static_cast<i32>((sv + add_h) >> shift_h);
    static_cast<i32*>(o.det[0])[idx] = static_cast<i32>((sh + add_h) >> shift_h);
    static_cast<i32*>(o.det[2])[idx] = static_cast<i32>((sd + add_h) >> shift_h);
}

// ---------------------------------------------------------------------------
// Decouple + CSF

__device__ __forceinline__ bool angle_within_1deg(i64 ot_dp, i64 o_mag_sq, i64 t_mag_sq, float cos1) {
    const double dp = static_cast<double>(static_cast<float>(ot_dp)) / 4096.0;
    const double om = static_cast<double>(static_cast<float>(o_mag_sq)) / 4096.0;
    const double tm = static_cast<double>(static_cast<float>(t_mag_sq)) / 4096.0;
    return dp >= 0.0 && __dmul_rn(dp, dp) >= __dmul_rn(__dmul_rn(static_cast<double>(cos1), om), tm);
}

template <typename T>
__device__ __forceinline__ T apply_gain(T rst, T t, float rst_f, bool angle, double egl) {
    // The results lie between rst and t, so the (truncating) casts are in range.
    if (angle && rst_f > 0.f) {
        const double g = __dmul_rn(static_cast<double>(rst), egl);
        rst = static_cast<T>(static_cast<i32>(g < t ? g : static_cast<double>(t)));
    }
    if (angle && rst_f < 0.f) {
        const double g = __dmul_rn(static_cast<double>(rst), egl);
        rst = static_cast<T>(static_cast<i32>(g > t ? g : static_cast<double>(t)));
    }
    return rst;
}

__device__ __forceinline__ float rst_float(i64 k, i32 oo) {
    return __fmul_rn(__fdiv_rn(static_cast<float>(k), 32768.f), __fdiv_rn(static_cast<float>(oo), 64.f));
}

__device__ __forceinline__ void csf0(i16 src, u32 rf, int shift, i32 add, i16& cen, i16& flt) {
    const i32 v = static_cast<i32>(rf) * src;
    const i16 c = static_cast<i16>((v + add) >> shift);
    const i32 ac = c < 0 ? -i32{c} : i32{c};
    flt = static_cast<i16>((4369 * ac + 2048) >> 12);
    cen = static_cast<i16>((8738 * ac + 2048) >> 12);
}

__device__ __forceinline__ void csf123(i32 src, u32 rf, i32& cen, i32& flt) {
    const i32 c = static_cast<i32>((i64{rf} * src + (i64{1} << 27)) >> 28);
    const i64 ac = c < 0 ? -i64{c} : i64{c};
    flt = static_cast<i32>((143165577LL * ac + kQ32Round) >> 32);
    cen = static_cast<i32>((286331153LL * ac + kQ32Round) >> 32);
}

/// One band sample's decouple (restored r, additive a) and the CSF of the
/// maskers: u32 values as the masking threshold adds them (the CPU's casts of
/// its i16 / i32 cen and flt planes).
struct Decoupled {
    i32 r[3], a[3];
    u32 flt_a[3], cen_a[3], flt_r[3], cen_r[3];
};

struct FusedArgs {
    const void* o[3];    ///< ref detail bands H, V, D
    const void* t[3];    ///< dis detail bands
    ScaleParams sp;
    double egl;
    float cos1;
    bool aim;
    bool den;            ///< den is computed once per frame, with the first gain limit
};

template <bool Scale0>
__device__ __forceinline__ void decouple_at(const FusedArgs& g, const i32* lut, int i, int j, Decoupled& d) {
    const ScaleParams& sp = g.sp;
    if (j < sp.support.left || j >= sp.support.right || i < sp.support.top || i >= sp.support.bottom) {
        d = Decoupled{};
        return;
    }
    const std::size_t idx = static_cast<std::size_t>(i) * sp.w + j;
    if constexpr (Scale0) {
        i16 o[3], tt[3];
        for (int t = 0; t < 3; ++t) {
            o[t] = static_cast<const i16*>(g.o[t])[idx];
            tt[t] = static_cast<const i16*>(g.t[t])[idx];
        }
        const bool angle = angle_within_1deg(i64{o[0]} * tt[0] + i64{o[1]} * tt[1], i64{o[0]} * o[0] + i64{o[1]} * o[1],
                                             i64{tt[0]} * tt[0] + i64{tt[1]} * tt[1], g.cos1);
        constexpr int kShift[3] = {15, 15, 17};
        constexpr i32 kAdd[3] = {16384, 16384, 65535};
        for (int t = 0; t < 3; ++t) {
            const i16 oo = o[t], ttt = tt[t];
            const i32 tmp_k = oo == 0 ? 32768 : static_cast<i32>((i64{lut[oo]} * ttt + 16384) >> 15);
            const i32 k = tmp_k < 0 ? 0 : (tmp_k > 32768 ? 32768 : tmp_k);
            i16 rst = static_cast<i16>((k * oo + 16384) >> 15);
            const float rst_f = rst_float(k, oo);
            rst = apply_gain<i16>(rst, ttt, rst_f, angle, g.egl);
            const i16 add = static_cast<i16>(ttt - rst);
            d.r[t] = rst;
            d.a[t] = add;
            i16 cen, flt;
            csf0(add, sp.rf[t], kShift[t], kAdd[t], cen, flt);
            d.cen_a[t] = static_cast<u32>(cen);
            d.flt_a[t] = static_cast<u32>(flt);
            if (g.aim) {
                csf0(rst, sp.rf[t], kShift[t], kAdd[t], cen, flt);
                d.cen_r[t] = static_cast<u32>(cen);
                d.flt_r[t] = static_cast<u32>(flt);
            }
        }
    } else {
        i32 o[3], tt[3];
        for (int t = 0; t < 3; ++t) {
            o[t] = static_cast<const i32*>(g.o[t])[idx];
            tt[t] = static_cast<const i32*>(g.t[t])[idx];
        }
        const bool angle = angle_within_1deg(i64{o[0]} * tt[0] + i64{o[1]} * tt[1], i64{o[0]} * o[0] + i64{o[1]} * o[1],
                                             i64{tt[0]} * tt[0] + i64{tt[1]} * tt[1], g.cos1);
        for (int t = 0; t < 3; ++t) {
            const i32 oo = o[t], ttt = tt[t];
            i64 tmp_k = 32768;
            if (oo != 0) {
                const u32 abs_o = static_cast<u32>(oo < 0 ? -i64{oo} : i64{oo});
                const i64 sign = oo < 0 ? -1 : 1;
                int shift = 0;
                u32 msb = abs_o;
                if (abs_o >= 32768) {
                    shift = 17 - __clz(static_cast<int>(abs_o));
                    msb = (abs_o + (u32{1} << (shift - 1))) >> shift;
                }
                tmp_k = ((i64{lut[msb]} * ttt) * sign + (i64{1} << (14 + shift))) >> (15 + shift);
            }
            const i64 k = tmp_k < 0 ? 0 : (tmp_k > 32768 ? 32768 : tmp_k);
            i32 rst = static_cast<i32>((k * oo + 16384) >> 15);
            const float rst_f = rst_float(k, oo);
            rst = apply_gain<i32>(rst, ttt, rst_f, angle, g.egl);
            const i32 add = static_cast<i32>(static_cast<u32>(ttt) - static_cast<u32>(rst));
            d.r[t] = rst;
            d.a[t] = add;
            i32 cen, flt;
            csf123(add, sp.rf[t], cen, flt);
            d.cen_a[t] = static_cast<u32>(cen);
            d.flt_a[t] = static_cast<u32>(flt);
            if (g.aim) {
                csf123(rst, sp.rf[t], cen, flt);
                d.cen_r[t] = static_cast<u32>(cen);
                d.flt_r[t] = static_cast<u32>(flt);
            }
        }
    }
}

/// One pixel's contribution to a band's masked sum (the CPU's cm kernels,
/// given the target sample and the 3x3 threshold).
template <bool Scale0>
__device__ __forceinline__ i64 masked(i32 target, u32 thr, const ScaleParams& sp, int t) {
    if constexpr (Scale0) {
        constexpr int kShiftSub[3] = {10, 10, 12};
        constexpr int kShiftSq[3] = {29, 29, 30};
        constexpr i64 kAddSq[3] = {268435456, 268435456, 536870912};
        i32 x = target * static_cast<i32>(sp.rf[t]);
        x = static_cast<i32>(static_cast<u32>(x < 0 ? -x : x) - (thr << kShiftSub[t]));
        x = x < 0 ? 0 : x;
        const i32 x_sq = static_cast<i32>((i64{x} * x + kAddSq[t]) >> kShiftSq[t]);
        return (i64{x_sq} * x + sp.cm_add_cub[t]) >> sp.cm_shift_cub[t];
    } else {
        i32 x = static_cast<i32>((i64{target} * sp.rf[t] + (i64{1} << 27)) >> 28);
        const u32 ax = x < 0 ? 0u - static_cast<u32>(x) : static_cast<u32>(x);
        x = static_cast<i32>(ax - thr);
        x = x < 0 ? 0 : x;
        const i32 x_sq = static_cast<i32>((i64{x} * x + 536870912) >> 30);
        return (i64{x_sq} * x + sp.cm_add_cub[t]) >> sp.cm_shift_cub[t];
    }
}

/// Sum over each aligned group of 32 lanes (valid in the group's first lane),
/// whatever the hardware's warp width.
template <typename U>
__device__ __forceinline__ U sum32(U v) {
    for (int o = 16; o > 0; o >>= 1) v += gpu::shfl_down(v, o, 32);
    return v;
}

// A tile of kTileRows x kTileCols scored samples: decouple + CSF of the tile
// and its one-sample ring into shared memory, then per sample the 3x3 masking
// threshold, the masked sums (dlm, and aim) and den; each row's sums are
// added to that row's entries of the row-sums buffer (exact integer sums).
constexpr int kTileRows = 8, kTileCols = 64, kFusedThreads = 256;
constexpr int kRingRows = kTileRows + 2, kRingCols = kTileCols + 2;
static_assert(kFusedThreads == kTileRows * 32, "one 32-lane group per tile row");

template <bool Scale0>
__global__ void __launch_bounds__(kFusedThreads) decouple_mask(FusedArgs g, const i32* lut, u64* row_sums) {
    const ScaleParams& sp = g.sp;
    __shared__ u32 s_flt_a[3][kRingRows][kRingCols], s_flt_r[3][kRingRows][kRingCols];
    __shared__ u32 s_cen_a[3][kTileRows][kTileCols], s_cen_r[3][kTileRows][kTileCols];
    __shared__ i32 s_r[3][kTileRows][kTileCols], s_a[3][kTileRows][kTileCols];
    const int row0 = sp.score.top + static_cast<int>(blockIdx.y) * kTileRows;
    const int col0 = sp.score.left + static_cast<int>(blockIdx.x) * kTileCols;
    for (int q = threadIdx.x; q < kRingRows * kRingCols; q += kFusedThreads) {
        const int rr = q / kRingCols, cc = q % kRingCols;
        // The CPU's neighbours: row/column 1 above/left of 0, the last one below/right of itself.
        int i = row0 - 1 + rr, j = col0 - 1 + cc;
        i = i < 0 ? 1 : (i >= sp.h ? sp.h - 1 : i);
        j = j < 0 ? 1 : (j >= sp.w ? sp.w - 1 : j);
        i = i < sp.h ? i : sp.h - 1;
        j = j < sp.w ? j : sp.w - 1;
        Decoupled d{};
        decouple_at<Scale0>(g, lut, i, j, d);
        const bool inner = rr >= 1 && rr <= kTileRows && cc >= 1 && cc <= kTileCols;
        for (int t = 0; t < 3; ++t) {
            s_flt_a[t][rr][cc] = d.flt_a[t];
            s_flt_r[t][rr][cc] = d.flt_r[t];
            if (inner) {
                s_cen_a[t][rr - 1][cc - 1] = d.cen_a[t];
                s_cen_r[t][rr - 1][cc - 1] = d.cen_r[t];
                s_r[t][rr - 1][cc - 1] = d.r[t];
                s_a[t][rr - 1][cc - 1] = d.a[t];
            }
        }
    }
    __syncthreads();
    const int y = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
    const int i = row0 + y;
    i64 dlm[3] = {0, 0, 0}, aim[3] = {0, 0, 0};
    u64 den[3] = {0, 0, 0};
    if (i < sp.score.bottom) {
        for (int x = lane; x < kTileCols; x += 32) {
            const int j = col0 + x;
            if (j >= sp.score.right) break;
            // 3x3: the ring's flt around the centre's cen, per band, added as u32 (wrapping, as the CPU's).
            u32 thr_a = 0, thr_r = 0;
            for (int t = 0; t < 3; ++t) {
                thr_a += s_flt_a[t][y][x] + s_flt_a[t][y][x + 1] + s_flt_a[t][y][x + 2] + s_flt_a[t][y + 1][x] +
                         s_cen_a[t][y][x] + s_flt_a[t][y + 1][x + 2] + s_flt_a[t][y + 2][x] +
                         s_flt_a[t][y + 2][x + 1] + s_flt_a[t][y + 2][x + 2];
                if (g.aim)
                    thr_r += s_flt_r[t][y][x] + s_flt_r[t][y][x + 1] + s_flt_r[t][y][x + 2] + s_flt_r[t][y + 1][x] +
                             s_cen_r[t][y][x] + s_flt_r[t][y + 1][x + 2] + s_flt_r[t][y + 2][x] +
                             s_flt_r[t][y + 2][x + 1] + s_flt_r[t][y + 2][x + 2];
            }
            for (int t = 0; t < 3; ++t) {
                dlm[t] += masked<Scale0>(s_r[t][y][x], thr_a, sp, t);
                if (g.aim) aim[t] += masked<Scale0>(s_a[t][y][x], thr_r, sp, t);
            }
            if (g.den) {
                const std::size_t idx = static_cast<std::size_t>(i) * sp.w + j;
                for (int t = 0; t < 3; ++t) {
                    if constexpr (Scale0) {
                        const i32 b = static_cast<const i16*>(g.o[t])[idx];
                        const u64 v = static_cast<u16>(b < 0 ? -b : b);
                        den[t] += v * v * v;
                    } else {
                        const i64 b = static_cast<const i32*>(g.o[t])[idx];
                        const u64 v = static_cast<u32>(b < 0 ? -b : b);
                        den[t] += ((((v * v) + sp.den_add_sq) >> sp.den_shift_sq) * v + sp.den_add_cub) >>
                                  sp.den_shift_cub;
                    }
                }
            }
        }
    }
    u64 v[kSumsPerScale];
    for (int t = 0; t < 3; ++t) {
        v[t] = den[t];
        v[3 + t] = static_cast<u64>(dlm[t]);
        v[6 + t] = static_cast<u64>(aim[t]);
    }
    for (int k = 0; k < static_cast<int>(kSumsPerScale); ++k) {
        const u64 s = sum32(v[k]);
        if (lane == 0 && i < sp.score.bottom && s)
            atomicAdd(row_sums + static_cast<std::size_t>(i - sp.score.top) * kSumsPerScale + k, s);
    }
}

/// Each scored row's sums, rounded and shifted as the CPU does per row, added
/// to the frame's sums of this scale (block k: sum k); the row sums are left zero.
constexpr unsigned kFinishThreads = 256;
__global__ void __launch_bounds__(kFinishThreads) finish_rows(u64* row_sums, int rows, ScaleParams sp, int scale,
                                                              u64* sums) {
    const int k = static_cast<int>(blockIdx.x);
    u64 total = 0;
    for (int r = threadIdx.x; r < rows; r += kFinishThreads) {
        u64& cell = row_sums[static_cast<std::size_t>(r) * kSumsPerScale + k];
        const u64 s = cell;
        cell = 0;
        if (k < 3)
            total += (s + sp.den_add_acc) >> sp.den_shift_acc;
        else
            total += static_cast<u64>((static_cast<i64>(s) + sp.cm_add_row) >> sp.cm_shift_row);
    }
    total = vmaf::cuda::block_sum<kFinishThreads>(total);
    if (threadIdx.x == 0 && total) atomicAdd(sums + scale * kSumsPerScale + k, total);
}

}  // namespace

std::size_t scratch_bytes(unsigned w, unsigned h) { return layout(w, h, nullptr, nullptr); }

void launch_adm(const void* ref, const void* dis, std::size_t pitch, const FrameParams& p, const GainLimits& egl,
                void* scratch, const std::int32_t* lut, unsigned long long* sums, cudaStream_t st) {
    ScaleBufs b[4];
    u64* row_sums = nullptr;
    const auto w0 = static_cast<unsigned>(p.s[0].in_w), h0 = static_cast<unsigned>(p.s[0].in_h);
    layout(w0, h0, static_cast<char*>(scratch), b, &row_sums);
    cudaMemsetAsync(row_sums, 0, row_sums_count(h0) * sizeof(u64), st);
    const dim3 block(32, 8);
    for (int s = 0; s < 4; ++s) {
        const ScaleParams& sp = p.s[s];
        const dim3 grid2((sp.w + 31) / 32, (sp.h + 7) / 8, 2);
        DwtOut o[2];
        for (int side = 0; side < 2; ++side) {
            o[side].A = b[s].A[side];
            for (int t = 0; t < 3; ++t) o[side].det[t] = b[s].det[side][t];
        }
        if (s == 0) {
            const dim3 tiles((sp.w + kDwtCols - 1) / kDwtCols, (sp.h + kDwtRows - 1) / kDwtRows, 2);
            const auto* r8 = static_cast<const unsigned char*>(ref);
            const auto* d8 = static_cast<const unsigned char*>(dis);
            if (p.bpc == 8)
                dwt0<unsigned char, i32><<<tiles, kDwtThreads, 0, st>>>(r8, d8, pitch, sp.in_w, sp.in_h, sp.w, sp.h,
                                                                        p.bpc, o[0], o[1]);
            else if (p.bpc <= 15)
                dwt0<unsigned short, i32><<<tiles, kDwtThreads, 0, st>>>(r8, d8, pitch, sp.in_w, sp.in_h, sp.w, sp.h,
                                                                         p.bpc, o[0], o[1]);
            else
                dwt0<unsigned short, i64><<<tiles, kDwtThreads, 0, st>>>(r8, d8, pitch, sp.in_w, sp.in_h, sp.w, sp.h,
                                                                         p.bpc, o[0], o[1]);
        } else {
            dwt123<<<grid2, block, 0, st>>>(b[s - 1].A[0], b[s - 1].A[1], sp.in_w, sp.in_h, sp.w, sp.h, sp.add_v,
                                            sp.shift_v, sp.add_h, sp.shift_h, o[0], o[1]);
        }
        if (s == 0 && p.skip_scale0) continue;
        const int rows = sp.score.bottom - sp.score.top, cols = sp.score.right - sp.score.left;
        if (rows <= 0 || cols <= 0) continue;
        const dim3 tiles((cols + kTileCols - 1) / kTileCols, (rows + kTileRows - 1) / kTileRows);
        // Per gain limit: decouple + CSF + masking (and, with the first
        // limit, den) in one pass, then the rows' rounding into its sums.
        for (unsigned j = 0; j < egl.n; ++j) {
            FusedArgs g{};
            for (int t = 0; t < 3; ++t) {
                g.o[t] = b[s].det[0][t];
                g.t[t] = b[s].det[1][t];
            }
            g.sp = sp;
            g.egl = egl.v[j];
            g.cos1 = p.cos1deg_sq;
            g.aim = !p.skip_aim;
            g.den = j == 0;
            if (s == 0)
                decouple_mask<true><<<tiles, kFusedThreads, 0, st>>>(g, lut, row_sums);
            else
                decouple_mask<false><<<tiles, kFusedThreads, 0, st>>>(g, lut, row_sums);
            finish_rows<<<kSumsPerScale, kFinishThreads, 0, st>>>(row_sums, rows, sp, s, sums + j * kSums);
        }
    }
}

}  // namespace vmaf::adm::cuda
