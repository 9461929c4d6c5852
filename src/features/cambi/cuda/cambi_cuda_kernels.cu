// CAMBI on the device. Per picture: 10-bit conversion (+ range check),
// anti-dithering, the flat-area derivative and the 7x7 spatial mask at full
// resolution (one tiled kernel); per scale a fused decimate + 3x3 mode
// filter + band-code pass; then the c values of all five scales in one
// launch, each warp sliding 32 column histograms down a band of rows (see
// c_values below). The CPU slides its histograms down the columns as well;
// both hold, at pixel (i, j), the codes of rows [i - pad, i + pad] x columns
// [j - pad, j + pad] clipped to the scale (the CPU's three row phases reduce
// to that window for every height it can score), so the integer counts, and
// with them the float c values (the CPU's expression, one rounding per
// operation), are equal.
#include "cambi_cuda_kernels.hpp"
#include "cambi_cuda_pool.hpp"

#include <algorithm>

namespace vmaf::cambi::cuda {

namespace {

using u8 = unsigned char;
using u16 = unsigned short;
using u32 = unsigned int;

constexpr u16 kNoCode = 0xffff;
constexpr int kTileW = 32;     // columns of a c-value block; also of an occupancy cell
constexpr int kCellRows = 32;  // rows of an occupancy cell
constexpr int kSlots = 32;     // code slots of an occupancy mask
__constant__ int kWeights[32] = {1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8,
                                 8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};

std::size_t align_up(std::size_t v) {
    return (v + 255) & ~std::size_t{255};
}

struct Scratch {
    u16 *img, *dither, *filt[2];
    u16* codes;  ///< every scale's band codes, at ScaleSizes::offset
    u32* occ;    ///< every scale's occupancy cells
    u8* mask;
};

/// Occupancy cells of a w x h scale (see filter_codes()).
std::size_t occ_cells(unsigned w, unsigned h) {
    return std::size_t{(w + kTileW - 1) / kTileW} * ((h + kCellRows - 1) / kCellRows);
}

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
    // filt[0] and filt[1]: the inputs of scales 1 and 3, and 2 and 4 (the
    // speed-up's scales are smaller still).
    const ScaleSizes ss = scale_sizes(w, h, false);
    s.filt[0] = static_cast<u16*>(take(2 * std::size_t{ss.w[1]} * ss.h[1]));
    s.filt[1] = static_cast<u16*>(take(2 * std::size_t{ss.w[2]} * ss.h[2]));
    s.codes = static_cast<u16*>(take(2 * ss.total));
    std::size_t cells = 0;
    for (int k = 0; k < kScales; ++k) cells += occ_cells(ss.w[k], ss.h[k]);
    s.occ = static_cast<u32*>(take(cells * sizeof(u32)));
    s.mask = static_cast<u8*>(take(n));
    if (out) *out = s;
    return off;
}

/// One scale of the c-value launch (see c_values()).
struct CScale {
    const u16* codes;  ///< w x h band codes
    const u32* occ;    ///< occupancy of its cells (see filter_codes())
    float* c;          ///< w x h c values
    PoolStats* stats;  ///< null, or where the nonzero c values' stats go
    unsigned w, h;
    unsigned tiles_x;      ///< column tiles
    unsigned first_block;  ///< of the scale's blocks (column tile fastest, then band)
};
struct CJob {
    CScale s[kScales];
    int pad, num_diffs;
    unsigned rows;  ///< of a band, at every scale
    u16 band_base, band_size;
    unsigned slot_w;  ///< codes per occupancy slot
};

// ---- preprocessing ----------------------------------------------------------

__global__ void range_check(const u16* src, std::size_t pitch, unsigned w, unsigned h, unsigned max, unsigned* flag) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w) return;
    const u16* row = reinterpret_cast<const u16*>(reinterpret_cast<const char*>(src) + y * pitch);
    if (row[x] > max) atomicOr(flag, 1u);
}

/// cambi_core.cpp preprocess(): sample (xmap[x], ymap[y]) to 10 bits (null
/// maps: the identity). With `flag` (the maps are then the identity: every
/// sample is read once), also the range check: *flag = 1 when a sample exceeds `max`.
constexpr int kConvPer = 8;  // samples per thread of to_10bit (a block: 256 * kConvPer columns)

