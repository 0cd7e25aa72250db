#include "sinew/materials/triangle.hpp"

#include <cmath>
#include <string>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew {

TriRest make_tri_rest(const double X[9]) {
  const Vec3 e1{{X[3] - X[0], X[4] - X[1], X[5] - X[2]}}, e2{{X[6] - X[0], X[7] - X[1], X[8] - X[2]}};
  const double area = 0.5 * norm(cross(e1, e2));
  const double scale = dot(e1, e1) + dot(e2, e2);
  require(std::isfinite(area) && area > 1e-14 * scale,
          "triangle rest shape: area |(X1-X0)x(X2-X0)|/2 must be > 0 (non-degenerate), got " + number_text(area));
  return tri_rest(X);
}

}  // namespace sinew
