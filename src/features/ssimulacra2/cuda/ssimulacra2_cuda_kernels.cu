// Device kernels of the ssimulacra2 twin. Compiled with --fmad=false
// -prec-div=true -prec-sqrt=true: every + - * / below is one IEEE operation
// rounded to nearest, and a fused multiply-add happens only where the CPU's
// scalar reference calls std::fma (here __fmaf_rn), so each sample's value is
// the CPU's. The recursive blurs run one thread per row (horizontal) or
// column (vertical) in the CPU's phases and order; the map sums run in the
// CPU's raster order (one chain per sum, see map_sums).
#include "ssimulacra2_cuda_kernels.hpp"

namespace vmaf::ssimulacra2::cuda {

namespace {

std::size_t align(std::size_t bytes) { return (bytes + 255) & ~std::size_t{255}; }

__device__ __forceinline__ float sample_at(const unsigned char* plane, std::size_t pitch, unsigned x, unsigned y,
                                           unsigned bpc) {
    const unsigned char* row = plane + static_cast<std::size_t>(y) * pitch;
    return bpc == 8 ? static_cast<float>(row[x]) : static_cast<float>(reinterpret_cast<const unsigned short*>(row)[x]);
}

__device__ __forceinline__ float srgb_to_linear(const S2Constants& k, float v) {
    float p = k.srgb_p[4], q = k.srgb_q[4];
#pragma unroll
    for (int i = 3; i >= 0; --i) {
        p = __fmaf_rn(p, v, k.srgb_p[i]);
        q = __fmaf_rn(q, v, k.srgb_q[i]);
    }
    return v > k.srgb_threshold ? __fdiv_rn(p, q) : __fmul_rn(v, k.srgb_low_slope);
}

__device__ __forceinline__ float clamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

/// yuv_to_linear_row of one pixel, chroma sampled at (x >> cx, y >> cy).
struct Planes3 {
    const unsigned char* p[2][3];
    std::size_t pitch[3];
};

__global__ void to_linear(Planes3 in, S2Geometry g, S2Constants k, S2Scratch sc) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned side = blockIdx.z;
    if (x >= g.w || y >= g.h) return;
    const float ys = sample_at(in.p[side][0], in.pitch[0], x, y, g.bpc);
    float us = k.c_offset, vs = k.c_offset;
    if (g.chroma) {
        us = sample_at(in.p[side][1], in.pitch[1], x >> g.cx, y >> g.cy, g.bpc);
        vs = sample_at(in.p[side][2], in.pitch[2], x >> g.cx, y >> g.cy, g.bpc);
    }
    const float yv = __fmul_rn(__fsub_rn(ys, k.y_offset), k.y_scale);
    const float u = __fmul_rn(__fsub_rn(us, k.c_offset), k.c_scale);
    const float v = __fmul_rn(__fsub_rn(vs, k.c_offset), k.c_scale);
    const std::size_t o = static_cast<std::size_t>(y) * g.w + x;
    sc.cur[side][0][o] = srgb_to_linear(k, clamp01(__fadd_rn(yv, __fmul_rn(k.cr_r, v))));
    sc.cur[side][1][o] = srgb_to_linear(k, clamp01(__fadd_rn(__fadd_rn(yv, __fmul_rn(k.cb_g, u)), __fmul_rn(k.cr_g, v))));
    sc.cur[side][2][o] = srgb_to_linear(k, clamp01(__fadd_rn(yv, __fmul_rn(k.cb_b, u))));
}

struct Downsample {
    const float* in[6];
    float* out[6];
};

/// downsample_row: (((a[x0] + a[x1]) + b[x0]) + b[x1]) * 0.25f, edges clamped.
__global__ void downsample(Downsample d, unsigned iw, unsigned ih) {
    const unsigned ow = (iw + 1) / 2, oh = (ih + 1) / 2;
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= ow || y >= oh) return;
    const float* in = d.in[blockIdx.z];
    const float* a = in + static_cast<std::size_t>(2 * y) * iw;
    const float* b = in + static_cast<std::size_t>(min(2 * y + 1, ih - 1)) * iw;
    const unsigned x0 = 2 * x, x1 = min(2 * x + 1, iw - 1);
    d.out[blockIdx.z][static_cast<std::size_t>(y) * ow + x] =
        __fmul_rn(__fadd_rn(__fadd_rn(__fadd_rn(a[x0], a[x1]), b[x0]), b[x1]), 0.25f);
}

