#include "sinew/materials/tetrahedron.hpp"

#include <cmath>
#include <string>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew {

TetRest make_tet_rest(const double X[12]) {
  const Mat3 Dm = tet_edge_matrix(X);
  const double det = determinant(Dm);
  const double scale = frobenius_norm2(Dm);  // |Dm|^2; det scales like |Dm|^3
  require(std::isfinite(det) && det > 1e-14 * scale * std::sqrt(scale),
          "tetrahedron rest shape: signed volume (X1-X0).((X2-X0)x(X3-X0))/6 must be > 0 "
          "(non-degenerate, positively oriented), got " +
              number_text(det / 6.0));
  return tet_rest(X);
}

}  // namespace sinew
