// Peak and PSNR cap of the float PSNR-style features (float_psnr, float_ansnr)
// per bit depth, in the 8-bit scale the float pictures use.
#pragma once

#include "vmaf/error.hpp"

namespace vmaf::floatfeat {

struct PsnrPeak {
    double peak, psnr_max;
};

inline PsnrPeak psnr_peak(unsigned bpc) {
    switch (bpc) {
        case 8:
            return {255.0, 60.0};
        case 10:
            return {255.75, 72.0};
        case 12:
            return {255.9375, 84.0};
        case 16:
            return {255.99609375, 108.0};
        default:
            throw Error(ErrorKind::Input, "float features support 8, 10, 12 or 16 bits per sample");
    }
}

}  // namespace vmaf::floatfeat
