// CAMBI on the device. Per picture: 10-bit conversion (+ range check),
// anti-dithering, the flat-area derivative and the 7x7 spatial mask at full
// resolution; per scale a fused decimate + 3x3 mode filter + band-code pass,
// then the c values, one warp per (row, column segment) sliding its own
// window histogram along the row in shared memory. The CPU slides its
// histograms down the columns instead; both hold, at pixel (i, j), the codes
// of rows [i - pad, i + pad] x columns [j - pad, j + pad] clipped to the
// scale (the CPU's three row phases reduce to that window for every height
// it can score), so the integer counts, and with them the float c values
// (the CPU's expression, one rounding per operation), are equal.
#include "cambi_cuda_kernels.hpp"

namespace vmaf::cambi::cuda {

namespace {

using u8 = unsigned char;
using u16 = unsigned short;
using u32 = unsigned int;

constexpr u16 kNoCode = 0xffff;
__constant__ int kWeights[32] = {1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8,
                                 8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};

std::size_t align_up(std::size_t v) {
    return (v + 255) & ~std::size_t{255};
}

struct Scratch {
    u16 *img, *dither, *filt[2], *codes, *codes_t;
    u8 *flat, *mask;
};

std::size_t layout(unsigned w, unsigned h, char* base, Scratch* out) {
    const std::size_t n = std::size_t{w} * h;
    std::size_t off = 0;
    auto take = [&](std::size_t bytes) {
        void* p = base ? base + off : nullptr;
        off += align_up(bytes);
        return p;
    };
    Scratch s{};
    s.img = static_cast<u16*>(take(2 * n));
    s.dither = static_cast<u16*>(take(2 * n));
    s.filt[0] = static_cast<u16*>(take(2 * n));
    s.filt[1] = static_cast<u16*>(take(2 * n));
    s.codes = static_cast<u16*>(take(2 * n));
    s.codes_t = static_cast<u16*>(take(2 * n));
    s.flat = static_cast<u8*>(take(n));
    s.mask = static_cast<u8*>(take(n));
    if (out) *out = s;
    return off;
}

// ---- preprocessing ----------------------------------------------------------

__global__ void range_check(const u16* src, std::size_t pitch, unsigned w, unsigned h, unsigned max, unsigned* flag) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w) return;
    const u16* row = reinterpret_cast<const u16*>(reinterpret_cast<const char*>(src) + y * pitch);
    if (row[x] > max) atomicOr(flag, 1u);
}

/// cambi_core.cpp preprocess(): sample (xmap[x], ymap[y]) to 10 bits.
template <typename T>
__global__ void to_10bit(const T* src, std::size_t pitch, const unsigned* xmap, const unsigned* ymap, unsigned w,
                         unsigned h, unsigned bpc, u16* out) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w) return;
    const T* row = reinterpret_cast<const T*>(reinterpret_cast<const char*>(src) + ymap[y] * pitch);
    const unsigned v = row[xmap[x]];
    u16 o;
    if (bpc == 8) {
        o = static_cast<u16>(v << 2);
    } else if (bpc == 9) {
        o = static_cast<u16>(v << 1);
    } else {
        const int shift = static_cast<int>(bpc) - 10;
        const int round = shift == 0 ? 0 : 1 << (shift - 1);
        o = static_cast<u16>((static_cast<int>(v) + round) >> shift);
    }
    out[std::size_t{y} * w + x] = o;
}

/// anti_dither(): 2x2 box average of the input (last column / row: 2-tap; the corner kept).
__global__ void anti_dither(const u16* in, u16* out, unsigned w, unsigned h) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w) return;
    const u16* r = in + std::size_t{y} * w;
    unsigned v;
    if (y + 1 < h) {
        const u16* n = r + w;
        v = x + 1 < w ? (r[x] + r[x + 1] + n[x] + n[x + 1]) >> 2 : (r[x] + n[x]) >> 1;
    } else {
        v = x + 1 < w ? (r[x] + r[x + 1]) >> 1 : r[x];
    }
    out[std::size_t{y} * w + x] = static_cast<u16>(v);
}

