// Kernel table of the CIEDE2000 feature: the colour difference of many
// L*a*b* pairs at once.
#pragma once

#include <cstddef>

#include "core/simd.hpp"

namespace vmaf::ciede {

/// Element count granularity of LabColumns: every array holds a multiple of
/// this many elements, so kernels may read and write whole vectors past n.
inline constexpr std::size_t kColumnPad = 16;

/// Pairs of L*a*b* colours as columns (structure of arrays).
struct LabColumns {
    const float *l1, *a1, *b1, *l2, *a2, *b2;
};

/// out[i] = delta_e2000(colour 1 of i, colour 2 of i) for i < n; the arrays
/// are readable and `out` writable up to n rounded up to kColumnPad.
using DeltaFn = void (*)(const LabColumns& in, std::size_t n, float* out);
/// Scalar reference: delta_e2000 element by element.
void delta_e_columns(const LabColumns& in, std::size_t n, float* out);

/// Scalar reference by default, overridden per SIMD target (ciede_simd.cpp);
/// every entry gives bit-identical results for every input.
struct CiedeKernels {
    DeltaFn delta_e = &ciede::delta_e_columns;
};
simd::KernelRegistry<CiedeKernels>& ciede_registry();

}  // namespace vmaf::ciede
