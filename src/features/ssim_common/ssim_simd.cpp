// SIMD kernels of the float SSIM features (none registered yet).
#include "features/ssim_common/ssim_kernels.hpp"

namespace vmaf::ssimfeat {

simd::KernelRegistry<SsimKernels>& ssim_registry() {
    static simd::KernelRegistry<SsimKernels> registry;
    return registry;
}

}  // namespace vmaf::ssimfeat
