// Why these sums give the CPU's means. The Gaussian passes and the l, c, s
// terms are ssim_kernels.cpp's float and double expressions in the same
// order (--fmad=false, IEEE division and square root, the host's constants),
// so every map term equals the CPU's. The CPU adds a map's terms in one
// double, in raster order, and keeps only (float)(S / n) (ssim_means). The
// device first adds them in parallel, giving P with |P - T| <= u (D + 16) A
// (T the exact sum, A = sum |t|, D the blocks' atomic additions, u = 2^-53),
// along with A and M = sum over raster index i of (n - i) |t_i|. The CPU's
// recursive sum S satisfies |S - T| <= u sum_k |partial sum k| (1 + n u)
// <= u M (1 + n u). So S lies in [P - B, P + B] with
// B = 1.02 u (M + (D + 64) A) + 4 u A + 1e-300 (the 2 % absorbs the rounding
// of A, M, B and n u; the last terms that of P -+ B and underflow). Division
// by n and rounding to float are monotone: when both ends give the same float
// (bit for bit, so -0 and +0 differ), so do S and P, and P is reported. Else
// (or when P or B is not finite) the stored terms are added in raster order
// exactly as the CPU does (float_common/cuda/ordered_sum.cu: a chunked walk equal to
// the one-by-one sum). VMAF_CUDA_SSIM_SEQUENTIAL_SUMS (set to
// anything) takes that path for every sum: the parity tests' hook for it.
#include <cstdlib>

#include "features/float_common/cuda/float_device.cuh"
#include "features/float_common/cuda/ordered_sum.hpp"
#include "features/ssim_common/cuda/ssim_cuda_kernels.hpp"

