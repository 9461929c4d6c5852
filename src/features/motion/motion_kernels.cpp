#include "features/motion/motion_kernels.hpp"

#include <cstdlib>

namespace vmaf::motion {

int reflect(int idx, int size) {
    if (size <= 1) return 0;
    // For size >= 2 and the offsets used here (|overshoot| <= 2) this settles
    // within a few steps; for size >= 3 the first step already lands in range.
    while (idx < 0 || idx >= size) {
        if (idx < 0) idx = -idx;
        if (idx >= size) idx = 2 * size - idx - 2;
    }
    return idx;
}

namespace {

template <typename T>
void vertical_sums_t(const Plane& luma, std::uint32_t* out) {
    const int w = static_cast<int>(luma.width);
    const int h = static_cast<int>(luma.height);
    for (int y = 0; y < h; ++y) {
        const T* r[kTaps];
        for (int k = 0; k < kTaps; ++k) r[k] = luma.row<const T>(static_cast<unsigned>(reflect(y - 2 + k, h)));
        std::uint32_t* o = out + static_cast<std::size_t>(y) * static_cast<std::size_t>(w);
        for (int x = 0; x < w; ++x) {
            std::uint32_t acc = 0;
            for (int k = 0; k < kTaps; ++k) acc += kFilter[k] * static_cast<std::uint32_t>(r[k][x]);
            o[x] = acc;
        }
    }
}

}  // namespace

void vertical_sums(const Plane& luma, unsigned bpc, std::uint32_t* out) {
    if (bpc == 8)
        vertical_sums_t<std::uint8_t>(luma, out);
    else
        vertical_sums_t<std::uint16_t>(luma, out);
}

std::uint64_t blurred_difference_sad(const std::uint32_t* prev, const std::uint32_t* cur, unsigned w, unsigned h,
                                     unsigned bpc, std::int32_t* row) {
    const int iw = static_cast<int>(w);
    const std::int64_t round_v = std::int64_t{1} << (bpc - 1);
    // Row with two reflected samples on each side: t(c) lives at ext[c + 2].
    std::int32_t* ext = row;
    std::uint64_t sad = 0;
    for (unsigned y = 0; y < h; ++y) {
        const std::size_t base = static_cast<std::size_t>(y) * w;
        std::int32_t any = 0;
        for (unsigned x = 0; x < w; ++x) {
            const std::int64_t v = static_cast<std::int64_t>(prev[base + x]) - static_cast<std::int64_t>(cur[base + x]);
            const std::int32_t t = static_cast<std::int32_t>((v + round_v) >> bpc);
            ext[x + 2] = t;
            any |= t;
        }
        // An all-zero row contributes nothing (the horizontal stage maps 0 to 0).
        if (!any) continue;
        for (int k = 1; k <= 2; ++k) {
            ext[2 - k] = ext[2 + reflect(-k, iw)];
            ext[2 + iw - 1 + k] = ext[2 + reflect(iw - 1 + k, iw)];
        }
        std::uint32_t row_sad = 0;  // uint32 per row, as upstream
        for (unsigned x = 0; x < w; ++x) {
            std::int64_t acc = 0;
            for (int k = 0; k < kTaps; ++k) acc += static_cast<std::int64_t>(kFilter[k]) * ext[x + k];
            const std::int32_t u = static_cast<std::int32_t>((acc + (std::int64_t{1} << 15)) >> 16);
            row_sad += static_cast<std::uint32_t>(std::abs(u));
        }
        sad += row_sad;
    }
    return sad;
}

double sad_to_score(std::uint64_t sad, unsigned w, unsigned h, double fps_weight, double max_val) {
    const double s = static_cast<double>(sad) / 256. / static_cast<double>(w * h) * fps_weight;
    return s < max_val ? s : max_val;
}

double blend(double score, double factor, double offset) {
    const double lo = offset < score ? offset : score;
    return score * factor + (1 - factor) * lo;
}

}  // namespace vmaf::motion
