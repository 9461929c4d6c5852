#include "features/float_common/cuda/float_device.cuh"
#include "float_adm_cuda_kernels.hpp"

namespace vmaf::floatfeat::cuda {

namespace {

std::size_t align(std::size_t bytes) { return (bytes + 255) & ~std::size_t{255}; }

dim3 grid_of(unsigned w, unsigned h) { return dim3((w + 31) / 32, (h + 7) / 8); }

/// floatfeat::to_float with offset -128.
__global__ void convert(const unsigned char* ref, const unsigned char* dist, std::size_t pitch, unsigned w,
                        unsigned h, unsigned bpc, float* a, float* b) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    const float scaler = bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : 256.0f;
    const std::size_t o = static_cast<std::size_t>(y) * w + x;
    a[o] = sample(ref + y * pitch, x, bpc, scaler) + -128.0f;
    b[o] = sample(dist + y * pitch, x, bpc, scaler) + -128.0f;
}

/// dwt_indices: tap t of output i reads 2i - 1 + t, mirrored (-k; 2n - k - 1).
__device__ __forceinline__ int dwt_index(int i, int t, int n) {
    const int k = 2 * i - 1 + t;
    return k < 0 ? -k : (k >= n ? 2 * n - k - 1 : k);
}

/// adm_dwt_rows of both images: lo/hi of output row i, float sums from 0, taps in order.
__global__ void dwt_vertical(const float* a, const float* b, unsigned w, unsigned h, unsigned oh, AdmConstants k,
                             AdmScratch sc) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned i = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || i >= oh) return;
    std::size_t rows[4];
#pragma unroll
    for (int t = 0; t < 4; ++t)
        rows[t] = static_cast<std::size_t>(dwt_index(static_cast<int>(i), t, static_cast<int>(h))) * w + x;
    const std::size_t o = static_cast<std::size_t>(i) * w + x;
    for (int n = 0; n < 2; ++n) {
        const float* s = n ? b : a;
        float lo = 0.0f, hi = 0.0f;
#pragma unroll
        for (int t = 0; t < 4; ++t) lo = lo + k.lo[t] * s[rows[t]];
#pragma unroll
        for (int t = 0; t < 4; ++t) hi = hi + k.hi[t] * s[rows[t]];
        sc.lohi[2 * n][o] = lo;
        sc.lohi[2 * n + 1][o] = hi;
    }
}

__device__ __forceinline__ float tap4(const float* f, float s0, float s1, float s2, float s3) {
    float acc = 0.0f;
    acc = acc + f[0] * s0;
    acc = acc + f[1] * s1;
    acc = acc + f[2] * s2;
    acc = acc + f[3] * s3;
    return acc;
}

/// dwt2's horizontal step: bands a, v (from lo), h, d (from hi) of both images.
__global__ void dwt_horizontal(unsigned w, unsigned ow, unsigned oh, AdmConstants k, AdmScratch sc, int set) {
    const unsigned j = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned i = blockIdx.y * blockDim.y + threadIdx.y;
    if (j >= ow || i >= oh) return;
    int c[4];
#pragma unroll
    for (int t = 0; t < 4; ++t) c[t] = dwt_index(static_cast<int>(j), t, static_cast<int>(w));
    const std::size_t row = static_cast<std::size_t>(i) * w, o = static_cast<std::size_t>(i) * ow + j;
    for (int n = 0; n < 2; ++n) {
        const float *lo = sc.lohi[2 * n] + row, *hi = sc.lohi[2 * n + 1] + row;
        float* const* out = sc.band[set] + 4 * n;
        out[0][o] = tap4(k.lo, lo[c[0]], lo[c[1]], lo[c[2]], lo[c[3]]);
        out[2][o] = tap4(k.hi, lo[c[0]], lo[c[1]], lo[c[2]], lo[c[3]]);
        out[1][o] = tap4(k.lo, hi[c[0]], hi[c[1]], hi[c[2]], hi[c[3]]);
        out[3][o] = tap4(k.hi, hi[c[0]], hi[c[1]], hi[c[2]], hi[c[3]]);
    }
}

