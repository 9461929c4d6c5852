#include "backends/cuda/reduce.cuh"
#include "xpsnr_cuda_kernels.hpp"

namespace vmaf::xpsnr::cuda {

namespace {

constexpr unsigned kThreads = 256;

/// A sample as the filter reads it (8-bit widened, deeper as int16).
template <typename T>
__device__ __forceinline__ int px(const unsigned char* p, std::size_t pitch, int x, int y) {
    const T v = reinterpret_cast<const T*>(p + static_cast<std::size_t>(y) * pitch)[x];
    if constexpr (sizeof(T) == 1)
        return v;
    else
        return static_cast<short>(v);
}

/// The same, 0 outside the w x h picture.
template <typename T>
__device__ __forceinline__ int at(const unsigned char* p, std::size_t pitch, int w, int h, int x, int y) {
    return x < 0 || y < 0 || x >= w || y >= h ? 0 : px<T>(p, pitch, x, y);
}

template <typename T>
__device__ __forceinline__ int quad(const unsigned char* p, std::size_t pitch, int w, int h, int x, int y) {
    return at<T>(p, pitch, w, h, x, y) + at<T>(p, pitch, w, h, x + 1, y) + at<T>(p, pitch, w, h, x, y + 1) +
           at<T>(p, pitch, w, h, x + 1, y + 1);
}

/// The CPU's sse_line_x86: runs of 32 as four wrapping 32-bit lanes, the rest exact.
__device__ unsigned long long sse_line_x86(const unsigned short* a, const unsigned short* b, unsigned n) {
    unsigned long long total = 0;
    unsigned x = 0;
    for (; x + 32 <= n; x += 32)
        for (unsigned lane = 0; lane < 4; ++lane) {
            unsigned sum = 0;
            for (unsigned part = 0; part < 4; ++part)
                for (unsigned k = 0; k < 2; ++k) {
                    const unsigned i = x + 8 * part + 2 * lane + k;
                    const short d = static_cast<short>(static_cast<unsigned short>(a[i] - b[i]));
                    sum += static_cast<unsigned>(static_cast<int>(d) * d);
                }
            total += sum;
        }
    for (; x < n; ++x) {
        const long long e = static_cast<long long>(a[x]) - static_cast<long long>(b[x]);
        total += static_cast<unsigned long long>(e * e);
    }
    return total;
}

template <typename T>
__global__ void block_sse(const unsigned char* a, const unsigned char* b, std::size_t pitch, unsigned pw, unsigned ph,
                          unsigned bw, unsigned bh, unsigned nbx, bool x86, unsigned long long* out) {
    const unsigned i = blockIdx.x;
    const unsigned x0 = (i % nbx) * bw, y0 = (i / nbx) * bh;
    const unsigned w = x0 + bw > pw ? pw - x0 : bw, h = y0 + bh > ph ? ph - y0 : bh;
    unsigned long long acc = 0;
    if (x86) {
        for (unsigned r = threadIdx.x; r < h; r += kThreads) {
            const std::size_t row = static_cast<std::size_t>(y0 + r) * pitch;
            acc += sse_line_x86(reinterpret_cast<const unsigned short*>(a + row) + x0,
                                reinterpret_cast<const unsigned short*>(b + row) + x0, w);
        }
    } else {
        for (unsigned k = threadIdx.x; k < w * h; k += kThreads) {
            const unsigned x = x0 + k % w, y = y0 + k / w;
            const std::size_t row = static_cast<std::size_t>(y) * pitch;
            const long long e = static_cast<long long>(reinterpret_cast<const T*>(a + row)[x]) -
                                static_cast<long long>(reinterpret_cast<const T*>(b + row)[x]);
            acc += static_cast<unsigned long long>(e * e);
        }
    }
    acc = vmaf::cuda::block_sum<kThreads>(acc);
    if (threadIdx.x == 0) out[i] = acc;
}

template <typename T>
__global__ void spatial(const unsigned char* p, std::size_t pitch, int w, int h, bool down, const Rect* win,
                        unsigned long long* out) {
    const Rect r = win[blockIdx.x];
    unsigned long long acc = 0;
    if (r.x1 > r.x0 && r.y1 > r.y0) {
        const int step = down ? 2 : 1;
        const int nx = (r.x1 - r.x0 + step - 1) / step, ny = (r.y1 - r.y0 + step - 1) / step;
        for (int k = threadIdx.x; k < nx * ny; k += kThreads) {
            const int x = r.x0 + step * (k % nx), y = r.y0 + step * (k / nx);
            int f;
            if (!down) {
                const int edges = px<T>(p, pitch, x - 1, y) + px<T>(p, pitch, x + 1, y) + px<T>(p, pitch, x, y - 1) +
                                  px<T>(p, pitch, x, y + 1);
                const int corners = px<T>(p, pitch, x - 1, y - 1) + px<T>(p, pitch, x + 1, y - 1) +
                                    px<T>(p, pitch, x - 1, y + 1) + px<T>(p, pitch, x + 1, y + 1);
                f = 12 * px<T>(p, pitch, x, y) - 2 * edges - corners;
            } else {
                auto s = [&](int dx, int dy) { return at<T>(p, pitch, w, h, x + dx, y + dy); };
                const int centre = quad<T>(p, pitch, w, h, x, y);
                const int edges = s(0, -1) + s(1, -1) + s(0, 2) + s(1, 2) + s(-1, 0) + s(-1, 1) + s(2, 0) + s(2, 1);
                const int corners = s(-1, -1) + s(2, -1) + s(-1, 2) + s(2, 2);
                int ring = 0;
                for (int j = -1; j <= 2; ++j) ring += s(j, -2) + s(j, 3) + s(-2, j) + s(3, j);
                f = 12 * centre - 3 * edges - 2 * corners - ring;
            }
            acc += static_cast<unsigned long long>(f < 0 ? -f : f);
        }
    }
    acc = vmaf::cuda::block_sum<kThreads>(acc);
    if (threadIdx.x == 0) out[blockIdx.x] = acc;
}

template <typename T>
__global__ void temporal(const unsigned char* c, const unsigned char* p1, const unsigned char* p2, std::size_t pitch,
                         int w, int h, bool second, bool down, const Rect* rect, unsigned long long* out) {
    const Rect r = rect[blockIdx.x];
    unsigned long long acc = 0;
    if (r.x1 > r.x0 && r.y1 > r.y0) {
        const int step = down ? 2 : 1;
        const int nx = (r.x1 - r.x0 + step - 1) / step, ny = (r.y1 - r.y0 + step - 1) / step;
        for (int k = threadIdx.x; k < nx * ny; k += kThreads) {
            const int x = r.x0 + step * (k % nx), y = r.y0 + step * (k / nx);
            int t;
            if (!down) {
                t = px<T>(c, pitch, x, y) - px<T>(p1, pitch, x, y);
                if (second) t = t - px<T>(p1, pitch, x, y) + px<T>(p2, pitch, x, y);
            } else {
                t = quad<T>(c, pitch, w, h, x, y) - quad<T>(p1, pitch, w, h, x, y);
                if (second) t = t - quad<T>(p1, pitch, w, h, x, y) + quad<T>(p2, pitch, w, h, x, y);
            }
            acc += static_cast<unsigned long long>(t < 0 ? -t : t);
        }
    }
    acc = vmaf::cuda::block_sum<kThreads>(acc);
    if (threadIdx.x == 0) out[blockIdx.x] = acc;
}

}  // namespace

void launch_block_sse(const void* a, const void* b, std::size_t pitch, unsigned pw, unsigned ph, unsigned bw,
                      unsigned bh, unsigned nbx, unsigned nblocks, unsigned bpc, bool x86, unsigned long long* out,
                      cudaStream_t s) {
    if (!nblocks) return;
    const auto* pa = static_cast<const unsigned char*>(a);
    const auto* pb = static_cast<const unsigned char*>(b);
    if (bpc == 8)
        block_sse<unsigned char><<<nblocks, kThreads, 0, s>>>(pa, pb, pitch, pw, ph, bw, bh, nbx, false, out);
    else
        block_sse<unsigned short><<<nblocks, kThreads, 0, s>>>(pa, pb, pitch, pw, ph, bw, bh, nbx, x86, out);
}

void launch_spatial(const void* luma, std::size_t pitch, unsigned w, unsigned h, unsigned bpc, bool down,
                    const Rect* win, unsigned nblocks, unsigned long long* out, cudaStream_t s) {
    if (!nblocks) return;
    const auto* p = static_cast<const unsigned char*>(luma);
    const int iw = static_cast<int>(w), ih = static_cast<int>(h);
    if (bpc == 8)
        spatial<unsigned char><<<nblocks, kThreads, 0, s>>>(p, pitch, iw, ih, down, win, out);
    else
        spatial<unsigned short><<<nblocks, kThreads, 0, s>>>(p, pitch, iw, ih, down, win, out);
}

void launch_temporal(const void* cur, const void* p1, const void* p2, std::size_t pitch, unsigned w, unsigned h,
                     unsigned bpc, unsigned order, bool down, const Rect* rect, unsigned nblocks,
                     unsigned long long* out, cudaStream_t s) {
    if (!nblocks) return;
    const auto* c = static_cast<const unsigned char*>(cur);
    const auto* a = static_cast<const unsigned char*>(p1);
    const auto* b = static_cast<const unsigned char*>(p2);
    const int iw = static_cast<int>(w), ih = static_cast<int>(h);
    if (bpc == 8)
        temporal<unsigned char><<<nblocks, kThreads, 0, s>>>(c, a, b, pitch, iw, ih, order == 2, down, rect, out);
    else
        temporal<unsigned short><<<nblocks, kThreads, 0, s>>>(c, a, b, pitch, iw, ih, order == 2, down, rect, out);
}

}  // namespace vmaf::xpsnr::cuda
