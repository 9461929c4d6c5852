// Files written whole or not at all: a temporary file beside the target,
// flushed to disk, then renamed over it, so that a reader (or a run killed
// midway) never sees half a file.
#pragma once

#include <filesystem>
#include <string>

namespace vmaf::tune {

/// Writes `text` to `path` atomically, created with `perms` less the umask
/// (default: read and write for all, as std::ofstream). Throws
/// std::runtime_error naming the file when it cannot (the temporary file is
/// removed; `path` is left as it was).
void write_file_atomic(const std::filesystem::path& path, const std::string& text,
                       std::filesystem::perms perms = std::filesystem::perms::owner_read |
                                                      std::filesystem::perms::owner_write |
                                                      std::filesystem::perms::group_read |
                                                      std::filesystem::perms::group_write |
                                                      std::filesystem::perms::others_read |
                                                      std::filesystem::perms::others_write);

}  // namespace vmaf::tune
