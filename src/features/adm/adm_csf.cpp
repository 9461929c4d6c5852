// Contrast sensitivity weights of the ADM subbands.
//
// Every formula mixes float and double exactly as upstream does (float
// intermediates are rounded where upstream stores into a float), because the
// resulting float weight is turned into a fixed-point multiplier and any
// 1-ulp difference would change the integers downstream.
#include <cmath>
#include <numbers>

#include "features/adm/adm_kernels.hpp"

namespace vmaf::adm {

namespace {

constexpr double kPi = std::numbers::pi;

// Display visual resolution in pixels per degree of visual angle (~56.55 for
// 3H on a 1080-line display), rounded to float as upstream keeps it.
float display_resolution(double nvd, int rdh) {
    return static_cast<float>(nvd * rdh * kPi / 180.0);
}

// --- Watson et al. 1997 "Visibility of wavelet quantization noise", luma
// threshold model (formula 9, table IV subject "sfl", table V amplitudes).
constexpr float kWatsonA = 0.495f, kWatsonK = 0.466f, kWatsonF0 = 0.401f;
constexpr float kWatsonG[4] = {1.501f, 1.0f, 0.534f, 1.0f};
constexpr float kBasisAmplitude[6][4] = {
    {0.62171f, 0.67234f, 0.72709f, 0.67234f},     {0.34537f, 0.41317f, 0.49428f, 0.41317f},
    {0.18004f, 0.22727f, 0.28688f, 0.22727f},     {0.091401f, 0.11792f, 0.15214f, 0.11792f},
    {0.045943f, 0.059758f, 0.077727f, 0.059758f}, {0.023013f, 0.030018f, 0.039156f, 0.030018f}};

// Quantization step of level `lambda` (0 finest), orientation `theta`
// (1 = H/V, 2 = diagonal).
float watson_quant_step(int lambda, int theta, double nvd, int rdh) {
    const float r = display_resolution(nvd, rdh);
    const float t = static_cast<float>(std::log10(std::pow(2.0, lambda + 1) * static_cast<double>(kWatsonF0) *
                                                  static_cast<double>(kWatsonG[theta]) / static_cast<double>(r)));
    const float expo = kWatsonK * t * t;  // float arithmetic
    return static_cast<float>(2.0 * static_cast<double>(kWatsonA) * std::pow(10.0, static_cast<double>(expo)) /
                              static_cast<double>(kBasisAmplitude[lambda][theta]));
}

// --- Barten CSF (neural part interpolated over luminance, optical MTF,
// rod/cone sensitivity), evaluated at the nominal frequency of a level.
constexpr float kBartenLumAnchor[6] = {0.002f, 0.02f, 0.2f, 2.0f, 20.0f, 150.0f};
constexpr float kBartenParams[6][5] = {
    {0.0160737f, 0.991265f, 3.74038f, 0.50722f, 4.46044f}, {0.383873f, 0.800889f, 3.54104f, 0.682505f, 4.94958f},
    {0.929301f, 0.476505f, 4.37453f, 0.750315f, 5.28678f}, {1.29776f, 0.405782f, 4.40602f, 0.935314f, 5.61425f},
    {1.49222f, 0.334278f, 3.79542f, 1.07327f, 6.4635f},    {1.46213f, 0.394533f, 2.7755f, 1.16577f, 7.45665f}};
constexpr float kBartenSa[4] = {30.162f, 4.0627f, 1.6596f, 0.2712f};
constexpr float kBartenMtfA[4] = {0.424838596301290f, 0.572435103936480f, 0.000167576239164937f,
                                  0.00255872352306433f};
constexpr float kBartenMtfB[4] = {0.028f, 0.37f, 37.0f, 360.0f};
constexpr double kCsfLuminance = 100.0;  // cd/m^2

float lerp_at(float x0, float y0, float x1, float y1, float x) {
    return y0 + ((y1 - y0) / (x1 - x0)) * (x - x0);
}

float barten_rod_cone(float lum) {
    return static_cast<float>(kBartenSa[0] *
                              std::pow(std::pow(static_cast<double>(kBartenSa[1] / lum), static_cast<double>(kBartenSa[2])) + 1,
                                       static_cast<double>(-kBartenSa[3])));
}

float barten_mtf(float f) {
    float mtf = 0.0f;
    for (int i = 0; i < 4; ++i)
        mtf = static_cast<float>(mtf + kBartenMtfA[i] * std::exp(static_cast<double>(-kBartenMtfB[i] * f)));
    return mtf;
}

float barten_csf(int lambda, double nvd, int rdh, double lum_level, double scale) {
    const float r = display_resolution(nvd, rdh);
    const float f = static_cast<float>(r / std::pow(2.0, lambda + 1));

    double lum = lum_level;
    if (lum > kBartenLumAnchor[5]) lum = kBartenLumAnchor[5];
    if (lum < kBartenLumAnchor[0]) lum = kBartenLumAnchor[0];
    int lo = 0, hi = 0;
    for (int i = 0; i < 5; ++i) {
        if (lum >= kBartenLumAnchor[i] && lum <= kBartenLumAnchor[i + 1]) {
            lo = i;
            hi = i + 1;
            break;
        }
    }
    const float x0 = static_cast<float>(std::log10(static_cast<double>(kBartenLumAnchor[lo])));
    const float x1 = static_cast<float>(std::log10(static_cast<double>(kBartenLumAnchor[hi])));
    const float x = static_cast<float>(std::log10(lum));
    float p[4];
    for (int k = 0; k < 4; ++k) p[k] = lerp_at(x0, kBartenParams[lo][k + 1], x1, kBartenParams[hi][k + 1], x);

    const float a = static_cast<float>(1.0f + std::pow(static_cast<double>(p[0] * f), static_cast<double>(p[1])));
    const double f7 = static_cast<double>(f / 7);
    const float b = static_cast<float>(1.0f / std::pow(1 - std::exp(-std::pow(f7, 2.0)), static_cast<double>(p[2])));
    const float csf = static_cast<float>(p[3] / std::pow(static_cast<double>(a * b), 0.5));
    const float lum_f = static_cast<float>(lum_level);
    return static_cast<float>(csf * barten_mtf(f) * barten_rod_cone(lum_f) * scale);
}

// --- Barten/Watson blends, tabulated per viewing condition:
// [orientation: 0 = H/V, 1 = diagonal][scale].
using BlendTable = float[2][4];
constexpr BlendTable kBlend1080x3 = {{0.01183f, 0.025026f, 0.04295f, 0.058621f},
                                     {0.004302f, 0.011778f, 0.023918f, 0.035901f}};
constexpr BlendTable kBlend1080x5 = {{0.004212f, 0.014809f, 0.029642f, 0.047464f},
                                     {0.000984f, 0.005852f, 0.0146f, 0.027574f}};
constexpr BlendTable kBlend2160x3 = {{0.00226f, 0.01183f, 0.025026f, 0.04295f},
                                     {0.000479f, 0.004302f, 0.011778f, 0.023918f}};
constexpr BlendTable kBlend2160x5 = {{0.000092f, 0.004212f, 0.014809f, 0.029642f},
                                     {0.000050f, 0.000984f, 0.005852f, 0.0146f}};
constexpr BlendTable kBlend720x3 = {{0.018715f, 0.035637f, 0.052798f, 0.061509f},
                                    {0.007999f, 0.018396f, 0.031851f, 0.037718f}};
constexpr BlendTable kBlend720x5 = {{0.010144f, 0.022561f, 0.040309f, 0.05672f},
                                    {0.003463f, 0.010282f, 0.021839f, 0.034641f}};
constexpr BlendTable kBlend480x3 = {{0.027961f, 0.045875f, 0.060275f, 0.056234f},
                                    {0.013572f, 0.026277f, 0.036959f, 0.034511f}};
constexpr BlendTable kBlend480x5 = {{0.016781f, 0.032822f, 0.05032f, 0.061594f},
                                    {0.00691f, 0.016545f, 0.029917f, 0.037777f}};

constexpr BlendTable kBlendMae1080x3 = {{0.011249f, 0.022606f, 0.035930f, 0.045673f},
                                        {0.004097f, 0.010921f, 0.021430f, 0.031313f}};
constexpr BlendTable kBlendMae1080x5 = {{0.004052f, 0.013939f, 0.026298f, 0.038833f},
                                        {0.000927f, 0.005544f, 0.013415f, 0.024515f}};
constexpr BlendTable kBlendMae2160x3 = {{0.002166f, 0.011249f, 0.022606f, 0.035930f},
                                        {0.000447f, 0.004097f, 0.010921f, 0.021430f}};
constexpr BlendTable kBlendMae2160x5 = {{0.000077f, 0.004052f, 0.013939f, 0.026298f},
                                        {0.000045f, 0.000927f, 0.005544f, 0.013415f}};
constexpr BlendTable kBlendMae720x3 = {{0.017329f, 0.030870f, 0.042134f, 0.047410f},
                                       {0.007509f, 0.016707f, 0.028072f, 0.032722f}};
constexpr BlendTable kBlendMae720x5 = {{0.009689f, 0.020577f, 0.034162f, 0.044523f},
                                       {0.003302f, 0.009579f, 0.019661f, 0.030318f}};
constexpr BlendTable kBlendMae480x3 = {{0.024969f, 0.037825f, 0.046676f, 0.043974f},
                                       {0.012511f, 0.023424f, 0.032139f, 0.030166f}};
constexpr BlendTable kBlendMae480x5 = {{0.015665f, 0.028766f, 0.040612f, 0.047483f},
                                       {0.006514f, 0.015107f, 0.026476f, 0.032776f}};

// The table of (rdh, nvd), or nullptr. 2160 lines at 1.5H has the pixel
// density of 1080 lines at 3H and shares its table.
const BlendTable* blend_table(bool mae, double nvd, int rdh) {
    struct Entry {
        int rdh;
        double nvd;
        const BlendTable* plain;
        const BlendTable* mae;
    };
    static const Entry kEntries[] = {
        {1080, 3.0, &kBlend1080x3, &kBlendMae1080x3}, {1080, 5.0, &kBlend1080x5, &kBlendMae1080x5},
        {2160, 1.5, &kBlend1080x3, &kBlendMae1080x3}, {2160, 3.0, &kBlend2160x3, &kBlendMae2160x3},
        {2160, 5.0, &kBlend2160x5, &kBlendMae2160x5}, {720, 3.0, &kBlend720x3, &kBlendMae720x3},
        {720, 5.0, &kBlend720x5, &kBlendMae720x5},    {480, 3.0, &kBlend480x3, &kBlendMae480x3},
        {480, 5.0, &kBlend480x5, &kBlendMae480x5},
    };
    for (const auto& e : kEntries)
        if (e.rdh == rdh && e.nvd == nvd) return mae ? e.mae : e.plain;
    return nullptr;
}

}  // namespace

bool csf_factors(const Params& p, int scale, float out[2]) {
    switch (p.csf_mode) {
        case CsfMode::Barten:
            out[0] = barten_csf(scale, p.norm_view_dist, p.ref_display_height, kCsfLuminance, p.csf_scale);
            out[1] = barten_csf(scale, p.norm_view_dist, p.ref_display_height, kCsfLuminance, p.csf_diag_scale);
            return true;
        case CsfMode::BartenWatsonBlend:
        case CsfMode::BartenWatsonBlendMae: {
            const BlendTable* t =
                blend_table(p.csf_mode == CsfMode::BartenWatsonBlendMae, p.norm_view_dist, p.ref_display_height);
            if (!t) return false;
            out[0] = (*t)[0][scale];
            out[1] = (*t)[1][scale];
            return true;
        }
        case CsfMode::Watson97:
        default:
            out[0] = 1.0f / watson_quant_step(scale, 1, p.norm_view_dist, p.ref_display_height);
            out[1] = 1.0f / watson_quant_step(scale, 2, p.norm_view_dist, p.ref_display_height);
            return true;
    }
}

const char* params_problem(const Params& p) {
    // The 16-bit scale-0 pipeline cannot represent angular frequencies below
    // those of 1080 lines viewed at 3H (upstream refuses these too).
    if (p.norm_view_dist * p.ref_display_height < 3.0 * 1080)
        return "adm_norm_view_dist * adm_ref_display_height must be >= 3240 (1080 lines at 3H)";
    float f[2];
    if (!csf_factors(p, 0, f))
        return "adm_csf_mode 2/3 (Barten-Watson blend) is tabulated only for adm_ref_display_height "
               "480/720/1080/2160 at adm_norm_view_dist 3 or 5 (and 2160 at 1.5)";
    return nullptr;
}

}  // namespace vmaf::adm
