// speed_chroma's plane sizes, options and score combination, shared by the
// CPU extractor (speed_chroma.cpp) and its CUDA twin (cuda/).
#pragma once

#include <algorithm>

#include "core/feature_extractor.hpp"
#include "features/speed/speed_options.hpp"
#include "vmaf/error.hpp"

namespace vmaf::speed {

/// speed_chroma's option after the shared ones.
constexpr std::size_t kWeightVarMode = kMaxVal + 1;

struct ChromaSize {
    unsigned w, h;
};

/// Upstream's floor-sized chroma planes (w >> 1, h >> 1 where subsampled).
inline ChromaSize chroma_size(const VideoGeometry& g) {
    switch (g.format) {
        case PixelFormat::Yuv420:
            return {g.width / 2, g.height / 2};
        case PixelFormat::Yuv422:
            return {g.width / 2, g.height};
        case PixelFormat::Yuv444:
            return {g.width, g.height};
        case PixelFormat::Yuv400:
            break;
    }
    throw Error(ErrorKind::Usage, "speed_chroma: needs chroma planes (the input is 4:0:0)");
}

inline Options chroma_options(const OptionValues& o) {
    Options s = shared_options(o);
    s.weight_var_mode = o.i(kWeightVarMode);
    return s;
}

/// The frame's scores (u, v, uv as outputs 0, 1, 2, each clipped to max_val)
/// from the two channels' scores and singularity flags.
inline ScoreList chroma_scores(float u, bool err_u, float v, bool err_v, double max_val) {
    // One singular channel (e.g. a flat plane): the combined score is the other one.
    float uv;
    if (err_u && !err_v)
        uv = v;
    else if (err_v && !err_u)
        uv = u;
    else
        uv = (u + v) / 2.0;
    return {{0, std::min<double>(u, max_val)}, {1, std::min<double>(v, max_val)}, {2, std::min<double>(uv, max_val)}};
}

}  // namespace vmaf::speed
