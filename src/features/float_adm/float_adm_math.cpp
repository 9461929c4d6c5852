#include "features/float_adm/float_adm_math.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "features/adm/adm_kernels.hpp"

#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#define VMAF_FLOAT_ADM_RCP 1
#endif

namespace vmaf::floatfeat {

namespace {

constexpr const float* kLo = kAdmDb2Lo;
constexpr const float* kHi = kAdmDb2Hi;
// Upstream's 1/30 and 1/15, written as double literals (products are taken in double).
constexpr double kOneBy30 = kFloatAdmOneBy30;
constexpr double kOneBy15 = kAdmOneBy15;

/// n / d as upstream divides on x86: n times a Newton-refined hardware
/// reciprocal estimate (bit patterns follow the CPU's rcpss, as upstream's do).
inline float divs(float n, float d) {
#ifdef VMAF_FLOAT_ADM_RCP
    const float xi = _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(d)));
    return n * (xi + xi * (1.0f - d * xi));
#else
    return n / d;
#endif
}

struct Bands {
    FloatImage a, h, v, d;
    Bands() = default;
    Bands(unsigned w, unsigned hh) : a(w, hh), h(w, hh), v(w, hh), d(w, hh) {}
    FloatImage& band(int theta) { return theta == 0 ? h : theta == 1 ? v : d; }
    const FloatImage& band(int theta) const { return theta == 0 ? h : theta == 1 ? v : d; }
};

/// Mirrored source indices of the 4 db2 taps of each output (2i-1 .. 2i+2).
std::vector<std::array<int, 4>> dwt_indices(int n) {
    std::vector<std::array<int, 4>> idx((n + 1) / 2);
    for (int i = 0; i < (n + 1) / 2; ++i)
        for (int t = 0; t < 4; ++t) {
            int k = 2 * i - 1 + t;
            if (k < 0)
                k = -k;
            else if (k >= n)
                k = 2 * n - k - 1;
            idx[i][t] = k;
        }
    return idx;
}

inline float tap4(const float* f, float s0, float s1, float s2, float s3) {
    float acc = 0;
    acc += f[0] * s0;
    acc += f[1] * s1;
    acc += f[2] * s2;
    acc += f[3] * s3;
    return acc;
}

/// One db2 DWT level of `src`; only the approximation band with lo_only.
Bands dwt2(const FloatKernels& k, const FloatImage& src, bool lo_only) {
    const int w = static_cast<int>(src.w), h = static_cast<int>(src.h);
    const auto iy = dwt_indices(h), ix = dwt_indices(w);
    Bands out(static_cast<unsigned>((w + 1) / 2), static_cast<unsigned>((h + 1) / 2));
    std::vector<float> lo(w), hi(w);
    for (int i = 0; i < (h + 1) / 2; ++i) {
        const float *r0 = src.row(iy[i][0]), *r1 = src.row(iy[i][1]), *r2 = src.row(iy[i][2]), *r3 = src.row(iy[i][3]);
        const float* rows[4] = {r0, r1, r2, r3};
        k.adm_dwt_rows(rows, w, lo.data(), hi.data());
        for (int j = 0; j < (w + 1) / 2; ++j) {
            const auto& c = ix[j];
            out.a.row(i)[j] = tap4(kLo, lo[c[0]], lo[c[1]], lo[c[2]], lo[c[3]]);
            if (lo_only) continue;
            out.v.row(i)[j] = tap4(kHi, lo[c[0]], lo[c[1]], lo[c[2]], lo[c[3]]);
            out.h.row(i)[j] = tap4(kLo, hi[c[0]], hi[c[1]], hi[c[2]], hi[c[3]]);
            out.d.row(i)[j] = tap4(kHi, hi[c[0]], hi[c[1]], hi[c[2]], hi[c[3]]);
        }
    }
    return out;
}

using Region = AdmRegion;

Region region(int w, int h, bool extended) { return float_adm_region(w, h, extended); }