template <typename T>
__global__ void __launch_bounds__(256)
    to_10bit(const T* src, std::size_t pitch, const unsigned* xmap, const unsigned* ymap, unsigned w, unsigned h,
             unsigned bpc, u16* out, unsigned max, unsigned* flag) {
    const unsigned y = blockIdx.y, x0 = blockIdx.x * (256 * kConvPer) + threadIdx.x;
    const T* row = reinterpret_cast<const T*>(reinterpret_cast<const char*>(src) + (ymap ? ymap[y] : y) * pitch);
    unsigned v[kConvPer];  // every load first: kConvPer in flight per thread
#pragma unroll
    for (int k = 0; k < kConvPer; ++k) {
        const unsigned x = x0 + 256 * k;
        v[k] = x < w ? row[xmap ? xmap[x] : x] : 0u;
    }
#pragma unroll
    for (int k = 0; k < kConvPer; ++k) {
        const unsigned x = x0 + 256 * k;
        if (x >= w) break;
        if (flag && v[k] > max) atomicOr(flag, 1u);
        u16 o;
        if (bpc == 8) {
            o = static_cast<u16>(v[k] << 2);
        } else if (bpc == 9) {
            o = static_cast<u16>(v[k] << 1);
        } else {
            const int shift = static_cast<int>(bpc) - 10;
            const int round = shift == 0 ? 0 : 1 << (shift - 1);
            o = static_cast<u16>((static_cast<int>(v[k]) + round) >> shift);
        }
        out[std::size_t{y} * w + x] = o;
    }
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

/// flat_row() + spatial_mask(): one block per 32 x 32 tile of the mask. The
/// flat flags of the tile and its 3-sample border (0 outside the picture) go
/// to shared memory, then column sums of 7 and row sums of 7 of those: the
/// integer count of the 7x7 square, compared with `threshold` as the CPU does.
constexpr int kMaskTile = 32, kMaskHalo = kMaskTile + 6;

__global__ void __launch_bounds__(256) mask_tile(const u16* img, u8* mask, unsigned w, unsigned h, unsigned threshold) {
    __shared__ u8 fl[kMaskHalo][kMaskHalo];
    __shared__ u8 vs[kMaskTile][kMaskHalo];
    const int x0 = blockIdx.x * kMaskTile, y0 = blockIdx.y * kMaskTile;
    const int W = static_cast<int>(w), H = static_cast<int>(h);
    const int tid = threadIdx.y * 32 + threadIdx.x;
    constexpr int kPer = (kMaskHalo * kMaskHalo + 255) / 256;
    u16 c[kPer], right[kPer], below[kPer];  // every load first: 3 * kPer in flight per thread
#pragma unroll
    for (int k = 0; k < kPer; ++k) {
        const int e = tid + 256 * k, r = e / kMaskHalo, q = e % kMaskHalo;
        const int y = y0 - 3 + r, x = x0 - 3 + q;
        c[k] = right[k] = below[k] = 0;
        if (e < kMaskHalo * kMaskHalo && y >= 0 && y < H && x >= 0 && x < W) {
            const std::size_t i = std::size_t(y) * w + x;
            c[k] = img[i];
            right[k] = x + 1 < W ? img[i + 1] : c[k];  // absent neighbours count as equal
            below[k] = y + 1 < H ? img[i + w] : c[k];
        }
    }
#pragma unroll
    for (int k = 0; k < kPer; ++k) {
        const int e = tid + 256 * k, r = e / kMaskHalo, q = e % kMaskHalo;
        const int y = y0 - 3 + r, x = x0 - 3 + q;
        if (e < kMaskHalo * kMaskHalo)
            fl[r][q] = y >= 0 && y < H && x >= 0 && x < W && c[k] == right[k] && c[k] == below[k];
    }
    __syncthreads();
    for (int e = tid; e < kMaskTile * kMaskHalo; e += 256) {
        const int r = e / kMaskHalo, q = e % kMaskHalo;
        u8 s = 0;
        for (int d = 0; d < 7; ++d) s += fl[r + d][q];
        vs[r][q] = s;
    }
    __syncthreads();
    const int x = x0 + threadIdx.x;
    for (int r = threadIdx.y; r < kMaskTile; r += 8) {
        const int y = y0 + r;
        if (x >= W || y >= H) continue;
        unsigned s = 0;
        for (int d = 0; d < 7; ++d) s += vs[r][threadIdx.x + d];
        mask[std::size_t(y) * w + x] = s > threshold;
    }
}

// ---- per scale ----------------------------------------------------------------

__device__ __forceinline__ u16 mode3(u16 a, u16 b, u16 c) {
    if (a == b || a == c) return a;
    if (b == c) return b;
    return min(a, min(b, c));
}

constexpr u32 kFull = 0xffffffffu;

__device__ __forceinline__ u32 warp_or(u32 v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return __reduce_or_sync(kFull, v);
#else
    for (int o = 16; o > 0; o >>= 1) v |= __shfl_xor_sync(kFull, v, o);
    return v;
#endif
}

/// Codes per occupancy slot: kSlots slots cover the band.
inline unsigned slot_width(unsigned band_size) {
    return (band_size + kSlots - 1) / kSlots;
}

__device__ __forceinline__ u32 warp_min(u32 v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return __reduce_min_sync(kFull, v);
#else
    for (int o = 16; o > 0; o >>= 1) v = min(v, __shfl_xor_sync(kFull, v, o));
    return v;
#endif
}

/// decimate() (kStep 2: every other sample of every other row of `prev`,
/// prev_w wide; kStep 1: prev itself) + filter_mode() + band_codes_row():
/// the scale's histogram rows into `codes` (w wide) and, unless `next` is
/// null, the filtered samples the next scale keeps (even rows and columns)
/// into `next` ((w + 1) / 2 wide: the next scale's input, read with kStep 1).
/// The mask of the scale is the full-resolution mask at (i << mshift,
/// j << mshift).
/// Also which codes occur (kNoCode aside) per cell of kCellRows rows x
/// kTileW columns: bit code / slot_w of occ[row / kCellRows * tiles_x +
/// column / kTileW] (atomicOr onto 0), slot_w = slot_width(band_size).
/// Blocks of 256 threads, each thread kFilterRows rows of a column: a warp
/// covers 32 columns x kFilterRows rows of one cell.
constexpr int kFilterRows = 4;  // divides kCellRows

template <int kStep>
__global__ void __launch_bounds__(256)
    filter_codes(const u16* prev, unsigned prev_w, unsigned w, unsigned h, const u8* mask, unsigned mask_w,
                 unsigned mshift, u16 band_base, u16 band_size, u16* next, u16* codes, u32* occ, unsigned slot_w) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x, i0 = blockIdx.y * kFilterRows;
    const int W = static_cast<int>(w), H = static_cast<int>(h);
    u32 slots = 0;
    if (j < W) {
        const std::size_t pitch = std::size_t{prev_w} * kStep;  // between the scale's rows in prev
        const u16* col = prev + std::size_t(j) * kStep;         // the scale's column j
        const bool inner_col = j >= 1 && j + 2 <= W;
        // Rows i0 - 1 ... i0 + kFilterRows: the sample and its horizontal mode (every load first).
        u16 raw[kFilterRows + 2], hor[kFilterRows + 2];
#pragma unroll
        for (int r = 0; r < kFilterRows + 2; ++r) {
            const int i = i0 - 1 + r;
            raw[r] = hor[r] = 0;
            if (i >= 0 && i < H) {
                const u16* p = col + std::size_t(i) * pitch;
                raw[r] = p[0];
                hor[r] = inner_col ? mode3(p[-kStep], p[0], p[kStep]) : p[0];
            }
        }
#pragma unroll
        for (int r = 0; r < kFilterRows; ++r) {
            const int i = i0 + r;
            if (i >= H) break;
            const u16 v = i >= 1 && i + 2 <= H ? mode3(hor[r], hor[r + 1], hor[r + 2]) : raw[r + 1];
            if (next && !(i & 1) && !(j & 1)) next[std::size_t(i >> 1) * ((w + 1) >> 1) + (j >> 1)] = v;
            const std::size_t o = std::size_t(i) * w + j;
            const u8 m = mask[(std::size_t(i) << mshift) * mask_w + (std::size_t(j) << mshift)];
            const u16 rc = static_cast<u16>(v - band_base);
            const u16 code = m && rc < band_size ? rc : kNoCode;
            codes[o] = code;
            if (code != kNoCode) slots |= 1u << (code / slot_w);
        }
    }
    if (__ballot_sync(kFull, slots != 0) == 0) return;  // whole warps
    slots = warp_or(slots);
    if ((threadIdx.x & 31) == 0) {
        const unsigned tiles_x = (w + kTileW - 1) / kTileW;
        atomicOr(occ + std::size_t(i0 / kCellRows) * tiles_x + j / kTileW, slots);
    }
}