// ---- spatial mask -------------------------------------------------------------

/// flat_row(): 1 where the sample equals its right and lower neighbours (absent ones count as equal).
__global__ void flat(const u16* img, u8* out, unsigned w, unsigned h) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w) return;
    const std::size_t i = std::size_t{y} * w + x;
    bool f = x + 1 >= w || img[i] == img[i + 1];
    if (y + 1 < h) f = f && img[i] == img[i + w];
    out[i] = f;
}

/// spatial_mask(): 1 where the 7x7 square (zero outside) holds more than `threshold` flat samples.
__global__ void mask7(const u8* flat, u8* mask, unsigned w, unsigned h, unsigned threshold) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= static_cast<int>(w)) return;
    unsigned s = 0;
    for (int dy = -3; dy <= 3; ++dy) {
        const int yy = y + dy;
        if (yy < 0 || yy >= static_cast<int>(h)) continue;
        const u8* r = flat + std::size_t(yy) * w;
        for (int dx = -3; dx <= 3; ++dx) {
            const int xx = x + dx;
            if (xx >= 0 && xx < static_cast<int>(w)) s += r[xx];
        }
    }
    mask[std::size_t(y) * w + x] = s > threshold;
}

// ---- per scale ----------------------------------------------------------------

__device__ __forceinline__ u16 mode3(u16 a, u16 b, u16 c) {
    if (a == b || a == c) return a;
    if (b == c) return b;
    return min(a, min(b, c));
}

/// decimate() (when `dec`: every other sample of every other row of `prev`,
/// prev_w wide) + filter_mode() + band_codes_row(): the scale's filtered
/// image into `out` and its histogram rows into `codes` (w wide). The mask
/// of the scale is the full-resolution mask at (i << mshift, j << mshift).
__global__ void filter_codes(const u16* prev, unsigned prev_w, bool dec, unsigned w, unsigned h, const u8* mask,
                             unsigned mask_w, unsigned mshift, u16 band_base, u16 band_size, u16* out, u16* codes) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (j >= static_cast<int>(w)) return;
    const int step = dec ? 2 : 1;
    auto src = [&](int r, int c) { return prev[std::size_t(r * step) * prev_w + std::size_t(c * step)]; };
    auto hor = [&](int r) {
        if (j >= 1 && j + 2 <= static_cast<int>(w)) return mode3(src(r, j - 1), src(r, j), src(r, j + 1));
        return src(r, j);
    };
    u16 v;
    if (i >= 1 && i + 2 <= static_cast<int>(h))
        v = mode3(hor(i - 1), hor(i), hor(i + 1));
    else
        v = src(i, j);
    const std::size_t o = std::size_t(i) * w + j;
    out[o] = v;
    const u8 m = mask[(std::size_t(i) << mshift) * mask_w + (std::size_t(j) << mshift)];
    const u16 r = static_cast<u16>(v - band_base);
    codes[o] = m && r < band_size ? r : kNoCode;
}

/// out = the transpose of the h x w array `in` (out is w x h).
__global__ void transpose(const u16* in, u16* out, unsigned w, unsigned h) {
    __shared__ u16 tile[32][33];
    const unsigned x = blockIdx.x * 32 + threadIdx.x, y0 = blockIdx.y * 32;
    for (unsigned k = threadIdx.y; k < 32; k += 8)
        if (x < w && y0 + k < h) tile[k][threadIdx.x] = in[std::size_t(y0 + k) * w + x];
    __syncthreads();
    const unsigned ox = y0 + threadIdx.x;
    for (unsigned k = threadIdx.y; k < 32; k += 8) {
        const unsigned oy = blockIdx.x * 32 + k;
        if (oy < w && ox < h) out[std::size_t(oy) * h + ox] = tile[threadIdx.x][k];
    }
}

constexpr int kWarps = 8;  // per block
constexpr int kSeg = 256;  // columns per warp
constexpr u32 kFull = 0xffffffffu;