/// rcpss(d) from the host's table of rcpss(1.m): the estimate of a normal d
/// is the mantissa's, its exponent negated; zero and subnormal inputs give
/// infinity, results below the normal range are flushed to zero (the host
/// checks this rule against its rcpss before the twin is used).
__device__ __forceinline__ float rcp_estimate(float d, const float* tab) {
    const unsigned u = __float_as_uint(d), sign = u & 0x80000000u, e = (u >> 23) & 0xFFu;
    if (e == 0) return __uint_as_float(sign | 0x7F800000u);
    if (e == 0xFFu) return (u & 0x007FFFFFu) ? __uint_as_float(u | 0x00400000u) : __uint_as_float(sign);
    const unsigned t = __float_as_uint(tab[u & 0x007FFFFFu]);
    const int ne = static_cast<int>((t >> 23) & 0xFFu) + 127 - static_cast<int>(e);
    if (ne <= 0) return __uint_as_float(sign);
    return __uint_as_float(sign | (static_cast<unsigned>(ne) << 23) | (t & 0x007FFFFFu));
}

/// The CPU's divs(n, d).
__device__ __forceinline__ float divs(float n, float d, const float* tab) {
    if (!tab) return __fdiv_rn(n, d);
    const float xi = rcp_estimate(d, tab);
    return n * (xi + xi * (1.0f - d * xi));
}

/// decouple's gain limit of one band.
__device__ __forceinline__ float limit(float rst, float t, double gain_limit) {
    if (rst > 0.0) {
        const double x = rst * gain_limit;
        return static_cast<float>(x < t ? x : static_cast<double>(t));
    }
    if (rst < 0.0) {
        const double x = rst * gain_limit;
        return static_cast<float>(x > t ? x : static_cast<double>(t));
    }
    return rst;
}

/// decouple, then csf's masking contributions of both parts, every band sample.
__global__ void decouple(unsigned w, unsigned h, AdmConstants k, int scale, double gain_limit, AdmScratch sc,
                         int set) {
    const unsigned j = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned i = blockIdx.y * blockDim.y + threadIdx.y;
    if (j >= w || i >= h) return;
    const std::size_t o = static_cast<std::size_t>(i) * w + j;
    float* const* b = sc.band[set];
    const float oh = b[1][o], ov = b[2][o], od = b[3][o];
    const float th = b[5][o], tv = b[6][o], td = b[7][o];
    const float eps = 1e-30f;
    float kh = divs(th, oh + eps, k.rcp), kv = divs(tv, ov + eps, k.rcp), kd = divs(td, od + eps, k.rcp);
    kh = kh < 0.0f ? 0.0f : (kh > 1.0f ? 1.0f : kh);
    kv = kv < 0.0f ? 0.0f : (kv > 1.0f ? 1.0f : kv);
    kd = kd < 0.0f ? 0.0f : (kd > 1.0f ? 1.0f : kd);
    float rh = kh * oh, rv = kv * ov, rd = kd * od;
    const float ot_dp = oh * th + ov * tv;
    const float o_mag_sq = oh * oh + ov * ov;
    const float t_mag_sq = th * th + tv * tv;
    const bool angle_flag = (ot_dp >= 0.0f) && (ot_dp * ot_dp >= k.cos_1deg_sq * o_mag_sq * t_mag_sq);
    if (angle_flag) {
        rh = limit(rh, th, gain_limit);
        rv = limit(rv, tv, gain_limit);
        rd = limit(rd, td, gain_limit);
    }
    const float r[3] = {rh, rv, rd}, a[3] = {th - rh, tv - rv, td - rd};
#pragma unroll
    for (int t = 0; t < 3; ++t) {
        sc.dec[t][o] = r[t];
        sc.dec[3 + t][o] = a[t];
        sc.dec[6 + t][o] = static_cast<float>(k.one_by_30 * fabs(static_cast<double>(k.fac[scale][t] * a[t])));
        sc.dec[9 + t][o] = static_cast<float>(k.one_by_30 * fabs(static_cast<double>(k.fac[scale][t] * r[t])));
    }
}

