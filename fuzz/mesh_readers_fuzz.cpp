// libFuzzer target of the mesh readers (parse_gmsh, parse_tetgen, parse_obj): any input must give
// a mesh or a sinew::Error; a crash, a sanitizer report, an uncaught exception of another type
// (std::bad_alloc from an unchecked count included) or a timeout is a bug.
// The first byte picks the reader; for TetGen the rest is split at the first '\0' into the .node
// and .ele texts.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sinew/core/error.hpp"
#include "sinew/scene/mesh_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    switch (data[0] % 3) {
      case 0:
        sinew::scene::parse_gmsh(rest, "fuzz.msh");
        break;
      case 1:
        sinew::scene::parse_obj(rest, "fuzz.obj");
        break;
      default: {
        const std::size_t split = rest.find('\0');
        sinew::scene::parse_tetgen(rest.substr(0, split), split == std::string_view::npos ? "" : rest.substr(split + 1),
                                   "fuzz");
      }
    }
  } catch (const sinew::Error&) {
    // Bad input, reported as such: the expected outcome for most inputs.
  }
  return 0;
}
