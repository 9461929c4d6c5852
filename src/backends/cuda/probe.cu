// A trivial kernel that tells whether the device can run this build's code.
#include "backends/gpu/portability.hpp"

#include <string>

namespace vmaf::cuda {

namespace {
__global__ void probe_kernel(int* out) { *out = 42; }
}  // namespace

bool probe_device(std::string& err) {
    int* d = nullptr;
    int h = 0;
    cudaError_t e = cudaMalloc(&d, sizeof(int));
    if (e == cudaSuccess) {
        probe_kernel<<<1, 1>>>(d);
        e = cudaGetLastError();
        if (e == cudaSuccess) e = cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
        (void)cudaFree(d);
    }
    if (e != cudaSuccess || h != 42) {
        err = e != cudaSuccess ? cudaGetErrorString(e) : "wrong probe result";
        (void)cudaGetLastError();
        return false;
    }
    return true;
}

}  // namespace vmaf::cuda
