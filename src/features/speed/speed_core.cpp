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

void rescale(Rescale m, const Image& s, int sw, int sh, Image& d, int dw, int dh) {
    if (sw == dw && sh == dh) {
        for (int y = 0; y < dh; ++y) std::memcpy(d.row(y), s.row(y), sizeof(float) * dw);
        return;
    }
    const RescaleAxis ax = rescale_axis(m, sw, dw), ay = rescale_axis(m, sh, dh);
    const int t = ax.taps;
    const auto src = [&s](int y, int x) { return s.row(y)[x]; };
    for (int y = 0; y < dh; ++y) {
        float* out = d.row(y);
        for (int x = 0; x < dw; ++x)
            out[x] = rescaled_sample(m, &ax.idx[x * t], &ax.w[x * t], &ay.idx[y * t], &ay.w[y * t], src);
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

RescaleAxis rescale_axis(Rescale m, int n_src, int n_dst) {
    RescaleAxis a;
    a.taps = rescale_taps(m);
    a.idx.assign(static_cast<std::size_t>(n_dst) * a.taps, 0);
    a.w.assign(static_cast<std::size_t>(n_dst) * a.taps, 0.0f);
    const float r = static_cast<float>(n_src) / n_dst, last = static_cast<float>(n_src - 1);
    const auto at = [last](int q) { return static_cast<int>(mirror(static_cast<float>(q), 0, last)); };
    for (int k = 0; k < n_dst; ++k) {
        int* idx = &a.idx[static_cast<std::size_t>(k) * a.taps];
        float* w = &a.w[static_cast<std::size_t>(k) * a.taps];
        if (m == Rescale::Nearest) {
            idx[0] = static_cast<int>(k * r);
            continue;
        }
        const float p = (k + 0.5) * r - 0.5;  // evaluated in double, as upstream
        if (m == Rescale::Bilinear) {
            idx[0] = static_cast<int>(mirror(std::floor(p), 0, last));
            idx[1] = static_cast<int>(mirror(std::ceil(p), 0, last));
            w[0] = p - idx[0];
            continue;
        }
        const int p0 = static_cast<int>(std::floor(static_cast<double>(p)));
        const float dp = p - p0;
        if (m == Rescale::Bicubic) {
            for (int i = -1; i <= 2; ++i) {
                w[i + 1] = bicubic_kernel(i - dp);
                idx[i + 1] = at(p0 + i);
            }
        } else {
            constexpr int kA = 4;
            for (int i = -kA; i <= kA; ++i) {
                w[i + kA] = lanczos_kernel(i - dp, static_cast<float>(kA));
                idx[i + kA] = at(p0 + i);
            }
        }
    }
    return a;
}

Estimator::Estimator(const Options& opts, std::size_t width, std::size_t height, const SpeedKernels& kernels)
    : opts_(opts), kernels_(kernels), w_(width), h_(height) {
    if (!valid_kernelscale(opts.kernelscale)) throw Error(ErrorKind::Usage, "speed: invalid speed_kernelscale");
    scaled_h_ = static_cast<std::size_t>(static_cast<int>(h_ * opts.prescale + 0.5));
    scaled_w_ = static_cast<std::size_t>(static_cast<int>(w_ * opts.prescale + 0.5));
    // Within 1e-3 of 1 the plane is not rescaled, so a factor that still changes
    // the rounded size would filter samples never loaded (a silently wrong score).
    if (almost_equal(opts.prescale, 1.0) && (scaled_w_ != w_ || scaled_h_ != h_))
        throw Error(ErrorKind::Usage, "speed: speed_prescale " + std::to_string(opts.prescale) + " is within 0.001 of 1 " +
                                          "but changes the plane size (" + std::to_string(w_) + "x" + std::to_string(h_) +
                                          " to " + std::to_string(scaled_w_) + "x" + std::to_string(scaled_h_) +
                                          "); use 1, or a factor at least 0.001 away");
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

void check_depth(unsigned bpc) {
    if (bpc != 8 && bpc != 10 && bpc != 12 && bpc != 16)
        throw Error(ErrorKind::Input, "speed: unsupported bit depth " + std::to_string(bpc) + " (8, 10, 12, 16)");
}

Estimator::Geometry Estimator::geometry() const {
    return {w_, h_, scaled_w_, scaled_h_, op_w_, op_h_, trunc_w_, trunc_h_, sub_w_, sub_h_,
            !almost_equal(opts_.prescale, 1.0)};
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

void Estimator::covariance(const Image& img, float* cov) const {
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
}

bool Estimator::estimate(const Image& img, std::vector<float>& entropy, std::vector<float>& variance) const {
    float cov[kBlockElems * kBlockElems];
    covariance(img, cov);
    return finish_from(img.row(0), img.stride, cov, entropy, variance);
}

void Estimator::device_result(Image& img, float* result) const {
    filter_and_downscale(img);
    for (std::size_t i = 0; i < trunc_h_; ++i) std::memcpy(result + i * trunc_w_, img.row(i), sizeof(float) * trunc_w_);
    float cov[kBlockElems * kBlockElems];
    covariance(img, cov);
    float* lower = result + trunc_w_ * trunc_h_;
    for (std::size_t xi = 0; xi < kBlockElems; ++xi)
        for (std::size_t yi = 0; yi <= xi; ++yi) *lower++ = cov[xi * kBlockElems + yi];
}

bool Estimator::finish_estimate(const float* band, std::size_t stride, const float* cov_lower,
                                std::vector<float>& entropy, std::vector<float>& variance) const {
    float cov[kBlockElems * kBlockElems];
    std::size_t k = 0;
    for (std::size_t xi = 0; xi < kBlockElems; ++xi)
        for (std::size_t yi = 0; yi <= xi; ++yi, ++k) {
            cov[xi * kBlockElems + yi] = cov_lower[k];
            cov[yi * kBlockElems + xi] = cov_lower[k];
        }
    return finish_from(band, stride, cov, entropy, variance);
}

bool Estimator::finish_from(const float* band, std::size_t stride, const float* cov, std::vector<float>& entropy,
                            std::vector<float>& variance) const {
    const std::size_t nb = blocks_x_ * blocks_y_;
    float eig[kBlockElems];
    symmetric_eigenvalues(cov, eig, kBlockElems);

    // Y: row (r, c) of the block holds that position's sample of every block.
    std::vector<float> y(kBlockElems * nb), x(kBlockElems * nb, 0.0f);
    for (std::size_t si = 0; si < kBlock; ++si)
        for (std::size_t sj = 0; sj < kBlock; ++sj)
            for (std::size_t i = si; i < trunc_h_; i += kBlock)
                for (std::size_t j = sj; j < trunc_w_; j += kBlock)
                    y[(si * kBlock + sj) * nb + ((i - si) / kBlock) * blocks_x_ + (j - sj) / kBlock] = band[i * stride + j];

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
    return combine(er, vr, ok_ref, ed, vd, ok_dis, err);
}

float Estimator::combine(const std::vector<float>& er, const std::vector<float>& vr, bool ok_ref,
                         const std::vector<float>& ed, const std::vector<float>& vd, bool ok_dis, bool& err) const {
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
    check_depth(bpc);
    const float scaler = bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : 256.0f;
    for (std::size_t y : rows_read_)
        kernels_.load_u16(img.row(y), p.row<std::uint16_t>(static_cast<unsigned>(y)), scaler, off, w_);
}

void Estimator::subtract(Image& a, const Image& b) const {
    for (std::size_t y : rows_read_) kernels_.subtract_row(a.row(y), b.row(y), w_);
}

}  // namespace vmaf::speed
