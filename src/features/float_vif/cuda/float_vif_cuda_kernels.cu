#include "features/float_common/cuda/float_device.cuh"
#include "float_vif_cuda_kernels.hpp"

namespace vmaf::floatfeat::cuda {

namespace {

std::size_t align(std::size_t bytes) { return (bytes + 255) & ~std::size_t{255}; }

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

/// scale_frame of both images (w x h -> sw x sh), its expressions in its order.
__global__ void prescale(const float* a, const float* b, unsigned w, unsigned sw, unsigned sh, VifPrescale p,
                         float* oa, float* ob) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= sw || y >= sh) return;
    const std::size_t o = static_cast<std::size_t>(y) * sw + x;
    for (int n = 0; n < 2; ++n) {
        const float* s = n ? b : a;
        float v = 0.0f;
        if (p.method == 1) {
            v = s[static_cast<std::size_t>(p.y_idx[y]) * w + p.x_idx[x]];
        } else if (p.method == 2) {
            const float dy = p.y_w[y], dx = p.x_w[x];
            const float* r1 = s + static_cast<std::size_t>(p.y_idx[y]) * w;
            const float* r2 = s + static_cast<std::size_t>(p.y_idx[sh + y]) * w;
            const int x1 = p.x_idx[x], x2 = p.x_idx[sw + x];
            v = (1.0f - dy) * (1.0f - dx) * r1[x1] + (1.0f - dy) * dx * r1[x2] + dy * (1.0f - dx) * r2[x1] +
                dy * dx * r2[x2];
        } else {
            const int t = p.taps;
            const int *xi = p.x_idx + static_cast<std::size_t>(x) * t, *yi = p.y_idx + static_cast<std::size_t>(y) * t;
            const float *wx = p.x_w + static_cast<std::size_t>(x) * t, *wy = p.y_w + static_cast<std::size_t>(y) * t;
            float wsum = 0.0f;
            for (int j = 0; j < t; ++j)
                for (int i = 0; i < t; ++i) {
                    const float wgt = wx[i] * wy[j];
                    wsum = wsum + wgt;
                    v = v + s[static_cast<std::size_t>(yi[j]) * w + xi[i]] * wgt;
                }
            if (p.method == 4) v = __fdiv_rn(v, wsum);
        }
        (n ? ob : oa)[o] = v;
    }
}

/// conv_rows of both images (Tap::Value) at source rows i * 2 (the rows the
/// decimation keeps): per output a float sum from 0 of f[k] * a, k in order.
__global__ void vertical_even(const float* a, const float* b, unsigned w, unsigned h, unsigned oh, VifConstants k,
                              int scale, float* ta, float* tb) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned i = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || i >= oh) return;
    const int fw = k.taps[scale], r = fw / 2, y = static_cast<int>(2 * i);
    float sa = 0.0f, sb = 0.0f;
    for (int t = 0; t < fw; ++t) {
        const std::size_t o = static_cast<std::size_t>(mirror_skip(y - r + t, static_cast<int>(h))) * w + x;
        sa = sa + k.f[scale][t] * a[o];
        sb = sb + k.f[scale][t] * b[o];
    }
    const std::size_t o = static_cast<std::size_t>(i) * w + x;
    ta[o] = sa;
    tb[o] = sb;
}

/// conv_cols at columns j * 2 of both images: the decimated blurred pair.
__global__ void horizontal_even(const float* ta, const float* tb, unsigned w, unsigned ow, unsigned oh,
                                VifConstants k, int scale, float* oa, float* ob) {
    const unsigned j = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned i = blockIdx.y * blockDim.y + threadIdx.y;
    if (j >= ow || i >= oh) return;
    const int fw = k.taps[scale], r = fw / 2, x = static_cast<int>(2 * j);
    const float *ra = ta + static_cast<std::size_t>(i) * w, *rb = tb + static_cast<std::size_t>(i) * w;
    float sa = 0.0f, sb = 0.0f;
    for (int t = 0; t < fw; ++t) {
        const int c = mirror_skip(x - r + t, static_cast<int>(w));
        sa = sa + k.f[scale][t] * ra[c];
        sb = sb + k.f[scale][t] * rb[c];
    }
    const std::size_t o = static_cast<std::size_t>(i) * ow + j;
    oa[o] = sa;
    ob[o] = sb;
}

