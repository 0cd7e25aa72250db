/// @file
/// @brief Signed-distance grid of a closed triangle mesh: built on the host (exact distances at
/// the grid nodes, signs from angle-weighted pseudo-normals), queried by trilinear
/// interpolation on host or device.
#pragma once

#include <array>
#include <vector>

#include "sinew/collision/point_shape.hpp"
#include "sinew/core/config.hpp"

namespace sinew {

/// Plain view of a signed-distance grid, usable inside SINEW_HD code.
struct SdfGridView {
  const double* values;  ///< (dims[0] x dims[1] x dims[2]) node values, x fastest: i + dims[0] (j + dims[1] k)
  int dims[3];           ///< nodes per axis (>= 2 each)
  Vec3 origin;           ///< position of node (0, 0, 0)
  double cell;           ///< node spacing
};

/// Signed distance at p by trilinear interpolation of the node values, the normal being the
/// normalised gradient of that interpolant. Outside the grid, p is clamped onto the grid box and
/// the distance to the box is added, so the result stays an upper bound that grows with the
/// distance (the grid is padded so that this only happens far from the surface).
SINEW_HD SignedDistance sdf_grid_query(const SdfGridView& g, const Vec3& p) {
  double f[3];
  int i0[3];
  double outside2 = 0.0;
  for (int k = 0; k < 3; ++k) {
    const double span = g.cell * (g.dims[k] - 1);
    const double x = p[k] - g.origin[k];
    const double xc = v3::clamp(x, 0.0, span);
    outside2 += (x - xc) * (x - xc);
    const double u = xc / g.cell;
    int i = static_cast<int>(floor(u));
    if (i > g.dims[k] - 2) i = g.dims[k] - 2;
    if (i < 0) i = 0;
    i0[k] = i;
    f[k] = u - i;
  }
  double c[2][2][2];
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b)
      for (int d = 0; d < 2; ++d)
        c[a][b][d] = g.values[(i0[0] + a) + g.dims[0] * ((i0[1] + b) + g.dims[1] * (i0[2] + d))];
  const double fx = f[0], fy = f[1], fz = f[2];
  auto lerp = [](double a, double b, double t) { return a + t * (b - a); };
  const double c00 = lerp(c[0][0][0], c[1][0][0], fx), c10 = lerp(c[0][1][0], c[1][1][0], fx);
  const double c01 = lerp(c[0][0][1], c[1][0][1], fx), c11 = lerp(c[0][1][1], c[1][1][1], fx);
  const double c0 = lerp(c00, c10, fy), c1 = lerp(c01, c11, fy);
  double value = lerp(c0, c1, fz);
  // Gradient of the trilinear interpolant (per unit length).
  const double gx = lerp(lerp(c[1][0][0] - c[0][0][0], c[1][1][0] - c[0][1][0], fy),
                         lerp(c[1][0][1] - c[0][0][1], c[1][1][1] - c[0][1][1], fy), fz);
  const double gy = lerp(c10 - c00, c11 - c01, fz);
  const double gz = c1 - c0;
  Vec3 n = v3::normalized_or(v3::make(gx, gy, gz), v3::make(0, 0, 1));
  if (outside2 > 0.0) {
    value += sqrt(outside2);
  }
  return SignedDistance{value, n, v3::madd(p, -value, n)};
}

/// Parameters of SignedDistanceGrid::build().
struct SdfGridOptions {
  /// Node spacing; 0 picks 1/32 of the mesh's largest bounding-box extent, enough to resolve
  /// features a few percent of the object's size.
  double cell_size = 0.0;
  /// Nodes added beyond the mesh's bounding box on every side, so that contacts within a few
  /// cells of the surface are inside the grid.
  int padding = 3;
};

/// Signed-distance grid of a closed, outward-oriented triangle mesh (negative inside).
class SignedDistanceGrid {
 public:
  /// Samples the exact signed distance of the mesh at every grid node: distance to the closest
  /// triangle (via a Bvh), sign from the angle-weighted pseudo-normal of the closest feature
  /// (Baerentzen and Aanaes 2005), exact for closed, consistently oriented meshes.
  /// @param positions (n_vertices) points.
  /// @param triangles (n_triangles x 3) vertex indices, counter-clockwise seen from outside.
  /// @param params grid spacing and padding.
  /// @throws sinew::Error for an empty mesh, an index out of range (naming the triangle), a
  /// mesh that is not closed (naming an edge and how many triangles share it), a mesh of zero
  /// extent, bad params (cell_size < 0, padding < 1) or a grid of more than 1e9 nodes.
  void build(const std::vector<Vec3>& positions, const std::vector<std::array<Index, 3>>& triangles,
             const SdfGridOptions& params = {});

  /// Signed distance, normal and closest surface point at p (sdf_grid_query()).
  /// @throws sinew::Error before build().
  SignedDistance query(const Vec3& p) const;

  /// True once build() has succeeded.
  bool built() const { return !values_.empty(); }

  /// Plain view for SINEW_HD code; valid while this object lives and is not rebuilt.
  SdfGridView view() const;

  /// Node values ((dims[0] x dims[1] x dims[2]), x fastest).
  const std::vector<double>& values() const { return values_; }

 private:
  std::vector<double> values_;
  int dims_[3] = {0, 0, 0};
  Vec3 origin_{{0, 0, 0}};
  double cell_ = 0.0;
};

}  // namespace sinew
