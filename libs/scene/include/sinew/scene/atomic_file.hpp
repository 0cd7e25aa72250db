/// @file
/// @brief Output files that appear whole or not at all: written to a temporary in the target's
/// folder, flushed, then renamed over the target (a rename within one file system is atomic).
#pragma once

#include <filesystem>
#include <string_view>

namespace sinew::scene {

/// Writes @p bytes to @p path atomically, creating the parent folder if needed. On any failure
/// the temporary is removed, an existing @p path is left as it was, and sinew::Error names the
/// file and the reason.
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

}  // namespace sinew::scene
