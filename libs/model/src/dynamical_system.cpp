#include "sinew/model/dynamical_system.hpp"

#include "sinew/core/error.hpp"

namespace sinew::model {

double DynamicalSystem::potential_energy(double /*t*/, const Eigen::VectorXd& /*q*/) const {
  throw Error("DynamicalSystem::potential_energy: this system has no potential (has_potential() is false)");
}

double DynamicalSystem::kinetic_energy(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u) const {
  require(u.size() == num_velocities(), "DynamicalSystem::kinetic_energy: u has the wrong size");
  CsrMatrix M;
  mass_matrix(t, q, M);
  double twice = 0.0;
  for (Index i = 0; i < M.rows; ++i) {
    double row = 0.0;
    for (Index k = M.row_ptr[i]; k < M.row_ptr[i + 1]; ++k) row += M.values[k] * u[M.col_idx[k]];
    twice += u[i] * row;
  }
  return 0.5 * twice;
}

}  // namespace sinew::model