/// cube_root_plus (ssimulacra2_kernels.cpp): the same bit-level first guess,
/// the same Newton steps with the same fused multiply-adds.
__device__ __forceinline__ float cube_root_plus(float x, float add) {
    const unsigned bits = __float_as_uint(x);
    const unsigned guess = bits == 0 ? 0u : 0x54800000u - (bits >> 23) * 0x002AAAAAu;
    float r = __uint_as_float(guess);
    const float third = 1.0f / 3, four_thirds = 4.0f / 3;
    const float x_3 = __fmul_rn(third, x);
#pragma unroll
    for (int i = 0; i < 3; ++i) {
        const float r2 = __fmul_rn(r, r);
        r = __fmaf_rn(-x_3, __fmul_rn(r2, r2), __fmul_rn(four_thirds, r));
    }
    float r2 = __fmul_rn(r, r);
    r = __fmaf_rn(third, __fmaf_rn(-x, __fmul_rn(r2, r2), r), r);
    r2 = __fmul_rn(r, r);
    return __fmaf_rn(r2, x, add);
}

/// xyb_row in place on both sides' current scale.
__global__ void to_xyb(S2Scratch sc, unsigned n, S2Constants k) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float* const* p = sc.cur[blockIdx.y];
    const float r = p[0][i], g = p[1][i], b = p[2][i];
    float c[3];
#pragma unroll
    for (int j = 0; j < 3; ++j) {
        float m = __fmaf_rn(k.opsin[j][0], r,
                            __fmaf_rn(k.opsin[j][1], g, __fmaf_rn(k.opsin[j][2], b, k.opsin_bias)));
        m = m > 0.0f ? m : 0.0f;
        c[j] = cube_root_plus(m, k.neg_cbrt_bias);
    }
    const float x = __fmul_rn(0.5f, __fsub_rn(c[0], c[1])), yv = __fmul_rn(0.5f, __fadd_rn(c[0], c[1]));
    p[0][i] = __fadd_rn(__fmul_rn(x, 14.0f), 0.42f);
    p[1][i] = __fadd_rn(yv, 0.01f);
    p[2][i] = __fadd_rn(__fsub_rn(c[2], yv), 0.55f);
}

/// Up to five blur jobs of one launch: in a (times b when b is set, each
/// product rounded to float) into out.
struct BlurJobs {
    const float* a[5];
    const float* b[5];
    float* out[5];
};

/// blur_h_row of one row (the scalar reference's three phases).
__global__ void blur_h(BlurJobs jobs, unsigned w, unsigned h, S2Constants k) {
    const unsigned y = blockIdx.x * blockDim.x + threadIdx.x;
    if (y >= h) return;
    const unsigned j = blockIdx.y;
    const float* ra = jobs.a[j] + static_cast<std::size_t>(y) * w;
    const float* rb = jobs.b[j] ? jobs.b[j] + static_cast<std::size_t>(y) * w : nullptr;
    float* out = jobs.out[j] + static_cast<std::size_t>(y) * w;
    auto in = [&](int i) { return rb ? __fmul_rn(ra[i], rb[i]) : ra[i]; };
    const int nr = k.radius, width = static_cast<int>(w);
    float p[3] = {0, 0, 0}, pp[3] = {0, 0, 0};
    auto single = [&](int i) {
        const int left = i - nr - 1, right = i + nr - 1;
        const float s = __fadd_rn(left >= 0 ? in(left) : 0.0f, right < width ? in(right) : 0.0f);
        float o[3];
#pragma unroll
        for (int c = 0; c < 3; ++c) {
            o[c] = __fmaf_rn(k.mul_prev[c][0], p[c], __fmaf_rn(-1.0f, pp[c], __fmul_rn(s, k.mul_in[c][0])));
            pp[c] = p[c];
            p[c] = o[c];
        }
        if (i >= 0) out[i] = __fadd_rn(o[0], __fadd_rn(o[1], o[2]));
    };
    int i = -nr + 1;
    for (; i < min(8, width); ++i) single(i);
    for (; i < width - nr + 1 - 3; i += 4) {
        float s[4];
#pragma unroll
        for (int t = 0; t < 4; ++t) s[t] = __fadd_rn(in(i + t - nr - 1), in(i + t + nr - 1));
        float o[3][4];
#pragma unroll
        for (int c = 0; c < 3; ++c) {
#pragma unroll
            for (int q = 0; q < 4; ++q) {
                float v = __fmul_rn(s[0], k.mul_in[c][q]);
#pragma unroll
                for (int t = 1; t < 4; ++t) v = __fmaf_rn(q >= t ? k.mul_in[c][q - t] : 0.0f, s[t], v);
                v = __fmaf_rn(k.mul_prev2[c][q], pp[c], v);
                o[c][q] = __fmaf_rn(k.mul_prev[c][q], p[c], v);
            }
            pp[c] = o[c][2];
            p[c] = o[c][3];
        }
#pragma unroll
        for (int q = 0; q < 4; ++q) out[i + q] = __fadd_rn(o[0][q], __fadd_rn(o[1][q], o[2][q]));
    }
    for (; i < width; ++i) single(i);
}

