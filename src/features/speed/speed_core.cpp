#include "features/speed/speed_core.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "features/speed/speed_linalg.hpp"
#include "vmaf/error.hpp"

namespace vmaf::speed {

namespace {

constexpr std::size_t kBlock = 5;  // side of the Gaussian-scale-mixture block
constexpr std::size_t kBlockElems = kBlock * kBlock;
constexpr int kScales = 4;  // the plane is decimated by 2^kScales
constexpr double kEigenEps = 1e-6;
constexpr double kPi = 3.14159265358979323846;
constexpr double kE = 2.7182818284590452354;

bool almost_equal(double x, double c) { return std::fabs(x - c) < 1.0e-3; }

// ---- Gaussian filters (upstream's vif_tools arithmetic) ---------------------

int round_up_to_odd(float f) {
    const int c = static_cast<int>(std::ceil(static_cast<double>(f)));
    return c % 2 == 0 ? c + 1 : c;
}

int filter_size(int scale, float kernelscale) {
    const int n = (1 << (4 - scale)) + 1;
    return std::max(round_up_to_odd(n * kernelscale), 3);
}

std::vector<float> gaussian(int size, float stdev) {
    std::vector<float> out(size);
    float sum = 0;
    const int k = (size - 1) / 2;
    for (int i = 0; i < size; ++i) {
        const float x = static_cast<float>(i - k);
        const float num = static_cast<float>(std::exp(-0.5 * x / stdev * x / stdev));
        const float den = static_cast<float>(1 / (stdev * std::sqrt(2 * kPi)));
        out[i] = num / den;
        sum += out[i];
    }
    for (float& v : out) v /= sum;
    return out;
}

/// Index q of a row or column of n, mirrored at both ends (without repeating the edge).
int mirror_index(int q, int n) {
    return q < 0 ? -q : (q >= n ? 2 * n - q - 2 : q);
}

/// Separable filter with mirrored borders (vertical pass, then horizontal), w x h.
/// Every output is accumulated from 0 in tap order, as upstream's scalar loop.
void filter(const SpeedKernels& k, const std::vector<float>& f, const Image& src, Image& dst, std::size_t w,
            std::size_t h) {
    const int fw = static_cast<int>(f.size()), r = fw / 2, iw = static_cast<int>(w), ih = static_cast<int>(h);
    std::vector<float> tmp(w);
    std::vector<const float*> rows(fw);
    for (int i = 0; i < ih; ++i) {
        for (int fi = 0; fi < fw; ++fi) rows[fi] = src.row(mirror_index(i - r + fi, ih));
        k.weighted_rows(tmp.data(), rows.data(), f.data(), fw, w);
        float* out = dst.row(i);
        auto border = [&](int j) {
            float acc = 0;
            for (int fj = 0; fj < fw; ++fj) acc += f[fj] * tmp[mirror_index(j - r + fj, iw)];
            out[j] = acc;
        };
        const int lo = std::min(r, iw), hi = std::max(lo, iw - r);
        for (int j = 0; j < lo; ++j) border(j);
        for (int j = hi; j < iw; ++j) border(j);
        if (hi > lo) {
            for (int fj = 0; fj < fw; ++fj) rows[fj] = tmp.data() + (lo - r + fj);
            k.weighted_rows(out + lo, rows.data(), f.data(), fw, hi - lo);
        }
    }
}

/// filter() followed by keeping every 16th sample of every 16th row: dst
/// ((w / 16) x (h / 16)) gets exactly the values filter() gives at (16 i, 16 j),
/// computing only those (each output's taps, order and roundings unchanged).
void filter_decimate16(const SpeedKernels& k, const std::vector<float>& f, const Image& src, Image& dst, std::size_t w,
                       std::size_t h) {
    const int fw = static_cast<int>(f.size()), r = fw / 2, iw = static_cast<int>(w), ih = static_cast<int>(h);
    std::vector<float> tmp(w);
    std::vector<const float*> rows(fw);
    for (int i = 0; i < ih / 16; ++i) {
        for (int fi = 0; fi < fw; ++fi) rows[fi] = src.row(mirror_index(16 * i - r + fi, ih));
        k.weighted_rows(tmp.data(), rows.data(), f.data(), fw, w);
        float* out = dst.row(i);
        for (int j = 0; j < iw / 16; ++j) {
            float acc = 0;
            for (int fj = 0; fj < fw; ++fj) acc += f[fj] * tmp[mirror_index(16 * j - r + fj, iw)];
            out[j] = acc;
        }
    }
}

// ---- rescaling (prescale != 1) ---------------------------------------------

float mirror(float i, float left, float right) { return i < left ? -i : i > right ? 2 * right - i : i; }

float bicubic_kernel(float t) {
    const float a = -0.75;
    if (t < 0) t = -t;
    if (t < 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
    if (t < 2) return (((t - 5) * t + 8) * t - 4) * a;
    return 0;
}

float lanczos_kernel(float x, float a) {
    if (x == 0.0) return 1.0;
    if (x > -a && x < a) return a * std::sin(kPi * x) * std::sin(kPi * x / a) / (kPi * kPi * x * x);
    return 0.0;
}

float bicubic_at(const Image& s, int w, int h, float x, float y) {
    const int x0 = static_cast<int>(std::floor(static_cast<double>(x)));
    const int y0 = static_cast<int>(std::floor(static_cast<double>(y)));
    const float dx = x - x0, dy = y - y0;
    float wx[4], wy[4];
    for (int i = -1; i <= 2; ++i) {
        wx[i + 1] = bicubic_kernel(i - dx);
        wy[i + 1] = bicubic_kernel(i - dy);
    }
    float v = 0.0;
    for (int j = -1; j <= 2; ++j)
        for (int i = -1; i <= 2; ++i) {
            const int xi = static_cast<int>(mirror(static_cast<float>(x0 + i), 0, static_cast<float>(w - 1)));
            const int yi = static_cast<int>(mirror(static_cast<float>(y0 + j), 0, static_cast<float>(h - 1)));
            v += s.row(yi)[xi] * (wx[i + 1] * wy[j + 1]);
        }
    return v;
}

float lanczos_at(const Image& s, int w, int h, float x, float y) {
    constexpr int a = 4;
    const int x0 = static_cast<int>(std::floor(static_cast<double>(x)));
    const int y0 = static_cast<int>(std::floor(static_cast<double>(y)));
    const float dx = x - x0, dy = y - y0;
    float wx[2 * a + 1], wy[2 * a + 1];
    for (int i = -a; i <= a; ++i) {
        wx[i + a] = lanczos_kernel(i - dx, static_cast<float>(a));
        wy[i + a] = lanczos_kernel(i - dy, static_cast<float>(a));
    }
    float v = 0.0, wsum = 0.0;
    for (int iy = -a; iy <= a; ++iy)
        for (int ix = -a; ix <= a; ++ix) {
            const float wgt = wx[ix + a] * wy[iy + a];
            wsum += wgt;
            const int xi = static_cast<int>(mirror(static_cast<float>(x0 + ix), 0, static_cast<float>(w - 1)));
            const int yi = static_cast<int>(mirror(static_cast<float>(y0 + iy), 0, static_cast<float>(h - 1)));
            v += s.row(yi)[xi] * wgt;
        }
    return v / wsum;
}

void rescale(Rescale m, const Image& s, int sw, int sh, Image& d, int dw, int dh) {
    if (sw == dw && sh == dh) {
        for (int y = 0; y < dh; ++y) std::memcpy(d.row(y), s.row(y), sizeof(float) * dw);
        return;
    }
    const float rx = static_cast<float>(sw) / dw, ry = static_cast<float>(sh) / dh;
    switch (m) {
        case Rescale::Nearest:
            for (int y = 0; y < dh; ++y)
                for (int x = 0; x < dw; ++x)
                    d.row(y)[x] = s.row(static_cast<int>(y * ry))[static_cast<int>(x * rx)];
            return;
        case Rescale::Bilinear: {
            std::vector<int> x1(dw), x2(dw);
            std::vector<float> dxs(dw);
            for (int x = 0; x < dw; ++x) {
                const float xx = (x + 0.5) * rx - 0.5;
                x1[x] = static_cast<int>(mirror(static_cast<float>(std::floor(xx)), 0, static_cast<float>(sw - 1)));
                x2[x] = static_cast<int>(mirror(static_cast<float>(std::ceil(xx)), 0, static_cast<float>(sw - 1)));
                dxs[x] = xx - x1[x];
            }
            for (int y = 0; y < dh; ++y) {
                const float yy = (y + 0.5) * ry - 0.5;
                const int y1 = static_cast<int>(mirror(static_cast<float>(std::floor(yy)), 0, static_cast<float>(sh - 1)));
                const int y2 = static_cast<int>(mirror(static_cast<float>(std::ceil(yy)), 0, static_cast<float>(sh - 1)));
                const float dy = yy - y1;
                const float *r1 = s.row(y1), *r2 = s.row(y2);
                float* out = d.row(y);
                for (int x = 0; x < dw; ++x) {
                    const float dx = dxs[x];
                    out[x] = (1 - dy) * (1 - dx) * r1[x1[x]] + (1 - dy) * dx * r1[x2[x]] + dy * (1 - dx) * r2[x1[x]] +
                             dy * dx * r2[x2[x]];
                }
            }
            return;
        }
        case Rescale::Bicubic:
        case Rescale::Lanczos4:
            for (int y = 0; y < dh; ++y) {
                const float yy = (y + 0.5) * ry - 0.5;
                for (int x = 0; x < dw; ++x) {
                    const float xx = (x + 0.5) * rx - 0.5;
                    d.row(y)[x] = m == Rescale::Bicubic ? bicubic_at(s, sw, sh, xx, yy) : lanczos_at(s, sw, sh, xx, yy);
                }
            }
            return;
    }
}

double log2d(double v) { return std::log2(v); }

}  // namespace

Rescale parse_rescale(const std::string& name) {
    if (name == "nearest") return Rescale::Nearest;
    if (name == "bilinear") return Rescale::Bilinear;
    if (name == "bicubic") return Rescale::Bicubic;
    if (name == "lanczos4") return Rescale::Lanczos4;
    throw Error(ErrorKind::Usage,
                "speed: invalid speed_prescale_method '" + name + "' (nearest, bilinear, bicubic, lanczos4)");
}

bool valid_kernelscale(double kernelscale) {
    static const float kValid[] = {1.0f,         1.0f / 2.0f,  3.0f / 2.0f,  2.0f,         2.0f / 3.0f,  24.0f / 10.0f,
                                   360.0f / 97.0f, 4.0f / 3.0f, 3.5f / 3.0f, 3.75f / 3.0f, 4.25f / 3.0f, 5.0f / 3.0f,
                                   3.0f,         1.0f / 2.25f, 1.4746f,      1.54f,        1.6f,         1.06667f,
                                   0.711111f,    0.740740f,    1.111111f};
    const float k = static_cast<float>(kernelscale);
    for (float v : kValid)
        if (std::fabs(k - v) < 1e-3) return true;
    return false;
}

Estimator::Estimator(const Options& opts, std::size_t width, std::size_t height, const SpeedKernels& kernels)
    : opts_(opts), kernels_(kernels), w_(width), h_(height) {
    if (!valid_kernelscale(opts.kernelscale)) throw Error(ErrorKind::Usage, "speed: invalid speed_kernelscale");
    scaled_h_ = static_cast<std::size_t>(static_cast<int>(h_ * opts.prescale + 0.5));
    scaled_w_ = static_cast<std::size_t>(static_cast<int>(w_ * opts.prescale + 0.5));
    alloc_h_ = std::max(h_, scaled_h_);
    alloc_w_ = std::max(w_, scaled_w_);
    op_h_ = scaled_h_ >> kScales;
    op_w_ = scaled_w_ >> kScales;
    trunc_w_ = op_w_ / kBlock * kBlock;
    trunc_h_ = op_h_ / kBlock * kBlock;
    blocks_x_ = trunc_w_ / kBlock;
    blocks_y_ = trunc_h_ / kBlock;
    sub_w_ = trunc_w_ - kBlock + 1;
    sub_h_ = trunc_h_ - kBlock + 1;
    if (trunc_w_ == 0 || trunc_h_ == 0)
        throw Error(ErrorKind::Usage, "speed: plane " + std::to_string(w_) + "x" + std::to_string(h_) +
                                          " is too small (at least 80x80 after prescaling)");
    const float ks = static_cast<float>(opts.kernelscale);
    const int aa = filter_size(1, ks);
    antialias_ = gaussian(aa, static_cast<float>(std::sqrt(static_cast<double>(kScales)) * aa / 5.0f));
    const int lp = filter_size(kScales, ks);
    lowpass_ = gaussian(lp, lp / 5.0f);
    // Without rescaling, only the anti-alias taps of the kept rows (16 i) read the plane.
    std::vector<bool> read(h_, !almost_equal(opts_.prescale, 1.0));
    const int r = aa / 2, ih = static_cast<int>(h_);
    for (int i = 0; i < ih / 16; ++i)
        for (int t = 0; t < aa; ++t) read[mirror_index(16 * i - r + t, ih)] = true;
    for (std::size_t y = 0; y < h_; ++y)
        if (read[y]) rows_read_.push_back(y);
}

void Estimator::shape(Image& img) const {
    img.width = w_;
    img.height = h_;
    img.stride = alloc_w_;
    img.data.resize(alloc_w_ * alloc_h_);
}

void Estimator::filter_and_downscale(Image& frame) const {
    // Per-thread work images, reused across calls (every sample read is written first).
    thread_local Image tmp, cur;
    tmp.stride = cur.stride = frame.stride;
    tmp.data.resize(frame.data.size());
    cur.data.resize(frame.data.size());
    if (!almost_equal(opts_.prescale, 1.0)) {
        for (std::size_t y = 0; y < h_; ++y) std::memcpy(tmp.row(y), frame.row(y), sizeof(float) * w_);
        rescale(opts_.method, tmp, static_cast<int>(w_), static_cast<int>(h_), frame, static_cast<int>(scaled_w_),
                static_cast<int>(scaled_h_));
    }
    // Output row i reads source rows near 16 i: decimate into `cur`, then copy back.
    filter_decimate16(kernels_, antialias_, frame, cur, scaled_w_, scaled_h_);
    // Zeros after each row: the covariance kernels' scratch lanes read up to 7 floats past it.
    for (std::size_t i = 0; i < op_h_; ++i) {
        std::memcpy(frame.row(i), cur.row(i), sizeof(float) * op_w_);
        std::fill_n(frame.row(i) + op_w_, std::min<std::size_t>(8, frame.stride - op_w_), 0.0f);
    }
    filter(kernels_, lowpass_, frame, cur, op_w_, op_h_);
    for (std::size_t i = 0; i < op_h_; ++i) kernels_.subtract_row(frame.row(i), cur.row(i), op_w_);
}

bool Estimator::estimate(const Image& img, std::vector<float>& entropy, std::vector<float>& variance) const {
    const std::size_t nb = blocks_x_ * blocks_y_;
    // Covariance of the 25 shifted sub-images (means in float, sums in double),
    // each sum over the sub-image in row-major order. The kernels' scratch
    // lanes read up to 7 floats past a row: filter_and_downscale zero-pads them.
    float means[kBlockElems];
    for (std::size_t r = 0; r < kBlock; ++r) {
        float acc[kCovGroup] = {};
        for (std::size_t i = 0; i < sub_h_; ++i) kernels_.shift_sums(acc, img.row(r + i), sub_w_);
        for (std::size_t c = 0; c < kBlock; ++c) means[r * kBlock + c] = acc[c] / (sub_w_ * sub_h_);
    }
    double dmeans[kBlockElems];
    for (std::size_t k = 0; k < kBlockElems; ++k) dmeans[k] = means[k];
    float cov[kBlockElems * kBlockElems];
    for (std::size_t rx = 0; rx < kBlock; ++rx)
        for (std::size_t ry = 0; ry <= rx; ++ry) {
            // Sums for x = (rx, cx), y = (ry, cy), every cx, cy: acc[cx * kCovGroup + cy].
            double acc[kBlock * kCovGroup] = {};
            for (std::size_t i = 0; i < sub_h_; ++i)
                kernels_.cov_row(acc, img.row(rx + i), dmeans + rx * kBlock, img.row(ry + i), dmeans + ry * kBlock,
                                 sub_w_);
            for (std::size_t cx = 0; cx < kBlock; ++cx)
                for (std::size_t cy = 0; cy < kBlock; ++cy) {
                    const std::size_t xi = rx * kBlock + cx, yi = ry * kBlock + cy;
                    if (yi > xi) continue;  // the lower triangle, mirrored below
                    const float c = static_cast<float>(acc[cx * kCovGroup + cy] / (sub_w_ * sub_h_));
                    cov[xi * kBlockElems + yi] = c;
                    cov[yi * kBlockElems + xi] = c;
                }
        }
    float eig[kBlockElems];
    symmetric_eigenvalues(cov, eig, kBlockElems);

    // Y: row (r, c) of the block holds that position's sample of every block.
    std::vector<float> y(kBlockElems * nb), x(kBlockElems * nb, 0.0f);
    for (std::size_t si = 0; si < kBlock; ++si)
        for (std::size_t sj = 0; sj < kBlock; ++sj)
            for (std::size_t i = si; i < trunc_h_; i += kBlock)
                for (std::size_t j = sj; j < trunc_w_; j += kBlock)
                    y[(si * kBlock + sj) * nb + ((i - si) / kBlock) * blocks_x_ + (j - sj) / kBlock] = img.row(i)[j];

    bool regular = true;
    for (float e : eig)
        if (e < kEigenEps) regular = false;
    bool ok = regular && solve(cov, kBlockElems, y.data(), static_cast<int>(nb), x.data(), kernels_);
    if (!ok) std::fill(x.begin(), x.end(), 0.0f);

    const float denom = static_cast<float>(kBlockElems);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = (x[i] * y[i]) / denom;
    for (std::size_t r = 1; r < kBlockElems; ++r)
        for (std::size_t j = 0; j < nb; ++j) x[j] += x[r * nb + j];

    const float sigma_nn = static_cast<float>(opts_.sigma_nn);
    const double log2_2pie = log2d(2 * kPi * kE);
    entropy.assign(nb, 0.0f);
    for (std::size_t k = 0; k < kBlockElems; ++k) {
        const float l = eig[k] < 0 ? 0 : eig[k];
        for (std::size_t j = 0; j < nb; ++j) {
            const float arg = l * x[j] + sigma_nn;
            entropy[j] = static_cast<float>(entropy[j] + (log2d(arg) + log2_2pie));
        }
    }
    variance.assign(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(nb));
    return ok;
}

float Estimator::score(Image& ref, Image& dis, bool& err) const {
    std::vector<float> er, vr, ed, vd;
    filter_and_downscale(ref);
    const bool ok_ref = estimate(ref, er, vr);
    filter_and_downscale(dis);
    const bool ok_dis = estimate(dis, ed, vd);
    err = !ok_ref || !ok_dis;
    if (ok_ref != ok_dis) return 0.0f;

    const float sigma_nn = static_cast<float>(opts_.sigma_nn), nn_floor = static_cast<float>(opts_.nn_floor);
    const double log2_2pie = log2d(2 * kPi * kE);
    const float base = static_cast<float>(kBlockElems * (log2d((1 + nn_floor) * sigma_nn) + log2_2pie));
    const std::size_t nb = er.size();
    float score = 0;
    for (std::size_t i = 0; i < nb; ++i) {
        if (er[i] < base && ed[i] < base) continue;  // no visible difference
        float sr, sd;
        const float rv = vr[i], dv = vd[i];
        switch (opts_.weight_var_mode) {
            case 0: sr = er[i] * log2d(1 + rv); sd = ed[i] * log2d(1 + dv); break;
            case 1: sr = er[i] * log2d(1 + rv); sd = ed[i] * log2d(1 + rv); break;
            case 2: sr = er[i] * log2d(1 + dv); sd = ed[i] * log2d(1 + dv); break;
            case 3:
                sr = er[i] * log2d(1 + (rv + dv) / 2.0);
                sd = ed[i] * log2d(1 + (rv + dv) / 2.0);
                break;
            case 4: sr = er[i] * log2d(1 + rv); sd = ed[i] * log2d(1 + (rv + dv) / 2.0); break;
            case 5: sr = er[i] * log2d(1 + rv); sd = ed[i] * log2d(1 + (0.75 * rv + 0.25 * dv)); break;
            case 6: sr = er[i] * log2d(1 + rv); sd = ed[i] * log2d(1 + (0.25 * rv + 0.75 * dv)); break;
            default: throw Error(ErrorKind::Usage, "speed: speed_weight_var_mode must be 0..6");
        }
        score += std::fabs(sr - sd);
    }
    return score / static_cast<float>(nb);
}

void Estimator::load(Image& img, const Plane& p, unsigned bpc, int offset) const {
    const float off = static_cast<float>(offset);
    if (bpc == 8) {
        for (std::size_t y : rows_read_)
            kernels_.load_u8(img.row(y), p.row<std::uint8_t>(static_cast<unsigned>(y)), off, w_);
        return;
    }
    float scaler;
    switch (bpc) {
        case 10: scaler = 4.0f; break;
        case 12: scaler = 16.0f; break;
        case 16: scaler = 256.0f; break;
        default:
            throw Error(ErrorKind::Input, "speed: unsupported bit depth " + std::to_string(bpc) + " (8, 10, 12, 16)");
    }
    for (std::size_t y : rows_read_)
        kernels_.load_u16(img.row(y), p.row<std::uint16_t>(static_cast<unsigned>(y)), scaler, off, w_);
}

void Estimator::subtract(Image& a, const Image& b) const {
    for (std::size_t y : rows_read_) kernels_.subtract_row(a.row(y), b.row(y), w_);
}

}  // namespace vmaf::speed
