// Host parts of the shared device SSIM: geometry and the CPU's constants.
#include <algorithm>

#include "features/ssim_common/cuda/ssim_cuda_kernels.hpp"
#include "features/ssim_common/ssim_core.hpp"

namespace vmaf::ssimfeat::cuda {

IqaGeometry iqa_geometry(unsigned sw, unsigned sh) {
    return {sw, sh, sw - (kWindow - 1), sh - (kWindow - 1)};
}

IqaConstants iqa_constants() {
    IqaConstants k{};
    std::copy(std::begin(kSsimGauss), std::end(kSsimGauss), k.gauss);
    const SsimConsts c = ssim_consts();
    k.c1 = c.c1;
    k.c2 = c.c2;
    k.c3 = c.c3;
    return k;
}

}  // namespace vmaf::ssimfeat::cuda
