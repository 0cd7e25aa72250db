// Result files appear whole or not at all: the text is built in memory, then written by
// sinew::write_file_atomically (a temporary in the same folder, renamed over PATH).
#pragma once

#include <filesystem>
#include <sstream>
#include <string>

#include "sinew/core/atomic_file.hpp"
#include "sinew/core/error.hpp"

namespace sinew::app {

/// Calls @p write(stream) on an in-memory stream and writes the text to @p path atomically
/// (creating its folder); on failure nothing is left behind and sinew::Error names @p command
/// and the file.
template <class Write>
void write_atomically(const std::string& command, const std::filesystem::path& path, Write write) {
  std::ostringstream text;
  write(text);
  try {
    write_file_atomically(path, text.str());
  } catch (const Error& e) {
    throw Error(command + ": " + e.what());
  }
}

}  // namespace sinew::app
