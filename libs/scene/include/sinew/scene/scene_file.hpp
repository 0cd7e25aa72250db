/// @file
/// @brief Scene files: a JSON description of a whole simulation (bodies and their meshes,
/// materials, targets, cables, obstacles, joints, contacts, integrator and solver with their
/// parameters, backend, time step, duration and outputs), checked key by key: an unknown key, a
/// wrong type or an out-of-range value is a sinew::Error naming the file, the JSON path and what
/// was expected. docs/scene_files.md documents the schema; scenes/ holds every reference scene.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sinew/core/backend.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/scene/simulation.hpp"

namespace sinew::scene {

/// Where a run's snapshots look from ("outputs/camera" of a scene file): a view description the
/// snapshot writer (render::png_snapshots()) turns into its camera. By default it frames the scene.
struct SnapshotCamera {
  /// From the target towards the eye (need not be unit): front-right and above, a three-quarter view.
  Vec3 direction{{1.0, -1.6, 0.9}};
  Vec3 up{{0.0, 0.0, 1.0}};           ///< world direction shown upwards (z up, as sinew's gravity scenes)
  std::optional<Vec3> target;         ///< point looked at; default: centre of the bodies' bounding box
  bool perspective = true;            ///< false: orthographic (parallel) projection
  double fov_degrees = 30.0;          ///< perspective: vertical field of view when not auto-framed
  std::optional<double> distance;     ///< perspective: eye distance from the target; default: all in view
  std::optional<double> view_height;  ///< orthographic: world height of the view when not auto-framed
  /// Scale and centre the view on the first snapshot's bodies (overrides fov_degrees and view_height).
  bool auto_frame = true;
  double margin = 0.06;  ///< auto-framing: free border as a fraction of the image size on each side
};

/// What a run writes and when ("outputs" of a scene file; `sinew run` options override them).
struct OutputSettings {
  int every = 1;                    ///< write a frame (VTU, OBJ, PNG) every this many steps (and at the last step)
  bool csv = true;                  ///< per-step scalars to run.csv
  bool vtu = true;                  ///< VTK frames (`<body>_<step>.vtu`) and a `.pvd` series per body
  bool obj = false;                 ///< surface OBJ per body and frame
  int png_every = 0;                ///< PNG snapshot every this many steps; 0 = none
  int png_width = 960;              ///< snapshot width (pixels)
  int png_height = 600;             ///< snapshot height (pixels)
  SnapshotCamera camera;            ///< snapshot camera (auto-framed by default)
  int checkpoint_every = 0;         ///< checkpoint every this many steps; 0 = none
  std::vector<long> checkpoint_at;  ///< and at these steps
};

/// A scene file read and checked: everything but the backend-dependent construction.
struct SceneFile {
  std::filesystem::path path;  ///< the file it was read from (or the name given to parse_scene())
  std::string name;            ///< "name" (default: the file's stem)
  std::string description;     ///< "description": free text shown by `sinew info`
  std::string kind;            ///< "local_global" or "multibody"
  std::string backend;         ///< "backend" ("" = not given: the caller's default)
  long steps = 0;              ///< "steps": steps of the time step the scene runs for
  double time_step = 0.0;      ///< h (s)
  OutputSettings outputs;      ///< "outputs"
  /// Builds the simulation on @p backend (which must outlive it). Every check that needs no
  /// backend already ran in read_scene_file(); this one can still throw for what only the
  /// integrator checks (e.g. an inverted element of a mesh file, naming it).
  std::function<std::unique_ptr<Simulation>(Backend& backend)> make;
};

/// Reads and checks the scene file @p path (meshes it names are read relative to its folder).
/// @throws sinew::Error naming the file and the JSON path (or the mesh file and line) and what
///         was expected.
SceneFile read_scene_file(const std::filesystem::path& path);

/// Parses scene-file text @p text; @p name is used in messages, @p base_dir resolves mesh paths.
/// @throws sinew::Error as read_scene_file().
SceneFile parse_scene(std::string_view text, const std::string& name, const std::filesystem::path& base_dir);

}  // namespace sinew::scene
