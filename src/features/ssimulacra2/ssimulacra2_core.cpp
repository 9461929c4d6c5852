// SSIMULACRA 2 pipeline (contract in ssimulacra2_core.hpp).
#include "features/ssimulacra2/ssimulacra2_core.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>

#include "features/ssimulacra2/ssimulacra2_constants.hpp"

namespace vmaf::ssimulacra2 {

namespace {

/// The 108 weights of libjxl's Msssim::Score, in (channel, scale, norm, map)
/// order: one line per channel and scale, each L1 of ssim, ringing,
/// blurring, then L4 of the same.
// clang-format off
constexpr double kWeights[108] = {
    0.0, 0.0007376606707406586, 0.0, 0.0, 0.0007793481682867309, 0.0,  // X 1:1
    0.0, 0.0004371155730107379, 0.0, 1.1041726426657346, 0.00066284834129271, 0.00015231632783718752,  // X 1:2
    0.0, 0.0016406437456599754, 0.0, 1.8422455520539298, 11.441172603757666, 0.0,  // X 1:4
    0.0007989109436015163, 0.000176816438078653, 0.0, 1.8787594979546387, 10.94906990605142, 0.0,  // X 1:8
    0.0007289346991508072, 0.9677937080626833, 0.0, 0.00014003424285435884, 0.9981766977854967, 0.00031949755934435053,  // X 1:16
    0.0004550992113792063, 0.0, 0.0, 0.0013648766163243398, 0.0, 0.0,  // X 1:32
    0.0, 0.0, 0.0, 7.466890328078848, 0.0, 17.445833984131262,  // Y 1:1
    0.0006235601634041466, 0.0, 0.0, 6.683678146179332, 0.00037724407979611296, 1.027889937768264,  // Y 1:2
    225.20515300849274, 0.0, 0.0, 19.213238186143016, 0.0011401524586618361, 0.001237755635509985,  // Y 1:4
    176.39317598450694, 0.0, 0.0, 24.43300999870476, 0.28520802612117757, 0.0004485436923833408,  // Y 1:8
    0.0, 0.0, 0.0, 34.77906344483772, 44.835625328877896, 0.0,  // Y 1:16
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0,  // Y 1:32
    0.0, 0.0008680556573291698, 0.0, 0.0, 0.0, 0.0,  // B 1:1
    0.0, 0.0005313191874358747, 0.0, 0.00016533814161379112, 0.0, 0.0,  // B 1:2
    0.0, 0.0, 0.0, 0.0004179171803251336, 0.0017290828234722833, 0.0,  // B 1:4
    0.0020827005846636437, 0.0, 0.0, 8.826982764996862, 23.19243343998926, 0.0,  // B 1:8
    95.1080498811086, 0.9863978034400682, 0.9834382792465353, 0.0012286405048278493, 171.2667255897307, 0.9807858872435379,  // B 1:16
    0.0, 0.0, 0.0, 0.0005130064588990679, 0.0, 0.00010854057858411537,  // B 1:32
};
// clang-format on

BlurCoeffs make_blur_coeffs(double sigma) {
    // Charalampidis 2016, "Recursive implementation of the Gaussian filter
    // using truncated cosine functions": equation numbers as in libjxl.
    const double radius = std::round(static_cast<float>(3.2795 * sigma + 0.2546));  // (57)
    const double pi_2r = std::numbers::pi / (2.0 * radius);
    const double omega[3] = {pi_2r, 3.0 * pi_2r, 5.0 * pi_2r};
    const double p1 = 1.0 / std::tan(0.5 * omega[0]), p3 = -1.0 / std::tan(0.5 * omega[1]),
                 p5 = 1.0 / std::tan(0.5 * omega[2]);  // (37)
    const double r1 = p1 * p1 / std::sin(omega[0]), r3 = -p3 * p3 / std::sin(omega[1]),
                 r5 = p5 * p5 / std::sin(omega[2]);  // (44)
    double rho[3];
    for (int i = 0; i < 3; ++i) rho[i] = std::exp(-0.5 * sigma * sigma * omega[i] * omega[i]) / radius;  // (50)
    const double d13 = p1 * r3 - r1 * p3, d35 = p3 * r5 - r3 * p5, d51 = p5 * r1 - r5 * p1;              // (52)
    const double zeta15 = d35 / d13, zeta35 = d51 / d13;
    // Solve A beta = gamma (53)-(56) by Cramer's rule.
    const double a[3][3] = {{p1, p3, p5}, {r1, r3, r5}, {zeta15, zeta35, 1.0}};
    const double gamma[3] = {1.0, radius * radius - sigma * sigma, zeta15 * rho[0] + zeta35 * rho[1] + rho[2]};
    auto det = [](const double m[3][3]) {
        return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
               m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    };
    const double da = det(a);
    BlurCoeffs c;
    c.radius = static_cast<int>(radius);
    for (int k = 0; k < 3; ++k) {
        double m[3][3];
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) m[i][j] = j == k ? gamma[i] : a[i][j];
        const double beta = det(m) / da;
        const double n2 = -beta * std::cos(omega[k] * (radius + 1.0));  // (33)
        const double d1 = -2.0 * std::cos(omega[k]);
        c.n2[k] = static_cast<float>(n2);
        c.d1[k] = static_cast<float>(d1);
        // Four consecutive outputs of o = n2 s - d1 p - pp expanded in terms of
        // the four inputs and the two outputs before them (libjxl's table).
        const double d2 = d1 * d1;
        const double mul_prev[4] = {-d1, d2 - 1.0, -d2 * d1 + 2.0 * d1, d2 * d2 - 3.0 * d2 + 1.0};
        const double mul_prev2[4] = {-1.0, d1, -d2 + 1.0, d2 * d1 - 2.0 * d1};
        const double mul_in[4] = {n2, -d1 * n2, d2 * n2 - n2, -d2 * d1 * n2 + 2.0 * d1 * n2};
        for (int j = 0; j < 4; ++j) {
            c.mul_prev[k][j] = static_cast<float>(mul_prev[j]);
            c.mul_prev2[k][j] = static_cast<float>(mul_prev2[j]);
            c.mul_in[k][j] = static_cast<float>(mul_in[j]);
        }
    }
    return c;
}

/// Scratch planes of one thread, grown on demand and reused across frames.
struct Workspace {
    std::vector<float> mem;       // full-size planes
    std::vector<float> mem_half;  // planes of the next scale
    std::vector<float> rows;      // three full-width rows of code values
    std::vector<float> blur_scratch;
    std::vector<double> map_values;  // three full-width rows
};

}  // namespace

