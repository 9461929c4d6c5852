// Scalar reference of the CIEDE2000 feature (upstream "ciede"): one 4:4:4
// YUV sample to CIE L*a*b* (BT.709, D65) and the CIEDE2000 colour difference
// of two L*a*b* colours, both evaluated in upstream's exact mix of float and
// double arithmetic, with the same libm calls (pow, powf, atan2, sin, cos,
// exp) in the same places, so every result is bit-identical.
#pragma once

namespace vmaf::ciede {

/// L*a*b* colour as upstream stores it: three floats.
struct Lab {
    float l, a, b;
};

/// Lab of one sample of bit depth `bpc` (8..16): y, u, v are the raw sample
/// values. Studio range with 16 << (bpc - 8) black and 235/240 << (bpc - 8)
/// white/chroma peak, as upstream.
Lab yuv_to_lab(unsigned y, unsigned u, unsigned v, unsigned bpc);

/// CIEDE2000 difference of two colours with kL = 0.65, kC = 1, kH = 4
/// (upstream's weights). Zero when the colours are equal.
float delta_e2000(const Lab& c1, const Lab& c2);

/// Sub-expressions of delta_e2000 that call libm (upstream's helper
/// functions), shared with the SIMD kernel, which evaluates everything else
/// vector-wide and these per pixel.
/// Hue angle atan2(b, a') in [0, 2pi), 0 for a' = b = 0.
float hue_angle(float b, float a_prime);
/// Hue difference h2 - h1 wrapped into [-pi, pi]; 0 when c1 or c2 is 0.
float hue_difference(float c1, float c2, float h1, float h2);
/// Mean hue H-bar' of two hue angles.
float mean_hue(float h1, float h2);
/// Hue weighting function T of the mean hue.
float hue_weight_t(float h_bar);
/// Rotation term R_T of the mean chroma C-bar' and the mean hue.
float rotation_term(float c_bar_prime, float h_bar);

/// The frame score from the sum of the per-pixel differences over `pixels`
/// luma positions: 45 - 20 log10(sum / pixels).
double frame_score(double de_sum, unsigned width, unsigned height);

}  // namespace vmaf::ciede
