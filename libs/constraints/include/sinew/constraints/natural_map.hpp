/// @file
/// @brief The one error measure every constraint solver reports: the natural-map residual of
/// the whole problem, relative to ||q|| (Siconos fc3d_compute_error / FCLIB convention).
///
/// Per block, with u = W r + q:
///   bilateral            res = r - (r - u) = u;
///   unilateral           res = r - max(0, r - u);
///   contact (circular)   res = r - proj_K(r - (u + mu ||u_T|| e_n)),  K = {||r_T|| <= mu r_n}
///                        (De Saxce's modified velocity; zero exactly at Signorini-Coulomb);
///   contact (box)        res_n = r_n - max(0, r_n - u_n),
///                        res_t = r_t - clamp(r_t - u_t, -mu r_n, mu r_n)   (per tangent).
/// error = sqrt(sum ||res||^2) / ||q||, divided only when ||q|| > DBL_EPSILON, exactly as Siconos
/// numerics' fc3d_compute_error (sqrt of the summed squares, then `if (fabs(norm) > DBL_EPSILON)
/// error /= norm` with norm = ||q||_2). libfclib's own fclib_merit_local (MERIT_1) sums the same
/// squares but divides by 1 + sqrt(||q||_2) (sic, fcmer.c); that value is given as fclib_merit so
/// that numbers stored with FCLIB problems can be compared. Checked against libfclib 3.1.0: the
/// absolute error agreed to all 16 digits on a random 4-contact problem.
#pragma once

#include <Eigen/Core>
#include <cmath>

#include "sinew/constraints/constraint_problem.hpp"

namespace sinew::constraints {

/// Projects @p x (3: normal, t1, t2) onto K = {||x_T|| <= mu x_n} in place (Euclidean projection).
SINEW_HD void project_on_cone(double* x, double mu) {
  const double xt = std::sqrt(x[1] * x[1] + x[2] * x[2]);
  if (xt <= mu * x[0]) return;  // inside K
  if (mu * xt <= -x[0]) {       // inside the polar cone: projects to the apex
    x[0] = x[1] = x[2] = 0.0;
    return;
  }
  const double xn = (x[0] + mu * xt) / (1.0 + mu * mu);  // onto the cone's boundary ray
  const double scale = mu * xn / xt;
  x[0] = xn;
  x[1] *= scale;
  x[2] *= scale;
}

/// Squared natural-map residual ||r - proj_K(r - (u + mu ||u_T|| e_n))||^2 of one circular-cone
/// contact (FCLIB/Siconos unitary error); @p u and @p r hold 3 entries (n, t1, t2).
SINEW_HD double contact_natural_map_squared(const double* u, const double* r, double mu) {
  double x[3] = {r[0] - u[0] - mu * std::sqrt(u[1] * u[1] + u[2] * u[2]), r[1] - u[1], r[2] - u[2]};
  project_on_cone(x, mu);
  const double d0 = r[0] - x[0], d1 = r[1] - x[1], d2 = r[2] - x[2];
  return d0 * d0 + d1 * d1 + d2 * d2;
}

/// Squared natural-map residual of one box-friction contact (see the file comment); @p u and @p r
/// hold 3 entries (n, t1, t2).
SINEW_HD double box_contact_natural_map_squared(const double* u, const double* r, double mu) {
  const double pn = r[0] - u[0] > 0.0 ? r[0] - u[0] : 0.0;
  double sum = (r[0] - pn) * (r[0] - pn);
  const double bound = mu * (r[0] > 0.0 ? r[0] : 0.0);
  for (int k = 1; k < 3; ++k) {
    double p = r[k] - u[k];
    p = p > bound ? bound : (p < -bound ? -bound : p);
    sum += (r[k] - p) * (r[k] - p);
  }
  return sum;
}

/// The natural-map error of a problem at one r, with its parts.
struct NaturalMapError {
  double absolute = 0.0;     ///< sqrt(sum over blocks of ||res||^2)
  double norm_q = 0.0;       ///< ||q||_2
  double relative = 0.0;     ///< absolute / ||q|| (absolute when ||q|| <= DBL_EPSILON): the reported error
  double fclib_merit = 0.0;  ///< absolute / (1 + sqrt(||q||)): libfclib's MERIT_1 normalization
};

/// The natural-map error of @p problem at @p r (m); u = W r + q is computed here.
/// @throws sinew::Error when r has the wrong size (the problem is assumed validated).
NaturalMapError natural_map_error(const DelassusProblem& problem, const Eigen::VectorXd& r);

/// The same with u = W r + q given (m), to avoid a second product.
/// @throws sinew::Error when r or u has a size other than m.
NaturalMapError natural_map_error(const DelassusProblem& problem, const Eigen::VectorXd& r, const Eigen::VectorXd& u);

}  // namespace sinew::constraints
