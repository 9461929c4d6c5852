// Integer ADM (Additive Detail Measure / DLM + AIM): scalar reference kernels.
//
// The pipeline per scale (0 = finest .. 3 = coarsest), on the luma plane:
//   1. DWT (Daubechies-2, fixed point) of ref and dis -> bands A (approx.),
//      H, V, D (details).  Band size = ceil(input / 2).
//   2. decouple: split the distorted detail bands into a "restored" part R
//      (the part explained as an attenuated copy of ref) and an additive
//      impairment part A = dis - R.
//   3. CSF: weight R or A by the contrast sensitivity of the band.
//   4. contrast masking (CM): p=3 Minkowski sum of the target band above a
//      masking threshold derived from a 3x3 neighbourhood of the masker.
//   5. den: p=3 sum of the CSF-weighted reference bands.
// Scale 0 works on int16 coefficients, scales 1..3 on int32, each with its
// own fixed-point formats; every constant below reproduces upstream libvmaf's
// integer ADM bit for bit (including its rounding quirks), so the float
// stages see exactly the same integers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/scratch.hpp"
#include "vmaf/picture.hpp"

namespace vmaf::adm {

struct AdmKernels;  // adm_simd.hpp

/// Contrast sensitivity models (values of the adm_csf_mode option).
enum class CsfMode : int { Watson97 = 0, Barten = 1, BartenWatsonBlend = 2, BartenWatsonBlendMae = 3 };

/// Resolved ADM parameters (see the option table in adm_extractor.cpp).
struct Params {
    double enhn_gain_limit = 100.0;  ///< >= 1; 1 disables enhancement gain
    double norm_view_dist = 3.0;     ///< viewing distance / display height
    int ref_display_height = 1080;   ///< pixels
    CsfMode csf_mode = CsfMode::Watson97;
    double csf_scale = 1.0;       ///< Barten: H/V scale
    double csf_diag_scale = 1.0;  ///< Barten: diagonal scale
    double noise_weight = 0.03125;
    bool skip_aim = false;
    bool skip_scale0 = false;
};

/// CSF weights of one scale: [0] horizontal & vertical bands, [1] diagonal.
/// Returns false when the model has no value for these parameters (the
/// Barten/Watson blends are tabulated for a few viewing conditions only).
bool csf_factors(const Params& p, int scale, float out[2]);

/// Why `p` cannot be processed, or nullptr when it can.
const char* params_problem(const Params& p);

/// Smallest luma width/height the fixed-point pipeline accepts: the DWT's
/// mirrored 4-tap support needs >= 3 output samples at the coarsest level.
inline constexpr unsigned kMinSize = 33;

/// Per-frame result: numerators/denominators per scale as upstream keeps
/// them (float per scale, double totals).
struct Result {
    float num_scale[4] = {};
    float den_scale[4] = {};
    float aim_scale[4] = {};
    double num = 0, den = 0, aim_num = 0;
    double score = 0;      ///< num / den (1 when den is 0)
    double score_aim = 0;  ///< aim_num / den (0 when den is 0)
};

/// Computes ADM of two luma planes of identical size (>= kMinSize in each
/// dimension) with samples of `bpc` bits (8: uint8_t, 9..16: uint16_t).
/// Thread-safe: all scratch is local to the call (per-thread ScratchArena).
Result compute(const Plane& ref, const Plane& dis, unsigned bpc, const Params& p);
/// The same with the hot loops run by `k` (a table of adm_registry()).
Result compute(const Plane& ref, const Plane& dis, unsigned bpc, const Params& p, const AdmKernels& k);
/// ADM under several enhancement-gain limits at once (a group: VMAF and
/// VMAF NEG): out[g] is what compute() gives with p.enhn_gain_limit =
/// limits[g] (p's own limit is not used; out.size() == limits.size()). The
/// DWTs and the denominators (reference only) are computed once; decouple,
/// CSF and contrast masking run per limit over the shared detail rows.
void compute(const Plane& ref, const Plane& dis, unsigned bpc, const Params& p, std::span<const double> limits,
             std::span<Result> out, const AdmKernels& k);

// ---------------------------------------------------------------------------
// Building blocks (exposed for unit tests).

/// A dense 2-D array of coefficients, row-major, stride == width. Storage
/// comes from the calling thread's ScratchArena (core/scratch.hpp): it is
/// valid until the innermost enclosing ScratchScope ends (compute() opens
/// one), and it is NOT zeroed: every pass writes what the next one reads.
template <typename T>
struct Band {
    int w = 0, h = 0;
    T* p = nullptr;
    /// Keeps the storage when the size is unchanged (contents are kept too).
    void resize(int width, int height) {
        if (p && w == width && h == height) return;
        w = width;
        h = height;
        p = static_cast<T*>(ScratchArena::local().alloc(static_cast<std::size_t>(width) *
                                                        static_cast<std::size_t>(height) * sizeof(T)));
    }
    T* row(int y) { return p + static_cast<std::ptrdiff_t>(y) * w; }
    const T* row(int y) const { return p + static_cast<std::ptrdiff_t>(y) * w; }
    T& at(int y, int x) { return row(y)[x]; }
    T at(int y, int x) const { return row(y)[x]; }
};

/// The four subbands of one DWT level. Orientation naming follows upstream:
/// V = low-pass vertical + high-pass horizontal, H = high-pass vertical +
/// low-pass horizontal, D = high-pass both.
template <typename T>
struct Subbands {
    Band<T> a, h, v, d;
    Band<T>& detail(int theta) { return theta == 0 ? h : theta == 1 ? v : d; }
    const Band<T>& detail(int theta) const { return theta == 0 ? h : theta == 1 ? v : d; }
};

/// Scale-0 DWT of a picture plane (samples of `bpc` bits). Outputs int16
/// bands of ceil(w/2) x ceil(h/2); with `lo_only` only band A is produced.
void dwt_scale0(const Plane& src, unsigned bpc, Subbands<std::int16_t>& out, bool lo_only);
void dwt_scale0(const Plane& src, unsigned bpc, Subbands<std::int16_t>& out, bool lo_only, const AdmKernels& k);

/// Row i of the scale-0 DWT: band rows a and (unless null) v, h, d of
/// ceil(width / 2) samples; lo and hi are scratch of src.width samples.
void dwt_scale0_row(const Plane& src, unsigned bpc, int i, const AdmKernels& k, std::int16_t* lo, std::int16_t* hi,
                    std::int16_t* a, std::int16_t* v, std::int16_t* h, std::int16_t* d);

/// DWT of level 1 of the int16 approximation band of scale 0 (the same
/// result as dwt_scale123 of the band widened to int32).
void dwt_scale1(const Band<std::int16_t>& src, Subbands<std::int32_t>& out, const AdmKernels& k);

/// DWT of level `scale` (1..3) of an int32 approximation band.
void dwt_scale123(const Band<std::int32_t>& src, int scale, Subbands<std::int32_t>& out);
void dwt_scale123(const Band<std::int32_t>& src, int scale, Subbands<std::int32_t>& out, const AdmKernels& k);

/// Region of a band, [left, right) x [top, bottom).
struct Rect {
    int left, top, right, bottom;
};
/// The scoring region: the band minus a 10% border on each side.
Rect score_region(int w, int h);
/// The scoring region grown by the 3x3 masking support (clamped to the band).
Rect support_region(int w, int h);

}  // namespace vmaf::adm
