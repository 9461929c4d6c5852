#include "features/speed/cuda/speed_cuda_plan.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <cstring>
#include <string>

#include "vmaf/error.hpp"

namespace vmaf::speed::cuda {

namespace {

Filter to_filter(const std::vector<float>& f) {
    if (f.size() > static_cast<std::size_t>(kMaxTaps))
        throw Error(ErrorKind::Internal, "speed cuda: a filter of " + std::to_string(f.size()) + " taps");
    Filter out{};
    std::memcpy(out.f, f.data(), f.size() * sizeof(float));
    out.taps = static_cast<int>(f.size());
    return out;
}

}  // namespace

static_assert(Estimator::kCovPairs == kCovPairs);

DevicePlan::DevicePlan(const Estimator& est) : est_(est) {
    const Estimator::Geometry g = est.geometry();
    const bool same_size = g.scaled_w == g.w && g.scaled_h == g.h;
    const auto u = [](std::size_t v) { return static_cast<unsigned>(v); };
    plan_.w = u(g.w);
    plan_.h = u(g.h);
    plan_.sw = u(g.scaled_w);
    plan_.sh = u(g.scaled_h);
    plan_.op_w = u(g.op_w);
    plan_.op_h = u(g.op_h);
    plan_.trunc_w = u(g.trunc_w);
    plan_.trunc_h = u(g.trunc_h);
    plan_.sub_w = u(g.sub_w);
    plan_.sub_h = u(g.sub_h);
    plan_.antialias = to_filter(est.antialias_filter());
    plan_.lowpass = to_filter(est.lowpass_filter());
    plan_.method = -1;
    if (!g.rescales || same_size) return;  // the CPU copies the plane unchanged
    plan_.method = static_cast<int>(est.method());
    const RescaleAxis ax = rescale_axis(est.method(), static_cast<int>(g.w), static_cast<int>(g.scaled_w));
    const RescaleAxis ay = rescale_axis(est.method(), static_cast<int>(g.h), static_cast<int>(g.scaled_h));
    // One upload: x indices, y indices, x weights, y weights (4-byte elements).
    std::vector<std::uint32_t> host;
    const auto put_i = [&](const std::vector<int>& v) {
        for (int i : v) host.push_back(static_cast<std::uint32_t>(i));
    };
    const auto put_f = [&](const std::vector<float>& v) {
        for (float f : v) {
            std::uint32_t b;
            std::memcpy(&b, &f, sizeof b);
            host.push_back(b);
        }
    };
    put_i(ax.idx);
    put_i(ay.idx);
    put_f(ax.w);
    put_f(ay.w);
    tables_ = vmaf::cuda::DeviceBuffer(host.size() * sizeof(std::uint32_t));
    vmaf::cuda::check(
        cudaMemcpy(tables_.get(), host.data(), host.size() * sizeof(std::uint32_t), cudaMemcpyHostToDevice),
        "speed rescale tables upload");
    const auto* base = tables_.get<std::uint32_t>();
    plan_.tables.x_idx = reinterpret_cast<const int*>(base);
    plan_.tables.y_idx = reinterpret_cast<const int*>(base + ax.idx.size());
    plan_.tables.x_w = reinterpret_cast<const float*>(base + ax.idx.size() + ay.idx.size());
    plan_.tables.y_w = reinterpret_cast<const float*>(base + ax.idx.size() + ay.idx.size() + ax.w.size());
}

bool DevicePlan::finish(const float* result, std::vector<float>& entropy, std::vector<float>& variance) const {
    const std::size_t band = std::size_t{plan_.trunc_w} * plan_.trunc_h;
    return est_.finish_estimate(result, plan_.trunc_w, result + band, entropy, variance);
}

void DevicePlan::finish(const float* results, unsigned images, Finished* out) const {
    const std::size_t n = result_floats();
    // Isolated: the waiting thread takes no unrelated work (another frame's stage) meanwhile.
    tbb::this_task_arena::isolate([&] {
        tbb::parallel_for(0u, images,
                          [&](unsigned k) { out[k].ok = finish(results + k * n, out[k].entropy, out[k].variance); });
    });
}

}  // namespace vmaf::speed::cuda
