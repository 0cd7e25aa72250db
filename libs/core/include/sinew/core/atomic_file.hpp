/// @file
/// @brief Whole files: output files that appear whole or not at all (written to a temporary in
/// the target's folder, flushed, then renamed over the target: a rename within one file system
/// is atomic), and input files read whole with errors that name them.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace sinew {

/// Writes @p bytes to @p path atomically, creating the parent folder if needed. On any failure
/// the temporary is removed, an existing @p path is left as it was, and sinew::Error names the
/// file and the reason.
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

/// The bytes of the file @p path; @p what says what it should be in messages (e.g. "the
/// checkpoint"). @throws sinew::Error naming @p path when it is missing, unreadable, a folder
/// ("is a folder, expected WHAT") or a read fails.
std::string read_file(const std::filesystem::path& path, const std::string& what);

}  // namespace sinew