// ---- c values -----------------------------------------------------------------
//
// One warp per block, owning kTileW columns [j0, j0 + 32) of one scale and a
// band of its rows [i0, i1). Lane t keeps the window histogram of column
// j0 + t in shared memory (u16 counts, see count_of()) and slides it down
// the band: at row step t the codes of row t + pad enter and those of row
// t - pad - 1 leave, each at the columns [j - pad, j + pad] of the lane's
// window. The warp stages those two rows for the 96 columns [j0 - 32,
// j0 + 64) (every window of the tile lies within them, pad <= 32) and splits
// them into runs of equal (entering, leaving) code pairs: bit masks of run
// starts and of the columns whose codes differ. Each lane then visits only
// the runs inside its window that change a count (the set bits of its
// window's masks, one step each), adding or subtracting the run's length:
// kNoCode and flat areas cost next to nothing. The counts are
// the CPU's integer counts whatever the run structure (u16 like the CPU's;
// they never exceed window^2 < 2^16, so transient wraps cancel). A pass
// that scores rows [r0, r1) starts from an empty histogram 2 * pad steps
// above r0 (rows only enter), so its counts at row i cover rows [i - pad,
// i + pad] and columns [j - pad, j + pad] clipped to the scale, as the
// CPU's do.
//
// The histogram holds a window of 2 * num_diffs + kCentre rows, not the
// whole band (plus a spare row that takes every other code, so the updates
// need no test). A pass scores the pixels whose code is
// in [centre, centre + kCentre) and counts only the codes in [centre -
// num_diffs, centre + kCentre + num_diffs): every count such a pixel's c
// value reads (its code +- num_diffs) is in the window, and the other codes
// do not count. The passes start at the first code slot that the block's own
// pixels occupy (the occupancy cells of filter_codes()) and go on while
// occupied slots lie past the last pass, so each code pixel is scored by
// exactly one pass. A pass slides only over the rows of the cells that hold
// its codes (with its 2 * pad warm-up steps) and also writes the zeros of
// the pixels there without a code; the cells without a code are written as
// zeros at the start. Each scale's nonzero values also go to its pooling
// stats.

