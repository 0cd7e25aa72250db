// Scene files (scene_file.hpp): the keys every scene has, then the reader of its kind
// (scene_file_kinds.hpp). docs/scene_files.md documents the schema.
#include "sinew/scene/scene_file.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "local_global_scene_file.hpp"
#include "scene_file_common.hpp"
#include "scene_file_kinds.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/core/atomic_file.hpp"
#include "sinew/core/error.hpp"
#include "sinew/scene/file_names.hpp"

namespace sinew::scene {

namespace {

constexpr long long kMaxSteps = 1000000000LL;  // 1e9 steps: beyond any run, below overflow of step counts

// "outputs": what a run writes and when.
OutputSettings read_outputs(detail::JsonObject& root) {
  OutputSettings o;
  std::optional<detail::JsonObject> obj = root.object("outputs", true);
  if (!obj) return o;
  o.every = static_cast<int>(obj->integer("every", o.every, 1, 1000000000));
  o.csv = obj->boolean("csv", o.csv);
  o.vtu = obj->boolean("vtu", o.vtu);
  o.obj = obj->boolean("obj", o.obj);
  o.png_every = static_cast<int>(obj->integer("png_every", o.png_every, 0, 1000000000));
  o.png_width = static_cast<int>(obj->integer("png_width", o.png_width, 1, 16384));
  o.png_height = static_cast<int>(obj->integer("png_height", o.png_height, 1, 16384));
  o.checkpoint_every = static_cast<int>(obj->integer("checkpoint_every", o.checkpoint_every, 0, 1000000000));
  if (obj->has("checkpoint_at")) {
    const std::vector<double> at = obj->reals("checkpoint_at");
    for (std::size_t i = 0; i < at.size(); ++i) {
      if (!(at[i] >= 1 && at[i] <= 1e9) || at[i] != std::floor(at[i]))
        obj->fail("checkpoint_at/" + std::to_string(i), "expected a step number in [1, 1e9]");
      o.checkpoint_at.push_back(static_cast<long>(at[i]));
    }
  }
  if (std::optional<detail::JsonObject> cam = obj->object("camera", true)) {
    SnapshotCamera& c = o.camera;
    c.direction = detail::read_vec3(*cam, "direction", c.direction);
    if (!(norm(c.direction) > 0.0)) cam->fail("direction", "expected a non-zero direction");
    c.up = detail::read_vec3(*cam, "up", c.up);
    if (!(norm(c.up) > 0.0)) cam->fail("up", "expected a non-zero direction");
    if (cam->has("target")) c.target = detail::read_vec3(*cam, "target", std::nullopt);
    c.perspective = cam->boolean("perspective", c.perspective);
    c.fov_degrees = cam->real_above("fov_degrees", c.fov_degrees, 0.0, 179.0);
    if (cam->has("distance")) c.distance = cam->real_above("distance", std::nullopt, 0.0);
    if (cam->has("view_height")) c.view_height = cam->real_above("view_height", std::nullopt, 0.0);
    c.auto_frame = cam->boolean("auto_frame", c.auto_frame);
    c.margin = cam->real("margin", c.margin, 0.0, 0.45);
    cam->finish();
  }
  obj->finish();
  return o;
}

}  // namespace

void detail::parse_scene_with(std::string_view text, const std::string& name, SceneFile& out,

                              const std::function<void(detail::JsonObject& root, SceneFile& out)>& read_kind) {
  const nlohmann::json json = detail::parse_json(std::string(text), name);
  detail::JsonObject root(json, name, "");
  out.path = name;
  const long long version = root.integer("sinew_scene", std::nullopt, 1, std::numeric_limits<long long>::max());
  if (version != 1)
    root.fail("sinew_scene", "this sinew reads scene format version 1, found " + std::to_string(version));
  // The name becomes the default output folder results/<name>: it must not leave it.
  const bool named = root.has("name");
  out.name = root.string("name", std::filesystem::path(name).stem().string());
  if (!is_safe_file_name(out.name))
    root.fail("name",
              (named ? "\"" + out.name + "\": expected "
                     : "absent, and the file's stem \"" + out.name + "\" cannot stand in for it: give a name of ") +
                  kSafeFileNameRule);
  out.description = root.string("description", "");
  out.kind = root.choice("kind", {"local_global", "multibody"}, std::nullopt);
  // Any backend of the registry: the built-in names (also when not compiled in, so that the error
  // comes from make_backend() with what it needs) and every plugin found, e.g. a user's own.
  out.backend = root.choice("backend", builtin_backends().names(), "");
  out.steps = static_cast<long>(root.integer("steps", std::nullopt, 1, kMaxSteps));
  out.outputs = read_outputs(root);
  read_kind(root, out);
  root.finish();
}

SceneFile parse_scene(std::string_view text, const std::string& name, const std::filesystem::path& base_dir) {
  SceneFile out;
  detail::parse_scene_with(text, name, out, [&](detail::JsonObject& root, SceneFile& file) {
    if (file.kind == "local_global")
      detail::read_local_global_scene(root, base_dir, file);
    else
      detail::read_multibody_scene(root, base_dir, file);
  });
  return out;
}

SceneFile read_scene_file(const std::filesystem::path& path) {
  SceneFile out = parse_scene(read_file(path, "a scene file"), path.string(), path.parent_path());
  out.path = path;
  return out;
}

}  // namespace sinew::scene