/// conv_rows of a, b (Value), a*a, b*b (Square) and a*b (Product).
__global__ void vertical5(const float* a, const float* b, unsigned w, unsigned h, VifConstants k, int scale,
                          VifScratch sc) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    const int fw = k.taps[scale], r = fw / 2;
    float s[5] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    for (int t = 0; t < fw; ++t) {
        const std::size_t o =
            static_cast<std::size_t>(mirror_skip(static_cast<int>(y) - r + t, static_cast<int>(h))) * w + x;
        const float f = k.f[scale][t], va = a[o], vb = b[o];
        s[0] = s[0] + f * va;
        s[1] = s[1] + f * vb;
        s[2] = s[2] + f * (va * va);
        s[3] = s[3] + f * (vb * vb);
        s[4] = s[4] + f * (va * vb);
    }
    const std::size_t o = static_cast<std::size_t>(y) * w + x;
#pragma unroll
    for (int n = 0; n < 5; ++n) sc.tmp[n][o] = s[n];
}

/// conv_cols of the five vertical passes.
__global__ void horizontal5(unsigned w, unsigned h, VifConstants k, int scale, VifScratch sc) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    const int fw = k.taps[scale], r = fw / 2;
    const std::size_t row = static_cast<std::size_t>(y) * w;
    float s[5] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    for (int t = 0; t < fw; ++t) {
        const int c = mirror_skip(static_cast<int>(x) - r + t, static_cast<int>(w));
        const float f = k.f[scale][t];
#pragma unroll
        for (int n = 0; n < 5; ++n) s[n] = s[n] + f * sc.tmp[n][row + c];
    }
#pragma unroll
    for (int n = 0; n < 5; ++n) sc.out[n][row + x] = s[n];
}

/// floatfeat::vif_log2 (upstream's polynomial log2).
__device__ float vif_log2(float x) {
    constexpr float poly[9] = {-0.012671635276421f, 0.064841182402670f,  -0.157048836463065f,
                               0.257167726303123f,  -0.353800560300520f, 0.480131410397451f,
                               -0.721314327952201f, 1.442694803896991f,  0};
    if (x == 0) return -__int_as_float(0x7F800000);
    if (x < 0) return __int_as_float(0x7FC00000);
    const unsigned u = __float_as_uint(x);
    const unsigned exponent = (u & 0x7F800000u) >> 23;
    const float rem = __uint_as_float((u & 0x007FFFFFu) | 0x3F800000u);
    const float base = static_cast<float>(static_cast<int>(exponent) - 127);
    const float t = rem - 1.0f;
    float v = 0;
#pragma unroll
    for (int i = 0; i < 9; ++i) v = v * t + poly[i];
    return base + v;
}

/// floatfeat::vif_stat_row's per-pixel num and den for each of N gain limits
/// (the limit enters only after the local statistics).
template <int N>
struct StatTerm {
    VifScratch sc;
    unsigned w;
    double nsq;
    float sigma_max_inv;
    float gain_limit[kVifMaxLimits];
    __device__ void operator()(unsigned x, unsigned y, float* t) const {
        const std::size_t j = static_cast<std::size_t>(y) * w + x;
        const float eps = 1.0e-10f;
        const float m1 = sc.out[0][j], m2 = sc.out[1][j];
        float s1 = sc.out[2][j] - m1 * m1;
        float s2 = sc.out[3][j] - m2 * m2;
        const float s12 = sc.out[4][j] - m1 * m2;
        s1 = s1 > 0.0f ? s1 : 0.0f;
        s2 = s2 > 0.0f ? s2 : 0.0f;
        float g0 = __fdiv_rn(s12, s1 + eps);
        float sv = s2 - g0 * s12;
        if (s1 < eps) {
            g0 = 0.0f;
            sv = s2;
            s1 = 0.0f;
        }
        if (s2 < eps) {
            g0 = 0.0f;
            sv = 0.0f;
        }
        if (g0 < 0.0f) {
            sv = s2;
            g0 = 0.0f;
        }
        sv = sv > eps ? sv : eps;
        float den = vif_log2(static_cast<float>(1.0f + __ddiv_rn(static_cast<double>(s1), nsq)));
        if (s1 < nsq) den = 1.0f;
#pragma unroll
        for (int k = 0; k < N; ++k) {
            const float g = g0 < gain_limit[k] ? g0 : gain_limit[k];
            float num = vif_log2(static_cast<float>(1.0f + __ddiv_rn(static_cast<double>(g * g * s1), sv + nsq)));
            if (s12 < 0.0f) num = 0.0f;
            if (s1 < nsq) num = 1.0f - s2 * sigma_max_inv;
            t[2 * k] = num;
            t[2 * k + 1] = den;
        }
    }
};

