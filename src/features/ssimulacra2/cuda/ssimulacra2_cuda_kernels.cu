// Device kernels of the ssimulacra2 twin: one thread per sample (conversion,
// downsampling, XYB), per row (horizontal blur), per column (vertical blur),
// each running a body of ssimulacra2_cuda_pipeline.hpp; the map sums are
// float_common/cuda/ordered_sum.cuh's chunked walk over map_terms (exactly the
// CPU's sequential double sums). Compiled with --fmad=false -prec-div=true
// -prec-sqrt=true; the bodies use explicit _rn intrinsics besides.
#include "ssimulacra2_cuda_kernels.hpp"

#include "features/float_common/cuda/ordered_sum.cuh"

namespace vmaf::ssimulacra2::cuda {

namespace {

__global__ void k_to_linear(Planes3 in, S2Geometry g, S2Constants k, S2Scale sc) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < g.w && y < g.h) to_linear_px(in, g, k, sc, x, y, blockIdx.z);
}

__global__ void k_downsample(Downsample d, unsigned iw, unsigned ih) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < (iw + 1) / 2 && y < (ih + 1) / 2) downsample_px(d.in[blockIdx.z], d.out[blockIdx.z], iw, ih, x, y);
}

__global__ void k_to_xyb(S2Scale sc, unsigned n, S2Constants k) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) xyb_px(sc.img[blockIdx.y], i, k);
}

__global__ void k_blur_h(BlurJobs jobs, unsigned w, unsigned h, S2Constants k) {
    const unsigned y = blockIdx.x * blockDim.x + threadIdx.x;
    if (y >= h) return;
    const unsigned j = blockIdx.y;
    const std::size_t o = static_cast<std::size_t>(y) * w;
    blur_h_row(jobs.a[j] + o, jobs.b[j] ? jobs.b[j] + o : nullptr, jobs.out[j] + o, static_cast<int>(w), k);
}

__global__ void k_blur_v(BlurJobs jobs, unsigned w, unsigned h, S2Constants k) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < w) blur_v_col(jobs.a[blockIdx.y] + x, jobs.out[blockIdx.y] + x, w, static_cast<int>(h), k);
}

/// The map terms as an ordered-sum source: group scale * 3 + channel, its
/// six MapSums terms per pixel (raster order: the CPU's add_row chains,
/// continued from row to row), so sequence g * 6 + k is sum k of that map.
struct MapSource {
    static constexpr int kTerms = 6;
    MapJobs jobs;
    float c2;
    __host__ __device__ unsigned long long n(unsigned g) const { return jobs.n[g / 3]; }
    __device__ void terms(unsigned g, unsigned long long i, double* out) const {
        map_terms(jobs.c[g / 3][g % 3], static_cast<std::size_t>(i), c2, out);
    }
};
static_assert(6 * 3 <= floatfeat::cuda::ordered::kMaxGroups);

/// run_pipeline's steps as kernel launches on one stream.
struct DeviceExec {
    const S2Geometry& g;
    const S2Constants& k;
    cudaStream_t s;

    void to_linear(const Planes3& in, const S2Scale& sc) {
        k_to_linear<<<dim3((g.w + 31) / 32, (g.h + 7) / 8, 2), dim3(32, 8), 0, s>>>(in, g, k, sc);
    }
    void downsample(const Downsample& d, unsigned iw, unsigned ih) {
        const unsigned ow = (iw + 1) / 2, oh = (ih + 1) / 2;
        k_downsample<<<dim3((ow + 31) / 32, (oh + 7) / 8, 6), dim3(32, 8), 0, s>>>(d, iw, ih);
    }
    void xyb(const S2Scale& sc, std::size_t n) {
        k_to_xyb<<<dim3(static_cast<unsigned>((n + 255) / 256), 2), 256, 0, s>>>(sc, static_cast<unsigned>(n), k);
    }
    void blur_h(const BlurJobs& j, unsigned w, unsigned h) {
        k_blur_h<<<dim3((h + 63) / 64, 5), 64, 0, s>>>(j, w, h, k);
    }
    void blur_v(const BlurJobs& j, unsigned w, unsigned h) {
        k_blur_v<<<dim3((w + 63) / 64, 5), 64, 0, s>>>(j, w, h, k);
    }
    void* ordered;  ///< s2_sums_scratch_bytes
    void map_sums(const MapJobs& j, double* sums) {
        const MapSource src{j, k.c2};
        namespace o = floatfeat::cuda::ordered;
        o::launch_ordered<double>(src, o::offsets(src, 3 * static_cast<unsigned>(j.scales)), nullptr, ordered, sums, s);
    }
};

}  // namespace

std::size_t s2_sums_scratch_bytes(const S2Geometry& g) {
    MapSource src{};
    for (unsigned i = 0, w = g.w, h = g.h; i < static_cast<unsigned>(g.scales); ++i, w = (w + 1) / 2, h = (h + 1) / 2)
        src.jobs.n[i] = static_cast<unsigned long long>(w) * h;
    namespace o = floatfeat::cuda::ordered;
    return o::scratch_bytes<MapSource::kTerms>(o::offsets(src, 3 * static_cast<unsigned>(g.scales)));
}

void launch_ssimulacra2(const Planes3& in, const S2Geometry& g, const S2Constants& k, const S2Scratch& scratch,
                        void* sums_scratch, double* sums, cudaStream_t s) {
    DeviceExec e{g, k, s, sums_scratch};
    run_pipeline(e, in, g, scratch, sums);
}

}  // namespace vmaf::ssimulacra2::cuda
