// The "local_global" scene reader's parts, for tests that compare a scene file with its builder
// without building the integrator (read_local_global_scene() in scene_file_kinds.hpp wraps them).
// Private to the scene library.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "json_fields.hpp"
#include "sinew/scene/local_global_simulation.hpp"
#include "sinew/scene/scene_file.hpp"
#include "sinew/scene/solid_scenes.hpp"

namespace sinew::scene::detail {

/// What a "local_global" scene file describes: the scene (description, options, driver) and its bodies.
struct LocalGlobalParts {
  SolidScene scene;                     ///< ready for LocalGlobalIntegrator / LocalGlobalSimulation
  std::vector<LocalGlobalBody> bodies;  ///< the named bodies, in description order
  std::vector<std::size_t> hidden;      ///< obstacles not drawn (those following a body's centroid)
};

/// Reads every key of a "local_global" scene but the common ones (scene_file_kinds.hpp) from
/// @p root into parts; sets out.time_step (not out.make).
LocalGlobalParts read_local_global_parts(JsonObject& root, const std::filesystem::path& base_dir, SceneFile& out);

/// parse_scene() with the kind's reader given (@p name is used in messages): reads the common
/// keys of @p text into @p out, then calls @p read_kind on the root object (which is finished afterwards).
void parse_scene_with(std::string_view text, const std::string& name, SceneFile& out,
                      const std::function<void(JsonObject& root, SceneFile& out)>& read_kind);

}  // namespace sinew::scene::detail