/// blur_v_column of one column (a only; b unused).
__global__ void blur_v(BlurJobs jobs, unsigned w, unsigned h, S2Constants k) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= w) return;
    const unsigned j = blockIdx.y;
    const float* in = jobs.a[j] + x;
    float* out = jobs.out[j] + x;
    const int nr = k.radius, height = static_cast<int>(h);
    float p[3] = {0, 0, 0}, pp[3] = {0, 0, 0};
    for (int i = -nr + 1; i < height; ++i) {
        const int top = i - nr - 1, bottom = i + nr - 1;
        const float b = bottom < height ? in[static_cast<std::size_t>(bottom) * w] : 0.0f;
        const float s = top >= 0 ? __fadd_rn(in[static_cast<std::size_t>(top) * w], b) : b;
        float o[3];
#pragma unroll
        for (int c = 0; c < 3; ++c) {
            o[c] = __fmaf_rn(k.n2[c], s, __fmaf_rn(-k.d1[c], p[c], -pp[c]));
            pp[c] = p[c];
            p[c] = o[c];
        }
        if (i >= 0) out[static_cast<std::size_t>(i) * w] = __fadd_rn(o[0], __fadd_rn(o[1], o[2]));
    }
}

/// Inputs of one channel's error maps (map_values_row's arguments).
struct MapInputs {
    const float *img1, *mu1, *img2, *mu2, *s11, *s22, *s12;
};
struct MapJobs {
    MapInputs c[3];
};

constexpr unsigned kChunk = 256;

/// map_values_row of pixel i and the six MapSums terms.
__device__ __forceinline__ void map_terms(const MapInputs& m, unsigned long long i, float c2, double* t) {
    const float m1 = m.mu1[i], m2 = m.mu2[i];
    const float diff = __fsub_rn(m1, m2);
    const float num_m = static_cast<float>(__dsub_rn(1.0, static_cast<double>(__fmul_rn(diff, diff))));
    const float num_s = __fadd_rn(__fmul_rn(2.0f, __fsub_rn(m.s12[i], __fmul_rn(m1, m2))), c2);
    const float den_s =
        __fadd_rn(__fadd_rn(__fsub_rn(m.s11[i], __fmul_rn(m1, m1)), __fsub_rn(m.s22[i], __fmul_rn(m2, m2))), c2);
    const double sv = __dsub_rn(1.0, static_cast<double>(__fdiv_rn(__fmul_rn(num_m, num_s), den_s)));
    const double ssim = sv < 0.0 ? 0.0 : sv;
    const double d1 = __dsub_rn(__ddiv_rn(__dadd_rn(1.0, static_cast<double>(fabsf(__fsub_rn(m.img2[i], m2)))),
                                          __dadd_rn(1.0, static_cast<double>(fabsf(__fsub_rn(m.img1[i], m1))))),
                                1.0);
    const double art = d1 < 0.0 ? 0.0 : d1;
    const double lost = -d1 < 0.0 ? 0.0 : -d1;
    const double a2 = __dmul_rn(ssim, ssim), b2 = __dmul_rn(art, art), l2 = __dmul_rn(lost, lost);
    t[0] = ssim;
    t[1] = __dmul_rn(a2, a2);
    t[2] = art;
    t[3] = __dmul_rn(b2, b2);
    t[4] = lost;
    t[5] = __dmul_rn(l2, l2);
}

/// MapSums of channel blockIdx.x over n pixels: sum k = the double sum from
/// 0 of term k of pixel 0, 1, ..., n - 1 (raster order, the CPU's add_row
/// chains), lane k of warp 0 adding chain k. Warp 1 stages the next chunk of
/// terms while warp 0 adds the previous one. Launch: 3 blocks of 64 threads.
__global__ void map_sums(MapJobs jobs, unsigned long long n, float c2, double* out) {
    __shared__ double stage[2][6][kChunk];
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const MapInputs m = jobs.c[blockIdx.x];
    const unsigned long long chunks = (n + kChunk - 1) / kChunk;
    double acc = 0.0;
    for (unsigned long long t = 0; t <= chunks; ++t) {
        if (warp == 1 && t < chunks) {
            for (unsigned j = lane; j < kChunk; j += 32) {
                const unsigned long long i = t * kChunk + j;
                if (i < n) {
                    double v[6];
                    map_terms(m, i, c2, v);
#pragma unroll
                    for (int q = 0; q < 6; ++q) stage[t & 1][q][j] = v[q];
                }
            }
        }
        if (warp == 0 && lane < 6 && t > 0) {
            const unsigned long long base = (t - 1) * kChunk;
            const unsigned cnt = n - base < kChunk ? static_cast<unsigned>(n - base) : kChunk;
            const double* s = stage[(t - 1) & 1][lane];
            for (unsigned j = 0; j < cnt; ++j) acc = __dadd_rn(acc, s[j]);
        }
        __syncthreads();
    }
    if (warp == 0 && lane < 6) out[blockIdx.x * 6 + lane] = acc;
}

}  // namespace

