// SpEED (spatial efficient entropic differencing) on one plane pair, scalar
// reference. A plane (already float, offset by -128 in 8-bit units) is
// optionally rescaled, low-passed and decimated by 16, made zero-mean
// locally; a Gaussian scale mixture over 5x5 blocks gives each block an
// entropy and a variance; the score is the mean |difference| of the
// variance-weighted entropies of reference and distorted.
// Types and evaluation order follow upstream libvmaf (bit-exact).
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "features/speed/speed_kernels.hpp"
#include "features/speed/speed_rescale.hpp"
#include "vmaf/picture.hpp"

namespace vmaf::speed {

/// Options shared by speed_chroma and speed_temporal.
struct Options {
    double kernelscale = 1.0;
    double prescale = 1.0;
    Rescale method = Rescale::Nearest;
    double sigma_nn = 0.29;
    double nn_floor = 0.0;
    int weight_var_mode = 0;  ///< 0..6, which variances weight the entropies
};

/// Parses "nearest", "bilinear", "bicubic", "lanczos4"; throws vmaf::Error(Usage) otherwise.
Rescale parse_rescale(const std::string& name);
/// True for the kernel scales upstream accepts.
bool valid_kernelscale(double kernelscale);

/// Tap table of one rescaled axis (n_dst outputs from n_src samples): output
/// k reads source indices idx[k * taps ..] with weights w[k * taps ..]
/// (rescaled_sample's layout; upstream's mirrored indices and float weights).
struct RescaleAxis {
    int taps = 1;
    std::vector<int> idx;
    std::vector<float> w;
};
RescaleAxis rescale_axis(Rescale m, int n_src, int n_dst);

/// Throws vmaf::Error(Input) for a bit depth SpEED does not read (upstream: 8, 10, 12, 16).
void check_depth(unsigned bpc);

/// Allocator that leaves new floats uninitialised (resize() does not zero).
template <class T>
struct UninitAllocator : std::allocator<T> {
    template <class U>
    struct rebind {
        using other = UninitAllocator<U>;
    };
    UninitAllocator() = default;
    template <class U>
    UninitAllocator(const UninitAllocator<U>&) noexcept {}
    template <class U>
    void construct(U*) noexcept {}
    template <class U, class... A>
    void construct(U* p, A&&... a) {
        ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
    }
};

/// A float image with a row stride (in floats); samples are uninitialised
/// until written.
struct Image {
    std::size_t width = 0, height = 0, stride = 0;
    std::vector<float, UninitAllocator<float>> data;
    float* row(std::size_t y) { return data.data() + y * stride; }
    const float* row(std::size_t y) const { return data.data() + y * stride; }
};

/// Geometry and filters of one SpEED instance; per-call work is in score().
class Estimator {
public:
    /// Throws vmaf::Error(Usage) for an invalid kernel scale or a plane too small
    /// (it must keep at least one 5x5 block after the 1/16 decimation).
    Estimator(const Options& opts, std::size_t width, std::size_t height, const SpeedKernels& kernels = {});

    /// Gives `img` this instance's geometry and allocation (keeps its storage
    /// when already large enough; contents unspecified), to be filled with a plane.
    void shape(Image& img) const;

    /// Fills `img` (shaped by shape()) from a plane of this instance's size:
    /// 8-bit samples + offset, higher depths sample / 2^(bpc-8) + offset
    /// (upstream supports 8, 10, 12, 16 bits; throws vmaf::Error(Input) for
    /// another depth). Only the rows score() reads are written.
    void load(Image& img, const Plane& p, unsigned bpc, int offset) const;

    /// a -= b over this instance's size, on the rows score() reads (the
    /// difference of two frames before scoring it).
    void subtract(Image& a, const Image& b) const;

    /// Score of a (ref, dis) pair; both are consumed (overwritten). `err` is set
    /// when a covariance matrix could not be inverted (the score then follows
    /// upstream's rules: 0 if only one of them failed).
    float score(Image& ref, Image& dis, bool& err) const;

    /// Sizes of one instance: the plane (w x h), after prescaling (scaled), after
    /// the 1/16 decimation (op), cut to whole 5x5 blocks (trunc), and the 5x5
    /// shifted sub-images whose covariance is taken (sub).
    struct Geometry {
        std::size_t w, h, scaled_w, scaled_h, op_w, op_h, trunc_w, trunc_h, sub_w, sub_h;
        bool rescales;  ///< the plane is prescaled (speed_prescale not within 1e-3 of 1)
    };
    Geometry geometry() const;
    const std::vector<float>& antialias_filter() const { return antialias_; }
    const std::vector<float>& lowpass_filter() const { return lowpass_; }
    Rescale method() const { return opts_.method; }

    /// Elements of the block covariance a device twin computes: the lower
    /// triangle (yi <= xi) of the 25 x 25 matrix, in the order of
    /// covariance_pairs() (row-major over xi, then yi).
    static constexpr std::size_t kCovPairs = 25 * 26 / 2;

    /// The per-image statistics of score() after the filtering and the
    /// covariance: `band` is the band-passed decimated image (trunc_h rows of
    /// `stride` floats, trunc_w used), `cov_lower` the kCovPairs covariance
    /// elements. Gives the blocks' entropies and variances; false when the
    /// covariance is singular (as estimate()).
    bool finish_estimate(const float* band, std::size_t stride, const float* cov_lower, std::vector<float>& entropy,
                         std::vector<float>& variance) const;
    /// What a device twin computes for one image (consumed): the band-passed
    /// image (trunc_h x trunc_w, packed), then the kCovPairs covariance
    /// elements, into `result` (trunc_w * trunc_h + kCovPairs floats). The
    /// reference the twins' kernels are tested against.
    void device_result(Image& img, float* result) const;
    /// score()'s last step: the mean |difference| of the weighted entropies of
    /// a reference and a distorted image (finish_estimate's outputs and results).
    float combine(const std::vector<float>& er, const std::vector<float>& vr, bool ok_ref, const std::vector<float>& ed,
                  const std::vector<float>& vd, bool ok_dis, bool& err) const;

private:
    struct Blocks;
    void filter_and_downscale(Image& img) const;
    bool estimate(const Image& img, std::vector<float>& entropy, std::vector<float>& variance) const;
    void covariance(const Image& img, float* cov) const;  ///< the full 25 x 25 matrix
    bool finish_from(const float* band, std::size_t stride, const float* cov, std::vector<float>& entropy,
                     std::vector<float>& variance) const;

    Options opts_;
    SpeedKernels kernels_;
    std::size_t w_, h_, scaled_w_, scaled_h_, alloc_w_, alloc_h_;
    std::size_t op_w_, op_h_, trunc_w_, trunc_h_, blocks_x_, blocks_y_, sub_w_, sub_h_;
    std::vector<float> antialias_, lowpass_;
    std::vector<std::size_t> rows_read_;  ///< the plane rows score() reads, ascending
};

}  // namespace vmaf::speed
