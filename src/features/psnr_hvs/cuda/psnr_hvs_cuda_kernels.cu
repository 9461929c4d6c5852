#include <cstdint>

#include "features/float_common/cuda/ordered_sum.hpp"
#include "features/psnr_hvs/cuda/psnr_hvs_cuda_kernels.hpp"

namespace vmaf::psnr_hvs::cuda {

namespace {

// The DCT's lane operations on one int32 (wrapping, as the CPU's ScalarOps).
struct DeviceOps {
    using V = std::int32_t;
    __device__ static V add(V a, V b) {
        return static_cast<V>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
    }
    __device__ static V sub(V a, V b) {
        return static_cast<V>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b));
    }
    __device__ static V half(V a) { return add(a, static_cast<V>(static_cast<std::uint32_t>(a) >> 31)) >> 1; }
    template <std::int32_t C, std::int32_t R, int S>
    __device__ static V mul_round(V a) {
        return add(static_cast<V>(static_cast<std::uint32_t>(a) * static_cast<std::uint32_t>(C)), R) >> S;
    }
};

#define PSNR_HVS_DCT_FN __device__ __forceinline__
#include "features/psnr_hvs/psnr_hvs_dct.inc"

/// psnr_hvs::fdct8x8: vertical transforms, then horizontal ones.
__device__ void fdct8x8(std::int32_t* blk) {
    std::int32_t t[64];
    for (unsigned col = 0; col < 8; ++col) {
        std::int32_t v[8];
        for (unsigned r = 0; r < 8; ++r) v[r] = blk[8 * r + col];
        fdct8<DeviceOps>(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
        for (unsigned r = 0; r < 8; ++r) t[8 * col + r] = v[r];
    }
    for (unsigned f = 0; f < 8; ++f) {
        std::int32_t v[8];
        for (unsigned col = 0; col < 8; ++col) v[col] = t[8 * col + f];
        fdct8<DeviceOps>(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
        for (unsigned h = 0; h < 8; ++h) blk[8 * f + h] = v[h];
    }
}

__device__ __forceinline__ unsigned quadrant(unsigned k) {
    return (k >> 5) + ((k & 4) >> 1);
}

/// psnr_hvs's variance_ratio, float operations in its order.
__device__ float variance_ratio(const std::int32_t* s) {
    float gmean = 0, means[4] = {0, 0, 0, 0};
    for (unsigned k = 0; k < 64; ++k) {
        gmean = gmean + static_cast<float>(s[k]);
        means[quadrant(k)] = means[quadrant(k)] + static_cast<float>(s[k]);
    }
    gmean = __fdiv_rn(gmean, 64.f);
    for (float& m : means) m = __fdiv_rn(m, 16.f);
    float gvar = 0, vars[4] = {0, 0, 0, 0};
    for (unsigned k = 0; k < 64; ++k) {
        const float dg = static_cast<float>(s[k]) - gmean;
        const float dq = static_cast<float>(s[k]) - means[quadrant(k)];
        gvar = gvar + dg * dg;
        vars[quadrant(k)] = vars[quadrant(k)] + dq * dq;
    }
    gvar = gvar * (__fdiv_rn(1.f, 63.f) * 64.f);
    for (float& v : vars) v = v * (__fdiv_rn(1.f, 15.f) * 16.f);
    if (gvar > 0) gvar = __fdiv_rn(vars[0] + vars[1] + vars[2] + vars[3], gvar);
    return gvar;
}

/// psnr_hvs's block_mask: float sum in coefficient order, the root in double.
__device__ float block_mask(const std::int32_t* c, float ratio, const float* mask) {
    float m = 0;
    for (unsigned k = 1; k < 64; ++k) {
        const auto sq = static_cast<std::int32_t>(static_cast<std::uint32_t>(c[k]) * static_cast<std::uint32_t>(c[k]));
        m = m + static_cast<float>(sq) * mask[k];
    }
    return __double2float_rn(__ddiv_rn(__dsqrt_rn(static_cast<double>(m * ratio)), static_cast<double>(32.f)));
}

template <typename T>
__device__ void load_block(const void* plane, std::size_t pitch, unsigned x, unsigned y, std::int32_t* out) {
    for (unsigned i = 0; i < 8; ++i) {
        const T* row = reinterpret_cast<const T*>(static_cast<const unsigned char*>(plane) + (y + i) * pitch) + x;
        for (unsigned j = 0; j < 8; ++j) out[8 * i + j] = row[j];
    }
}

/// One thread per block: out[(by * nx + b) * 64 + k] = (err_k * csf_k)^2 as block_row_t.
template <typename T>
__global__ void block_errors(HvsPlane p, float* out) {
    const unsigned b = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned by = blockIdx.y;
    if (b >= p.nx) return;
    std::int32_t s[64], d[64];
    load_block<T>(p.ref, p.pitch, 7 * b, 7 * by, s);
    load_block<T>(p.dist, p.pitch, 7 * b, 7 * by, d);
    const float s_ratio = variance_ratio(s), d_ratio = variance_ratio(d);
    fdct8x8(s);
    fdct8x8(d);
    float mask = block_mask(s, s_ratio, p.mask);
    const float d_mask = block_mask(d, d_ratio, p.mask);
    if (d_mask > mask) mask = d_mask;
    float* o = out + (static_cast<std::size_t>(by) * p.nx + b) * 64;
    for (unsigned k = 0; k < 64; ++k) {
        const std::int32_t diff = s[k] - d[k];
        float err = static_cast<float>(diff < 0 ? -diff : diff);
        if (k != 0) {
            const float t = __fdiv_rn(mask, p.mask[k]);
            err = err < t ? 0 : err - t;
        }
        o[k] = (err * p.csf[k]) * (err * p.csf[k]);
    }
}

std::size_t hvs_errs(const HvsPlane (&p)[3]) {
    std::size_t n = 0;
    for (const HvsPlane& q : p) n += std::size_t{64} * q.nx * q.ny;
    return n;
}

/// The three planes' error arrays in `scratch`, then the ordered sums' scratch.
floatfeat::cuda::OrderedSeqs<float> plane_seqs(const HvsPlane (&p)[3], float* scratch) {
    floatfeat::cuda::OrderedSeqs<float> q{};
    q.count = 3;
    for (int i = 0; i < 3; ++i) {
        q.n[i] = 64ull * p[i].nx * p[i].ny;
        q.term[i] = scratch;
        if (scratch) scratch += q.n[i];
    }
    return q;
}

std::size_t errs_bytes(const HvsPlane (&p)[3]) {
    return (hvs_errs(p) * sizeof(float) + 255) & ~std::size_t{255};
}

}  // namespace

std::size_t hvs_scratch_bytes(const HvsPlane (&p)[3]) {
    return errs_bytes(p) + floatfeat::cuda::ordered_sum_scratch_bytes(plane_seqs(p, nullptr));
}

void launch_psnr_hvs(const HvsPlane (&p)[3], unsigned bpc, void* scratch, float* sums, cudaStream_t s) {
    const floatfeat::cuda::OrderedSeqs<float> q = plane_seqs(p, static_cast<float*>(scratch));
    for (int i = 0; i < 3; ++i) {
        if (q.n[i] == 0) continue;
        const dim3 grid((p[i].nx + 63) / 64, p[i].ny);
        auto* err = const_cast<float*>(q.term[i]);
        if (bpc == 8)
            block_errors<std::uint8_t><<<grid, 64, 0, s>>>(p[i], err);
        else
            block_errors<std::uint16_t><<<grid, 64, 0, s>>>(p[i], err);
    }
    floatfeat::cuda::launch_ordered_sums(q, nullptr, static_cast<unsigned char*>(scratch) + errs_bytes(p), sums, s);
}

}  // namespace vmaf::psnr_hvs::cuda