/// den_scale's per-sample arguments |f * ref band| (bands h, v, d).
struct DenTerm {
    const float* band[3];
    float fac[3];
    unsigned w;
    int left, top;
    bool cube;
    __device__ void operator()(unsigned x, unsigned y, float* t) const {
        const std::size_t o = static_cast<std::size_t>(y + top) * w + (x + left);
#pragma unroll
        for (int n = 0; n < 3; ++n) {
            const float v = fabsf(fac[n] * band[n][o]);
            t[n] = cube ? v * v * v : v;
        }
    }
};

/// cm's per-sample arguments: |src * f| less the masking threshold of
/// `mask` (CSF-weighted here) and its contributions `flt`, floored at 0.
struct CmTerm {
    const float* src[3];
    const float* mask[3];
    const float* flt[3];
    float fac[3];
    unsigned w, h;
    int left, top;
    bool bypass, cube;
    double one_by_15;
    __device__ void operator()(unsigned x, unsigned y, float* t) const {
        const int i = static_cast<int>(y) + top, j = static_cast<int>(x) + left;
        const int iw = static_cast<int>(w), ih = static_cast<int>(h);
        const std::size_t o = static_cast<std::size_t>(i) * w + j;
        float thr = 0.0f;
        if (!bypass) {
            const std::size_t ru = static_cast<std::size_t>(i == 0 ? 1 : i - 1) * w;
            const std::size_t rm = static_cast<std::size_t>(i) * w;
            const std::size_t rd = static_cast<std::size_t>(i == ih - 1 ? ih - 1 : i + 1) * w;
            const int jl = j == 0 ? 1 : j - 1, jr = j == iw - 1 ? iw - 1 : j + 1;
#pragma unroll
            for (int n = 0; n < 3; ++n) {
                const float* f = flt[n];
                float sum = 0.0f;
                sum = sum + f[ru + jl];
                sum = sum + f[ru + j];
                sum = sum + f[ru + jr];
                sum = sum + f[rm + jl];
                sum = static_cast<float>(sum + one_by_15 * fabs(static_cast<double>(fac[n] * mask[n][o])));
                sum = sum + f[rm + jr];
                sum = sum + f[rd + jl];
                sum = sum + f[rd + j];
                sum = sum + f[rd + jr];
                thr = thr + sum;
            }
        }
#pragma unroll
        for (int n = 0; n < 3; ++n) {
            float v = src[n][o] * fac[n];
            v = fabsf(v) - thr;
            v = v < 0.0f ? 0.0f : v;
            t[n] = cube ? v * v * v : v;
        }
    }
};

/// The raw arguments of a term, row-major per band (p_norm other than 3).
template <typename Term>
__global__ void store_terms(Term term, unsigned rw, unsigned rh, float* out) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= rw || y >= rh) return;
    float t[3];
    term(x, y, t);
    const std::size_t n = static_cast<std::size_t>(rw) * rh, o = static_cast<std::size_t>(y) * rw + x;
#pragma unroll
    for (int b = 0; b < 3; ++b) out[b * n + o] = t[b];
}

template <typename Term>
void pool(Term term, unsigned rw, unsigned rh, bool cube, float* out, cudaStream_t s) {
    if (cube)
        row_sums<3><<<(rh + kRowSumRows - 1) / kRowSumRows, dim3(32, 8), 0, s>>>(term, rw, rh, out);
    else
        store_terms<<<grid_of(rw, rh), dim3(32, 8), 0, s>>>(term, rw, rh, out);
}

}  // namespace

std::size_t adm_scratch_bytes(const AdmGeometry& g) {
    const std::size_t img = align(std::size_t{g.w} * g.h * sizeof(float));
    const std::size_t lohi = align(std::size_t{g.w} * g.bh[0] * sizeof(float));
    const std::size_t band = align(std::size_t{g.bw[0]} * g.bh[0] * sizeof(float));
    return 2 * img + 4 * lohi + 16 * band + 12 * band;
}

