// Sanity bounds on frame geometry accepted by the readers.
#pragma once

#include <cstdint>

#include "vmaf/picture.hpp"

namespace vmaf::io {

inline constexpr unsigned kMaxDimension = kMaxPictureDimension;
inline constexpr std::uint64_t kMaxPixels = kMaxPicturePixels;  // e.g. 16384 x 16384

}  // namespace vmaf::io
