// ADM on the device: per scale a fused DWT (both pictures), a fused
// decouple + CSF pass, and a contrast-masking + den pass that reduces each
// row and adds its rounded, shifted sum to the frame's totals. The integer
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
    i32* A[2];         ///< band A of ref / dis (int32, also scale 0)
    void* det[2][3];   ///< H, V, D of ref / dis
    void* r[3];        ///< restored
    void* a[3];        ///< additive
    void* cen_a[3];    ///< |csf(a)| / 15 (CM centre of the DLM masker)
    void* flt_a[3];    ///< |csf(a)| / 30
    void* cen_r[3];
    void* flt_r[3];
};


std::size_t align_up(std::size_t v) { return (v + 255) & ~std::size_t{255}; }

/// Lays the four scales out in `base` (or only sizes them when base is null).
std::size_t layout(unsigned w, unsigned h, char* base, ScaleBufs out[4]) {
    std::size_t off = 0;
    unsigned bw = w, bh = h;
    for (int s = 0; s < 4; ++s) {
        bw = (bw + 1) / 2;
        bh = (bh + 1) / 2;
        const std::size_t n = static_cast<std::size_t>(bw) * bh;
        const std::size_t es = s == 0 ? 2 : 4;
        auto take = [&](std::size_t bytes) {
            void* p = base ? base + off : nullptr;
            off += align_up(bytes);
            return p;
        };
        ScaleBufs b{};
        for (int side = 0; side < 2; ++side) b.A[side] = static_cast<i32*>(take(n * 4));
        for (int side = 0; side < 2; ++side)
            for (int t = 0; t < 3; ++t) b.det[side][t] = take(n * es);
        for (int t = 0; t < 3; ++t) {
            b.r[t] = take(n * es);
            b.a[t] = take(n * es);
            b.cen_a[t] = take(n * es);
            b.flt_a[t] = take(n * es);
            b.cen_r[t] = take(n * es);
            b.flt_r[t] = take(n * es);
        }
        if (out) out[s] = b;
    }
    return off;
}

// ---------------------------------------------------------------------------
// DWT

struct DwtOut {
    i32* A;
    void* det[3];  ///< H, V, D
};

template <typename Sample>
__global__ void dwt0(const unsigned char* ref, const unsigned char* dis, std::size_t pitch, int w, int h, int ow,
                     int oh, unsigned bpc, DwtOut o_ref, DwtOut o_dis) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (j >= ow || i >= oh) return;
    const unsigned char* src = blockIdx.z ? dis : ref;
    const DwtOut& o = blockIdx.z ? o_dis : o_ref;
    const int shift_v = static_cast<int>(bpc);
    const i64 add_v = i64{1} << (bpc - 1);
    const Sample* rows[4];
    for (int k = 0; k < 4; ++k) rows[k] = reinterpret_cast<const Sample*>(src + mirror(2 * i - 1 + k, h) * pitch);
    i16 lo[4], hi[4];
    for (int c = 0; c < 4; ++c) {
        const int col = mirror(2 * j - 1 + c, w);
        i64 acc_lo = 0, acc_hi = 0;
        for (int k = 0; k < 4; ++k) {
            const i64 s = rows[k][col];
            acc_lo += kLo[k] * s;
            acc_hi += kHi[k] * s;
        }
        acc_lo -= kLoSum * add_v;
        lo[c] = static_cast<i16>((acc_lo + add_v) >> shift_v);
        hi[c] = static_cast<i16>((acc_hi + add_v) >> shift_v);
    }
    i64 sa = 0, sv = 0, sh = 0, sd = 0;
    for (int k = 0; k < 4; ++k) {
        sa += kLo[k] * i64{lo[k]};
        sv += kHi[k] * i64{lo[k]};
        sh += kLo[k] * i64{hi[k]};
        sd += kHi[k] * i64{hi[k]};
    }
    const std::size_t idx = static_cast<std::size_t>(i) * ow + j;
    o.A[idx] = static_cast<i16>((sa + 32768) >> 16);
    static_cast<i16*>(o.det[1])[idx] = static_cast<i16>((sv + 32768) >> 16);
    static_cast<i16*>(o.det[0])[idx] = static_cast<i16>((sh + 32768) >> 16);
    static_cast<i16*>(o.det[2])[idx] = static_cast<i16>((sd + 32768) >> 16);
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

struct DecoupleArgs {
    const void* o[3];
    const void* t[3];
    ScaleBufs b;
    Region sup;
    int w, h;
    u32 rf[3];
    double egl;
    float cos1;
    bool aim;
};

