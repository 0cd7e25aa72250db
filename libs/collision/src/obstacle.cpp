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

}  // namespace sinew