constexpr int kExt = 3 * kTileW;  // staged columns: the tile and 32 either side
constexpr int kStage = 8;         // row steps staged at once
constexpr int kCentre = 64;       // codes scored per pass

/// Histogram rows of c_values(): the window's, and the spare pair.
int bins_for(int num_diffs) {
    return 2 * num_diffs + kCentre + 2;
}

/// The lane's count of histogram row r, `mine` = hist + 2 * lane: rows 2m
/// and 2m + 1 of a lane share one 32-bit word, word m * kTileW + lane, so a
/// lane's counts are words no other lane touches and the lanes' words of a
/// row pair are in 32 banks. row_offset(r) is the count's byte offset from
/// `mine`, the same for every lane.
__device__ __forceinline__ u32 row_offset(int r) {
    return static_cast<u32>((r >> 1) * (4 * kTileW) + (r & 1) * 2);
}
__device__ __forceinline__ u16& count_at(u16* mine, u32 offset) {
    return *reinterpret_cast<u16*>(reinterpret_cast<char*>(mine) + offset);
}
__device__ __forceinline__ u16& count_of(u16* mine, int r) {
    return count_at(mine, row_offset(r));
}

/// The mask of the `n` lowest bits (none for n <= 0).
__device__ __forceinline__ u32 low_bits(int n) {
    return n >= 32 ? kFull : n <= 0 ? 0u : (1u << n) - 1;
}

