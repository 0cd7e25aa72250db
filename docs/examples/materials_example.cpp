// Energy, gradient and Hessian of one tetrahedron of stable Neo-Hookean material, with the
// finite-difference checks every new material model should pass: the gradient is the
// derivative of the energy, the Hessian the derivative of the gradient.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sinew/materials/elastic_parameters.hpp"
#include "sinew/materials/stable_neo_hookean.hpp"
#include "sinew/materials/tetrahedron.hpp"

using Model = sinew::StableNeoHookean;  // try sinew::Corotational, sinew::StVenantKirchhoff, ...

int main() {
  // Rest tetrahedron (x0 y0 z0 x1 ... z3) and a deformed one: stretched, sheared and moved.
  const double X[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  double x[12] = {0.1, 0, 0, 1.3, 0.1, 0, 0.2, 0.9, 0.1, 0, 0.2, 1.1};
  const sinew::TetRest rest = sinew::make_tet_rest(X);                    // checked: throws on an inverted rest tet
  const sinew::LameParameters lame = sinew::lame_parameters({1e5, 0.4});  // E = 1e5 Pa, nu = 0.4

  const double E = sinew::tet_energy<Model>(rest, x, lame);
  double g[12];
  sinew::tet_gradient<Model>(rest, x, lame, g);  // the elastic force on the vertices is -g
  sinew::Mat12 H;
  sinew::tet_hessian<Model>(rest, x, lame, H);
  std::printf("V = %g, energy = %g\n", rest.volume, E);

  // Central differences: error O(h^2) with h = 1e-6 relative to the element size, far above
  // round-off for these magnitudes.
  const double h = 1e-6;
  double gradient_error = 0.0, hessian_error = 0.0, g_scale = 0.0, h_scale = 0.0;
  for (int k = 0; k < 12; ++k) {
    const double xk = x[k];
    double gp[12], gm[12];
    x[k] = xk + h;
    const double Ep = sinew::tet_energy<Model>(rest, x, lame);
    sinew::tet_gradient<Model>(rest, x, lame, gp);
    x[k] = xk - h;
    const double Em = sinew::tet_energy<Model>(rest, x, lame);
    sinew::tet_gradient<Model>(rest, x, lame, gm);
    x[k] = xk;
    gradient_error = std::max(gradient_error, std::abs((Ep - Em) / (2 * h) - g[k]));
    g_scale = std::max(g_scale, std::abs(g[k]));
    for (int r = 0; r < 12; ++r) {
      hessian_error = std::max(hessian_error, std::abs((gp[r] - gm[r]) / (2 * h) - H(r, k)));
      h_scale = std::max(h_scale, std::abs(H(r, k)));
    }
  }
  gradient_error /= g_scale;
  hessian_error /= h_scale;
  std::printf("relative finite-difference error: gradient %.2e, Hessian %.2e\n", gradient_error, hessian_error);

  // A rigid motion stores no energy: translate the rest tet and the energy stays zero.
  double moved[12];
  for (int k = 0; k < 12; ++k) moved[k] = X[k] + (k % 3 == 0 ? 0.5 : -0.25);
  const double E_rigid = sinew::tet_energy<Model>(rest, moved, lame);
  std::printf("energy after a translation: %g\n", E_rigid);

  return (gradient_error < 1e-6 && hessian_error < 1e-6 && std::abs(E_rigid) < 1e-9 * E) ? 0 : 1;
}
