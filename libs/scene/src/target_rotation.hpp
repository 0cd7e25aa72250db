// Private to the scene library: the rotation of a driven target about an axis, shared by the
// scene files' "rotate" motion and the builders' rotating targets so that both give the same bits.
#pragma once

#include <cmath>

#include "sinew/core/small_matrix.hpp"

namespace sinew::scene::detail {

// @p p turned by @p angle about the unit @p axis through @p point (Rodrigues: the part along the
// axis kept, the perpendicular part turned).
inline Vec3 rotate_about(const Vec3& p, const Vec3& point, const Vec3& axis, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  const Vec3 d{{p[0] - point[0], p[1] - point[1], p[2] - point[2]}};
  const double along = dot(axis, d);
  const Vec3 par{{along * axis[0], along * axis[1], along * axis[2]}};
  const Vec3 perp{{d[0] - par[0], d[1] - par[1], d[2] - par[2]}};
  const Vec3 turn = cross(axis, perp);
  Vec3 q{};
  for (int i = 0; i < 3; ++i) q[i] = point[i] + (par[i] + c * perp[i] + s * turn[i]);
  return q;
}

}  // namespace sinew::scene::detail
