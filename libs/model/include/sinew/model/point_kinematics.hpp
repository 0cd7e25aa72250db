/// @file
/// @brief World kinematics of a point on a component (particle, body marker, world anchor) and
/// the map of point forces and their Jacobians to the generalized forces, stiffness and damping
/// of the components they act on (mechanics notes sec. 0.19, 0.22.3: a force f at a point of a
/// body, r = R p from the origin, is the wrench (f, r x f); its velocity is v + w x r).
#pragma once

#include <Eigen/Core>
#include <vector>

#include "sinew/core/config.hpp"
#include "sinew/model/system_state.hpp"

namespace sinew::model {

/// Position, velocity and DOFs of one point at the current state.
struct PointKinematics {
  Vec3 x;     ///< world position
  Vec3 v;     ///< world velocity
  Index dof;  ///< first velocity DOF of the component carrying it (-1 for a world point)
  int ndof;   ///< DOFs of that component: 3 (particle), 6 (body) or 0 (world point)
  Vec3 r;     ///< world offset R p of the point from the body origin (zero unless a body point)
  Vec3 w;     ///< angular velocity of the body (zero unless a body point)
};

/// Evaluates @p p at @p s (the caller has checked the index).
PointKinematics point_kinematics(const SystemState& s, const PointRef& p);

/// The 3 x ndof Jacobian dx/du of a point: I (particle), [I, -[r]] (body point), empty (world).
Eigen::MatrixXd point_jacobian(const PointKinematics& k);
/// A point's Jacobian with its at most 6 columns held in place (no heap).
using PointJacobian = Eigen::Matrix<double, 3, Eigen::Dynamic, Eigen::ColMajor, 3, 6>;
/// point_jacobian() into @p J, for per-step loops (a contact's rows) that should not allocate.
void point_jacobian(const PointKinematics& k, PointJacobian& J);

/// Adds the generalized forces of point forces @p f (3 per point) to @p F (global): f to a
/// particle, the world wrench (f, r x f) about the origin to a body.
void add_point_forces(const std::vector<PointKinematics>& points, const double* f, Eigen::VectorXd& F);

/// Velocity-space stiffness K = -dF/dq (m x m, m = sum of the points' ndof, the points' DOFs
/// concatenated) of the generalized forces of point forces f(x, v) with Jacobians dfdx, dfdv
/// (3n x 3n). Besides J^T dfdx J it has the two terms of rotating markers: the torque lever
/// (d(r x f)/dtheta = [f][r]) and the marker velocity (dv/dtheta = -[w][r], met through dfdv).
void point_stiffness(const std::vector<PointKinematics>& points, const double* f, const Eigen::MatrixXd& dfdx,
                     const Eigen::MatrixXd& dfdv, Eigen::MatrixXd& K);

/// Damping D = -dF/du = -J^T dfdv J (m x m) of point forces with velocity Jacobian dfdv.
void point_damping(const std::vector<PointKinematics>& points, const Eigen::MatrixXd& dfdv, Eigen::MatrixXd& D);

/// Replaces the square @p A by the nearest symmetric positive semi-definite matrix (symmetric
/// part with negative eigenvalues clamped to zero): the generic per-element projection.
void project_to_psd(Eigen::MatrixXd& A);

}  // namespace sinew::model
