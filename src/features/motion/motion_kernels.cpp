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
std::uint64_t blurred_difference_sad_t(const Plane& prev, const Plane& cur, unsigned bpc, std::int32_t* row) {
    const int w = static_cast<int>(prev.width);
    const int h = static_cast<int>(prev.height);
    const std::int64_t round_v = std::int64_t{1} << (bpc - 1);
    // Row with two reflected samples on each side: t(c) lives at ext[c + 2].
    std::int32_t* ext = row;
    std::uint64_t sad = 0;
    for (int y = 0; y < h; ++y) {
        const T* a[kTaps];
        const T* b[kTaps];
        for (int k = 0; k < kTaps; ++k) {
            const auto r = static_cast<unsigned>(reflect(y - 2 + k, h));
            a[k] = prev.row<const T>(r);
            b[k] = cur.row<const T>(r);
        }
        std::int32_t any = 0;
        for (int x = 0; x < w; ++x) {
            std::int64_t v = 0;
            for (int k = 0; k < kTaps; ++k)
                v += static_cast<std::int64_t>(kFilter[k]) * (std::int64_t{a[k][x]} - std::int64_t{b[k][x]});
            const std::int32_t t = static_cast<std::int32_t>((v + round_v) >> bpc);
            ext[x + 2] = t;
            any |= t;
        }
        // An all-zero row contributes nothing (the horizontal stage maps 0 to 0).
        if (!any) continue;
        for (int k = 1; k <= 2; ++k) {
            ext[2 - k] = ext[2 + reflect(-k, w)];
            ext[2 + w - 1 + k] = ext[2 + reflect(w - 1 + k, w)];
        }
        std::uint32_t row_sad = 0;  // uint32 per row, as upstream
        for (int x = 0; x < w; ++x) {
            std::int64_t acc = 0;
            for (int k = 0; k < kTaps; ++k) acc += static_cast<std::int64_t>(kFilter[k]) * ext[x + k];
            const std::int32_t u = static_cast<std::int32_t>((acc + (std::int64_t{1} << 15)) >> 16);
            row_sad += static_cast<std::uint32_t>(std::abs(u));
        }
        sad += row_sad;
    }
    return sad;
}

}  // namespace

std::uint64_t blurred_difference_sad(const Plane& prev, const Plane& cur, unsigned bpc, std::int32_t* row) {
    if (bpc == 8) return blurred_difference_sad_t<std::uint8_t>(prev, cur, bpc, row);
    return blurred_difference_sad_t<std::uint16_t>(prev, cur, bpc, row);
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
