// The SpEED twins' kernels against the CPU's reference of their result
// (Estimator::device_result): every band sample and covariance element equal
// bit for bit, for each prescale method, kernel scales, bit depths, odd sizes,
// from plane samples and from frame differences. Skips without a CUDA device.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "features/speed/cuda/speed_cuda_plan.hpp"
#include "features/speed/speed_core.hpp"
#include "features/speed/speed_test_pattern.hpp"

namespace {

using namespace vmaf;

bool have_device() {
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

using speed::test::pattern;

/// A plane's samples in host memory (8-bit narrowed) and a device copy.
struct TestPlane {
    std::vector<std::uint8_t> host;
    void* dev = nullptr;
    std::size_t pitch = 0;
    TestPlane(const std::vector<std::uint16_t>& s, unsigned w, unsigned bpc) {
        pitch = w * (bpc > 8 ? 2 : 1);
        host.resize(s.size() * (bpc > 8 ? 2 : 1));
        if (bpc > 8) {
            std::memcpy(host.data(), s.data(), host.size());
        } else {
            for (std::size_t i = 0; i < s.size(); ++i) host[i] = static_cast<std::uint8_t>(s[i]);
        }
        EXPECT_EQ(cudaMalloc(&dev, host.size()), cudaSuccess);
        EXPECT_EQ(cudaMemcpy(dev, host.data(), host.size(), cudaMemcpyHostToDevice), cudaSuccess);
    }
    ~TestPlane() { cudaFree(dev); }
    Plane plane(unsigned w, unsigned h) { return Plane{host.data(), static_cast<std::ptrdiff_t>(pitch), w, h}; }
};

/// Compares a device result with the CPU's, naming the first differing element.
void expect_same(const speed::Estimator& est, const std::vector<float>& want, const std::vector<float>& got) {
    ASSERT_EQ(want.size(), got.size());
    const auto g = est.geometry();
    const std::size_t band = g.trunc_w * g.trunc_h;
    std::size_t diff = 0, first = want.size();
    for (std::size_t i = 0; i < want.size(); ++i)
        if (std::memcmp(&want[i], &got[i], sizeof(float)) != 0) {
            ++diff;
            if (first == want.size()) first = i;
        }
    if (!diff) return;
    const std::string where =
        first < band ? "band (" + std::to_string(first / g.trunc_w) + ", " + std::to_string(first % g.trunc_w) + ")"
                     : "covariance element " + std::to_string(first - band);
    ADD_FAILURE() << diff << " of " << want.size() << " values differ; first: " << where << ": cpu " << want[first]
                  << " cuda " << got[first];
}

struct Case {
    unsigned w, h, bpc;
    double ks, ps;
    speed::Rescale m;
};

const Case kCases[] = {
    {288, 162, 8, 1.0, 1.0, speed::Rescale::Nearest},   {321, 181, 8, 1.0, 1.0, speed::Rescale::Nearest},
    {641, 363, 10, 1.0, 0.5, speed::Rescale::Bilinear}, {601, 433, 16, 2.0, 0.6, speed::Rescale::Bilinear},
    {129, 121, 8, 0.5, 2.0, speed::Rescale::Bicubic},   {301, 203, 12, 2.0, 0.8, speed::Rescale::Bicubic},
    {181, 171, 10, 1.5, 1.5, speed::Rescale::Lanczos4}, {333, 251, 8, 0.711111, 0.7, speed::Rescale::Lanczos4},
    {211, 199, 8, 3.0, 1.25, speed::Rescale::Nearest},  {402, 300, 16, 1.0, 0.75, speed::Rescale::Nearest},
};

std::string name(const Case& c) {
    return std::to_string(c.w) + "x" + std::to_string(c.h) + " " + std::to_string(c.bpc) + "-bit ks " +
           std::to_string(c.ks) + " ps " + std::to_string(c.ps) + " method " + std::to_string(static_cast<int>(c.m));
}

speed::Options options(const Case& c) {
    speed::Options o;
    o.kernelscale = c.ks;
    o.prescale = c.ps;
    o.method = c.m;
    return o;
}

TEST(SpeedCudaKernels, PlaneEqualsCpu) {
    if (!have_device()) GTEST_SKIP() << "no CUDA device";
    for (const Case& c : kCases) {
        SCOPED_TRACE(name(c));
        const speed::Estimator est(options(c), c.w, c.h);
        const speed::cuda::DevicePlan plan(est);
        TestPlane p(pattern(c.w, c.h, c.bpc, 1), c.w, c.bpc);
        vmaf::cuda::DeviceBuffer scratch(plan.scratch_bytes(1));
        vmaf::cuda::DeviceBuffer result(plan.result_floats() * sizeof(float));
        const speed::cuda::PlaneIn in{p.dev, p.pitch};
        speed::cuda::launch_bands(plan.plan(), &in, 1, c.bpc, -128.0f, scratch.get(), result.get<float>(), nullptr);
        speed::cuda::launch_moments(plan.plan(), result.get<float>(), 1, scratch.get(), nullptr);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        std::vector<float> got(plan.result_floats()), want(plan.result_floats());
        ASSERT_EQ(cudaMemcpy(got.data(), result.get(), got.size() * sizeof(float), cudaMemcpyDeviceToHost),
                  cudaSuccess);
        speed::Image img;
        est.shape(img);
        est.load(img, p.plane(c.w, c.h), c.bpc, -128);
        est.device_result(img, want.data());
        expect_same(est, want, got);
    }
}

TEST(SpeedCudaKernels, DifferenceEqualsCpu) {
    if (!have_device()) GTEST_SKIP() << "no CUDA device";
    for (const Case& c : kCases) {
        SCOPED_TRACE(name(c));
        const speed::Estimator est(options(c), c.w, c.h);
        const speed::cuda::DevicePlan plan(est);
        TestPlane a(pattern(c.w, c.h, c.bpc, 1), c.w, c.bpc), b(pattern(c.w, c.h, c.bpc, 2), c.w, c.bpc);
        const std::size_t n = std::size_t{c.w} * c.h;
        vmaf::cuda::DeviceBuffer loaded(2 * n * sizeof(float));
        vmaf::cuda::DeviceBuffer scratch(plan.scratch_bytes(1));
        vmaf::cuda::DeviceBuffer result(plan.result_floats() * sizeof(float));
        float* fa = loaded.get<float>();
        speed::cuda::launch_load(a.dev, a.pitch, c.w, c.h, c.bpc, -128.0f, fa, nullptr);
        speed::cuda::launch_load(b.dev, b.pitch, c.w, c.h, c.bpc, -128.0f, fa + n, nullptr);
        const speed::cuda::DiffIn in{fa, fa + n};
        speed::cuda::launch_bands(plan.plan(), &in, 1, scratch.get(), result.get<float>(), nullptr);
        speed::cuda::launch_moments(plan.plan(), result.get<float>(), 1, scratch.get(), nullptr);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        std::vector<float> got(plan.result_floats()), want(plan.result_floats());
        ASSERT_EQ(cudaMemcpy(got.data(), result.get(), got.size() * sizeof(float), cudaMemcpyDeviceToHost),
                  cudaSuccess);
        speed::Image ia, ib;
        est.shape(ia);
        est.shape(ib);
        est.load(ia, a.plane(c.w, c.h), c.bpc, -128);
        est.load(ib, b.plane(c.w, c.h), c.bpc, -128);
        est.subtract(ia, ib);
        est.device_result(ia, want.data());
        expect_same(est, want, got);
    }
}

// The twins' path: several images' bands, then one launch_moments over all of
// them (a frame's images), at sizes where each of the 350 sums has thousands
// of terms (4K chroma and luma) and where a band row is wider than the means'
// shared-memory stage (131200 x 80: read in place), one image a frame
// difference of zero (every term 0) and one a plane with a single bright
// sample (few nonzero terms).
TEST(SpeedCudaKernels, BatchedImagesEqualCpu) {
    if (!have_device()) GTEST_SKIP() << "no CUDA device";
    struct Size {
        unsigned w, h, bpc;
    };
    for (const Size z : {Size{1920, 1080, 10}, Size{3840, 2160, 10}, Size{333, 251, 8}, Size{131200, 80, 8}}) {
        SCOPED_TRACE(std::to_string(z.w) + "x" + std::to_string(z.h));
        const speed::Estimator est(speed::Options{}, z.w, z.h);
        const speed::cuda::DevicePlan plan(est);
        std::vector<std::uint16_t> spike(std::size_t{z.w} * z.h, 0);
        spike[std::size_t{z.h / 3} * z.w + z.w / 2] = static_cast<std::uint16_t>((1u << z.bpc) - 1);
        TestPlane p1(pattern(z.w, z.h, z.bpc, 1), z.w, z.bpc), p2(pattern(z.w, z.h, z.bpc, 2), z.w, z.bpc),
            p3(spike, z.w, z.bpc);
        constexpr unsigned kImages = 4;
        const std::size_t n = std::size_t{z.w} * z.h, rf = plan.result_floats();
        vmaf::cuda::DeviceBuffer loaded(n * sizeof(float));
        vmaf::cuda::DeviceBuffer scratch(plan.scratch_bytes(kImages));
        vmaf::cuda::DeviceBuffer result(kImages * rf * sizeof(float));
        float* r = result.get<float>();
        const speed::cuda::PlaneIn devs[3] = {{p1.dev, p1.pitch}, {p2.dev, p2.pitch}, {p3.dev, p3.pitch}};
        speed::cuda::launch_bands(plan.plan(), devs, 3, z.bpc, -128.0f, scratch.get(), r, nullptr);
        speed::cuda::launch_load(p2.dev, p2.pitch, z.w, z.h, z.bpc, -128.0f, loaded.get<float>(), nullptr);
        const speed::cuda::DiffIn zero{loaded.get<float>(), loaded.get<float>()};
        speed::cuda::launch_bands(plan.plan(), &zero, 1, scratch.get(), r + 3 * rf, nullptr);
        speed::cuda::launch_moments(plan.plan(), r, kImages, scratch.get(), nullptr);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        std::vector<float> got(kImages * rf);
        ASSERT_EQ(cudaMemcpy(got.data(), r, got.size() * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
        TestPlane* host[] = {&p1, &p2, &p3};
        for (unsigned k = 0; k < kImages; ++k) {
            SCOPED_TRACE("image " + std::to_string(k));
            speed::Image img;
            est.shape(img);
            est.load(img, host[k < 3 ? k : 1]->plane(z.w, z.h), z.bpc, -128);
            if (k == 3) {
                speed::Image same;
                est.shape(same);
                est.load(same, p2.plane(z.w, z.h), z.bpc, -128);
                est.subtract(img, same);
            }
            std::vector<float> want(rf);
            est.device_result(img, want.data());
            expect_same(est, want, std::vector<float>(got.begin() + k * rf, got.begin() + (k + 1) * rf));
        }
    }
}

}  // namespace
