#include "sinew/materials/quadratic_bending.hpp"

#include <cmath>
#include <string>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew {

BendingHinge make_bending_hinge(const double X[12]) {
  const Vec3 e0{{X[3] - X[0], X[4] - X[1], X[5] - X[2]}};
  const Vec3 e1{{X[6] - X[0], X[7] - X[1], X[8] - X[2]}}, e2{{X[9] - X[0], X[10] - X[1], X[11] - X[2]}};
  const double scale = dot(e0, e0) + dot(e1, e1) + dot(e2, e2);
  const double a0 = 0.5 * norm(cross(e0, e1)), a1 = 0.5 * norm(cross(e0, e2));
  require(std::isfinite(a0) && a0 > 1e-14 * scale,
          "bending hinge: triangle (x0, x1, x2) is degenerate, area " + number_text(a0) + " (expected > 0)");
  require(std::isfinite(a1) && a1 > 1e-14 * scale,
          "bending hinge: triangle (x0, x1, x3) is degenerate, area " + number_text(a1) + " (expected > 0)");
  return bending_hinge(X);
}

}  // namespace sinew