const BlurCoeffs& blur_coeffs() {
    static const BlurCoeffs c = make_blur_coeffs(1.5);
    return c;
}

YuvCoeffs yuv_coeffs(YuvMatrix m, unsigned bpc) {
    const bool bt709 = m == YuvMatrix::Bt709Limited || m == YuvMatrix::Bt709Full;
    const bool full = m == YuvMatrix::Bt709Full || m == YuvMatrix::Bt601Full;
    const double kr = bt709 ? 0.2126 : 0.299, kb = bt709 ? 0.0722 : 0.114, kg = 1.0 - kr - kb;
    const double step = std::ldexp(1.0, static_cast<int>(bpc) - 8);
    YuvCoeffs c{};
    if (full) {
        const double maxv = std::ldexp(1.0, static_cast<int>(bpc)) - 1.0;
        c.y_offset = 0.0f;
        c.y_scale = static_cast<float>(1.0 / maxv);
        c.c_offset = static_cast<float>(std::ldexp(1.0, static_cast<int>(bpc) - 1));
        c.c_scale = static_cast<float>(1.0 / maxv);
    } else {
        c.y_offset = static_cast<float>(16.0 * step);
        c.y_scale = static_cast<float>(1.0 / (219.0 * step));
        c.c_offset = static_cast<float>(128.0 * step);
        c.c_scale = static_cast<float>(1.0 / (224.0 * step));
    }
    c.cr_r = static_cast<float>(2.0 * (1.0 - kr));
    c.cb_b = static_cast<float>(2.0 * (1.0 - kb));
    c.cb_g = static_cast<float>(-2.0 * kb * (1.0 - kb) / kg);
    c.cr_g = static_cast<float>(-2.0 * kr * (1.0 - kr) / kg);
    return c;
}

int scale_count(unsigned width, unsigned height) {
    // libjxl checks the image it holds at the top of each scale's iteration,
    // before downsampling: the full picture for scales 0 and 1, scale s - 1 after.
    int n = 0;
    for (unsigned w = width, h = height; n < kNumScales && w >= kMinScaleSize && h >= kMinScaleSize; ++n) {
        if (n >= 1) {
            w = (w + 1) / 2;
            h = (h + 1) / 2;
        }
    }
    return n;
}

double score_from_norms(const std::vector<ScaleNorms>& scales) {
    double sum = 0.0;
    std::size_t i = 0;
    for (std::size_t c = 0; c < 3; ++c)
        for (const ScaleNorms& s : scales)
            for (std::size_t n = 0; n < 2; ++n) {
                sum += kWeights[i++] * std::abs(s.ssim[c * 2 + n]);
                sum += kWeights[i++] * std::abs(s.edgediff[c * 4 + n]);
                sum += kWeights[i++] * std::abs(s.edgediff[c * 4 + n + 2]);
            }
    sum = sum * 0.9562382616834844;
    sum = 2.326765642916932 * sum - 0.020884521182843837 * sum * sum + 6.248496625763138e-05 * sum * sum * sum;
    return sum > 0 ? 100.0 - 10.0 * std::pow(sum, 0.6276336467831387) : 100.0;
}