/// Splits the distorted bands into restored (r) and additive (a) parts.
void decouple(const Bands& ref, const Bands& dis, double gain_limit, Bands& r, Bands& a) {
    const int w = static_cast<int>(ref.h.w), h = static_cast<int>(ref.h.h);
    const float cos_1deg_sq =
        static_cast<float>(std::cos(1.0 * std::numbers::pi / 180.0) * std::cos(1.0 * std::numbers::pi / 180.0));
    const float eps = 1e-30f;
    const Region g = region(w, h, true);
    auto limit = [gain_limit](float rst, float t) -> float {
        if (rst > 0.0) {
            const double x = rst * gain_limit;
            return static_cast<float>(x < t ? x : static_cast<double>(t));
        }
        if (rst < 0.0) {
            const double x = rst * gain_limit;
            return static_cast<float>(x > t ? x : static_cast<double>(t));
        }
        return rst;
    };
    for (int i = g.top; i < g.bottom; ++i)
        for (int j = g.left; j < g.right; ++j) {
            const float oh = ref.h.row(i)[j], ov = ref.v.row(i)[j], od = ref.d.row(i)[j];
            const float th = dis.h.row(i)[j], tv = dis.v.row(i)[j], td = dis.d.row(i)[j];
            float kh = divs(th, oh + eps), kv = divs(tv, ov + eps), kd = divs(td, od + eps);
            kh = kh < 0.0f ? 0.0f : (kh > 1.0f ? 1.0f : kh);
            kv = kv < 0.0f ? 0.0f : (kv > 1.0f ? 1.0f : kv);
            kd = kd < 0.0f ? 0.0f : (kd > 1.0f ? 1.0f : kd);
            float rh = kh * oh, rv = kv * ov, rd = kd * od;
            const float ot_dp = oh * th + ov * tv;
            const float o_mag_sq = oh * oh + ov * ov;
            const float t_mag_sq = th * th + tv * tv;
            const bool angle_flag = (ot_dp >= 0.0f) && (ot_dp * ot_dp >= cos_1deg_sq * o_mag_sq * t_mag_sq);
            if (angle_flag) {
                rh = limit(rh, th);
                rv = limit(rv, tv);
                rd = limit(rd, td);
            }
            r.h.row(i)[j] = rh;
            r.v.row(i)[j] = rv;
            r.d.row(i)[j] = rd;
            a.h.row(i)[j] = th - rh;
            a.v.row(i)[j] = tv - rv;
            a.d.row(i)[j] = td - rd;
        }
}

struct Factors {
    float f[3];  ///< h, v, d
};

Factors factors(const FloatAdmParams& p, int scale) {
    Factors f;
    float_adm_factors(p, scale, f.f);
    return f;
}

/// CSF-weighted bands (csf) and their masking contributions |csf| / 30 (flt),
/// over the extended region.
void csf(const Bands& src, const Factors& fc, Bands& out, Bands& flt) {
    const int w = static_cast<int>(src.h.w), h = static_cast<int>(src.h.h);
    const Region g = region(w, h, true);
    for (int t = 0; t < 3; ++t)
        for (int i = g.top; i < g.bottom; ++i)
            for (int j = g.left; j < g.right; ++j) {
                const float v = fc.f[t] * src.band(t).row(i)[j];
                out.band(t).row(i)[j] = v;
                flt.band(t).row(i)[j] = static_cast<float>(kOneBy30 * std::fabs(v));
            }
}

inline float pow_p(float x, double p) { return float_adm_pow(x, p); }

float noise_constant(int w, int h, double weight, double p) {
    return ::powf(static_cast<float>(w * h * weight), static_cast<float>(1.0f / p));
}

/// Denominator of a scale: p-norm of the CSF-weighted reference bands plus noise.
float den_scale(const Bands& ref, const Factors& fc, const FloatAdmParams& p) {
    const int w = static_cast<int>(ref.h.w), h = static_cast<int>(ref.h.h);
    const Region g = region(w, h, false);
    float acc[3] = {0, 0, 0};
    for (int i = g.top; i < g.bottom; ++i) {
        float in[3] = {0, 0, 0};
        for (int j = g.left; j < g.right; ++j)
            for (int t = 0; t < 3; ++t) in[t] += pow_p(std::fabs(fc.f[t] * ref.band(t).row(i)[j]), p.p_norm);
        for (int t = 0; t < 3; ++t) acc[t] += in[t];
    }
    return float_adm_pool(acc, g.right - g.left, g.bottom - g.top, p.noise_weight, p.p_norm);
}

