#include "core/simd.hpp"

#include <hwy/targets.h>

#if HWY_ARCH_X86
#include <cpuid.h>
#endif

namespace vmaf::simd {

namespace {

#if HWY_ARCH_X86
bool bit(unsigned reg, int n) {
    return (reg >> n) & 1u;
}

/// Highway's x86 targets that this CPU and OS run, as hwy::SupportedTargets()
/// decides them (Highway 1.0): a target needs every instruction set its code
/// is compiled for (HWY_TARGET_STR_* in hwy/ops/set_macros-inl.h; AVX-512 CD
/// too, as later Highway versions require), and the OS must save the
/// registers it uses (XCR0). Done here rather than by libhwy.so, whose
/// loading runs a timer calibration in a static initialiser: ~2.7 ms of CPU
/// per process on a VM, more than the rest of `vmaf`'s start-up.
std::int64_t detect_targets() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    std::int64_t out = HWY_SCALAR | HWY_EMU128;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return out;
    const bool ssse3 = bit(d, 25) && bit(d, 26) && bit(c, 0) && bit(c, 9);           // SSE, SSE2, SSE3, SSSE3
    const bool sse4 = ssse3 && bit(c, 19) && bit(c, 20) && bit(c, 1) && bit(c, 25);  // SSE4.1/4.2, PCLMUL, AES
    const bool osxsave = bit(c, 27);
    const bool avx_fma_f16c = bit(c, 28) && bit(c, 12) && bit(c, 29);
    unsigned b7 = 0, c7 = 0, ext_c = 0;
    if (__get_cpuid_count(7, 0, &a, &b7, &c7, &d) == 0) b7 = c7 = 0;
    if (__get_cpuid(0x80000001u, &a, &b, &ext_c, &d) == 0) ext_c = 0;
    const bool avx2 =
        sse4 && avx_fma_f16c && bit(b7, 5) && bit(b7, 3) && bit(b7, 8) && bit(ext_c, 5);  // + BMI1/2, LZCNT
    const bool avx3 = avx2 && bit(b7, 16) && bit(b7, 17) && bit(b7, 28) && bit(b7, 30) && bit(b7, 31);  // F DQ CD BW VL
    // VBMI, VBMI2, VAES, VPCLMULQDQ, VNNI, BITALG, VPOPCNTDQ
    const bool avx3_dl =
        avx3 && bit(c7, 1) && bit(c7, 6) && bit(c7, 9) && bit(c7, 10) && bit(c7, 11) && bit(c7, 12) && bit(c7, 14);
    // Registers the OS saves: XMM (bit 1), YMM (2), opmask and ZMM (5-7).
    unsigned xcr0 = 0;
    if (osxsave) {
        unsigned hi = 0;
        __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(hi) : "c"(0));
    }
    const bool xmm = !osxsave || bit(xcr0, 1);
    const bool ymm = osxsave && bit(xcr0, 1) && bit(xcr0, 2);
    const bool zmm = ymm && bit(xcr0, 5) && bit(xcr0, 6) && bit(xcr0, 7);
    if (ssse3 && xmm) out |= HWY_SSSE3;
    if (sse4 && xmm) out |= HWY_SSE4;
    if (avx2 && ymm) out |= HWY_AVX2;
    if (avx3 && zmm) out |= HWY_AVX3;
    if (avx3_dl && zmm) out |= HWY_AVX3_DL;
    return out;
}
#else
std::int64_t detect_targets() {
    return hwy::SupportedTargets();
}
#endif

/// detect_targets(), once per process.
std::int64_t cpu_targets() {
    static const std::int64_t targets = detect_targets();
    return targets;
}

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
    std::int64_t allowed = cpu_targets() & ~static_cast<std::int64_t>(HWY_EMU128 | HWY_SCALAR);
    for (const MaskBit& m : kMaskBits)
        if (cpumask & m.bit) allowed &= ~m.targets;
    return allowed;
}

std::string target_name(std::int64_t target) { return hwy::TargetName(target); }

std::vector<std::int64_t> supported_targets() {
    std::vector<std::int64_t> out;
    const std::int64_t s = cpu_targets();
    for (int bit = 0; bit < 63; ++bit)
        if (s & (std::int64_t{1} << bit)) out.push_back(std::int64_t{1} << bit);
    return out;
}

}  // namespace vmaf::simd
