// Result files appear whole or not at all: written to PATH.tmp, then renamed over PATH.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include "sinew/core/error.hpp"

namespace sinew::app {

/// Creates @p path's folder, calls @p write(stream) on PATH.tmp and renames it to @p path; on any
/// failure the temporary is removed and sinew::Error names @p command and the file.
template <class Write>
void write_atomically(const std::string& command, const std::filesystem::path& path, Write write) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  const std::filesystem::path tmp = path.string() + ".tmp";
  try {
    {
      std::ofstream f(tmp);
      if (!f) throw Error(command + ": cannot write " + tmp.string());
      write(f);
      if (!f.flush()) throw Error(command + ": failed writing " + tmp.string());
    }
    std::filesystem::rename(tmp, path);
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw;
  }
}

}  // namespace sinew::app
