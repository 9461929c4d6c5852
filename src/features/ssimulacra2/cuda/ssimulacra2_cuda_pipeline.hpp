// The ssimulacra2 twin's per-thread work and its sequence of steps, in plain
// C++ that nvcc compiles for the device (ssimulacra2_cuda_kernels.cu) and any
// C++ compiler for the host (ssimulacra2_cuda_host_test.cpp runs it there
// against the CPU extractor, without a GPU). The arithmetic helpers are one
// IEEE operation rounded to nearest on either side (device intrinsics; host
// code built with -ffp-contract=off), so both builds compute the same bits.
//
// Each body evaluates the CPU scalar reference's expression
// (features/ssimulacra2/ssimulacra2_kernels.cpp) for one sample, row or
// column: fused multiply-adds exactly where the CPU calls std::fma, the
// recursive blurs in the CPU's phases, the map sums in raster order.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstring>

#ifdef __CUDACC__
#define S2_HD __host__ __device__ __forceinline__
#else
#define S2_HD inline
#endif

namespace vmaf::ssimulacra2::cuda {

/// One frame's shape: w x h luma of `bpc` bits; chroma subsampled by
/// 2^cx x 2^cy, or no chroma planes (4:0:0: Cb = Cr = the chroma offset).
struct S2Geometry {
    unsigned w, h, bpc;
    unsigned cx, cy;
    bool chroma;
    int scales;  ///< scale_count(w, h)
};

/// The host's constants, bit for bit (the CPU's tables copied, not retyped).
struct S2Constants {
    float y_offset, y_scale, c_offset, c_scale, cr_r, cb_g, cr_g, cb_b;  // YuvCoeffs
    float srgb_p[5], srgb_q[5], srgb_threshold, srgb_low_slope;          // sRGB EOTF
    float opsin[3][3], opsin_bias, neg_cbrt_bias;                        // XYB
    int radius;                                                          // BlurCoeffs
    float n2[3], d1[3], mul_in[3][4], mul_prev[3][4], mul_prev2[3][4];
    float c2;  ///< SSIM stabiliser
};

/// Planes of one scale (packed: row stride = its width w).
struct S2Scale {
    float* img[2][3];      ///< ref (0) and dist (1): linear RGB (scales >= 1), then XYB
    float* blurred[3][5];  ///< per channel: s11, s22, s12, mu1, mu2
    unsigned w, h;
};

/// Planes of one frame's pipeline: every measured scale's own, so that the
/// map sums of all scales run in one launch at the end.
struct S2Scratch {
    S2Scale scale[6];
};

/// The input samples: plane p of ref (side 0) and dist (side 1), rows `pitch[p]` bytes apart.
struct Planes3 {
    const unsigned char* p[2][3];
    std::size_t pitch[3];
};

/// A scale's fifteen blur jobs (three channels' s11, s22, s12, mu1, mu2):
/// in a (times b, each product rounded to float, when b is set) into out
/// (the vertical pass: in place, a == out).
constexpr int kBlurJobs = 15;
struct BlurJobs {
    const float* a[kBlurJobs];
    const float* b[kBlurJobs];
    float* out[kBlurJobs];
};

/// Inputs of one channel's error maps (map_values_row's arguments).
struct MapInputs {
    const float *img1, *mu1, *img2, *mu2, *s11, *s22, *s12;
};
/// The map sums of every measured scale and channel: c[scale][channel] over
/// n[scale] pixels.
struct MapJobs {
    MapInputs c[6][3];
    unsigned long long n[6];
    int scales;
};

/// Doubles one frame produces: per scale (6), channel (3) the six MapSums sums,
/// at [(scale * 3 + channel) * 6 + k].
constexpr std::size_t kS2Sums = 6 * 3 * 6;

/// Bytes of one frame's S2Scratch (planes 256-byte aligned), and its layout in them.
inline std::size_t s2_plane_bytes(std::size_t w, std::size_t h) {
    return (w * h * sizeof(float) + 255) & ~std::size_t{255};
}
inline std::size_t s2_scratch_bytes(const S2Geometry& g) {
    std::size_t bytes = 0;
    for (unsigned s = 0, w = g.w, h = g.h; s < static_cast<unsigned>(g.scales); ++s, w = (w + 1) / 2, h = (h + 1) / 2)
        bytes += (6 + 15) * s2_plane_bytes(w, h);
    return bytes;
}
inline S2Scratch s2_scratch_layout(void* base, const S2Geometry& g) {
    auto* p = static_cast<unsigned char*>(base);
    auto take = [&p](std::size_t bytes) {
        auto* f = reinterpret_cast<float*>(p);
        p += bytes;
        return f;
    };
    S2Scratch s{};
    for (unsigned i = 0, w = g.w, h = g.h; i < static_cast<unsigned>(g.scales); ++i, w = (w + 1) / 2, h = (h + 1) / 2) {
        S2Scale& sc = s.scale[i];
        sc.w = w;
        sc.h = h;
        for (auto& side : sc.img)
            for (auto& pl : side) pl = take(s2_plane_bytes(w, h));
        for (auto& ch : sc.blurred)
            for (auto& pl : ch) pl = take(s2_plane_bytes(w, h));
    }
    return s;
}

// One IEEE operation each, rounded to nearest.
S2_HD float f_add(float a, float b) {
#ifdef __CUDA_ARCH__
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}
S2_HD float f_sub(float a, float b) {
#ifdef __CUDA_ARCH__
    return __fsub_rn(a, b);
#else
    return a - b;
#endif
}
S2_HD float f_mul(float a, float b) {
#ifdef __CUDA_ARCH__
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}
S2_HD float f_div(float a, float b) {
#ifdef __CUDA_ARCH__
    return __fdiv_rn(a, b);
#else
    return a / b;
#endif
}
S2_HD float f_fma(float a, float b, float c) {
#ifdef __CUDA_ARCH__
    return __fmaf_rn(a, b, c);
#else
    return std::fma(a, b, c);
#endif
}
S2_HD double d_add(double a, double b) {
#ifdef __CUDA_ARCH__
    return __dadd_rn(a, b);
#else
    return a + b;
#endif
}
S2_HD double d_sub(double a, double b) {
#ifdef __CUDA_ARCH__
    return __dsub_rn(a, b);
#else
    return a - b;
#endif
}
S2_HD double d_mul(double a, double b) {
#ifdef __CUDA_ARCH__
    return __dmul_rn(a, b);
#else
    return a * b;
#endif
}
S2_HD double d_div(double a, double b) {
#ifdef __CUDA_ARCH__
    return __ddiv_rn(a, b);
#else
    return a / b;
#endif
}
S2_HD unsigned float_bits(float x) {
#ifdef __CUDA_ARCH__
    return __float_as_uint(x);
#else
    unsigned u;
    std::memcpy(&u, &x, sizeof u);
    return u;
#endif
}
S2_HD float bits_float(unsigned u) {
#ifdef __CUDA_ARCH__
    return __uint_as_float(u);
#else
    float x;
    std::memcpy(&x, &u, sizeof x);
    return x;
#endif
}
S2_HD float f_abs(float x) {
    return bits_float(float_bits(x) & 0x7fffffffu);
}

S2_HD float sample_at(const unsigned char* plane, std::size_t pitch, unsigned x, unsigned y, unsigned bpc) {
    const unsigned char* row = plane + static_cast<std::size_t>(y) * pitch;
    return bpc == 8 ? static_cast<float>(row[x]) : static_cast<float>(reinterpret_cast<const unsigned short*>(row)[x]);
}

/// srgb_to_linear: Horner with fma, one division above the threshold.
S2_HD float srgb_to_linear(const S2Constants& k, float v) {
    float p = k.srgb_p[4], q = k.srgb_q[4];
    for (int i = 3; i >= 0; --i) {
        p = f_fma(p, v, k.srgb_p[i]);
        q = f_fma(q, v, k.srgb_q[i]);
    }
    return v > k.srgb_threshold ? f_div(p, q) : f_mul(v, k.srgb_low_slope);
}

S2_HD float clamp01(float v) {
    return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
}

/// to_linear + yuv_to_linear_row of pixel (x, y) of one side, chroma sampled
/// at (x >> cx, y >> cy): its linear R, G, B.
S2_HD void to_linear_rgb(const Planes3& in, const S2Geometry& g, const S2Constants& k, unsigned x, unsigned y,
                         unsigned side, float rgb[3]) {
    const float ys = sample_at(in.p[side][0], in.pitch[0], x, y, g.bpc);
    float us = k.c_offset, vs = k.c_offset;
    if (g.chroma) {
        us = sample_at(in.p[side][1], in.pitch[1], x >> g.cx, y >> g.cy, g.bpc);
        vs = sample_at(in.p[side][2], in.pitch[2], x >> g.cx, y >> g.cy, g.bpc);
    }
    const float yv = f_mul(f_sub(ys, k.y_offset), k.y_scale);
    const float u = f_mul(f_sub(us, k.c_offset), k.c_scale);
    const float v = f_mul(f_sub(vs, k.c_offset), k.c_scale);
    rgb[0] = srgb_to_linear(k, clamp01(f_add(yv, f_mul(k.cr_r, v))));
    rgb[1] = srgb_to_linear(k, clamp01(f_add(f_add(yv, f_mul(k.cb_g, u)), f_mul(k.cr_g, v))));
    rgb[2] = srgb_to_linear(k, clamp01(f_add(yv, f_mul(k.cb_b, u))));
}

/// cube_root_plus: the same bit-level first guess and Newton steps, the same fmas.
S2_HD float cube_root_plus(float x, float add) {
    const unsigned bits = float_bits(x);
    const unsigned guess = bits == 0 ? 0u : 0x54800000u - (bits >> 23) * 0x002AAAAAu;
    float r = bits_float(guess);
    const float third = 1.0f / 3, four_thirds = 4.0f / 3;
    const float x_3 = f_mul(third, x);
    for (int i = 0; i < 3; ++i) {
        const float r2 = f_mul(r, r);
        r = f_fma(-x_3, f_mul(r2, r2), f_mul(four_thirds, r));
    }
    float r2 = f_mul(r, r);
    r = f_fma(third, f_fma(-x, f_mul(r2, r2), r), r);
    r2 = f_mul(r, r);
    return f_fma(r2, x, add);
}

/// xyb_row of one sample: linear R, G, B in, X, Y, B out.
S2_HD void xyb_rgb(float p[3], const S2Constants& k) {
    const float r = p[0], g = p[1], b = p[2];
    float c[3];
    for (int j = 0; j < 3; ++j) {
        float m = f_fma(k.opsin[j][0], r, f_fma(k.opsin[j][1], g, f_fma(k.opsin[j][2], b, k.opsin_bias)));
        m = m > 0.0f ? m : 0.0f;
        c[j] = cube_root_plus(m, k.neg_cbrt_bias);
    }
    const float x = f_mul(0.5f, f_sub(c[0], c[1])), yv = f_mul(0.5f, f_add(c[0], c[1]));
    p[0] = f_add(f_mul(x, 14.0f), 0.42f);
    p[1] = f_add(yv, 0.01f);
    p[2] = f_add(f_sub(c[2], yv), 0.55f);
}

/// prepare_block's work for one side.
S2_HD void prepare_side(const Planes3& in, bool from_input, const S2Geometry& g, const S2Constants& k,
                        const S2Scale& cur, const S2Scale* next, unsigned bx, unsigned by, unsigned side) {
    const unsigned w = cur.w, h = cur.h, x0 = 2 * bx, y0 = 2 * by;
    const bool wide = x0 + 1 < w, tall = y0 + 1 < h;
    const unsigned xs[2] = {x0, wide ? x0 + 1 : x0}, ys[2] = {y0, tall ? y0 + 1 : y0};
    float lin[2][2][3];  // [row][column][channel]
    for (unsigned r = 0; r < 2; ++r)
        for (unsigned c = 0; c < 2; ++c) {
            if (from_input) {
                to_linear_rgb(in, g, k, xs[c], ys[r], side, lin[r][c]);
            } else {
                const std::size_t o = static_cast<std::size_t>(ys[r]) * w + xs[c];
                for (unsigned ch = 0; ch < 3; ++ch) lin[r][c][ch] = cur.img[side][ch][o];
            }
        }
    if (next)
        for (unsigned ch = 0; ch < 3; ++ch)
            next->img[side][ch][static_cast<std::size_t>(by) * next->w + bx] =
                f_mul(f_add(f_add(f_add(lin[0][0][ch], lin[0][1][ch]), lin[1][0][ch]), lin[1][1][ch]), 0.25f);
    for (unsigned r = 0; r < 2; ++r)  // constant bounds: registers, not local memory, on the device
        for (unsigned c = 0; c < 2; ++c)
            if ((r == 0 || tall) && (c == 0 || wide)) {
                xyb_rgb(lin[r][c], k);
                const std::size_t o = static_cast<std::size_t>(ys[r]) * w + xs[c];
                for (unsigned ch = 0; ch < 3; ++ch) cur.img[side][ch][o] = lin[r][c][ch];
            }
}

/// One scale's preparation at block (bx, by) of 2x2 samples (the last row or
/// column of an odd size: its block is one sample wide): the linear RGB of
/// both sides (from the input samples when `from_input`, scale 0; else cur's
/// planes, which the previous scale's preparation downsampled into), the
/// next scale's sample (bx, by) when `next` is set (downsample_row:
/// (((a[x0] + a[x1]) + b[x0]) + b[x1]) * 0.25f, edges clamped), then XYB of
/// the block's samples into cur's planes: the CPU's values, as it downsamples
/// before turning a scale into XYB in place. (Sides as constants: indexing
/// `in` or `cur` with a variable copies them to local memory on the device.)
S2_HD void prepare_block(const Planes3& in, bool from_input, const S2Geometry& g, const S2Constants& k,
                         const S2Scale& cur, const S2Scale* next, unsigned bx, unsigned by) {
    prepare_side(in, from_input, g, k, cur, next, bx, by, 0);
    prepare_side(in, from_input, g, k, cur, next, bx, by, 1);
}

/// The recursive state of blur_h_row or blur_v_column between positions.
struct BlurHState {
    float p[3] = {0, 0, 0}, pp[3] = {0, 0, 0};
};

/// The first position blur_h_row computes (outputs start at 0).
S2_HD int blur_h_first(const S2Constants& k) {
    return -k.radius + 1;
}

/// One block of four positions of blur_h_row (every input in range): from
/// their input sums s, outputs o, continuing `st`.
S2_HD void blur_h_block(const float s[4], float o4[4], const S2Constants& k, BlurHState& st) {
    float o[3][4];
    for (int c = 0; c < 3; ++c) {
        for (int q = 0; q < 4; ++q) {
            float v = f_mul(s[0], k.mul_in[c][q]);
            for (int t = 1; t < 4; ++t) v = f_fma(q >= t ? k.mul_in[c][q - t] : 0.0f, s[t], v);
            v = f_fma(k.mul_prev2[c][q], st.pp[c], v);
            o[c][q] = f_fma(k.mul_prev[c][q], st.p[c], v);
        }
        st.pp[c] = o[c][2];
        st.p[c] = o[c][3];
    }
    for (int q = 0; q < 4; ++q) o4[q] = f_add(o[0][q], f_add(o[1][q], o[2][q]));
}

/// Positions [i0, i1) of blur_h_row over a row of w samples, continuing `st`:
/// in(i) is input sample i (the product, for blur_h_product), out(i, v)
/// stores output i >= 0. Spans follow each other from blur_h_first(k) to w;
/// every boundary between two spans is a multiple of 4 (the CPU's blocks of
/// four start at 8, 12, ...: a block never straddles one).
template <class In, class Out>
S2_HD void blur_h_span(In in, Out out, int i0, int i1, int w, const S2Constants& k, BlurHState& st) {
    const int nr = k.radius;
    // The CPU's phases: one by one below 8 (or w), blocks of four while every
    // input is in range, one by one from blocks_end.
    const int start = w < 8 ? w : 8, limit = w - nr + 1 - 3;
    const int blocks_end = start < limit ? start + (limit - start + 3) / 4 * 4 : start;
    if (i1 - i0 == 32 && i0 >= start && i1 <= blocks_end) {
        // Eight whole blocks (the device's inner tiles): the 32 input sums
        // first, independent of each other, then the blocks.
        float s[32];
#ifdef __CUDACC__
#pragma unroll
#endif
        for (int t = 0; t < 32; ++t) s[t] = f_add(in(i0 + t - nr - 1), in(i0 + t + nr - 1));
#ifdef __CUDACC__
#pragma unroll
#endif
        for (int b = 0; b < 8; ++b) {
            float o4[4];
            blur_h_block(s + 4 * b, o4, k, st);
            for (int q = 0; q < 4; ++q) out(i0 + 4 * b + q, o4[q]);
        }
        return;
    }
    int i = i0;
    while (i < i1) {
        if (i < start || i >= blocks_end) {
            const int left = i - nr - 1, right = i + nr - 1;
            const float s = f_add(left >= 0 ? in(left) : 0.0f, right < w ? in(right) : 0.0f);
            float o[3];
            for (int c = 0; c < 3; ++c) {
                o[c] = f_fma(k.mul_prev[c][0], st.p[c], f_fma(-1.0f, st.pp[c], f_mul(s, k.mul_in[c][0])));
                st.pp[c] = st.p[c];
                st.p[c] = o[c];
            }
            if (i >= 0) out(i, f_add(o[0], f_add(o[1], o[2])));
            ++i;
            continue;
        }
        float s[4];  // a block of four, every input in range
        for (int t = 0; t < 4; ++t) s[t] = f_add(in(i + t - nr - 1), in(i + t + nr - 1));
        float o4[4];
        blur_h_block(s, o4, k, st);
        for (int q = 0; q < 4; ++q) out(i + q, o4[q]);
        i += 4;
    }
}

/// blur_h_row of one row of w samples: ra (times rb when set) into out, in
/// spans of `span` positions (a multiple of 4; the device's tile width),
/// the first from blur_h_first(k) to `span`.
S2_HD void blur_h_row(const float* ra, const float* rb, float* out, int w, const S2Constants& k, int span = 32) {
    auto in = [&](int i) { return rb ? f_mul(ra[i], rb[i]) : ra[i]; };
    auto put = [&](int i, float v) { out[i] = v; };
    BlurHState st;
    for (int x0 = 0; x0 < w; x0 += span)
        blur_h_span(in, put, x0 == 0 ? blur_h_first(k) : x0, x0 + span < w ? x0 + span : w, w, k, st);
}

/// Positions [i0, i1) of blur_v_column over a column of h samples,
/// continuing `st` (spans follow each other from blur_h_first(k), which is
/// the vertical pass's first position too, to h): in(i) is sample i, out(i, v)
/// stores output i >= 0.
template <class In, class Out>
S2_HD void blur_v_span(In in, Out out, int i0, int i1, int h, const S2Constants& k, BlurHState& st) {
    const int nr = k.radius;
    auto step = [&](int i, float s) {
        float o[3];
        for (int c = 0; c < 3; ++c) {
            o[c] = f_fma(k.n2[c], s, f_fma(-k.d1[c], st.p[c], -st.pp[c]));
            st.pp[c] = st.p[c];
            st.p[c] = o[c];
        }
        if (i >= 0) out(i, f_add(o[0], f_add(o[1], o[2])));
    };
    if (i1 - i0 == 32 && i0 - nr - 1 >= 0 && i1 + nr - 1 <= h) {
        // 32 positions with every input in range (the device's inner tiles):
        // their input sums first, independent of each other.
        float s[32];
#ifdef __CUDACC__
#pragma unroll
#endif
        for (int t = 0; t < 32; ++t) s[t] = f_add(in(i0 + t - nr - 1), in(i0 + t + nr - 1));
#ifdef __CUDACC__
#pragma unroll
#endif
        for (int t = 0; t < 32; ++t) step(i0 + t, s[t]);
        return;
    }
    for (int i = i0; i < i1; ++i) {
        const int top = i - nr - 1, bottom = i + nr - 1;
        const float b = bottom < h ? in(bottom) : 0.0f;
        step(i, top >= 0 ? f_add(in(top), b) : b);
    }
}

/// blur_v_column of one column: in[i * stride] into out[i * stride], i < h,
/// in spans of `span` positions (the device's tile height: 32).
S2_HD void blur_v_col(const float* in, float* out, std::size_t stride, int h, const S2Constants& k, int span = 32) {
    auto get = [&](int i) { return in[static_cast<std::size_t>(i) * stride]; };
    auto put = [&](int i, float v) { out[static_cast<std::size_t>(i) * stride] = v; };
    BlurHState st;
    for (int y0 = 0; y0 < h; y0 += span)
        blur_v_span(get, put, y0 == 0 ? blur_h_first(k) : y0, y0 + span < h ? y0 + span : h, h, k, st);
}

/// map_values_row of pixel i and the six MapSums terms (x, x^4 as (x^2)^2).
S2_HD void map_terms(const MapInputs& m, std::size_t i, float c2, double* t) {
    const float m1 = m.mu1[i], m2 = m.mu2[i];
    const float diff = f_sub(m1, m2);
    const float num_m = static_cast<float>(d_sub(1.0, static_cast<double>(f_mul(diff, diff))));
    const float num_s = f_add(f_mul(2.0f, f_sub(m.s12[i], f_mul(m1, m2))), c2);
    const float den_s = f_add(f_add(f_sub(m.s11[i], f_mul(m1, m1)), f_sub(m.s22[i], f_mul(m2, m2))), c2);
    const double sv = d_sub(1.0, static_cast<double>(f_div(f_mul(num_m, num_s), den_s)));
    const double ssim = sv < 0.0 ? 0.0 : sv;
    const double d1 = d_sub(d_div(d_add(1.0, static_cast<double>(f_abs(f_sub(m.img2[i], m2)))),
                                  d_add(1.0, static_cast<double>(f_abs(f_sub(m.img1[i], m1))))),
                            1.0);
    const double art = d1 < 0.0 ? 0.0 : d1;
    const double lost = -d1 < 0.0 ? 0.0 : -d1;
    const double a2 = d_mul(ssim, ssim), b2 = d_mul(art, art), l2 = d_mul(lost, lost);
    t[0] = ssim;
    t[1] = d_mul(a2, a2);
    t[2] = art;
    t[3] = d_mul(b2, b2);
    t[4] = lost;
    t[5] = d_mul(l2, l2);
}

/// The CPU's sequence of steps (Scorer::norms), each scale in its own planes:
/// per scale, its preparation (linear RGB from the input at scale 0, the next
/// scale downsampled, XYB in place), then the fifteen blurs (s11, s22, s12,
/// mu1, mu2 of each channel: horizontal into the blurred planes, vertical in
/// place); finally the map sums of every scale and channel into sums
/// (kS2Sums layout). The values are the CPU's whatever the planes.
/// `e` runs each step (kernel launches on the device, loops on the host):
/// prepare(in, from_input, cur, next or null): prepare_block over
/// ceil(w / 2) x ceil(h / 2) blocks; blur_h(jobs, w, h), blur_v(jobs, w, h),
/// map_sums(jobs, sums).
template <typename Exec>
void run_pipeline(Exec& e, const Planes3& in, const S2Geometry& g, const S2Scratch& sc, double* sums) {
    MapJobs maps{};
    maps.scales = g.scales;
    for (int scale = 0; scale < g.scales; ++scale) {
        const S2Scale& cur = sc.scale[scale];
        const unsigned sw = cur.w, sh = cur.h;
        e.prepare(in, scale == 0, cur, scale + 1 < g.scales ? &sc.scale[scale + 1] : nullptr);
        BlurJobs h{}, v{};
        for (int c = 0; c < 3; ++c) {
            const float* a = cur.img[0][c];
            const float* b = cur.img[1][c];
            float* const* out = cur.blurred[c];
            const float* ha[5] = {a, b, a, a, b};
            const float* hb[5] = {a, b, b, nullptr, nullptr};
            for (int j = 0; j < 5; ++j) {
                h.a[c * 5 + j] = ha[j];
                h.b[c * 5 + j] = hb[j];
                h.out[c * 5 + j] = out[j];
                v.a[c * 5 + j] = out[j];
                v.b[c * 5 + j] = nullptr;
                v.out[c * 5 + j] = out[j];
            }
            maps.c[scale][c] = MapInputs{a, out[3], b, out[4], out[0], out[1], out[2]};
        }
        e.blur_h(h, sw, sh);
        e.blur_v(v, sw, sh);
        maps.n[scale] = static_cast<unsigned long long>(sw) * sh;
    }
    e.map_sums(maps, sums);
}

}  // namespace vmaf::ssimulacra2::cuda
