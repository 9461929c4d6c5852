#include "features/float_common/cuda/float_device.cuh"
#include "float_ssim_cuda_kernels.hpp"

namespace vmaf::floatfeat::cuda {

namespace {

constexpr int kWin = 11;

std::size_t align(std::size_t bytes) { return (bytes + 255) & ~std::size_t{255}; }

/// The CPU's sample conversion (scale 1) or decimate_rows with the box
/// filter: per output a double sum from 0 over the scale x scale taps (rows
/// outer, columns inner) of the float products sample * box, rounded to float.
/// Taps are mirrored with the edge repeated.
__global__ void prepare(const unsigned char* ref, const unsigned char* dist, std::size_t pitch, SsimGeometry g,
                        float box, float* a, float* b) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= g.sw || y >= g.sh) return;
    const float scaler = g.bpc == 10 ? 4.0f : g.bpc == 12 ? 16.0f : 256.0f;
    const std::size_t o = static_cast<std::size_t>(y) * g.sw + x;
    if (g.scale <= 1) {
        a[o] = sample(ref + y * pitch, x, g.bpc, scaler);
        b[o] = sample(dist + y * pitch, x, g.bpc, scaler);
        return;
    }
    const int lo = g.scale / 2, w = static_cast<int>(g.w), h = static_cast<int>(g.h);
    double sa = 0.0, sb = 0.0;
    for (int v = 0; v < g.scale; ++v) {
        const std::size_t row = static_cast<std::size_t>(mirror_repeat(static_cast<int>(y) * g.scale - lo + v, h)) * pitch;
        for (int u = 0; u < g.scale; ++u) {
            const auto c = static_cast<unsigned>(mirror_repeat(static_cast<int>(x) * g.scale - lo + u, w));
            sa = sa + static_cast<double>(sample(ref + row, c, g.bpc, scaler) * box);
            sb = sb + static_cast<double>(sample(dist + row, c, g.bpc, scaler) * box);
        }
    }
    a[o] = static_cast<float>(sa);
    b[o] = static_cast<float>(sb);
}

/// conv_h over the valid columns of every row: per output and image a double
/// sum from 0 of the float products g(x + u) * f[u], u in order, rounded to float.
__global__ void horizontal(const float* a, const float* b, SsimGeometry g, SsimConstants k, float* out) {
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

/// conv_v of the five images, then ssim_row's per-sample terms.
__global__ void vertical_terms(const float* hp, SsimGeometry g, SsimConstants k, double* term, float* s_out) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= g.dw || y >= g.dh) return;
    const std::size_t plane = static_cast<std::size_t>(g.dw) * g.sh;
    float m[5];
#pragma unroll
    for (int i = 0; i < 5; ++i) {
        const float* col = hp + i * plane + static_cast<std::size_t>(y) * g.dw + x;
        double sum = 0.0;
#pragma unroll
        for (int v = 0; v < kWin; ++v) sum = sum + static_cast<double>(col[static_cast<std::size_t>(v) * g.dw] * k.gauss[v]);
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
    const std::size_t n = static_cast<std::size_t>(g.dw) * g.dh, o = static_cast<std::size_t>(y) * g.dw + x;
    term[o] = l * c * s;
    if (g.lcs) {
        term[n + o] = l;
        term[2 * n + o] = c;
        s_out[o] = s;
    }
}

struct SsimTerm {
    const double* term;
    __device__ void operator()(unsigned long long i, double* t) const { t[0] = term[i]; }
};

struct LcsTerms {
    const double* term;
    const float* s;
    unsigned long long n;
    __device__ void operator()(unsigned long long i, double* t) const {
        t[0] = term[i];
        t[1] = term[n + i];
        t[2] = term[2 * n + i];
        t[3] = s[i];
    }
};

}  // namespace

std::size_t ssim_scratch_bytes(const SsimGeometry& g) {
    const std::size_t img = align(std::size_t{g.sw} * g.sh * sizeof(float));
    const std::size_t hp = align(5 * std::size_t{g.dw} * g.sh * sizeof(float));
    const std::size_t n = std::size_t{g.dw} * g.dh;
    return 2 * img + hp + align(n * sizeof(double) * (g.lcs ? 3 : 1)) + (g.lcs ? align(n * sizeof(float)) : 0);
}

SsimScratch ssim_scratch_layout(void* base, const SsimGeometry& g) {
    auto* p = static_cast<unsigned char*>(base);
    SsimScratch s{};
    const std::size_t img = align(std::size_t{g.sw} * g.sh * sizeof(float));
    const std::size_t n = std::size_t{g.dw} * g.dh;
    s.a = reinterpret_cast<float*>(p);
    s.b = reinterpret_cast<float*>(p + img);
    s.h = reinterpret_cast<float*>(p + 2 * img);
    p += 2 * img + align(5 * std::size_t{g.dw} * g.sh * sizeof(float));
    s.term = reinterpret_cast<double*>(p);
    p += align(n * sizeof(double) * (g.lcs ? 3 : 1));
    s.s = g.lcs ? reinterpret_cast<float*>(p) : nullptr;
    return s;
}

void launch_float_ssim(const void* ref, const void* dist, std::size_t pitch, const SsimGeometry& g,
                       const SsimConstants& k, const SsimScratch& sc, double* sums, cudaStream_t s) {
    const dim3 block(32, 8);
    prepare<<<dim3((g.sw + 31) / 32, (g.sh + 7) / 8), block, 0, s>>>(
        static_cast<const unsigned char*>(ref), static_cast<const unsigned char*>(dist), pitch, g, k.box, sc.a, sc.b);
    horizontal<<<dim3((g.dw + 31) / 32, (g.sh + 7) / 8), block, 0, s>>>(sc.a, sc.b, g, k, sc.h);
    vertical_terms<<<dim3((g.dw + 31) / 32, (g.dh + 7) / 8), block, 0, s>>>(sc.h, g, k, sc.term, sc.s);
    const unsigned long long n = static_cast<unsigned long long>(g.dw) * g.dh;
    if (g.lcs)
        sequential_sum<4><<<1, 32, 0, s>>>(LcsTerms{sc.term, sc.s, n}, n, Always{}, sums);
    else
        sequential_sum<1><<<1, 32, 0, s>>>(SsimTerm{sc.term}, n, Always{}, sums);
}

}  // namespace vmaf::floatfeat::cuda
