// Constants of SSIMULACRA 2 as libjxl defines them (tools/ssimulacra2.cc,
// lib/jxl/cms/opsin_params.h, the sRGB transfer approximation of
// lib/jxl/cms/transfer_functions-inl.h, lib/jxl/base/fast_math-inl.h).
#pragma once

#include <array>
#include <cstdint>

namespace vmaf::ssimulacra2 {

/// SSIM stabiliser.
inline constexpr float kC2 = 0.0009f;
/// Number of 2x scales (1:1 .. 1:32); a scale is measured only while both
/// sides are at least kMinScaleSize samples.
inline constexpr int kNumScales = 6;
inline constexpr unsigned kMinScaleSize = 8;

/// sRGB EOTF: linear segment up to the threshold, else a rational polynomial
/// (coefficients of x^0 .. x^4).
inline constexpr float kSrgbThreshold = 0.04045f;
inline constexpr float kSrgbLowSlope = 1.0f / 12.92f;
inline constexpr std::array<float, 5> kSrgbP = {2.200248328e-04f, 1.043637593e-02f, 1.624820318e-01f, 7.961564959e-01f,
                                                8.210152774e-01f};
inline constexpr std::array<float, 5> kSrgbQ = {2.631846970e-01f, 1.076976492e+00f, 4.987528350e-01f, -5.512498495e-02f,
                                                6.521209011e-03f};

/// Opsin absorbance (linear sRGB -> LMS-like) and its bias.
inline constexpr float kOpsinM00 = 0.30f, kOpsinM02 = 0.078f, kOpsinM01 = 1.0f - kOpsinM02 - kOpsinM00;
inline constexpr float kOpsinM10 = 0.23f, kOpsinM12 = 0.078f, kOpsinM11 = 1.0f - kOpsinM12 - kOpsinM10;
inline constexpr float kOpsinM20 = 0.24342268924547819f, kOpsinM21 = 0.20476744424496821f,
                       kOpsinM22 = 1.0f - kOpsinM20 - kOpsinM21;
inline constexpr float kOpsin[3][3] = {
    {kOpsinM00, kOpsinM01, kOpsinM02}, {kOpsinM10, kOpsinM11, kOpsinM12}, {kOpsinM20, kOpsinM21, kOpsinM22}};
inline constexpr float kOpsinBias = 0.0037930732552754493f;

/// Cube root by an exponent-scaling first guess of x^(-1/3) and Newton steps.
inline constexpr std::uint32_t kCbrtExpBias = 0x54800000u;
inline constexpr std::uint32_t kCbrtExpMul = 0x002AAAAAu;
inline constexpr float kOneThird = 1.0f / 3;
inline constexpr float kFourThirds = 4.0f / 3;

/// x^(1/3) + add for x >= 0 (x == 0 gives add), libjxl's CubeRootAndAdd
/// with its fused multiply-adds (std::fma).
float cube_root_plus(float x, float add);

}  // namespace vmaf::ssimulacra2
