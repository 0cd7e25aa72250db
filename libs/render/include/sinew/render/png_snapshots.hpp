/// @file
/// @brief sinew's snapshot writer for a run (scene::RunOptions::snapshots): each body's surface in
/// a palette colour, the obstacles at their poses, a ground patch and a camera fixed at the run's
/// first snapshot, drawn by render_meshes() and written as PNG.
#pragma once

#include <cstddef>

#include "sinew/render/mesh_render.hpp"
#include "sinew/scene/runner.hpp"
#include "sinew/scene/scene_file.hpp"

namespace sinew::render {

/// The renderer's camera for the scene file's view description @p camera (same fields).
RenderCamera render_camera(const scene::SnapshotCamera& camera);

/// A writer drawing @p outputs.png_width x @p outputs.png_height snapshots from @p outputs.camera;
/// the ground patch (ground_under()) and the camera (frame_camera()) are fixed at its first call,
/// so a run's images form a steady movie. @p memory_bytes: what the run may count on (0: this
/// machine's memory, the smaller of its physical memory and its control group's limit).
/// @throws sinew::Error before anything is drawn when sinew was built without libpng, or when
///         rendering and encoding one snapshot needs more than half of @p memory_bytes (naming
///         the size and png_width / png_height).
scene::SnapshotWriter png_snapshots(const scene::OutputSettings& outputs, std::size_t memory_bytes = 0);

}  // namespace sinew::render