__device__ __forceinline__ void csf0(i16 src, u32 rf, int shift, i32 add, i16& cen, i16& flt) {
    const i32 v = static_cast<i32>(rf) * src;
    const i16 c = static_cast<i16>((v + add) >> shift);
    const i32 ac = c < 0 ? -i32{c} : i32{c};
    flt = static_cast<i16>((4369 * ac + 2048) >> 12);
    cen = static_cast<i16>((8738 * ac + 2048) >> 12);
}

__global__ void decouple_csf0(DecoupleArgs g, const i32* lut) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (j >= g.w || i >= g.h) return;
    const std::size_t idx = static_cast<std::size_t>(i) * g.w + j;
    auto put = [&](void* const* arr, int t, i16 v) { static_cast<i16*>(arr[t])[idx] = v; };
    if (j < g.sup.left || j >= g.sup.right || i < g.sup.top || i >= g.sup.bottom) {
        for (int t = 0; t < 3; ++t) {
            put(g.b.r, t, 0);
            put(g.b.a, t, 0);
            put(g.b.cen_a, t, 0);
            put(g.b.flt_a, t, 0);
            put(g.b.cen_r, t, 0);
            put(g.b.flt_r, t, 0);
        }
        return;
    }
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
        put(g.b.r, t, rst);
        put(g.b.a, t, add);
        i16 cen, flt;
        csf0(add, g.rf[t], kShift[t], kAdd[t], cen, flt);
        put(g.b.cen_a, t, cen);
        put(g.b.flt_a, t, flt);
        if (g.aim) {
            csf0(rst, g.rf[t], kShift[t], kAdd[t], cen, flt);
            put(g.b.cen_r, t, cen);
            put(g.b.flt_r, t, flt);
        }
    }
}

__device__ __forceinline__ void csf123(i32 src, u32 rf, i32& cen, i32& flt) {
    const i32 c = static_cast<i32>((i64{rf} * src + (i64{1} << 27)) >> 28);
    const i64 ac = c < 0 ? -i64{c} : i64{c};
    flt = static_cast<i32>((143165577LL * ac + kQ32Round) >> 32);
    cen = static_cast<i32>((286331153LL * ac + kQ32Round) >> 32);
}

__global__ void decouple_csf123(DecoupleArgs g, const i32* lut) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (j >= g.w || i >= g.h) return;
    const std::size_t idx = static_cast<std::size_t>(i) * g.w + j;
    auto put = [&](void* const* arr, int t, i32 v) { static_cast<i32*>(arr[t])[idx] = v; };
    if (j < g.sup.left || j >= g.sup.right || i < g.sup.top || i >= g.sup.bottom) {
        for (int t = 0; t < 3; ++t) {
            put(g.b.r, t, 0);
            put(g.b.a, t, 0);
            put(g.b.cen_a, t, 0);
            put(g.b.flt_a, t, 0);
            put(g.b.cen_r, t, 0);
            put(g.b.flt_r, t, 0);
        }
        return;
    }
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
        put(g.b.r, t, rst);
        put(g.b.a, t, add);
        i32 cen, flt;
        csf123(add, g.rf[t], cen, flt);
        put(g.b.cen_a, t, cen);
        put(g.b.flt_a, t, flt);
        if (g.aim) {
            csf123(rst, g.rf[t], cen, flt);
            put(g.b.cen_r, t, cen);
            put(g.b.flt_r, t, flt);
        }
    }
}

// ---------------------------------------------------------------------------
// Contrast masking + den, one block per row of the scoring region.

constexpr int kRowThreads = 256;

struct CmArgs {
    const void* target[3];
    const void* cen[3];
    const void* flt[3];
};

struct RowArgs {
    CmArgs dlm, aim;
    const void* den[3];  ///< ref detail bands
    ScaleParams sp;
    bool do_aim;
    bool do_den;  ///< den is computed once per frame, with the first gain limit
    int scale;
};

template <typename T>
__device__ __forceinline__ u32 mask_threshold(const CmArgs& c, int w, int up, int i, int down, int j) {
    const int lf = j == 0 ? 1 : j - 1, rt = j == w - 1 ? w - 1 : j + 1;
    u32 thr = 0;
    const std::size_t ru = static_cast<std::size_t>(up) * w, rc = static_cast<std::size_t>(i) * w,
                      rd = static_cast<std::size_t>(down) * w;
    for (int t = 0; t < 3; ++t) {
        const T* f = static_cast<const T*>(c.flt[t]);
        const T* m = static_cast<const T*>(c.cen[t]);
        u32 s = static_cast<u32>(f[ru + lf]) + static_cast<u32>(f[ru + j]) + static_cast<u32>(f[ru + rt]);
        s += static_cast<u32>(f[rc + lf]) + static_cast<u32>(m[rc + j]) + static_cast<u32>(f[rc + rt]);
        s += static_cast<u32>(f[rd + lf]) + static_cast<u32>(f[rd + j]) + static_cast<u32>(f[rd + rt]);
        thr += s;
    }
    return thr;
}

