// The reference scenes (scenes/*.json) built into the program for `sinew demo NAME`; the source
// defining embedded_scenes() is generated at build time by apps/embed_scenes.cmake.
#pragma once

#include <vector>

namespace sinew::app {

/// One scene file's text, embedded in the program.
struct EmbeddedScene {
  const char* name;         ///< the file's stem ("box_stack")
  const char* description;  ///< its "description" key ("" if none)
  const char* text;         ///< the whole JSON text
};

/// Every embedded scene, sorted by name.
const std::vector<EmbeddedScene>& embedded_scenes();

}  // namespace sinew::app
