// Integer ADM: the table of hot-loop kernels (dav1d-style), scalar reference
// by default, overridden per Highway target by adm_simd.cpp.
//
// Every kernel works on rows (pointers + counts), so the pipeline in
// adm_kernels.cpp / adm_dwt.cpp owns all 2-D bookkeeping (mirroring of rows,
// regions) and a SIMD kernel must only reproduce the per-sample integer
// arithmetic bit for bit. Column mirroring stays inside the kernels that need
// it (horizontal DWT, contrast masking).
#pragma once

#include <cstdint>

#include "core/simd.hpp"

namespace vmaf::adm {

/// Arguments of one row of contrast masking (scale 0: T = int16_t, scales
/// 1..3: T = int32_t). Rows are of a band `w` samples wide; pixels
/// [j0, j1) are visited. Column -1 mirrors to 1, column w to w-1.
template <typename T>
struct CmRow {
    /// [up, centre, down] rows of the masker's |csf| / 30 summed over the
    /// three orientations (wrapping int32 sums, as the csf kernels leave them).
    const std::int32_t* fsum[3];
    const T* masker[3];  ///< centre rows of the masker (csf) bands
    const T* target[3];  ///< centre rows of the target (decoupled) bands
    int w, j0, j1;
    std::uint32_t rf[3];         ///< CSF multipliers (scale 0: u16 values)
    std::uint32_t shift_cub[3];  ///< per-orientation (scales 1..3: all equal)
    std::int64_t add_cub[3];
};

struct AdmKernels {
    // --- DWT. Vertical passes get the 4 (mirrored) source rows of one output
    // row; horizontal passes mirror columns themselves (w >= 5 not required:
    // any w >= 2 with the mirror rule of adm_dwt.cpp).
    using Dwt0Vert8 = void (*)(const std::uint8_t* const r[4], int w, std::int16_t* lo, std::int16_t* hi);
    using Dwt0Vert16 = void (*)(const std::uint16_t* const r[4], int w, unsigned bpc, std::int16_t* lo,
                                std::int16_t* hi);
    /// v, h, d may all be null (only band A wanted).
    using Dwt0Horz = void (*)(const std::int16_t* lo, const std::int16_t* hi, int w, std::int16_t* a,
                              std::int16_t* v, std::int16_t* h, std::int16_t* d);
    /// Scale-1 vertical pass over rows of the int16 band A of scale 0: the
    /// exact int32 sums (scale 1 neither rounds nor shifts; |sum| < 2^31).
    using Dwt1Vert = void (*)(const std::int16_t* const r[4], int w, std::int32_t* lo, std::int32_t* hi);
    using Dwt123Vert = void (*)(const std::int32_t* const r[4], int w, std::int64_t add, int shift,
                                std::int32_t* lo, std::int32_t* hi);
    using Dwt123Horz = void (*)(const std::int32_t* lo, const std::int32_t* hi, int w, std::int64_t add,
                                int shift, std::int32_t* a, std::int32_t* v, std::int32_t* h, std::int32_t* d);
    // --- decouple of n pixels: o/t = ref/dis H, V, D; r/a = restored/additive H, V, D.
    using Decouple0 = void (*)(const std::int16_t* const o[3], const std::int16_t* const t[3], int n,
                               double egl, std::int16_t* const r[3], std::int16_t* const a[3]);
    using Decouple123 = void (*)(const std::int32_t* const o[3], const std::int32_t* const t[3], int n,
                                 double egl, std::int32_t* const r[3], std::int32_t* const a[3]);
    // --- CSF of n pixels of one orientation: out = csf-weighted, and
    // fsum += flt with flt = |out| / 30 in the band's type (int16 at scale 0,
    // sign-extended), added with int32 wrap-around.
    using Csf0 = void (*)(const std::int16_t* src, int n, std::uint16_t rf, int shift, std::int32_t add,
                          std::int16_t* out, std::int32_t* fsum);
    using Csf123 = void (*)(const std::int32_t* src, int n, std::uint32_t rf, std::int32_t* out, std::int32_t* fsum);
    // --- den: per-row sum of cubes of |x| (scale 0: exact; scales 1..3 with
    // the intermediate rounding shifts).
    using Den0 = std::uint64_t (*)(const std::int16_t* b, int n);
    using Den123 = std::uint64_t (*)(const std::int32_t* b, int n, std::uint32_t shift_sq, std::uint64_t add_sq,
                                     std::uint32_t shift_cub, std::uint64_t add_cub);
    // --- contrast masking of one row: adds the three orientations' terms to inner[3].
    using Cm0 = void (*)(const CmRow<std::int16_t>& row, std::int64_t inner[3]);
    using Cm123 = void (*)(const CmRow<std::int32_t>& row, std::int64_t inner[3]);