__device__ __forceinline__ void cm0_px(const CmArgs& c, const ScaleParams& sp, int up, int i, int down, int j,
                                       i64 inner[3]) {
    constexpr int kShiftSub[3] = {10, 10, 12};
    constexpr int kShiftSq[3] = {29, 29, 30};
    constexpr i64 kAddSq[3] = {268435456, 268435456, 536870912};
    const u32 thr = mask_threshold<i16>(c, sp.w, up, i, down, j);
    const std::size_t idx = static_cast<std::size_t>(i) * sp.w + j;
    for (int t = 0; t < 3; ++t) {
        i32 x = i32{static_cast<const i16*>(c.target[t])[idx]} * static_cast<i32>(sp.rf[t]);
        x = static_cast<i32>(static_cast<u32>(x < 0 ? -x : x) - (thr << kShiftSub[t]));
        x = x < 0 ? 0 : x;
        const i32 x_sq = static_cast<i32>((i64{x} * x + kAddSq[t]) >> kShiftSq[t]);
        inner[t] += (i64{x_sq} * x + sp.cm_add_cub[t]) >> sp.cm_shift_cub[t];
    }
}

__device__ __forceinline__ void cm123_px(const CmArgs& c, const ScaleParams& sp, int up, int i, int down, int j,
                                         i64 inner[3]) {
    const u32 thr = mask_threshold<i32>(c, sp.w, up, i, down, j);
    const std::size_t idx = static_cast<std::size_t>(i) * sp.w + j;
    for (int t = 0; t < 3; ++t) {
        i32 x = static_cast<i32>((i64{static_cast<const i32*>(c.target[t])[idx]} * sp.rf[t] + (i64{1} << 27)) >> 28);
        const u32 ax = x < 0 ? 0u - static_cast<u32>(x) : static_cast<u32>(x);
        x = static_cast<i32>(ax - thr);
        x = x < 0 ? 0 : x;
        const i32 x_sq = static_cast<i32>((i64{x} * x + 536870912) >> 30);
        inner[t] += (i64{x_sq} * x + sp.cm_add_cub[t]) >> sp.cm_shift_cub[t];
    }
}

using vmaf::cuda::warp_sum;

template <bool Scale0>
__global__ void __launch_bounds__(kRowThreads) cm_den_rows(RowArgs a, u64* sums) {
    const ScaleParams& sp = a.sp;
    const int i = sp.score.top + static_cast<int>(blockIdx.x);
    const int h = sp.h, w = sp.w;
    const int up = i == 0 ? 1 : i - 1, down = i == h - 1 ? h - 1 : i + 1;
    i64 dlm[3] = {0, 0, 0}, aim[3] = {0, 0, 0};
    u64 den[3] = {0, 0, 0};
    for (int j = sp.score.left + static_cast<int>(threadIdx.x); j < sp.score.right; j += kRowThreads) {
        const std::size_t idx = static_cast<std::size_t>(i) * w + j;
        if (Scale0) {
            cm0_px(a.dlm, sp, up, i, down, j, dlm);
            if (a.do_aim) cm0_px(a.aim, sp, up, i, down, j, aim);
            if (a.do_den)
            for (int t = 0; t < 3; ++t) {
                const i32 b = static_cast<const i16*>(a.den[t])[idx];
                const u64 x = static_cast<u16>(b < 0 ? -b : b);
                den[t] += x * x * x;
            }
        } else {
            cm123_px(a.dlm, sp, up, i, down, j, dlm);
            if (a.do_aim) cm123_px(a.aim, sp, up, i, down, j, aim);
            if (a.do_den)
            for (int t = 0; t < 3; ++t) {
                const i64 b = static_cast<const i32*>(a.den[t])[idx];
                const u64 x = static_cast<u32>(b < 0 ? -b : b);
                den[t] += ((((x * x) + sp.den_add_sq) >> sp.den_shift_sq) * x + sp.den_add_cub) >> sp.den_shift_cub;
            }
        }
    }
    u64 v[9];
    for (int t = 0; t < 3; ++t) {
        v[t] = den[t];
        v[3 + t] = static_cast<u64>(dlm[t]);
        v[6 + t] = static_cast<u64>(aim[t]);
    }
    __shared__ u64 part[kRowThreads / 32][9];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int k = 0; k < 9; ++k) {
        const u64 s = warp_sum(v[k]);
        if (lane == 0) part[warp][k] = s;
    }
    __syncthreads();
    if (threadIdx.x < 9) {
        const int k = threadIdx.x;
        u64 s = 0;
        for (int q = 0; q < kRowThreads / 32; ++q) s += part[q][k];
        u64 add;
        if (k < 3) {
            add = (s + sp.den_add_acc) >> sp.den_shift_acc;
        } else {
            add = static_cast<u64>((static_cast<i64>(s) + sp.cm_add_row) >> sp.cm_shift_row);
        }
        if (add) atomicAdd(sums + a.scale * kSumsPerScale + k, add);
    }
}

}  // namespace