// 24 blocks an SM is what shared memory allows (hist with its spare pair +
// staging + 1 KiB reserved, about 9.25 KiB a block at num_diffs 4); the
// bound keeps registers (at most 85; 80 without spill now) from lowering it.
// sm_75 and sm_86/87 hold at most 16 blocks an SM: asking them for 24 only
// draws a ptxas warning.
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 750 || __CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870)
constexpr int kCValuesBlocks = 16;
#else
constexpr int kCValuesBlocks = 24;
#endif
__global__ void __launch_bounds__(kTileW, kCValuesBlocks)
    c_values(const __grid_constant__ CJob job, const u32* __restrict__ active, const float* __restrict__ recip) {
    // See count_of(): 2 * num_diffs + kCentre rows, then a spare pair whose
    // first row takes the codes outside the pass's window (never read).
    extern __shared__ u32 hist_words[];
    // Staged rows: the entering code in the low half, the leaving one in the high half.
    __shared__ u32 s_pair[kStage][kExt];
    __shared__ u16 s_ctr[kStage][kTileW];
    __shared__ int s_weight[32];
    const int lane = threadIdx.x;
    int k = 0;
    while (k + 1 < kScales && blockIdx.x >= job.s[k + 1].first_block) ++k;
    const CScale& sc = job.s[k];
    const int W = static_cast<int>(sc.w), H = static_cast<int>(sc.h);
    const unsigned local = blockIdx.x - sc.first_block;
    const int tx = static_cast<int>(local % sc.tiles_x), j0 = tx * kTileW;
    const int i0 = static_cast<int>(local / sc.tiles_x * job.rows);
    const int i1 = min(H, i0 + static_cast<int>(job.rows));
    const int pad = job.pad, nd = job.num_diffs, bins = job.band_size, wbins = 2 * nd + kCentre;
    const u16* codes = sc.codes;
    const int j = j0 + lane;
    u16* const hist = reinterpret_cast<u16*>(hist_words) + 2 * lane;

    // The code slots of the block's own pixels: of its cell `lane` (a band
    // starts at a cell and holds at most kTileW cells), and of all of them.
    const int cells = (i1 - 1) / kCellRows - i0 / kCellRows + 1;
    const u32 cell_occ = lane < cells ? sc.occ[std::size_t(i0 / kCellRows + lane) * sc.tiles_x + tx] : 0u;
    const u32 occ = warp_or(cell_occ);
    // Cells without a code: their c values are 0 (the passes write only the
    // cells they span).
    const u32 empty = __ballot_sync(kFull, lane < cells && cell_occ == 0);
    if (j < W)
        for (u32 e = empty; e; e &= e - 1) {
            const int r0 = i0 + (__ffs(e) - 1) * kCellRows;
            for (int t = r0; t < min(i1, r0 + kCellRows); ++t) sc.c[std::size_t(t) * W + j] = 0.0f;
        }
    if (occ == 0) return;
    const int slot_w = static_cast<int>(job.slot_w);
    u32 nonzero = 0, min_bits = 0x7f800000u;  // the stats of the values this lane writes
    double approx = 0.0;
    s_weight[lane] = kWeights[lane];

    // The lane's window: staged columns [a, a + 2 * pad], walked in chunks
    // of 32 columns (at most 3; the third holds at most one column) as bit
    // masks. Chunk c's masks are bits [a + 32c, a + 32c + 32) of the staged
    // rows' masks: funnel shifts by a & 31 of words a / 32 + c on (a < 64).
    const int a = lane + kTileW - pad, width = 2 * pad + 1;
    const bool a_hi = a >= kTileW;
    const int a_shift = a & 31;
    const u32 chunk_len[3] = {low_bits(width), low_bits(width - 32), low_bits(width - 64)};
    // Scored codes of the pass: [centre, centre + kCentre).
    for (int centre = (__ffs(occ) - 1) * slot_w; centre >= 0;) {
        const int base = centre - nd;
        // The pass scores the rows [r0, r1) of the cells its codes occupy.
        const int s_lo = centre / slot_w, s_hi = min(kSlots - 1, (centre + kCentre - 1) / slot_w);
        const u32 slots = (kFull >> (kSlots - 1 - s_hi)) & (kFull << s_lo);
        const u32 hit = __ballot_sync(kFull, (cell_occ & slots) != 0);  // nonzero: the pass starts at an occupied slot
        const int r0 = i0 + (__ffs(hit) - 1) * kCellRows, r1 = min(i1, i0 + (32 - __clz(hit)) * kCellRows);
        const int first = max(r0 - 2 * pad, -pad);  // rows before 0 hold nothing
        // Code -> row_offset() of its histogram row in this pass (the spare
        // row outside the window).
        auto map = [&](u16 code) -> u16 {
            const int r = static_cast<int>(code) - base;
            return static_cast<u16>(row_offset(code != kNoCode && r >= 0 && r < wbins ? r : wbins));
        };
        for (int m = 0; m < wbins / 2; ++m) hist_words[m * kTileW + lane] = 0;  // the lane's own counts (not the spare)
        for (int t0 = first; t0 < r1; t0 += kStage) {
            const int steps = min(kStage, r1 - t0);
            // Every load of the stage is issued before any is used: one
            // memory latency per stage, not one per load.
            u16 raw_in[kStage][3], raw_out[kStage][3], raw_ctr[kStage];
#pragma unroll
            for (int st = 0; st < kStage; ++st) {
                const int t = t0 + st;
                const int rin = t + pad, rout = t > r0 ? t - pad - 1 : -1;  // rin >= 0
                const bool in_ok = st < steps && rin < H, out_ok = st < steps && rout >= 0;
#pragma unroll
                for (int q = 0; q < 3; ++q) {
                    const int col = j0 - kTileW + q * kTileW + lane;
                    const bool col_ok = col >= 0 && col < W;
                    raw_in[st][q] = col_ok && in_ok ? codes[std::size_t(rin) * W + col] : kNoCode;
                    raw_out[st][q] = col_ok && out_ok ? codes[std::size_t(rout) * W + col] : kNoCode;
                }
                raw_ctr[st] = st < steps && t >= r0 && j < W ? codes[std::size_t(t) * W + j] : kNoCode;
            }
            __syncwarp();  // the previous stage is consumed
#pragma unroll
            for (int st = 0; st < kStage; ++st) {
#pragma unroll
                for (int q = 0; q < 3; ++q)
                    s_pair[st][q * kTileW + lane] = map(raw_in[st][q]) | u32(map(raw_out[st][q])) << 16;
                s_ctr[st][lane] = raw_ctr[st];
            }
            __syncwarp();
            for (int st = 0; st < steps; ++st) {
                const int t = t0 + st;
                // Run starts (B) and count-changing columns (N) of the staged pair rows.
                u32 B[3], N[3];
#pragma unroll
                for (int q = 0; q < 3; ++q) {
                    const int x = q * kTileW + lane;
                    const u32 pair = s_pair[st][x];
                    const u32 prev = x > 0 ? s_pair[st][x - 1] : ~pair;
                    B[q] = __ballot_sync(kFull, pair != prev);
                    N[q] = __ballot_sync(kFull, (pair & 0xffffu) != pair >> 16);
                }
                // The runs of the window that change a count: those starting
                // (at a run start, or a chunk's first column) where the codes differ.
                const u32 b0 = a_hi ? B[1] : B[0], b1 = a_hi ? B[2] : B[1], b2 = a_hi ? 0u : B[2];
                const u32 n0 = a_hi ? N[1] : N[0], n1 = a_hi ? N[2] : N[1], n2 = a_hi ? 0u : N[2];
                const u32 chunk_starts[3] = {__funnelshift_r(b0, b1, a_shift), __funnelshift_r(b1, b2, a_shift),
                                             b2 >> a_shift};
                const u32 chunk_change[3] = {__funnelshift_r(n0, n1, a_shift), __funnelshift_r(n1, n2, a_shift),
                                             n2 >> a_shift};
#pragma unroll
                for (int c = 0; c < 3; ++c) {
                    const u32 starts = (chunk_starts[c] | 1u) & chunk_len[c];
                    const int len_c = __popc(chunk_len[c]), col = a + c * 32;
                    for (u32 m = starts & chunk_change[c]; m; m &= m - 1) {
                        const int p = __ffs(m) - 1;
                        const u32 later = starts & (0xfffffffeu << p);
                        const int e = later ? __ffs(later) - 1 : len_c;  // the run is [p, e)
                        const u32 pair = s_pair[st][col + p];
                        const u16 len = static_cast<u16>(e - p);
                        count_at(hist, pair & 0xffffu) += len;
                        count_at(hist, pair >> 16) -= len;
                    }
                }
                if (t < r0 || j >= W) continue;
                const u16 code = s_ctr[st][lane];
                const bool mine = code != kNoCode && code >= centre && code < centre + kCentre;
                if (!mine && code != kNoCode) continue;  // written by its own pass
                float best = 0.0f;
                if (mine) {
                    u32 act = active[code + job.band_base + nd];
                    const int c0 = code - base;  // nd <= c0 < nd + kCentre
                    const int p0 = count_of(hist, c0);
                    while (act) {
                        const int d = __ffs(act) - 1;
                        act &= act - 1;
                        const int p1 = code + d + 1 < bins ? count_of(hist, c0 + d + 1) : 0;
                        const int p2 = code - d - 1 >= 0 ? count_of(hist, c0 - d - 1) : 0;
                        const int q = p1 > p2 ? p1 : p2;
                        const float v = static_cast<float>(s_weight[d] * p0 * q) * recip[q + p0];
                        if (v > best) best = v;
                    }
                    if (best != 0.0f) {  // a pixel is `mine` in one pass only
                        ++nonzero;
                        min_bits = min(min_bits, __float_as_uint(best));
                        approx += best;
                    }
                }
                sc.c[std::size_t(t) * W + j] = best;
            }
        }
        // The next pass: from centre + kCentre if its slot is occupied, else
        // from the next occupied slot; none past the last one.
        const int next = centre + kCentre, s0 = next / slot_w;
        const u32 rest = s0 < kSlots ? occ & (kFull << s0) : 0u;
        centre = rest == 0 ? -1 : (__ffs(rest) - 1 == s0 ? next : (__ffs(rest) - 1) * slot_w);
    }
    if (sc.stats && __ballot_sync(kFull, nonzero != 0)) {
        for (int o = 16; o > 0; o >>= 1) {
            nonzero += __shfl_xor_sync(kFull, nonzero, o);
            approx += __shfl_xor_sync(kFull, approx, o);
        }
        min_bits = warp_min(min_bits);
        if (lane == 0) {
            atomicAdd(&sc.stats->nonzero, nonzero);
            atomicMin(&sc.stats->min_bits, min_bits);
            atomicAdd(&sc.stats->approx, approx);
        }
    }
}