namespace vmaf::ssimfeat::cuda {

namespace {

constexpr int kWin = 11;
constexpr unsigned kBx = 32, kBy = 8, kWarps = kBx * kBy / 32;

std::size_t align(std::size_t bytes) {
    return (bytes + 255) & ~std::size_t{255};
}

/// conv_h over the valid columns of every row: per output and image a double
/// sum from 0 of the float products g(x + u) * f[u], u in order, rounded to float.
__global__ void horizontal(const float* a, const float* b, IqaGeometry g, IqaConstants k, float* out) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= g.dw || y >= g.sh) return;
    const float *ra = a + static_cast<std::size_t>(y) * g.sw + x, *rb = b + static_cast<std::size_t>(y) * g.sw + x;
    double s[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
#pragma unroll
    for (int u = 0; u < kWin; ++u) {
        const float va = ra[u], vb = rb[u], f = k.gauss[u];
        s[0] = s[0] + static_cast<double>(va * f);
        s[1] = s[1] + static_cast<double>(vb * f);
        s[2] = s[2] + static_cast<double>((va * va) * f);
        s[3] = s[3] + static_cast<double>((vb * vb) * f);
        s[4] = s[4] + static_cast<double>((va * vb) * f);
    }
    const std::size_t plane = static_cast<std::size_t>(g.dw) * g.sh, o = static_cast<std::size_t>(y) * g.dw + x;
#pragma unroll
    for (int i = 0; i < 5; ++i) out[i * plane + o] = static_cast<float>(s[i]);
}

__device__ __forceinline__ double warp_sum_d(double v) {
    for (int o = 16; o > 0; o >>= 1) v = v + __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

/// conv_v of the five images, then ssim_row's per-sample terms, stored; the
/// block's parallel sums of t, |t| and (n - i) |t| are added to acc.
template <bool Ssim, bool Lcs>
__global__ void vertical_terms(const float* hp, IqaGeometry g, IqaConstants k, double* term, double* acc) {
    constexpr int K = (Ssim ? 1 : 0) + (Lcs ? 3 : 0);
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned long long n = static_cast<unsigned long long>(g.dw) * g.dh;
    double t[K];
#pragma unroll
    for (int i = 0; i < K; ++i) t[i] = 0.0;
    double weight = 0.0;
    if (x < g.dw && y < g.dh) {
        const std::size_t plane = static_cast<std::size_t>(g.dw) * g.sh;
        float m[5];
#pragma unroll
        for (int i = 0; i < 5; ++i) {
            const float* col = hp + i * plane + static_cast<std::size_t>(y) * g.dw + x;
            double sum = 0.0;
#pragma unroll
            for (int v = 0; v < kWin; ++v)
                sum = sum + static_cast<double>(col[static_cast<std::size_t>(v) * g.dw] * k.gauss[v]);
            m[i] = static_cast<float>(sum);
        }
        const float m1 = m[0], m2 = m[1];
        float v1 = m[2] - m1 * m1, v2 = m[3] - m2 * m2;
        v1 = 0.0 > v1 ? 0.0f : v1;
        v2 = 0.0 > v2 ? 0.0f : v2;
        const float cov = m[4] - m1 * m2;
        const float sd12 = __fsqrt_rn(v1 * v2);
        const double l = __ddiv_rn(2.0 * m1 * m2 + k.c1, static_cast<double>(m1 * m1 + m2 * m2 + k.c1));
        const double c = __ddiv_rn(2.0 * sd12 + k.c2, static_cast<double>(v1 + v2 + k.c2));
        const float cov_c = (cov < 0.0f && sd12 <= 0.0f) ? 0.0f : cov;
        const float s = __fdiv_rn(cov_c + k.c3, sd12 + k.c3);
        int i = 0;
        if (Ssim) t[i++] = l * c * s;
        if (Lcs) {
            t[i++] = l;
            t[i++] = c;
            t[i++] = s;
        }
        const unsigned long long o = static_cast<unsigned long long>(y) * g.dw + x;
#pragma unroll
        for (int j = 0; j < K; ++j) term[j * n + o] = t[j];
        weight = static_cast<double>(n - o);
    }
    __shared__ double part[3 * K][kWarps];
    const unsigned tid = threadIdx.y * blockDim.x + threadIdx.x, lane = tid & 31, warp = tid >> 5;
#pragma unroll
    for (int j = 0; j < K; ++j) {
        const double a = fabs(t[j]);
        const double r0 = warp_sum_d(t[j]), r1 = warp_sum_d(a), r2 = warp_sum_d(weight * a);
        if (lane == 0) {
            part[3 * j][warp] = r0;
            part[3 * j + 1][warp] = r1;
            part[3 * j + 2][warp] = r2;
        }
    }
    __syncthreads();
    if (tid < 3 * K) {
        double v = 0.0;
        for (unsigned w = 0; w < kWarps; ++w) v = v + part[tid][w];
        atomicAdd(acc + tid, v);
    }
}

/// Decides each sum from acc (see the file comment); flags the frame for the
/// sequential pass when one is undecided.
__global__ void certify(const double* acc, int count, unsigned long long n, double blocks, bool force_sequential,
                        double* sums, int* undecided) {
    const double u = 0x1p-53, nd = static_cast<double>(n);
    for (int j = 0; j < count; ++j) {
        const double p = acc[3 * j], a = acc[3 * j + 1], m = acc[3 * j + 2];
        const double b = 1.02 * u * (m + (blocks + 64.0) * a) + 4.0 * u * a + 1e-300;
        const float lo = __double2float_rn(__ddiv_rn(p - b, nd)), hi = __double2float_rn(__ddiv_rn(p + b, nd));
        if (!force_sequential && isfinite(p) && isfinite(b) && __float_as_uint(lo) == __float_as_uint(hi))
            sums[j] = p;
        else
            *undecided = 1;
    }
}

/// The stored terms as launch_ordered_sums's sequences: term k at k * n.
floatfeat::cuda::OrderedSeqs<double> ordered_seqs(const double* term, unsigned long long n, int count) {
    floatfeat::cuda::OrderedSeqs<double> q{};
    q.count = count;
    for (int k = 0; k < count; ++k) {
        q.term[k] = term ? term + k * n : nullptr;  // null: sizes only
        q.n[k] = n;
    }
    return q;
}

template <bool Ssim, bool Lcs>
void launch_terms(const IqaGeometry& g, const IqaConstants& k, const IqaScratch& sc, double* sums, cudaStream_t s) {
    constexpr int K = (Ssim ? 1 : 0) + (Lcs ? 3 : 0);
    const dim3 grid((g.dw + kBx - 1) / kBx, (g.dh + kBy - 1) / kBy);
    vertical_terms<Ssim, Lcs><<<grid, dim3(kBx, kBy), 0, s>>>(sc.h, g, k, sc.term, sc.acc);
    const unsigned long long n = static_cast<unsigned long long>(g.dw) * g.dh;
    static const bool force = std::getenv("VMAF_CUDA_SSIM_SEQUENTIAL_SUMS") != nullptr;
    certify<<<1, 1, 0, s>>>(sc.acc, K, n, static_cast<double>(grid.x) * grid.y, force, sums, sc.undecided);
    floatfeat::cuda::launch_ordered_sums(ordered_seqs(sc.term, n, K), sc.undecided, sc.ordered, sums, s);
}

}  // namespace

std::size_t iqa_scratch_bytes(const IqaGeometry& g, IqaTerms t) {
    const std::size_t n = std::size_t{g.dw} * g.dh;
    return align(5 * std::size_t{g.dw} * g.sh * sizeof(float)) + align(n * sizeof(double) * t.count()) +
           align(3 * 4 * sizeof(double) + sizeof(int)) +
           floatfeat::cuda::ordered_sum_scratch_bytes(ordered_seqs(nullptr, n, t.count()));
}

IqaScratch iqa_scratch_layout(void* base, const IqaGeometry& g, IqaTerms t) {
    auto* p = static_cast<unsigned char*>(base);
    const std::size_t n = std::size_t{g.dw} * g.dh;
    IqaScratch s{};
    s.h = reinterpret_cast<float*>(p);
    p += align(5 * std::size_t{g.dw} * g.sh * sizeof(float));
    s.term = reinterpret_cast<double*>(p);
    p += align(n * sizeof(double) * t.count());
    s.acc = reinterpret_cast<double*>(p);
    s.undecided = reinterpret_cast<int*>(p + 3 * 4 * sizeof(double));
    s.ordered = p + align(3 * 4 * sizeof(double) + sizeof(int));
    return s;
}

void launch_iqa_ssim(const float* a, const float* b, const IqaGeometry& g, const IqaConstants& k, IqaTerms t,
                     const IqaScratch& sc, double* sums, cudaStream_t s) {
    cudaMemsetAsync(sc.acc, 0, 3 * 4 * sizeof(double) + sizeof(int), s);
    horizontal<<<dim3((g.dw + kBx - 1) / kBx, (g.sh + kBy - 1) / kBy), dim3(kBx, kBy), 0, s>>>(a, b, g, k, sc.h);
    if (t.ssim && t.lcs)
        launch_terms<true, true>(g, k, sc, sums, s);
    else if (t.lcs)
        launch_terms<false, true>(g, k, sc, sums, s);
    else
        launch_terms<true, false>(g, k, sc, sums, s);
}

}  // namespace vmaf::ssimfeat::cuda
