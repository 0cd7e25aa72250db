#include "sinew/model/point_kinematics.hpp"
#include "sinew/core/eigen_interop.hpp"

#include <Eigen/Eigenvalues>

#include "sinew/core/small_matrix_ops.hpp"

namespace sinew::model {

PointKinematics point_kinematics(const SystemState& s, const PointRef& p) {
  const Vec3 zero{{0, 0, 0}};
  switch (p.kind) {
    case PointRef::Kind::kParticle:
      return PointKinematics{s.x[p.index], s.v[p.index], s.particle_dof[p.index], 3, zero, zero};
    case PointRef::Kind::kBody: {
      const BodyState& b = s.bodies[p.index];
      const Vec3 r = b.R * p.local;
      return PointKinematics{b.x + r, b.v + cross(b.w, r), s.body_dof[p.index], 6, r, b.w};
    }
    case PointRef::Kind::kWorld:
      break;
  }
  return PointKinematics{p.local, zero, -1, 0, zero, zero};
}

void point_jacobian(const PointKinematics& k, PointJacobian& J) {
  J.setZero(3, k.ndof);
  if (k.ndof >= 3) J.leftCols<3>().setIdentity();
  if (k.ndof == 6) J.rightCols<3>() = -to_eigen(cross_matrix(k.r));  // w x r = -[r] w
}

Eigen::MatrixXd point_jacobian(const PointKinematics& k) {
  PointJacobian J;
  point_jacobian(k, J);
  return J;
}

namespace {

// J (3n x m) and Y = dv/dq (3n x m) of the concatenated points.
void point_maps(const std::vector<PointKinematics>& pts, Eigen::MatrixXd& J, Eigen::MatrixXd& Y) {
  Eigen::Index m = 0;
  for (const PointKinematics& k : pts) m += k.ndof;
  const Eigen::Index n3 = 3 * static_cast<Eigen::Index>(pts.size());
  J = Eigen::MatrixXd::Zero(n3, m);
  Y = Eigen::MatrixXd::Zero(n3, m);
  Eigen::Index col = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const PointKinematics& k = pts[i];
    const Eigen::Index row = 3 * static_cast<Eigen::Index>(i);
    if (k.ndof > 0) J.block(row, col, 3, k.ndof) = point_jacobian(k);
    // Rotating the body by dtheta turns r into r + dtheta x r, so the marker velocity
    // v + w x r changes by w x (dtheta x r) = -[w][r] dtheta at fixed twist.
    if (k.ndof == 6) Y.block<3, 3>(row, col + 3) = -to_eigen(cross_matrix(k.w) * cross_matrix(k.r));
    col += k.ndof;
  }
}

}  // namespace

void add_point_forces(const std::vector<PointKinematics>& points, const double* f, Eigen::VectorXd& F) {
  for (std::size_t i = 0; i < points.size(); ++i) {
    const PointKinematics& k = points[i];
    const Vec3 fi{{f[3 * i], f[3 * i + 1], f[3 * i + 2]}};
    if (k.ndof == 0) continue;
    for (int c = 0; c < 3; ++c) F[k.dof + c] += fi[c];
    if (k.ndof == 6) {
      const Vec3 tau = cross(k.r, fi);
      for (int c = 0; c < 3; ++c) F[k.dof + 3 + c] += tau[c];
    }
  }
}

void point_stiffness(const std::vector<PointKinematics>& points, const double* f, const Eigen::MatrixXd& dfdx,
                     const Eigen::MatrixXd& dfdv, Eigen::MatrixXd& K) {
  Eigen::MatrixXd J, Y;
  point_maps(points, J, Y);
  K = -J.transpose() * (dfdx * J + dfdv * Y);
  Eigen::Index col = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const PointKinematics& k = points[i];
    if (k.ndof == 6) {
      // The lever of the torque r x f turns with the body: d(r x f)/dtheta = [f][r].
      const Vec3 fi{{f[3 * i], f[3 * i + 1], f[3 * i + 2]}};
      K.block<3, 3>(col + 3, col + 3) -= to_eigen(cross_matrix(fi) * cross_matrix(k.r));
    }
    col += k.ndof;
  }
}

void point_damping(const std::vector<PointKinematics>& points, const Eigen::MatrixXd& dfdv, Eigen::MatrixXd& D) {
  Eigen::MatrixXd J, Y;
  point_maps(points, J, Y);
  D = -J.transpose() * dfdv * J;
}

void project_to_psd(Eigen::MatrixXd& A) {
  const Eigen::MatrixXd S = 0.5 * (A + A.transpose());
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(S);
  const Eigen::VectorXd lambda = eig.eigenvalues().cwiseMax(0.0);
  A = eig.eigenvectors() * lambda.asDiagonal() * eig.eigenvectors().transpose();
}

}  // namespace sinew::model
