// checkasm-style helpers: every SIMD variant of a kernel table against the
// scalar reference, bit for bit, on random and edge inputs, with guard zones
// around every buffer to catch overruns. The RNG seed is printed on failure
// and can be fixed with VMAF_CHECKASM_SEED=<n> to reproduce a run.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "vmaf/picture.hpp"

namespace vmaf::test {

/// Seed of this test run: VMAF_CHECKASM_SEED if set, else from the clock.
/// Add `SCOPED_TRACE(seed_trace())` so failures print it.
std::uint64_t checkasm_seed();
std::string seed_trace();

/// A 2-D buffer of T with `guard` elements of a fixed pattern before, after
/// and at the end of every row (stride > width). intact() checks the guards.
template <typename T>
class GuardedPlane {
public:
    GuardedPlane(unsigned width, unsigned height, unsigned extra_stride = 0, unsigned guard = 64)
        : width_(width), height_(height), stride_(width + extra_stride + guard), guard_(guard),
          mem_(std::size_t{stride_} * height + 2 * guard, kPattern) {}

    T* row(unsigned y) { return mem_.data() + guard_ + std::size_t{y} * stride_; }
    const T* row(unsigned y) const { return mem_.data() + guard_ + std::size_t{y} * stride_; }
    T* data() { return row(0); }
    /// Stride in elements.
    std::ptrdiff_t stride() const { return stride_; }
    std::ptrdiff_t stride_bytes() const { return stride_ * static_cast<std::ptrdiff_t>(sizeof(T)); }
    unsigned width() const { return width_; }
    unsigned height() const { return height_; }

    template <typename Gen>
    void fill(Gen&& gen) {
        for (unsigned y = 0; y < height_; ++y)
            for (unsigned x = 0; x < width_; ++x) row(y)[x] = static_cast<T>(gen());
    }

    /// True when nothing outside [0,width) x [0,height) was written.
    bool intact() const {
        for (std::size_t i = 0; i < guard_; ++i)
            if (mem_[i] != kPattern || mem_[mem_.size() - 1 - i] != kPattern) return false;
        for (unsigned y = 0; y < height_; ++y)
            for (unsigned x = width_; x < stride_; ++x)
                if (row(y)[x] != kPattern) return false;
        return true;
    }

private:
    static constexpr T kPattern = static_cast<T>(0x5a5a5a5a5a5a5a5aULL);
    unsigned width_, height_, stride_, guard_;
    std::vector<T> mem_;
};

/// The Plane view of a GuardedPlane, as the kernels take it.
template <typename T>
Plane as_plane(GuardedPlane<T>& g) {
    return Plane{g.data(), g.stride_bytes(), g.width(), g.height()};
}

/// A flat buffer of n T with guard zones of a fixed pattern on both sides.
/// The n elements hold the pattern too, or `init` when given. intact() checks the guards.
template <typename T>
struct GuardedBuf {
    static constexpr std::size_t kGuard = 64;
    static constexpr T kPattern = static_cast<T>(0xa5a5a5a5u);

    explicit GuardedBuf(std::size_t n) : n(n), mem(n + 2 * kGuard, kPattern) {}
    GuardedBuf(std::size_t n, T init) : GuardedBuf(n) {
        for (std::size_t i = 0; i < n; ++i) data()[i] = init;
    }
    T* data() { return mem.data() + kGuard; }
    bool intact() const {
        for (std::size_t i = 0; i < kGuard; ++i)
            if (mem[i] != kPattern || mem[kGuard + n + i] != kPattern) return false;
        return true;
    }
    std::size_t n;
    std::vector<T> mem;
};

}  // namespace vmaf::test