/// Contrast masking: p-norm of the CSF-weighted `src` bands after
/// subtracting the masking threshold of `mask` (CSF-weighted) / `mask_flt`.
float cm(const FloatKernels& k, const Bands& src, const Bands& mask, const Bands& mask_flt, const Factors& fc,
         double noise_weight, const FloatAdmParams& p) {
    const int w = static_cast<int>(src.h.w), h = static_cast<int>(src.h.h);
    const Region g = region(w, h, false);
    const int start_col = std::max(g.left, 1), end_col = std::min(g.right, w - 1);
    const int start_row = std::max(g.top, 1), end_row = std::min(g.bottom, h - 1);
    // Rows/columns visited: the outer ones only when the region reaches them.
    std::vector<int> rows, cols;
    if (g.top <= 0) rows.push_back(0);
    for (int i = start_row; i < end_row; ++i) rows.push_back(i);
    if (g.bottom > h - 1) rows.push_back(h - 1);
    if (g.left <= 0) cols.push_back(0);
    for (int j = start_col; j < end_col; ++j) cols.push_back(j);
    if (g.right > w - 1) cols.push_back(w - 1);

    // Neighbours: mirrored at the top/left edge, repeated at the bottom/right edge.
    auto up = [](int i) { return i == 0 ? 1 : i - 1; };
    auto down = [h](int i) { return i == h - 1 ? h - 1 : i + 1; };
    auto lft = [](int j) { return j == 0 ? 1 : j - 1; };
    auto rgt = [w](int j) { return j == w - 1 ? w - 1 : j + 1; };

    float acc[3] = {0, 0, 0};
    if (p.p_norm == 3.0 && !cols.empty()) {
        // Per-pixel terms by the kernel table, then summed in upstream's order.
        const int j0 = cols.front(), j1 = cols.back() + 1;  // cols is contiguous
        std::vector<float> terms(3 * static_cast<std::size_t>(w));
        float* out[3] = {terms.data(), terms.data() + w, terms.data() + 2 * w};
        for (int i : rows) {
            const int iu = up(i), id = down(i);
            const float* flt[9];
            const float *msk[3], *sp[3];
            for (int t = 0; t < 3; ++t) {
                flt[3 * t] = mask_flt.band(t).row(iu);
                flt[3 * t + 1] = mask_flt.band(t).row(i);
                flt[3 * t + 2] = mask_flt.band(t).row(id);
                msk[t] = mask.band(t).row(i);
                sp[t] = src.band(t).row(i);
            }
            k.adm_cm_row(flt, msk, sp, fc.f, j0, j1, w, p.bypass_cm, out);
            float in[3] = {0, 0, 0};
            for (int j = j0; j < j1; ++j) {
                in[0] += out[0][j];
                in[1] += out[1][j];
                in[2] += out[2][j];
            }
            for (int t = 0; t < 3; ++t) acc[t] += in[t];
        }
        rows.clear();  // done
    }
    for (int i : rows) {
        float in[3] = {0, 0, 0};
        const int iu = up(i), id = down(i);
        for (int j : cols) {
            float thr = 0.0f;
            if (!p.bypass_cm) {
                const int jl = lft(j), jr = rgt(j);
                for (int t = 0; t < 3; ++t) {
                    const FloatImage& f = mask_flt.band(t);
                    float sum = 0;
                    sum += f.row(iu)[jl];
                    sum += f.row(iu)[j];
                    sum += f.row(iu)[jr];
                    sum += f.row(i)[jl];
                    sum = static_cast<float>(sum + kOneBy15 * std::fabs(mask.band(t).row(i)[j]));
                    sum += f.row(i)[jr];
                    sum += f.row(id)[jl];
                    sum += f.row(id)[j];
                    sum += f.row(id)[jr];
                    thr += sum;
                }
            }
            for (int t = 0; t < 3; ++t) {
                float x = src.band(t).row(i)[j] * fc.f[t];
                x = std::fabs(x) - thr;
                x = x < 0.0f ? 0.0f : x;
                in[t] += pow_p(x, p.p_norm);
            }
        }
        for (int t = 0; t < 3; ++t) acc[t] += in[t];
    }
    return float_adm_pool(acc, g.right - g.left, g.bottom - g.top, noise_weight, p.p_norm);
}

}  // namespace

void float_adm_factors(const FloatAdmParams& p, int scale, float out[3]) {
    float cf[2];
    float_adm_csf_factors(p, scale, cf);
    if (p.f1[scale] >= 0) cf[0] = static_cast<float>(p.f1[scale]);
    if (p.f2[scale] >= 0) cf[1] = static_cast<float>(p.f2[scale]);
    out[0] = cf[0];
    out[1] = cf[0];
    out[2] = cf[1];
}

AdmRegion float_adm_region(int w, int h, bool extended) {
    const double bf = 0.1;
    if (!extended) {
        const int left = static_cast<int>(w * bf - 0.5), top = static_cast<int>(h * bf - 0.5);
        return {left, top, w - left, h - top};
    }
    int left = static_cast<int>(w * bf - 0.5 - 1), top = static_cast<int>(h * bf - 0.5 - 1);
    int right = w - left + 2, bottom = h - top + 2;
    return {std::max(left, 0), std::max(top, 0), std::min(right, w), std::min(bottom, h)};
}

float float_adm_pow(float x, double p) {
    if (p == 3.0) return x * x * x;
    return ::powf(x, static_cast<float>(p));
}