template <int N>
void stat_rows(const VifScratch& c, unsigned w, unsigned h, const VifConstants& k, float* out, cudaStream_t s) {
    StatTerm<N> term{c, w, k.sigma_nsq, k.sigma_max_inv, {}};
    for (int i = 0; i < kVifMaxLimits; ++i) term.gain_limit[i] = k.gain_limit[i];
    row_sums<2 * N><<<(h + kRowSumRows - 1) / kRowSumRows, dim3(32, 8), 0, s>>>(term, w, h, out);
}

dim3 grid_of(unsigned w, unsigned h) { return dim3((w + 31) / 32, (h + 7) / 8); }

}  // namespace

std::size_t vif_scratch_bytes(const VifGeometry& g, bool prescale) {
    const std::size_t img = align(std::size_t{g.ws[0]} * g.hs[0] * sizeof(float));
    return (prescale ? 2 * align(std::size_t{g.w} * g.h * sizeof(float)) : 0) + 14 * img;
}

VifScratch vif_scratch_layout(void* base, const VifGeometry& g, bool prescale) {
    auto* p = static_cast<unsigned char*>(base);
    VifScratch s{};
    const std::size_t img = align(std::size_t{g.ws[0]} * g.hs[0] * sizeof(float));
    for (auto& o : s.orig) {
        if (!prescale) break;
        o = reinterpret_cast<float*>(p);
        p += align(std::size_t{g.w} * g.h * sizeof(float));
    }
    for (float** q : {&s.cur[0], &s.cur[1], &s.next[0], &s.next[1], &s.tmp[0], &s.tmp[1], &s.tmp[2], &s.tmp[3],
                      &s.tmp[4], &s.out[0], &s.out[1], &s.out[2], &s.out[3], &s.out[4]}) {
        *q = reinterpret_cast<float*>(p);
        p += img;
    }
    return s;
}

void launch_float_vif(const void* ref, const void* dist, std::size_t pitch, const VifGeometry& g,
                      const VifConstants& k, const VifPrescale& ps, const VifScratch& sc, float* rows,
                      cudaStream_t s) {
    const dim3 block(32, 8);
    const auto* r8 = static_cast<const unsigned char*>(ref);
    const auto* d8 = static_cast<const unsigned char*>(dist);
    if (ps.method) {
        convert<<<grid_of(g.w, g.h), block, 0, s>>>(r8, d8, pitch, g.w, g.h, g.bpc, sc.orig[0], sc.orig[1]);
        prescale<<<grid_of(g.ws[0], g.hs[0]), block, 0, s>>>(sc.orig[0], sc.orig[1], g.w, g.ws[0], g.hs[0], ps,
                                                             sc.cur[0], sc.cur[1]);
    } else {
        convert<<<grid_of(g.w, g.h), block, 0, s>>>(r8, d8, pitch, g.w, g.h, g.bpc, sc.cur[0], sc.cur[1]);
    }
    VifScratch c = sc;  // cur / next swap per decimation
    for (int scale = g.first_scale; scale < 4; ++scale) {
        const unsigned w = g.ws[scale], h = g.hs[scale];
        if (scale > 0) {
            const unsigned pw = g.ws[scale - 1], ph = g.hs[scale - 1];
            vertical_even<<<grid_of(pw, h), block, 0, s>>>(c.cur[0], c.cur[1], pw, ph, h, k, scale, c.tmp[0],
                                                           c.tmp[1]);
            horizontal_even<<<grid_of(w, h), block, 0, s>>>(c.tmp[0], c.tmp[1], pw, w, h, k, scale, c.next[0],
                                                            c.next[1]);
            for (int n = 0; n < 2; ++n) {
                float* t = c.cur[n];
                c.cur[n] = c.next[n];
                c.next[n] = t;
            }
        }
        vertical5<<<grid_of(w, h), block, 0, s>>>(c.cur[0], c.cur[1], w, h, k, scale, c);
        horizontal5<<<grid_of(w, h), block, 0, s>>>(w, h, k, scale, c);
        float* out = rows + g.row_off[scale];
        switch (k.limits) {
            case 1: stat_rows<1>(c, w, h, k, out, s); break;
            case 2: stat_rows<2>(c, w, h, k, out, s); break;
            case 3: stat_rows<3>(c, w, h, k, out, s); break;
            default: stat_rows<4>(c, w, h, k, out, s); break;
        }
    }
}

}  // namespace vmaf::floatfeat::cuda