std::size_t scratch_bytes(unsigned w, unsigned h) { return layout(w, h, nullptr, nullptr); }

void launch_adm(const void* ref, const void* dis, std::size_t pitch, const FrameParams& p, const GainLimits& egl,
                void* scratch, const std::int32_t* lut, unsigned long long* sums, cudaStream_t st) {
    ScaleBufs b[4];
    layout(static_cast<unsigned>(p.s[0].in_w), static_cast<unsigned>(p.s[0].in_h), static_cast<char*>(scratch), b);
    const dim3 block(32, 8);
    for (int s = 0; s < 4; ++s) {
        const ScaleParams& sp = p.s[s];
        const dim3 grid((sp.w + 31) / 32, (sp.h + 7) / 8, 1);
        const dim3 grid2((sp.w + 31) / 32, (sp.h + 7) / 8, 2);
        DwtOut o[2];
        for (int side = 0; side < 2; ++side) {
            o[side].A = b[s].A[side];
            for (int t = 0; t < 3; ++t) o[side].det[t] = b[s].det[side][t];
        }
        if (s == 0) {
            if (p.bpc == 8)
                dwt0<unsigned char><<<grid2, block, 0, st>>>(static_cast<const unsigned char*>(ref),
                                                            static_cast<const unsigned char*>(dis), pitch, sp.in_w,
                                                            sp.in_h, sp.w, sp.h, p.bpc, o[0], o[1]);
            else
                dwt0<unsigned short><<<grid2, block, 0, st>>>(static_cast<const unsigned char*>(ref),
                                                             static_cast<const unsigned char*>(dis), pitch, sp.in_w,
                                                             sp.in_h, sp.w, sp.h, p.bpc, o[0], o[1]);
        } else {
            dwt123<<<grid2, block, 0, st>>>(b[s - 1].A[0], b[s - 1].A[1], sp.in_w, sp.in_h, sp.w, sp.h, sp.add_v,
                                            sp.shift_v, sp.add_h, sp.shift_h, o[0], o[1]);
        }
        if (s == 0 && p.skip_scale0) continue;
        const int rows = sp.score.bottom - sp.score.top;
        // Per gain limit: decouple + CSF into the scale's buffers, then
        // masking (and, with the first limit, den) over them; the buffers
        // are reused by the next limit after the masking (same stream).
        for (unsigned j = 0; j < egl.n; ++j) {
            DecoupleArgs d{};
            for (int t = 0; t < 3; ++t) {
                d.o[t] = b[s].det[0][t];
                d.t[t] = b[s].det[1][t];
                d.rf[t] = sp.rf[t];
            }
            d.b = b[s];
            d.sup = sp.support;
            d.w = sp.w;
            d.h = sp.h;
            d.egl = egl.v[j];
            d.cos1 = p.cos1deg_sq;
            d.aim = !p.skip_aim;
            if (s == 0)
                decouple_csf0<<<grid, block, 0, st>>>(d, lut);
            else
                decouple_csf123<<<grid, block, 0, st>>>(d, lut);
            RowArgs r{};
            for (int t = 0; t < 3; ++t) {
                r.dlm.target[t] = b[s].r[t];
                r.dlm.cen[t] = b[s].cen_a[t];
                r.dlm.flt[t] = b[s].flt_a[t];
                r.aim.target[t] = b[s].a[t];
                r.aim.cen[t] = b[s].cen_r[t];
                r.aim.flt[t] = b[s].flt_r[t];
                r.den[t] = b[s].det[0][t];
            }
            r.sp = sp;
            r.do_aim = !p.skip_aim;
            r.do_den = j == 0;
            r.scale = s;
            if (rows <= 0) continue;
            if (s == 0)
                cm_den_rows<true><<<rows, kRowThreads, 0, st>>>(r, sums + j * kSums);
            else
                cm_den_rows<false><<<rows, kRowThreads, 0, st>>>(r, sums + j * kSums);
        }
    }
}

}  // namespace vmaf::adm::cuda
