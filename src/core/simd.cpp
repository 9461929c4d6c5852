#include "core/simd.hpp"

#include <hwy/targets.h>

namespace vmaf::simd {

namespace {

struct MaskBit {
    unsigned bit;
    std::int64_t targets;
};

#if HWY_ARCH_X86
// SSE2 is the x86-64 baseline and has no Highway target of its own: its bit
// disables every SIMD target, as nothing upstream runs without SSE2.
constexpr MaskBit kMaskBits[] = {
    {1, HWY_SSSE3 | HWY_SSE4 | HWY_AVX2 | HWY_AVX3 | HWY_AVX3_DL},
    {2, HWY_SSSE3},
    {4, HWY_SSE4},
    {8, HWY_AVX2},
    {16, HWY_AVX3},
    {32, HWY_AVX3_DL},
};
#elif HWY_ARCH_ARM_A64
constexpr MaskBit kMaskBits[] = {
    {1, HWY_NEON},
    {2, HWY_SVE | HWY_SVE2 | HWY_SVE_256 | HWY_SVE2_128},
};
#else
constexpr MaskBit kMaskBits[] = {{0, 0}};
#endif

}  // namespace

std::int64_t allowed_targets(unsigned cpumask) {
    std::int64_t allowed = hwy::SupportedTargets() & ~static_cast<std::int64_t>(HWY_EMU128 | HWY_SCALAR);
    for (const MaskBit& m : kMaskBits)
        if (cpumask & m.bit) allowed &= ~m.targets;
    return allowed;
}

std::string target_name(std::int64_t target) { return hwy::TargetName(target); }

std::vector<std::int64_t> supported_targets() {
    std::vector<std::int64_t> out;
    const std::int64_t s = hwy::SupportedTargets();
    for (int bit = 0; bit < 63; ++bit)
        if (s & (std::int64_t{1} << bit)) out.push_back(std::int64_t{1} << bit);
    return out;
}

}  // namespace vmaf::simd