void add_channel_norms(ScaleNorms& norms, int c, const MapSums& sums, unsigned sw, unsigned sh) {
    const double one_per_pixel = 1.0 / (static_cast<double>(sh) * sw);
    norms.ssim[c * 2] = one_per_pixel * sums.s[0];
    norms.ssim[c * 2 + 1] = std::sqrt(std::sqrt(one_per_pixel * sums.s[1]));
    for (int e = 0; e < 2; ++e) {
        norms.edgediff[c * 4 + 2 * e] = one_per_pixel * sums.s[2 + 2 * e];
        norms.edgediff[c * 4 + 2 * e + 1] = std::sqrt(std::sqrt(one_per_pixel * sums.s[3 + 2 * e]));
    }
}

Scorer::Scorer(const Kernels& k, YuvMatrix m, const VideoGeometry& g)
    : k_(k), coeffs_(yuv_coeffs(m, g.bpc)), geom_(g) {}

namespace {

struct Image3 {
    PlaneF p[3];
};

/// Carves planes of width x height (stride rounded up to 16 floats) out of `mem`.
class Carver {
public:
    Carver(std::vector<float>& mem, unsigned w, unsigned h) : mem_(mem), w_(w), h_(h), stride_((w + 15) / 16 * 16) {}
    static std::size_t floats(unsigned w, unsigned h, int planes) {
        return std::size_t{(w + 15) / 16 * 16} * h * planes;
    }
    PlaneF next() {
        PlaneF p{mem_.data() + used_, static_cast<std::ptrdiff_t>(stride_), w_, h_};
        used_ += std::size_t{stride_} * h_;
        return p;
    }

private:
    std::vector<float>& mem_;
    unsigned w_, h_, stride_;
    std::size_t used_ = 0;
};

template <typename T>
void to_linear(const Kernels& k, const YuvCoeffs& c, const Picture& pic, const Image3& out, float* rows) {
    const unsigned w = pic.plane(0).width, h = pic.plane(0).height;
    const bool chroma = pic.planes() == 3;
    const ChromaShift cs = chroma_shift(pic.format());
    float* yr = rows;
    float* ur = rows + w;
    float* vr = rows + 2 * w;
    if (!chroma) {
        std::fill(ur, ur + w, c.c_offset);
        std::fill(vr, vr + w, c.c_offset);
    }
    for (unsigned y = 0; y < h; ++y) {
        const T* ys = pic.plane(0).row<const T>(y);
        for (unsigned x = 0; x < w; ++x) yr[x] = static_cast<float>(ys[x]);
        if (chroma) {
            // Chroma upsampling: each chroma sample covers its 2x1 / 2x2 luma block.
            const T* us = pic.plane(1).row<const T>(y >> cs.y);
            const T* vs = pic.plane(2).row<const T>(y >> cs.y);
            for (unsigned x = 0; x < w; ++x) {
                ur[x] = static_cast<float>(us[x >> cs.x]);
                vr[x] = static_cast<float>(vs[x >> cs.x]);
            }
        }
        k.yuv_to_linear_row(yr, ur, vr, out.p[0].row(y), out.p[1].row(y), out.p[2].row(y), w, c);
    }
}

/// Downsamples `in` 2x into `out` (already sized ceil(w/2) x ceil(h/2)).
void downsample(const Kernels& k, const PlaneF& in, const PlaneF& out) {
    for (unsigned oy = 0; oy < out.height; ++oy) {
        const unsigned y0 = 2 * oy, y1 = std::min(2 * oy + 1, in.height - 1);
        k.downsample_row(in.row(y0), in.row(y1), in.width, out.row(oy));
    }
}

void blur(const Kernels& k, const PlaneF& in, const PlaneF& tmp, const PlaneF& out, float* scratch) {
    k.blur_h(in, tmp, scratch);
    k.blur_v(tmp, out, scratch);
}

PlaneF resized(PlaneF p, unsigned w, unsigned h) {
    p.width = w;
    p.height = h;
    return p;
}

}  // namespace

