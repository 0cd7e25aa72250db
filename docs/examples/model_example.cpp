// A mechanical system: a chain of particles hanging from a fixed particle by linear springs,
// under gravity. The model assembles M, f and K = -df/dq; here we place the chain at its
// analytic static equilibrium and check that the assembled forces vanish there, and that K is
// the derivative of the forces.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "sinew/linalg/csr_matrix.hpp"
#include "sinew/model/mechanical_system.hpp"
#include "sinew/model/spring_fields.hpp"

int main() {
  const int n = 6;  // particles; particle 0 is the fixed anchor
  const double mass = 0.1, k = 50.0, rest = 0.2, g = 9.81;

  // Spring j (between particles j and j+1) carries the weight of the n-1-j particles below it,
  // so its length is rest + (n-1-j) m g / k: the equilibrium, known in closed form.
  sinew::model::MechanicalSystem system;
  system.set_gravity(sinew::Vec3{{0, 0, -g}});
  double z = 0.0;
  for (int i = 0; i < n; ++i) {
    if (i > 0) z -= rest + (n - i) * mass * g / k;
    system.add_particle(mass, sinew::Vec3{{0, 0, z}}, "p" + std::to_string(i));
  }
  system.fix_particle(0);  // its velocity DOFs are held at zero by every integrator

  auto springs = std::make_shared<sinew::model::AxialSpringField>();
  sinew::LinearAxialSpring law;
  law.stiffness = k;
  law.rest_length = rest;
  for (int i = 0; i + 1 < n; ++i)
    springs->add(sinew::model::particle_point(i), sinew::model::particle_point(i + 1), law);
  system.add_force_field(springs);

  // Forces at the equilibrium: zero on every free DOF. The anchor's own DOFs see the pull of the
  // chain plus its own weight, the weight of all n particles (its support reaction is -f).
  const Eigen::VectorXd q = system.initial_positions();
  const Eigen::VectorXd u = Eigen::VectorXd::Zero(system.num_velocities());
  Eigen::VectorXd f;
  system.forces(0.0, q, u, sinew::model::ForcePart::kAll, f);
  const double free_force = f.tail(f.size() - 3).cwiseAbs().maxCoeff();
  std::printf("%d DOFs; anchor force %.4f N (total weight: %.4f N), max free force %.2e N\n",
              int(system.num_velocities()), f[2], n * mass * g, free_force);

  // K = -df/dq, checked by central differences of the assembled forces.
  sinew::CsrMatrix K;
  system.stiffness(0.0, q, u, /*projected=*/false, K);
  const Eigen::MatrixXd K_dense = Eigen::MatrixXd(sinew::to_eigen(K));
  double K_error = 0.0;
  const double h = 1e-6;
  for (Eigen::Index c = 0; c < q.size(); ++c) {
    Eigen::VectorXd qp = q, qm = q, fp, fm;
    qp[c] += h;
    qm[c] -= h;
    system.forces(0.0, qp, u, sinew::model::ForcePart::kAll, fp);
    system.forces(0.0, qm, u, sinew::model::ForcePart::kAll, fm);
    K_error = std::max(K_error, (-(fp - fm) / (2 * h) - K_dense.col(c)).cwiseAbs().maxCoeff());
  }
  std::printf("max |K - (-df/dq)_fd| = %.2e (k = %g)\n", K_error, k);

  return (free_force < 1e-10 && std::abs(-f[2] - n * mass * g) < 1e-10 && K_error < 1e-6 * k) ? 0 : 1;
}
