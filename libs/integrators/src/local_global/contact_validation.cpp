// Checks of LocalGlobalDescription's contact fields (obstacles, contact vertices, margin,
// thickness, friction coefficients) for LocalGlobalContactSolver (contact_solver.hpp).
#include <algorithm>
#include <cmath>
#include <string>

#include "contact_solver.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew::integrators::detail {

void validate_obstacle_placement(const Pose& pose, const Motion& motion, const std::string& name) {
  bool finite = is_finite(pose.translation);
  for (double v : pose.rotation.m) finite = finite && std::isfinite(v);
  require(finite, name + ".pose must be finite");
  const Mat3& R = pose.rotation;
  double worst = 0.0;  // max |R^T R - I|
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k) s += R(k, i) * R(k, j);
      worst = std::max(worst, std::abs(s - (i == j ? 1.0 : 0.0)));
    }
  require(worst < 1e-9 && determinant(R) > 0.0,
          name + ".pose.rotation must be a rotation (orthonormal, det +1); |R^T R - I| = " + number_text(worst, 6));
  require(is_finite(motion.linear) && is_finite(motion.angular), name + ".motion must be finite");
}

void validate_contact(const LocalGlobalDescription& d, Index n, const std::string& who) {
  for (std::size_t k = 0; k < d.obstacles.size(); ++k) {
    const Obstacle& o = d.obstacles[k];
    const std::string name = who + "obstacles[" + std::to_string(k) + "]";
    require(std::isfinite(o.friction) && o.friction >= 0.0,
            name + ".friction must be finite and >= 0, got " + number_text(o.friction));
    const double* s = o.shape.size;
    require(!o.mesh || o.mesh->built(), name + ".mesh must be built (MeshSignedDistance::build, or mesh_obstacle())");
    require(!o.grid || o.grid->built(), name + ".grid must be built (SignedDistanceGrid::build, or grid_obstacle())");
    if (o.mesh || o.grid) {
      validate_obstacle_placement(o.pose, o.motion, name);
      continue;
    }
    switch (o.shape.type) {
      case ShapeType::kHalfSpace:
        break;
      case ShapeType::kSphere:
        require(std::isfinite(s[0]) && s[0] > 0.0, name + ".shape.size[0] (radius) must be finite and > 0");
        break;
      case ShapeType::kBox:
        for (int i = 0; i < 3; ++i)
          require(std::isfinite(s[i]) && s[i] > 0.0, name + ".shape.size (half extents) must be finite and > 0");
        break;
      case ShapeType::kCapsule:
      case ShapeType::kCylinder:
        require(std::isfinite(s[0]) && s[0] > 0.0 && std::isfinite(s[1]) && s[1] > 0.0,
                name + ".shape.size (radius, half length) must be finite and > 0");
        break;
      default:
        throw Error(name + ".shape.type must be half-space, sphere, box, capsule or cylinder");
    }
    validate_obstacle_placement(o.pose, o.motion, name);
  }
  for (std::size_t i = 0; i < d.contact_vertices.size(); ++i)
    require(d.contact_vertices[i] >= 0 && d.contact_vertices[i] < n,
            who + "contact_vertices[" + std::to_string(i) + "] = " + std::to_string(d.contact_vertices[i]) +
                " is out of range, expected 0 <= vertex < " + std::to_string(n));
  require(std::isfinite(d.contact_margin),
          who + "contact_margin must be finite (< 0 = automatic), got " + number_text(d.contact_margin));
  require(std::isfinite(d.contact_thickness) && d.contact_thickness >= 0.0,
          who + "contact_thickness must be finite and >= 0, got " + number_text(d.contact_thickness));
  require(std::isfinite(d.body_friction) && d.body_friction >= 0.0,
          who + "body_friction must be finite and >= 0, got " + number_text(d.body_friction));
  require(std::isfinite(d.self_friction) && d.self_friction >= 0.0,
          who + "self_friction must be finite and >= 0, got " + number_text(d.self_friction));
}

}  // namespace sinew::integrators::detail