/// Adds `delta` to hist[code] for each lane's code (kNoCode: none). Lanes
/// hold consecutive rows of one column, where equal codes come in runs: the
/// first lane of each run adds the run's length, one shared atomic per run.
/// All 32 lanes call.
__device__ __forceinline__ void warp_add(u32* hist, u16 code, u32 delta) {
    if (__ballot_sync(kFull, code != kNoCode) == 0) return;
    const int lane = threadIdx.x & 31;
    const u16 prev = __shfl_up_sync(kFull, code, 1);
    const bool start = lane == 0 || prev != code;
    const u32 starts = __ballot_sync(kFull, start);
    if (start && code != kNoCode) {
        const u32 after = starts & ~((2u << lane) - 1u);  // lane 31: 2u << 31 == 0, so none
        const int end = after ? __ffs(after) - 1 : 32;
        atomicAdd(&hist[code], delta * static_cast<u32>(end - lane));
    }
}

/// The largest of the lanes' values (all >= +0, so their bits order as unsigned).
__device__ __forceinline__ float warp_max(float v) {
#if __CUDA_ARCH__ >= 800
    return __uint_as_float(__reduce_max_sync(kFull, __float_as_uint(v)));
#else
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(kFull, v, o));
    return v;
#endif
}

/// c_values() + c_values_row(): one warp per (row i, kSeg columns), its
/// window histogram (band_size counts) in shared memory. `codes_t` is the
/// scale's band codes transposed (column c's rows at c * h), so a column of
/// the window is one coalesced read. Steps of a row: the column leaving the
/// window is removed and the entering one added, the rows of the window
/// spread over the lanes; lane d < num_diffs then scores contrast step d + 1
/// and the warp keeps the largest.
__global__ void c_values(const u16* __restrict__ codes_t, unsigned w, unsigned h, int pad, u16 band_base, u16 band_size,
                         int num_diffs, const u32* __restrict__ active, const float* __restrict__ recip, float* c) {
    extern __shared__ u32 shared_hist[];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int W = static_cast<int>(w), H = static_cast<int>(h);
    const int segs = (W + kSeg - 1) / kSeg;
    const long long task = static_cast<long long>(blockIdx.x) * kWarps + warp;
    if (task >= static_cast<long long>(H) * segs) return;  // whole warps
    const int i = static_cast<int>(task / segs), j0 = static_cast<int>(task % segs) * kSeg;
    const int j1 = min(W, j0 + kSeg);
    u32* hist = shared_hist + std::size_t(warp) * band_size;
    for (int b = lane; b < band_size; b += 32) hist[b] = 0;
    __syncwarp();
    const int r_lo = max(0, i - pad), r_hi = min(H - 1, i + pad);
    auto at = [&](int col, int r) { return codes_t[std::size_t(col) * h + r]; };
    // The window of column j0 - 1.
    for (int col = max(0, j0 - 1 - pad); col <= min(W - 1, j0 - 1 + pad); ++col)
        for (int r0 = r_lo; r0 <= r_hi; r0 += 32) {
            const int r = r0 + lane;
            warp_add(hist, r <= r_hi ? at(col, r) : kNoCode, 1u);
        }
    __syncwarp();
    const int weight = kWeights[lane];
    float mine = 0.0f;
    for (int j = j0; j < j1; ++j) {
        const int leave = j - 1 - pad, enter = j + pad;
        for (int r0 = r_lo; r0 <= r_hi; r0 += 32) {
            const int r = r0 + lane;
            u16 out = r <= r_hi && leave >= 0 ? at(leave, r) : kNoCode;
            u16 in = r <= r_hi && enter < W ? at(enter, r) : kNoCode;
            if (out == in) out = in = kNoCode;
            warp_add(hist, out, kFull);  // -1 per sample
            warp_add(hist, in, 1u);
        }
        __syncwarp();
        const u16 code = at(j, i);
        float best = 0.0f;
        if (code != kNoCode) {
            if (lane < num_diffs && (active[code + band_base + num_diffs] >> lane & 1u)) {
                const u32 p0 = hist[code];
                const int up = code + lane + 1, down = code - lane - 1;
                const u32 p1 = up < band_size ? hist[up] : 0u;
                const u32 p2 = down >= 0 ? hist[down] : 0u;
                const u32 q = p1 > p2 ? p1 : p2;
                best = static_cast<float>(weight * static_cast<int>(p0) * static_cast<int>(q)) * recip[q + p0];
            }
            best = warp_max(best);
        }
        const int slot = (j - j0) & 31;
        if (slot == lane) mine = best;
        if (slot == 31 || j == j1 - 1) {
            const int base = j - slot;
            if (base + lane <= j) c[std::size_t(i) * w + base + lane] = mine;
        }
        __syncwarp();
    }
}

