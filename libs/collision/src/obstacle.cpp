#include "sinew/collision/obstacle.hpp"

#include <cmath>

#include "sinew/collision/contact_frame.hpp"
#include "sinew/core/error.hpp"

namespace sinew {

Obstacle half_space_obstacle(const Vec3& point, const Vec3& normal, double friction) {
  require(is_finite(normal) && norm(normal) > 0.0, "half_space_obstacle: normal must be finite and non-zero");
  require(is_finite(point), "half_space_obstacle: point must be finite");
  // Local z = the unit normal; (t1, t2, n) is right-handed (t2 = n x t1), so det R = +1.
  const ContactFrame f = contact_frame(normal);
  Obstacle o;
  for (int i = 0; i < 3; ++i) {
    o.pose.rotation(i, 0) = f.tangent1[i];
    o.pose.rotation(i, 1) = f.tangent2[i];
    o.pose.rotation(i, 2) = f.normal[i];
  }
  o.pose.translation = point;
  o.friction = friction;
  return o;
}

SignedDistance obstacle_distance(const Vec3& x, const Obstacle& o) {
  if (!o.mesh && !o.grid) return point_shape(x, o.shape, o.pose);
  const Vec3 p = to_local(o.pose, x);
  const SignedDistance local = o.grid ? o.grid->query(p) : o.mesh->query(p);
  return SignedDistance{local.distance, to_world_direction(o.pose, local.normal), to_world(o.pose, local.closest)};
}

Obstacle mesh_obstacle(const std::vector<Vec3>& positions, const std::vector<std::array<Index, 3>>& triangles,
                       const Pose& pose, double friction, MeshSides sides) {
  auto mesh = std::make_shared<MeshSignedDistance>();
  mesh->build(positions, triangles, sides);
  Obstacle o;
  o.pose = pose;
  o.friction = friction;
  o.mesh = std::move(mesh);
  return o;
}

Obstacle grid_obstacle(const std::vector<Vec3>& positions, const std::vector<std::array<Index, 3>>& triangles,
                       const SdfGridOptions& options, const Pose& pose, double friction) {
  Obstacle o = mesh_obstacle(positions, triangles, pose, friction);
  auto grid = std::make_shared<SignedDistanceGrid>();
  grid->build(positions, triangles, options);
  o.grid = std::move(grid);
  return o;
}

}  // namespace sinew
