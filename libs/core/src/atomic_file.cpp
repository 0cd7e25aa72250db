#include "sinew/core/atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <system_error>

#include "sinew/core/error.hpp"

namespace sinew {

void write_file_atomically(const std::filesystem::path& path, std::string_view bytes) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) throw Error(path.string() + ": cannot create its folder: " + ec.message());
  // Same folder as the target, so that the rename never crosses file systems.
  const std::filesystem::path tmp = path.string() + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw Error(path.string() + ": cannot create '" + tmp.string() + "': " + std::strerror(errno));
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size() && std::fflush(f) == 0;
  const int write_errno = errno;
  const bool closed = std::fclose(f) == 0;
  if (!written || !closed) {
    std::filesystem::remove(tmp, ec);
    throw Error(path.string() + ": writing '" + tmp.string() + "' failed: " + std::strerror(write_errno));
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw Error(path.string() + ": renaming '" + tmp.string() + "' failed: " + ec.message());
  }
}

std::string read_file(const std::filesystem::path& path, const std::string& what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw Error(path.string() + ": is a folder, expected " + what);
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw Error(path.string() + ": cannot open " + what + ": " + std::strerror(errno));
  std::string bytes;
  char chunk[65536];
  std::size_t n = 0;
  while ((n = std::fread(chunk, 1, sizeof chunk, f)) > 0) bytes.append(chunk, n);
  const bool failed = std::ferror(f) != 0;
  const int read_errno = errno;
  std::fclose(f);
  if (failed) throw Error(path.string() + ": reading " + what + " failed: " + std::strerror(read_errno));
  return bytes;
}

}  // namespace sinew
