// Float ANSNR's filters and finishing, shared by the CPU kind and its CUDA twin.
#pragma once

namespace vmaf::floatfeat {

// Upstream's 2-D filters, coefficients rounded to float.
inline constexpr float kAnsnrRef3[9] = {1.0 / 16.0, 2.0 / 16.0, 1.0 / 16.0, 2.0 / 16.0, 4.0 / 16.0,
                                        2.0 / 16.0, 1.0 / 16.0, 2.0 / 16.0, 1.0 / 16.0};
inline constexpr float kAnsnrDis5[25] = {2.0 / 571.0,  7.0 / 571.0,  12.0 / 571.0,  7.0 / 571.0,  2.0 / 571.0,
                                         7.0 / 571.0,  31.0 / 571.0, 52.0 / 571.0,  31.0 / 571.0, 7.0 / 571.0,
                                         12.0 / 571.0, 52.0 / 571.0, 127.0 / 571.0, 52.0 / 571.0, 12.0 / 571.0,
                                         7.0 / 571.0,  31.0 / 571.0, 52.0 / 571.0,  31.0 / 571.0, 7.0 / 571.0,
                                         2.0 / 571.0,  7.0 / 571.0,  12.0 / 571.0,  7.0 / 571.0,  2.0 / 571.0};

struct AnsnrScores {
    double ansnr, anpsnr;
};

/// The scores from the per-row float sums of a w x h frame (sig[y]: the row's
/// sum of rf*rf, noise[y]: of (rf - df)^2, each summed from 0 in column
/// order): rows added in float in order, then upstream's dB formulas.
AnsnrScores ansnr_from_rows(const float* sig, const float* noise, unsigned w, unsigned h, double peak,
                            double psnr_max);

}  // namespace vmaf::floatfeat