float float_adm_pool(const float acc[3], int rw, int rh, double noise_weight, double p_norm) {
    const float nc = noise_constant(rw, rh, noise_weight, p_norm);
    float s[3];
    for (int t = 0; t < 3; ++t) s[t] = ::powf(acc[t], static_cast<float>(1.0f / p_norm)) + nc;
    return s[0] + s[1] + s[2];
}

bool float_adm_rcp_division() {
#ifdef VMAF_FLOAT_ADM_RCP
    return true;
#else
    return false;
#endif
}

float float_adm_rcp_estimate(float d) {
#ifdef VMAF_FLOAT_ADM_RCP
    return _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(d)));
#else
    return 1.0f / d;
#endif
}

void float_adm_csf_factors(const FloatAdmParams& p, int scale, float out[2]) {
    if (p.csf_mode == static_cast<int>(FloatAdmCsf::AdmNative)) {
        const float r = static_cast<float>(p.norm_view_dist * p.ref_display_height * std::numbers::pi / 180.0);
        for (int k = 0; k < 2; ++k) {
            float sf = static_cast<float>(r / std::pow(2.0, scale + 1));
            if (k == 1) sf = static_cast<float>(sf / 0.7);
            out[k] = static_cast<float>((0.31 + 0.69 * sf) * std::exp(-0.29 * sf));
        }
        return;
    }
    adm::Params ap;
    ap.norm_view_dist = p.norm_view_dist;
    ap.ref_display_height = p.ref_display_height;
    ap.csf_mode = p.csf_mode == static_cast<int>(FloatAdmCsf::Barten) ? adm::CsfMode::Barten : adm::CsfMode::Watson97;
    ap.csf_scale = p.csf_scale;
    ap.csf_diag_scale = p.csf_diag_scale;
    adm::csf_factors(ap, scale, out);
}

FloatAdmResult float_adm_combine(const float num_s[4], const float den_s[4], const float aim_s[4], unsigned w,
                                 unsigned h, const FloatAdmParams& p) {
    FloatAdmResult res;
    const double numden_limit = 1e-10 * (static_cast<int>(w) * static_cast<int>(h)) / (1920.0 * 1080.0);
    double num = 0, den = 0, aim_num = 0, aim_den = 0;
    for (int scale = 0; scale < 4; ++scale) {
        num += num_s[scale];
        den += den_s[scale];
        if (p.skip_aim_scale != scale) {
            aim_den += den_s[scale];
            aim_num += aim_s[scale];
        }
        res.scales[2 * scale] = num_s[scale];
        res.scales[2 * scale + 1] = den_s[scale];
    }
    num = num < numden_limit ? 0 : num;
    den = den < numden_limit ? 0 : den;
    if (den == 0.0) {
        res.score = 1.0f;
        res.aim = 0.0;  // upstream leaves it unset here
    } else {
        const double q = aim_num / aim_den;
        res.aim = q < 1.0f ? q : 1.0;
        res.score = num / den;
    }
    res.num = num;
    res.den = den;
    return res;
}

FloatAdmResult float_adm(const FloatKernels& k, const FloatImage& ref, const FloatImage& dis, const FloatAdmParams& p) {
    float num_s[4], den_s[4], aim_s[4];
    FloatImage cur_ref = ref, cur_dis = dis;
    for (int scale = 0; scale < 4; ++scale) {
        float num_scale = 0.0f, den_scale_v = 0.0f, aim_num_scale = 0.0f;
        Bands rb, db;
        if (scale == 0 && p.skip_scale0) {
            rb = dwt2(k, cur_ref, true);
            db = dwt2(k, cur_dis, true);
            den_scale_v = 1e-10f;
        } else {
            rb = dwt2(k, cur_ref, false);
            db = dwt2(k, cur_dis, false);
            const unsigned bw = rb.h.w, bh = rb.h.h;
            Bands r(bw, bh), a(bw, bh), csf_1(bw, bh), flt_1(bw, bh);
            decouple(rb, db, p.enhn_gain_limit, r, a);
            const Factors fc = factors(p, scale);
            den_scale_v = den_scale(rb, fc, p);
            csf(a, fc, csf_1, flt_1);
            num_scale = cm(k, r, csf_1, flt_1, fc, p.noise_weight, p);
            csf(r, fc, csf_1, flt_1);
            aim_num_scale = cm(k, a, csf_1, flt_1, fc, 0.0, p);
        }
        num_s[scale] = num_scale;
        den_s[scale] = den_scale_v;
        aim_s[scale] = aim_num_scale;
        cur_ref = std::move(rb.a);
        cur_dis = std::move(db.a);
    }
    return float_adm_combine(num_s, den_s, aim_s, ref.w, ref.h, p);
}

}  // namespace vmaf::floatfeat