AdmScratch adm_scratch_layout(void* base, const AdmGeometry& g) {
    auto* p = static_cast<unsigned char*>(base);
    const std::size_t img = align(std::size_t{g.w} * g.h * sizeof(float));
    const std::size_t lohi = align(std::size_t{g.w} * g.bh[0] * sizeof(float));
    const std::size_t band = align(std::size_t{g.bw[0]} * g.bh[0] * sizeof(float));
    AdmScratch s{};
    for (auto& q : s.img) q = reinterpret_cast<float*>(p), p += img;
    for (auto& q : s.lohi) q = reinterpret_cast<float*>(p), p += lohi;
    for (auto& set : s.band)
        for (auto& q : set) q = reinterpret_cast<float*>(p), p += band;
    for (auto& q : s.dec) q = reinterpret_cast<float*>(p), p += band;
    return s;
}

void launch_float_adm(const void* ref, const void* dist, std::size_t pitch, const AdmGeometry& g,
                      const AdmConstants& k, const AdmScratch& sc, float* out, cudaStream_t s) {
    const dim3 block(32, 8);
    convert<<<grid_of(g.w, g.h), block, 0, s>>>(static_cast<const unsigned char*>(ref),
                                                static_cast<const unsigned char*>(dist), pitch, g.w, g.h, g.bpc,
                                                sc.img[0], sc.img[1]);
    const float *cur_ref = sc.img[0], *cur_dis = sc.img[1];
    for (int scale = 0; scale < 4; ++scale) {
        const int set = scale % 2;
        const unsigned cw = g.cw[scale], ch = g.ch[scale], bw = g.bw[scale], bh = g.bh[scale];
        dwt_vertical<<<grid_of(cw, bh), block, 0, s>>>(cur_ref, cur_dis, cw, ch, bh, k, sc);
        dwt_horizontal<<<grid_of(bw, bh), block, 0, s>>>(cw, bw, bh, k, sc, set);
        cur_ref = sc.band[set][0];
        cur_dis = sc.band[set][4];
        if (scale == 0 && g.skip0) continue;
        const unsigned rw = static_cast<unsigned>(g.right[scale] - g.left[scale]);
        const unsigned rh = static_cast<unsigned>(g.bottom[scale] - g.top[scale]);
        if (rw == 0 || rh == 0) continue;
        const std::size_t block_floats = g.cube ? rh : std::size_t{rw} * rh;
        float* o = out + g.out_off[scale];
        DenTerm den{{sc.band[set][1], sc.band[set][2], sc.band[set][3]},
                    {k.fac[scale][0], k.fac[scale][1], k.fac[scale][2]},
                    bw,
                    g.left[scale],
                    g.top[scale],
                    g.cube};
        pool(den, rw, rh, g.cube, o, s);
        CmTerm num{{sc.dec[0], sc.dec[1], sc.dec[2]},
                   {sc.dec[3], sc.dec[4], sc.dec[5]},
                   {sc.dec[6], sc.dec[7], sc.dec[8]},
                   {k.fac[scale][0], k.fac[scale][1], k.fac[scale][2]},
                   bw,
                   bh,
                   g.left[scale],
                   g.top[scale],
                   k.bypass_cm,
                   g.cube,
                   k.one_by_15};
        CmTerm aim = num;
        for (int t = 0; t < 3; ++t) {
            aim.src[t] = sc.dec[3 + t];
            aim.mask[t] = sc.dec[t];
            aim.flt[t] = sc.dec[9 + t];
        }
        // One limit at a time through the same decoupled bands (stream order).
        for (int j = 0; j < k.limits; ++j) {
            decouple<<<grid_of(bw, bh), block, 0, s>>>(bw, bh, k, scale, k.gain_limit[j], sc, set);
            pool(num, rw, rh, g.cube, o + (3 + 6 * j) * block_floats, s);
            pool(aim, rw, rh, g.cube, o + (6 + 6 * j) * block_floats, s);
        }
    }
}

}  // namespace vmaf::floatfeat::cuda