dim3 rows_grid(unsigned w, unsigned h) {
    return dim3((w + 255) / 256, h);
}

}  // namespace

std::size_t scratch_bytes(unsigned w, unsigned h) {
    return layout(w, h, nullptr, nullptr);
}

void launch_picture(const PictureArgs& a, const Tables& t, void* scratch, float* c, unsigned* flag, cudaStream_t s) {
    Scratch sc{};
    layout(a.w, a.h, static_cast<char*>(scratch), &sc);
    cudaMemsetAsync(flag, 0, sizeof(unsigned), s);
    if (a.bpc > 8 && a.bpc < 16)
        range_check<<<rows_grid(a.in_w, a.in_h), 256, 0, s>>>(static_cast<const u16*>(a.luma), a.pitch, a.in_w, a.in_h,
                                                              (1u << a.bpc) - 1, flag);
    const dim3 g = rows_grid(a.w, a.h);
    if (a.bpc == 8)
        to_10bit<u8>
            <<<g, 256, 0, s>>>(static_cast<const u8*>(a.luma), a.pitch, a.xmap, a.ymap, a.w, a.h, a.bpc, sc.img);
    else
        to_10bit<u16>
            <<<g, 256, 0, s>>>(static_cast<const u16*>(a.luma), a.pitch, a.xmap, a.ymap, a.w, a.h, a.bpc, sc.img);
    u16* img = sc.img;
    if (a.anti_dither) {
        anti_dither<<<g, 256, 0, s>>>(sc.img, sc.dither, a.w, a.h);
        img = sc.dither;
    }
    flat<<<g, 256, 0, s>>>(img, sc.flat, a.w, a.h);
    mask7<<<g, 256, 0, s>>>(sc.flat, sc.mask, a.w, a.h, a.mask_threshold);

    const ScaleSizes ss = scale_sizes(a.w, a.h, a.speedup);
    const u16* prev = img;
    unsigned prev_w = a.w, mshift = 0;
    for (int k = 0; k < kScales; ++k) {
        const bool dec = k > 0 || a.speedup;
        if (dec) ++mshift;
        const unsigned w = ss.w[k], h = ss.h[k];
        u16* out = sc.filt[k & 1];
        filter_codes<<<rows_grid(w, h), 256, 0, s>>>(prev, prev_w, dec, w, h, sc.mask, a.w, mshift, a.band_base,
                                                     a.band_size, out, sc.codes);
        transpose<<<dim3((w + 31) / 32, (h + 31) / 32), dim3(32, 8), 0, s>>>(sc.codes, sc.codes_t, w, h);
        const unsigned segs = (w + kSeg - 1) / kSeg;
        const unsigned long long tasks = static_cast<unsigned long long>(segs) * h;
        const unsigned blocks = static_cast<unsigned>((tasks + kWarps - 1) / kWarps);
        const std::size_t shared = std::size_t{kWarps} * a.band_size * sizeof(u32);
        c_values<<<blocks, kWarps * 32, shared, s>>>(sc.codes_t, w, h, a.window >> 1, a.band_base, a.band_size,
                                                     a.num_diffs, t.active, t.recip, c + ss.offset[k]);
        prev = out;
        prev_w = w;
    }
}

}  // namespace vmaf::cambi::cuda
