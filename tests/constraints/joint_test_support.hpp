// Shared helpers of the joint tests: random scenes of two rigid bodies and a particle, dense
// Jacobians, and the central-difference check of a constraint's rows on the configuration
// manifold (positions stepped with advance_positions, so quaternions stay unit).
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <memory>
#include <random>

#include "sinew/constraints/constraint.hpp"
#include "sinew/constraints/joint.hpp"
#include "sinew/core/eigen_interop.hpp"
#include "sinew/core/spatial_inertia.hpp"
#include "sinew/model/mechanical_system.hpp"

namespace sinew::constraints::testing {

inline Vec3 random_vec(std::mt19937& rng, double scale = 1.0) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return Vec3{{u(rng), u(rng), u(rng)}};
}

inline Quaternion random_rotation(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  return normalized(Quaternion{n(rng), Vec3{{n(rng), n(rng), n(rng)}}});
}

/// Bodies 0 and 1 (offset centres of mass, random poses and twists) and, unless
/// @p with_particle is false, particle 0; gravity along -z.
inline std::unique_ptr<model::MechanicalSystem> random_system(std::mt19937& rng, bool with_particle = true) {
  auto sys = std::make_unique<model::MechanicalSystem>();
  sys->set_gravity(Vec3{{0, 0, -9.81}});
  for (int b = 0; b < 2; ++b) {
    const SpatialInertia I =
        make_spatial_inertia(1.0 + b, random_vec(rng, 0.1), Mat3{{0.2, 0.01, 0, 0.01, 0.3, 0.02, 0, 0.02, 0.25}});
    sys->add_body(I, random_vec(rng), random_rotation(rng), "", random_vec(rng), random_vec(rng));
  }
  if (with_particle) sys->add_particle(0.5, random_vec(rng), "", random_vec(rng));
  return sys;
}

/// The rows of @p c at (q, u).
inline ConstraintRows rows_at(const Constraint& c, const model::MechanicalSystem& sys, const Eigen::VectorXd& q,
                              const Eigen::VectorXd& u) {
  model::SystemState s;
  sys.evaluate_state(0, q, u, s);
  ConstraintRows rows;
  c.add_rows(sys, s, rows);
  rows.validate(sys.num_velocities());
  return rows;
}

/// Dense J (rows x velocities).
inline Eigen::MatrixXd dense_jacobian(const ConstraintRows& rows, Index nv) {
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(rows.rows(), nv);
  for (const auto& t : rows.jacobian) J(t.row(), t.col()) += t.value();
  return J;
}

/// Largest |dphi/deps - J e_j| over every velocity direction e_j and the first @p position_rows
/// rows (rows with a position level; all rows when negative), every @p row_stride-th of them (3:
/// the normal rows of contact blocks), relative to max(1, max |J|): central differences with
/// q(eps) = q (+) eps e_j. Fails the test when J is zero or the row count changes.
inline double jacobian_fd_error(const Constraint& c, const model::MechanicalSystem& sys, const Eigen::VectorXd& q,
                                int position_rows, double eps = 1e-6, int row_stride = 1) {
  const Eigen::VectorXd u = Eigen::VectorXd::Zero(sys.num_velocities());
  const ConstraintRows rows = rows_at(c, sys, q, u);
  if (position_rows < 0) position_rows = static_cast<int>(rows.rows());
  EXPECT_GE(rows.rows(), position_rows) << c.name();
  if (rows.rows() < position_rows || position_rows == 0) return 1e300;
  const Eigen::MatrixXd J = dense_jacobian(rows, sys.num_velocities());
  EXPECT_GT(J.topRows(position_rows).cwiseAbs().maxCoeff(), 1e-3) << c.name() << ": Jacobian is trivially zero";
  double err = 0;
  Eigen::VectorXd qp, qm;
  for (Index j = 0; j < sys.num_velocities(); ++j) {
    Eigen::VectorXd du = Eigen::VectorXd::Zero(sys.num_velocities());
    du[j] = 1.0;
    sys.advance_positions(q, du, eps, qp);
    sys.advance_positions(q, du, -eps, qm);
    const ConstraintRows rp = rows_at(c, sys, qp, u), rm = rows_at(c, sys, qm, u);
    EXPECT_EQ(rp.rows(), rows.rows()) << c.name() << ": rows appeared or vanished within eps";
    if (rp.rows() != rows.rows() || rm.rows() != rows.rows()) return 1e300;
    for (int k = 0; k < position_rows; k += row_stride)
      err = std::max(err, std::abs((rp.phi[k] - rm.phi[k]) / (2 * eps) - J(k, j)));
  }
  return err / std::max(1.0, J.cwiseAbs().maxCoeff());
}

}  // namespace sinew::constraints::testing
