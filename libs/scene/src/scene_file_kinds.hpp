// The two kinds of scene file (scene_file.hpp): scene_file.cpp reads the keys every scene has
// ("sinew_scene", "name", "description", "kind", "backend", "steps", "outputs") and hands the
// root object to the reader of its kind, which reads every other key and sets time_step and make.
// Private to the scene library.
#pragma once

#include <filesystem>

#include "json_fields.hpp"
#include "sinew/scene/scene_file.hpp"

namespace sinew::scene::detail {

/// Reads a "local_global" scene (LocalGlobalIntegrator: solids, cloth, targets, cables, obstacles).
void read_local_global_scene(JsonObject& root, const std::filesystem::path& base_dir, SceneFile& out);

/// Reads a "multibody" scene (MechanicalSystem: rigid bodies, FEM bodies, joints, contacts;
/// ContactStep or an implicit integrator).
void read_multibody_scene(JsonObject& root, const std::filesystem::path& base_dir, SceneFile& out);

}  // namespace sinew::scene::detail