dim3 rows_grid(unsigned w, unsigned h) {
    return dim3((w + 255) / 256, h);
}

}  // namespace

std::size_t scratch_bytes(unsigned w, unsigned h) {
    return layout(w, h, nullptr, nullptr);
}

void launch_picture(const PictureArgs& a, const Tables& t, void* scratch, float* c, unsigned* flag,
                    PoolStats* const* stats, cudaStream_t s) {
    Scratch sc{};
    layout(a.w, a.h, static_cast<char*>(scratch), &sc);
    cudaMemsetAsync(flag, 0, sizeof(unsigned), s);
    const bool check = a.bpc > 8 && a.bpc < 16;
    const bool same_size = a.in_w == a.w && a.in_h == a.h;  // nearest_samples() is then the identity
    if (check && !same_size)
        range_check<<<rows_grid(a.in_w, a.in_h), 256, 0, s>>>(static_cast<const u16*>(a.luma), a.pitch, a.in_w, a.in_h,
                                                              (1u << a.bpc) - 1, flag);
    unsigned* fused_flag = check && same_size ? flag : nullptr;
    const unsigned* xmap = same_size ? nullptr : a.xmap;
    const unsigned* ymap = same_size ? nullptr : a.ymap;
    const dim3 gc((a.w + 256 * kConvPer - 1) / (256 * kConvPer), a.h);
    if (a.bpc == 8)
        to_10bit<u8><<<gc, 256, 0, s>>>(static_cast<const u8*>(a.luma), a.pitch, xmap, ymap, a.w, a.h, a.bpc, sc.img, 0,
                                        nullptr);
    else
        to_10bit<u16><<<gc, 256, 0, s>>>(static_cast<const u16*>(a.luma), a.pitch, xmap, ymap, a.w, a.h, a.bpc, sc.img,
                                         (1u << a.bpc) - 1, fused_flag);
    u16* img = sc.img;
    const dim3 g = rows_grid(a.w, a.h);
    if (a.anti_dither) {
        anti_dither<<<g, 256, 0, s>>>(sc.img, sc.dither, a.w, a.h);
        img = sc.dither;
    }
    mask_tile<<<dim3((a.w + kMaskTile - 1) / kMaskTile, (a.h + kMaskTile - 1) / kMaskTile), dim3(32, 8), 0, s>>>(
        img, sc.mask, a.w, a.h, a.mask_threshold);

    // Every scale's band codes and code occupancy, then the c values of all scales in one launch.
    const ScaleSizes ss = scale_sizes(a.w, a.h, a.speedup);
    std::size_t cells = 0, cell_at[kScales];
    for (int k = 0; k < kScales; ++k) cell_at[k] = cells, cells += occ_cells(ss.w[k], ss.h[k]);
    cudaMemsetAsync(sc.occ, 0, cells * sizeof(u32), s);
    const unsigned slot_w = slot_width(a.band_size);
    const u16* prev = img;  // the scale's input: img (scale 0), then the previous scale's kept samples
    unsigned prev_w = a.w, mshift = a.speedup ? 1 : 0;
    for (int k = 0; k < kScales; ++k) {
        if (k > 0) ++mshift;
        const unsigned w = ss.w[k], h = ss.h[k];
        u16* next = k + 1 < kScales ? sc.filt[k & 1] : nullptr;
        u16* codes = sc.codes + ss.offset[k];
        u32* occ = sc.occ + cell_at[k];
        const dim3 fg((w + 255) / 256, (h + kFilterRows - 1) / kFilterRows);
        if (k == 0 && a.speedup)  // scale 0 decimates img itself
            filter_codes<2><<<fg, 256, 0, s>>>(prev, prev_w, w, h, sc.mask, a.w, mshift, a.band_base, a.band_size, next,
                                               codes, occ, slot_w);
        else
            filter_codes<1><<<fg, 256, 0, s>>>(prev, prev_w, w, h, sc.mask, a.w, mshift, a.band_base, a.band_size, next,
                                               codes, occ, slot_w);
        prev = next;
        prev_w = (w + 1) >> 1;
    }
    CJob job{};
    job.pad = a.window >> 1;
    job.num_diffs = a.num_diffs;
    job.band_base = a.band_base;
    job.band_size = a.band_size;
    job.slot_w = slot_w;
    // Bands of about 2 * pad rows, whole occupancy cells (c_values() needs a
    // band to start at a cell and span at most kTileW of them; pad <= 32, as
    // window^2 < kReciprocalTableSize, gives at most 2). Short bands give
    // many blocks and narrow code ranges (fewer passes), which outweighs
    // their 2 * pad warm-up steps each (H200, upscaled 10-bit content,
    // cambi alone: 4K 1134 -> 1353 fps at 64 rows rather than 256, 1080p
    // 3546 -> 4222 at 32; docs/benchmarks.md, session 13).
    const unsigned rows = std::max<unsigned>(kCellRows, (2u * job.pad + kCellRows - 1) / kCellRows * kCellRows);
    job.rows = rows;
    unsigned blocks = 0;
    for (int k = 0; k < kScales; ++k) {
        CScale& cs = job.s[k];
        cs.codes = sc.codes + ss.offset[k];
        cs.occ = sc.occ + cell_at[k];
        cs.c = c + ss.offset[k];
        cs.stats = stats ? stats[k] : nullptr;
        cs.w = ss.w[k], cs.h = ss.h[k];
        cs.tiles_x = (ss.w[k] + kTileW - 1) / kTileW;
        cs.first_block = blocks;
        blocks += cs.tiles_x * ((ss.h[k] + rows - 1) / rows);
    }
    const std::size_t shared = std::size_t(bins_for(a.num_diffs)) * kTileW * sizeof(u16);
    c_values<<<blocks, kTileW, shared, s>>>(job, t.active, t.recip);
}

}  // namespace vmaf::cambi::cuda