std::size_t s2_scratch_bytes(const S2Geometry& g) {
    const std::size_t full = align(std::size_t{g.w} * g.h * sizeof(float));
    const std::size_t half = align(std::size_t{(g.w + 1) / 2} * ((g.h + 1) / 2) * sizeof(float));
    return (6 + 5 + 15) * full + 6 * half;
}

S2Scratch s2_scratch_layout(void* base, const S2Geometry& g) {
    const std::size_t full = align(std::size_t{g.w} * g.h * sizeof(float));
    const std::size_t half = align(std::size_t{(g.w + 1) / 2} * ((g.h + 1) / 2) * sizeof(float));
    auto* p = static_cast<unsigned char*>(base);
    auto take = [&p](std::size_t bytes) {
        auto* f = reinterpret_cast<float*>(p);
        p += bytes;
        return f;
    };
    S2Scratch s{};
    for (auto& side : s.cur)
        for (auto& pl : side) pl = take(full);
    for (auto& pl : s.tmp) pl = take(full);
    for (auto& ch : s.blurred)
        for (auto& pl : ch) pl = take(full);
    for (auto& side : s.next)
        for (auto& pl : side) pl = take(half);
    return s;
}

void launch_ssimulacra2(const void* const ref[3], const void* const dist[3], const std::size_t pitch[3],
                        const S2Geometry& g, const S2Constants& k, const S2Scratch& scratch, double* sums,
                        cudaStream_t s) {
    S2Scratch sc = scratch;
    Planes3 in{};
    for (int p = 0; p < 3; ++p) {
        in.p[0][p] = static_cast<const unsigned char*>(ref[p]);
        in.p[1][p] = static_cast<const unsigned char*>(dist[p]);
        in.pitch[p] = pitch[p];
    }
    const dim3 block(32, 8);
    to_linear<<<dim3((g.w + 31) / 32, (g.h + 7) / 8, 2), block, 0, s>>>(in, g, k, sc);
    unsigned sw = g.w, sh = g.h;
    for (int scale = 0; scale < g.scales; ++scale) {
        if (scale > 0) {
            for (int i = 0; i < 2; ++i)
                for (int c = 0; c < 3; ++c) {
                    float* t = sc.cur[i][c];
                    sc.cur[i][c] = sc.next[i][c];
                    sc.next[i][c] = t;
                }
            sw = (sw + 1) / 2;
            sh = (sh + 1) / 2;
        }
        if (scale + 1 < g.scales) {
            Downsample d{};
            for (int i = 0; i < 2; ++i)
                for (int c = 0; c < 3; ++c) {
                    d.in[i * 3 + c] = sc.cur[i][c];
                    d.out[i * 3 + c] = sc.next[i][c];
                }
            const unsigned ow = (sw + 1) / 2, oh = (sh + 1) / 2;
            downsample<<<dim3((ow + 31) / 32, (oh + 7) / 8, 6), block, 0, s>>>(d, sw, sh);
        }
        const unsigned n = sw * sh;
        to_xyb<<<dim3((n + 255) / 256, 2), 256, 0, s>>>(sc, n, k);
        MapJobs maps{};
        for (int c = 0; c < 3; ++c) {
            const float* a = sc.cur[0][c];
            const float* b = sc.cur[1][c];
            float* const* out = sc.blurred[c];
            const BlurJobs h{{a, b, a, a, b}, {a, b, b, nullptr, nullptr},
                             {sc.tmp[0], sc.tmp[1], sc.tmp[2], sc.tmp[3], sc.tmp[4]}};
            const BlurJobs v{{sc.tmp[0], sc.tmp[1], sc.tmp[2], sc.tmp[3], sc.tmp[4]},
                             {nullptr, nullptr, nullptr, nullptr, nullptr},
                             {out[0], out[1], out[2], out[3], out[4]}};
            blur_h<<<dim3((sh + 63) / 64, 5), 64, 0, s>>>(h, sw, sh, k);
            blur_v<<<dim3((sw + 63) / 64, 5), 64, 0, s>>>(v, sw, sh, k);
            maps.c[c] = MapInputs{a, out[3], b, out[4], out[0], out[1], out[2]};
        }
        map_sums<<<3, 64, 0, s>>>(maps, static_cast<unsigned long long>(n), k.c2, sums + scale * 18);
    }
}

}  // namespace vmaf::ssimulacra2::cuda