std::vector<ScaleNorms> Scorer::norms(const Picture& ref, const Picture& dist) const {
    const unsigned w = geom_.width, h = geom_.height;
    thread_local Workspace ws;
    // Full-size planes: the current scale of both sides (6: linear RGB, then
    // XYB in place), blur temp, sigma11, sigma22, sigma12, mu1, mu2 (6); and
    // the next scale's linear RGB of both sides (6 of half width and height).
    // Scale s+1 is downsampled before scale s turns into XYB; then the two
    // sets swap roles.
    const unsigned hw = (w + 1) / 2, hh = (h + 1) / 2;
    if (ws.mem.size() < Carver::floats(w, h, 12)) ws.mem.assign(Carver::floats(w, h, 12), 0.0f);
    if (ws.mem_half.size() < Carver::floats(hw, hh, 6)) ws.mem_half.assign(Carver::floats(hw, hh, 6), 0.0f);
    if (ws.rows.size() < 3 * std::size_t{w}) ws.rows.assign(3 * std::size_t{w}, 0.0f);
    if (ws.blur_scratch.size() < blur_scratch_floats(w)) ws.blur_scratch.assign(blur_scratch_floats(w), 0.0f);
    if (ws.map_values.size() < 3 * std::size_t{w}) ws.map_values.assign(3 * std::size_t{w}, 0.0);
    Carver carve(ws.mem, w, h), carve_half(ws.mem_half, hw, hh);
    Image3 cur[2], next[2];
    for (int i = 0; i < 2; ++i)
        for (int c = 0; c < 3; ++c) {
            cur[i].p[c] = carve.next();
            next[i].p[c] = carve_half.next();
        }
    PlaneF tmp = carve.next();
    PlaneF s11 = carve.next(), s22 = carve.next(), s12 = carve.next(), mu1 = carve.next(), mu2 = carve.next();

    if (geom_.bpc == 8) {
        to_linear<std::uint8_t>(k_, coeffs_, ref, cur[0], ws.rows.data());
        to_linear<std::uint8_t>(k_, coeffs_, dist, cur[1], ws.rows.data());
    } else {
        to_linear<std::uint16_t>(k_, coeffs_, ref, cur[0], ws.rows.data());
        to_linear<std::uint16_t>(k_, coeffs_, dist, cur[1], ws.rows.data());
    }

    std::vector<ScaleNorms> out;
    const int scales = scale_count(w, h);
    unsigned sw = w, sh = h;
    for (int s = 0; s < scales; ++s) {
        if (s > 0) {
            for (int i = 0; i < 2; ++i) std::swap(cur[i], next[i]);
            sw = (sw + 1) / 2;
            sh = (sh + 1) / 2;
        }
        if (s + 1 < scales)
            for (int i = 0; i < 2; ++i)
                for (int c = 0; c < 3; ++c) {
                    next[i].p[c] = resized(next[i].p[c], (sw + 1) / 2, (sh + 1) / 2);
                    downsample(k_, cur[i].p[c], next[i].p[c]);
                }
        for (int i = 0; i < 2; ++i) {
            const Image3& im = cur[i];
            for (unsigned y = 0; y < sh; ++y)  // in place: linear RGB -> XYB
                k_.xyb_row(im.p[0].row(y), im.p[1].row(y), im.p[2].row(y), im.p[0].row(y), im.p[1].row(y),
                           im.p[2].row(y), sw);
        }
        Image3* xyb = cur;
        const PlaneF t = resized(tmp, sw, sh);
        const PlaneF b11 = resized(s11, sw, sh), b22 = resized(s22, sw, sh), b12 = resized(s12, sw, sh);
        const PlaneF m1 = resized(mu1, sw, sh), m2 = resized(mu2, sw, sh);
        float* scratch = ws.blur_scratch.data();
        ScaleNorms norms;
        for (int c = 0; c < 3; ++c) {
            const PlaneF& a = xyb[0].p[c];
            const PlaneF& b = xyb[1].p[c];
            const std::pair<const PlaneF*, const PlaneF*> products[3] = {{&a, &a}, {&b, &b}, {&a, &b}};
            const PlaneF* sig[3] = {&b11, &b22, &b12};
            for (int j = 0; j < 3; ++j) {
                k_.blur_h_product(*products[j].first, *products[j].second, t, scratch);
                k_.blur_v(t, *sig[j], scratch);
            }
            blur(k_, a, t, m1, scratch);
            blur(k_, b, t, m2, scratch);
            MapSums sums;
            double* ssim = ws.map_values.data();
            double* art = ssim + w;
            double* lost = art + w;
            for (unsigned y = 0; y < sh; ++y) {
                k_.map_values_row(a.row(y), m1.row(y), b.row(y), m2.row(y), b11.row(y), b22.row(y), b12.row(y), sw,
                                  ssim, art, lost);
                sums.add_row(ssim, art, lost, sw);
            }
            add_channel_norms(norms, c, sums, sw, sh);
        }
        out.push_back(norms);
    }
    return out;
}

double Scorer::score(const Picture& ref, const Picture& dist) const {
    return score_from_norms(norms(ref, dist));
}

}  // namespace vmaf::ssimulacra2
