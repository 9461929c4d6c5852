// Option table shared by speed_chroma and speed_temporal (upstream's names,
// aliases, defaults, ranges; all are feature parameters).
#pragma once

#include <string>

#include "core/options.hpp"
#include "features/speed/speed_core.hpp"

namespace vmaf::speed {

enum SharedOpt : std::size_t { kKernelscale, kPrescale, kPrescaleMethod, kSigmaNn, kNnFloor, kMaxVal };

#define VMAF_SPEED_SHARED_OPTIONS                                                                                  \
    {"speed_kernelscale", "ks", OptType::Double, 1.0, 0.1, 4.0, true, "scaling of the Gaussian kernels"},          \
        {"speed_prescale", "ps", OptType::Double, 1.0, 0.1, 4.0, true, "rescaling factor applied first"},          \
        {"speed_prescale_method", "psm", OptType::String, std::string("nearest"), 0, 0, true,                      \
         "rescaling method: nearest, bilinear, bicubic, lanczos4"},                                                \
        {"speed_sigma_nn", "snn", OptType::Double, 0.29, 0.1, 2.0, true, "standard deviation of the neural noise"}, \
        {"speed_nn_floor", "nnf", OptType::Double, 0.0, 0.0, 1.0, true, "neural noise floor"},                     \
        {"speed_max_val", "mxv", OptType::Double, 1000.0, 0.0, 1000.0, true, "scores are clipped to this value"}

inline Options shared_options(const OptionValues& o) {
    Options s;
    s.kernelscale = o.d(kKernelscale);
    s.prescale = o.d(kPrescale);
    s.method = parse_rescale(o.s(kPrescaleMethod));
    s.sigma_nn = o.d(kSigmaNn);
    s.nn_floor = o.d(kNnFloor);
    return s;
}

}  // namespace vmaf::speed
