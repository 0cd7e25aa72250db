/// @file
/// @brief Snapshots of triangle meshes rendered on the CPU (no GPU, no display): a z-buffered
/// software rasterizer with a perspective or orthographic camera, flat Lambert + ambient shading
/// under one directional light with cast shadows, optional edge lines and a background gradient.
/// Same input, same pixels.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <vector>

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/render/image.hpp"

namespace sinew::render {

/// One coloured triangle mesh of a snapshot (a body's surface, a ground plane, an obstacle).
struct RenderMesh {
  std::vector<Vec3> vertices;                   ///< (n_vertices) positions
  std::vector<std::array<Index, 3>> triangles;  ///< (n_triangles) vertex indices
  Rgb color{170, 180, 200};                     ///< base colour, shaded by the light
  bool edges = false;                           ///< draw the triangle edges as thin dark lines
};

/// Where the camera stands and how it projects. By default it frames the whole scene.
struct RenderCamera {
  /// From the target towards the eye (need not be unit): front-right and above, a three-quarter view.
  Vec3 direction{{1.0, -1.6, 0.9}};
  Vec3 up{{0.0, 0.0, 1.0}};    ///< world direction shown upwards (z up, as sinew's gravity scenes)
  std::optional<Vec3> target;  ///< point looked at; default: centre of the scene's bounding box
  bool perspective = true;     ///< false: orthographic (parallel) projection
  double fov_degrees = 30.0;   ///< perspective: vertical field of view when not auto-framed
  /// Perspective: eye distance from the target; default: far enough to see the bounding sphere.
  std::optional<double> distance;
  /// Orthographic: world height of the view when not auto-framed.
  std::optional<double> view_height;
  /// Scale and centre the view on the projected scene (overrides fov_degrees and view_height);
  /// false: the target is at the image centre and fov_degrees or view_height set the scale.
  bool auto_frame = true;
  double margin = 0.06;  ///< auto-framing: free border as a fraction of the image size on each side
};

/// A snapshot to render.
struct RenderSpec {
  std::vector<RenderMesh> meshes;  ///< drawn with one shared z-buffer
  RenderCamera camera;             ///< view
  int width = 960;                 ///< image width in pixels (1..16384)
  int height = 600;                ///< image height in pixels (1..16384)
  /// Towards the light (need not be unit): from above and front-right of the default camera.
  Vec3 light_direction{{0.5, -0.35, 1.0}};
  /// Light on faces turned away from the light (0..1): 0.3 keeps them readable, not flat black.
  double ambient = 0.3;
  Rgb background_top{236, 240, 246};     ///< gradient colour at the top row
  Rgb background_bottom{184, 192, 206};  ///< gradient colour at the bottom row
  Rgb edge_color{40, 44, 52};            ///< colour of edge lines
  /// Samples per pixel side (1..4), box-filtered: 2 smooths silhouettes at 4x the work.
  int supersample = 2;
  /// Cast shadows (a shadow map along the light): they show how high a body is above the ground.
  bool shadows = true;
  /// Most memory (bytes) of the supersampled colour and depth buffers: the image is drawn in
  /// bands of rows that fit (at least one row each), with the same bits whatever the band size.
  std::size_t band_bytes = std::size_t{64} << 20;
};

/// Renders @p spec. Triangles are flat-shaded and two-sided: a face's normal is flipped towards
/// the eye, then lit by ambient + (1 - ambient) max(0, n . l), the second term cut to a quarter
/// where another triangle lies between the point and the light (with shadows on). Degenerate
/// triangles (repeated or collinear vertices, zero projected area) and triangles with a
/// non-finite vertex are skipped; with perspective, so is any triangle reaching behind the eye.
/// An empty scene gives the background.
/// @throws sinew::Error when a size or the supersampling is out of range, a triangle index is out
/// of range, the ambient is outside [0, 1], or the camera direction or light direction is zero.
Image render_meshes(const RenderSpec& spec);

/// The most memory (bytes) render_meshes() takes for a @p width x @p height image with the
/// default band_bytes, whatever the scene: the image (3 bytes a pixel), the supersampled buffers
/// of one band of rows and the shadow map. A 16384 x 16384 image needs about 0.9 GB.
std::size_t render_memory_bytes(int width, int height);

/// A flat square of side @p size centred under @p center at height @p z, facing up (+z), split into
/// n x n cells alternately coloured @p a and @p b, as a ground to read a body's height from.
/// @throws sinew::Error when n < 1 or size is not finite and positive.
std::vector<RenderMesh> checker_ground(const Vec3& center, double z, double size, int n, Rgb a = Rgb{214, 214, 208},
                                       Rgb b = Rgb{190, 190, 184});

}  // namespace sinew::render
