// SIMD kernels of PSNR-HVS (filled in per Highway target).
#include "features/psnr_hvs/psnr_hvs_kernels.hpp"

namespace vmaf::psnr_hvs {

simd::KernelRegistry<PsnrHvsKernels>& psnr_hvs_registry() {
    static simd::KernelRegistry<PsnrHvsKernels> registry;
    return registry;
}

}  // namespace vmaf::psnr_hvs
