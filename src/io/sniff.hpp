// Recognises common video file formats by their first bytes, so that a file
// handed to the wrong reader gets an error saying what it appears to be.
#pragma once

#include <cstddef>
#include <string>

namespace vmaf::io {

/// What the leading bytes `head[0..n)` of a file look like, as a noun phrase
/// ("an MP4/MOV (ISO BMFF) container", "a Y4M file"), or "" when unknown.
std::string describe_format(const unsigned char* head, std::size_t n);

/// describe_format() of the first bytes of `path`; "" when the path is not a
/// regular file (pipes are never read here), unreadable, or unknown.
std::string sniff_file(const std::string& path);

}  // namespace vmaf::io