    Dwt0Vert8 dwt0_vert8;
    Dwt0Vert16 dwt0_vert16;
    Dwt0Horz dwt0_horz;
    Dwt1Vert dwt1_vert;
    Dwt123Vert dwt123_vert;
    Dwt123Horz dwt123_horz;
    Decouple0 decouple0;
    Decouple123 decouple123;
    Csf0 csf0;
    Csf123 csf123;
    Den0 den0;
    Den123 den123;
    Cm0 cm0;
    Cm123 cm123;

    AdmKernels();  ///< the scalar reference
};

/// Registry of the Highway targets compiled into adm_simd.cpp.
simd::KernelRegistry<AdmKernels>& adm_registry();

/// Reciprocal table of decouple, indexed by the (signed) denominator:
/// lut[d] = trunc(2^30 / d) for d in [-32768, 32768] \ {0}, lut[0] = 0.
const std::int32_t* div_lut();
/// cos(1 degree)^2 as a float (the decouple angle test).
float cos1deg_sq();

/// The scalar reference table.
const AdmKernels& scalar_kernels();

// Scalar reference kernels (adm_scalar.cpp), also used by SIMD kernels for
// edges and tails.
namespace scalar {
void dwt0_vert8(const std::uint8_t* const r[4], int w, std::int16_t* lo, std::int16_t* hi);
void dwt0_vert16(const std::uint16_t* const r[4], int w, unsigned bpc, std::int16_t* lo, std::int16_t* hi);
void dwt0_horz(const std::int16_t* lo, const std::int16_t* hi, int w, std::int16_t* a, std::int16_t* v,
               std::int16_t* h, std::int16_t* d);
/// Outputs [j0, j1) only (for SIMD edges).
void dwt0_horz_range(const std::int16_t* lo, const std::int16_t* hi, int w, int j0, int j1, std::int16_t* a,
                     std::int16_t* v, std::int16_t* h, std::int16_t* d);
void dwt1_vert(const std::int16_t* const r[4], int w, std::int32_t* lo, std::int32_t* hi);
void dwt123_vert(const std::int32_t* const r[4], int w, std::int64_t add, int shift, std::int32_t* lo,
                 std::int32_t* hi);
void dwt123_horz(const std::int32_t* lo, const std::int32_t* hi, int w, std::int64_t add, int shift,
                 std::int32_t* a, std::int32_t* v, std::int32_t* h, std::int32_t* d);
void dwt123_horz_range(const std::int32_t* lo, const std::int32_t* hi, int w, int j0, int j1, std::int64_t add,
                       int shift, std::int32_t* a, std::int32_t* v, std::int32_t* h, std::int32_t* d);
void decouple0(const std::int16_t* const o[3], const std::int16_t* const t[3], int n, double egl,
               std::int16_t* const r[3], std::int16_t* const a[3]);
void decouple123(const std::int32_t* const o[3], const std::int32_t* const t[3], int n, double egl,
                 std::int32_t* const r[3], std::int32_t* const a[3]);
void csf0(const std::int16_t* src, int n, std::uint16_t rf, int shift, std::int32_t add, std::int16_t* out,
          std::int32_t* fsum);
void csf123(const std::int32_t* src, int n, std::uint32_t rf, std::int32_t* out, std::int32_t* fsum);
std::uint64_t den0(const std::int16_t* b, int n);
std::uint64_t den123(const std::int32_t* b, int n, std::uint32_t shift_sq, std::uint64_t add_sq,
                     std::uint32_t shift_cub, std::uint64_t add_cub);
void cm0(const CmRow<std::int16_t>& row, std::int64_t inner[3]);
void cm123(const CmRow<std::int32_t>& row, std::int64_t inner[3]);
/// Contrast masking of the pixels [j0, j1) of a row (for SIMD edges).
void cm0_range(const CmRow<std::int16_t>& row, int j0, int j1, std::int64_t inner[3]);
void cm123_range(const CmRow<std::int32_t>& row, int j0, int j1, std::int64_t inner[3]);
}  // namespace scalar

}  // namespace vmaf::adm
