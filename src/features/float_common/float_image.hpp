// Float images of the upstream float features ("float_*"): the conversion of
// integer samples into float and the separable mirrored convolutions they share.
//
// Arithmetic follows upstream libvmaf's float path operation by operation
// (float where it uses float, double where it uses double, same order), so
// results are bit-identical; the build uses -ffp-contract=off.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "features/float_common/float_kernels.hpp"
#include "vmaf/picture.hpp"

namespace vmaf::floatfeat {

/// Sample storage of float images: uninitialised, recycled through a small
/// per-thread free list so per-frame images cost no page faults after the
/// first frames (memory stays bounded: at most kPoolSlots buffers and
/// kPoolBytes per thread; buffers beyond that are freed).
class FloatBuffer {
public:
    static constexpr std::size_t kPoolSlots = 48;
    static constexpr std::size_t kPoolBytes = std::size_t{256} << 20;
    FloatBuffer() = default;
    explicit FloatBuffer(std::size_t n);
    FloatBuffer(const FloatBuffer& o);
    FloatBuffer& operator=(const FloatBuffer& o);
    FloatBuffer(FloatBuffer&& o) noexcept : p_(o.p_), n_(o.n_), cap_(o.cap_) { o.p_ = nullptr, o.n_ = o.cap_ = 0; }
    FloatBuffer& operator=(FloatBuffer&& o) noexcept;
    ~FloatBuffer();
    float* data() { return p_; }
    const float* data() const { return p_; }
    std::size_t size() const { return n_; }

private:
    float* p_ = nullptr;
    std::size_t n_ = 0, cap_ = 0;
};

/// A dense float image, row-major, stride == width; samples uninitialised on construction.
struct FloatImage {
    unsigned w = 0, h = 0;
    FloatBuffer px;

    FloatImage() = default;
    FloatImage(unsigned width, unsigned height) : w(width), h(height), px(std::size_t{width} * height) {}
    float* row(unsigned y) { return px.data() + std::size_t{y} * w; }
    const float* row(unsigned y) const { return px.data() + std::size_t{y} * w; }
    float at(unsigned x, unsigned y) const { return px.data()[std::size_t{y} * w + x]; }
};

/// A sample as upstream's float features see it (before any offset): 8-bit
/// as is, 10/12/16-bit divided (in float) by 4/16/256. Exact.
template <typename T>
inline float sample_to_float(T v, float scaler) {
    if constexpr (sizeof(T) == 1)
        return static_cast<float>(v);
    else
        return static_cast<float>(v) / scaler;
}

/// 4, 16 or 256 for 10, 12 or 16 bits (unused for 8).
inline float hbd_scaler(unsigned bpc) {
    return bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : 256.0f;
}

/// Throws vmaf::Error (Input) naming `feature` when the frame is smaller than
/// min_w x min_h, the smallest size its filters and decimations are defined for.
void require_size(std::string_view feature, unsigned w, unsigned h, unsigned min_w, unsigned min_h);

/// Samples of `plane` as float in the 8-bit range: 8-bit as is, 10/12/16-bit
/// divided by 4/16/256 (in float), then `offset` added (0 or -128).
FloatImage to_float(const Plane& plane, unsigned bpc, int offset);

/// Separable convolution with the odd-length filter `f` (vertical pass, then
/// horizontal), edges mirrored without repeating the edge sample
/// (index -1 -> 1, n -> n - 2). Each output is accumulated in float, taps in
/// order from 0. Tap::Square convolves a*a, Tap::Product a*b (b required).
/// Requires the filter radius < w and < h. `dst` is resized to a's size.
/// `k` selects the implementation (all bit-identical).
void convolve_mirror(const FloatKernels& k, std::span<const float> f, const FloatImage& a, const FloatImage* b, Tap tap,
                     FloatImage& dst);

}  // namespace vmaf::floatfeat
