// Host side shared by the SpEED twins: a speed::Estimator's sizes, filters
// and prescaling tables as a device Plan, and the host finishing of one
// image's read-back result with the CPU's own code.
#pragma once

#include <vector>

#include "backends/cuda/cuda_util.hpp"
#include "features/speed/cuda/speed_cuda_kernels.hpp"
#include "features/speed/speed_core.hpp"

namespace vmaf::speed::cuda {

class DevicePlan {
public:
    /// Uploads the prescaling tables (the twin's device must be current).
    /// Throws vmaf::Error(Usage) for a speed_prescale within 1e-3 of 1 that
    /// still changes the size (the CPU kind then filters unloaded samples).
    explicit DevicePlan(const Estimator& est);
    const Plan& plan() const { return plan_; }
    std::size_t result_floats() const { return cuda::result_floats(plan_); }
    /// Scratch bytes of launch_bands and launch_moments over up to `images` images.
    std::size_t scratch_bytes(unsigned images) const { return cuda::scratch_bytes(plan_, images); }

    /// Estimator::estimate's outputs from one image's read-back result.
    bool finish(const float* result, std::vector<float>& entropy, std::vector<float>& variance) const;

    /// One image's finished statistics (finish()'s outputs).
    struct Finished {
        std::vector<float> entropy, variance;
        bool ok = false;
    };
    /// finish() of `images` consecutive results (results + k result_floats()),
    /// concurrently on the caller's task arena (the host's share of SpEED,
    /// eigenvalues and a solve per image, is far longer than its device work;
    /// in the engine's ordered stage it would run one image after another).
    void finish(const float* results, unsigned images, Finished* out) const;

private:
    const Estimator& est_;
    Plan plan_{};
    vmaf::cuda::DeviceBuffer tables_;
};

}  // namespace vmaf::speed::cuda
