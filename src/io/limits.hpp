// Sanity bounds on frame geometry accepted by the readers.
#pragma once

#include <cstdint>

namespace vmaf::io {

inline constexpr unsigned kMaxDimension = 32768;
inline constexpr std::uint64_t kMaxPixels = std::uint64_t{1} << 28;  // e.g. 16384 x 16384

}  // namespace vmaf::io
