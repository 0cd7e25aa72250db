// KinematicTree: RNEA and CRBA in world coordinates about the origin (kinematic_tree.hpp).
#include "sinew/model/kinematic_tree.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <string>

#include "sinew/core/eigen_interop.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew::model {
namespace {

using Vector6 = Eigen::Matrix<double, 6, 1>;
using Matrix6 = Eigen::Matrix<double, 6, 6>;

Eigen::Matrix3d skew(const Eigen::Vector3d& c) {
  Eigen::Matrix3d S;
  S << 0, -c.z(), c.y(), c.z(), 0, -c.x(), -c.y(), c.x(), 0;
  return S;
}

// Motion cross product V1 x V2 of twists (v, w): (w1 x v2 + v1 x w2, w1 x w2).
Vector6 cross_motion(const Vector6& a, const Vector6& b) {
  Vector6 r;
  r.head<3>() = a.tail<3>().cross(b.head<3>()) + a.head<3>().cross(b.tail<3>());
  r.tail<3>() = a.tail<3>().cross(b.tail<3>());
  return r;
}

// Force cross product V x* F of a twist (v, w) and a wrench (f, tau): (w x f, w x tau + v x f).
Vector6 cross_force(const Vector6& v, const Vector6& f) {
  Vector6 r;
  r.head<3>() = v.tail<3>().cross(f.head<3>());
  r.tail<3>() = v.tail<3>().cross(f.tail<3>()) + v.head<3>().cross(f.head<3>());
  return r;
}

std::string str(const Vec3& a) {
  return "(" + number_text(a[0]) + ", " + number_text(a[1]) + ", " + number_text(a[2]) + ")";
}

// Fills @p M (dense, every entry stored) as a CSR matrix.
void dense_to_csr(const Eigen::MatrixXd& D, CsrMatrix& M) {
  const Index n = static_cast<Index>(D.rows());
  M.rows = M.cols = n;
  M.row_ptr.resize(static_cast<std::size_t>(n) + 1);
  M.col_idx.resize(static_cast<std::size_t>(n * n));
  M.values.resize(static_cast<std::size_t>(n * n));
  for (Index i = 0; i <= n; ++i) M.row_ptr[static_cast<std::size_t>(i)] = i * n;
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < n; ++j) {
      M.col_idx[static_cast<std::size_t>(i * n + j)] = j;
      M.values[static_cast<std::size_t>(i * n + j)] = D(i, j);
    }
}

}  // namespace

KinematicTree::KinematicTree(const Vec3& gravity) : gravity_(gravity) {
  require(is_finite(gravity), "KinematicTree: gravity must be finite");
}

Index KinematicTree::add_body(const TreeBody& body) {
  const Index k = num_bodies();
  const std::string who =
      "KinematicTree: body " + std::to_string(k) + (body.name.empty() ? "" : " '" + body.name + "'");
  require(body.parent >= -1 && body.parent < k, [&] {
    return who + ": parent must be -1 (the world) or an earlier body in [0, " + std::to_string(k) + "), got " +
           std::to_string(body.parent);
  });
  require(is_finite(body.axis) && norm(body.axis) > 0,
          [&] { return who + ": axis must be finite and nonzero, got " + str(body.axis); });
  require(is_finite(body.joint_in_parent) && is_finite(body.joint_in_body),
          [&] { return who + ": joint_in_parent and joint_in_body must be finite"; });
  require(std::isfinite(body.armature) && body.armature >= 0 && std::isfinite(body.damping) && body.damping >= 0, [&] {
    return who + ": armature and damping must be finite and >= 0, got " + number_text(body.armature) + " and " +
           number_text(body.damping);
  });
  TreeBody b = body;
  try {
    b.inertia = make_spatial_inertia(body.inertia.mass, body.inertia.com, body.inertia.J);
  } catch (const Error& e) {
    throw Error(who + ": " + e.what());
  }
  b.axis = (1.0 / norm(body.axis)) * body.axis;
  bodies_.push_back(b);
  const std::size_t n = bodies_.size();
  ws_.R.resize(n);
  ws_.x.resize(n);
  ws_.S.resize(n);
  ws_.I.resize(n);
  ws_.Ic.resize(n);
  ws_.V.resize(n);
  ws_.A.resize(n);
  ws_.F.resize(n);
  ws_.M.resize(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  ws_.llt = Eigen::LLT<Eigen::MatrixXd>(static_cast<Eigen::Index>(n));
  return k;
}

void KinematicTree::check_size(const Eigen::VectorXd& v, const char* what, const char* where) const {
  require(v.size() == num_bodies(), [&] {
    return std::string("KinematicTree::") + where + ": " + what + " has " + std::to_string(v.size()) +
           " entries, expected one per joint (" + std::to_string(num_bodies()) + ")";
  });
}

void KinematicTree::kinematics(const Eigen::VectorXd& q) const {
  for (std::size_t k = 0; k < bodies_.size(); ++k) {
    const TreeBody& b = bodies_[k];
    const bool root = b.parent < 0;
    const auto p = static_cast<std::size_t>(b.parent);
    const Eigen::Matrix3d Rp = root ? Eigen::Matrix3d::Identity() : ws_.R[p];
    const Eigen::Vector3d xp = root ? Eigen::Vector3d::Zero() : ws_.x[p];
    const Eigen::Vector3d axis = to_eigen(b.axis);
    const Eigen::Vector3d a = Rp * axis;                                  // world axis
    const Eigen::Vector3d joint = xp + Rp * to_eigen(b.joint_in_parent);  // world joint point
    const double qk = q[static_cast<Eigen::Index>(k)];
    Vector6& S = ws_.S[k];
    if (b.joint == TreeJointKind::kHinge) {
      ws_.R[k] = Rp * Eigen::AngleAxisd(qk, axis).toRotationMatrix();
      ws_.x[k] = joint - ws_.R[k] * to_eigen(b.joint_in_body);
      S << joint.cross(a), a;  // a rotation about a through the joint point: v_O = p x a
    } else {
      ws_.R[k] = Rp;
      ws_.x[k] = joint + qk * a - ws_.R[k] * to_eigen(b.joint_in_body);
      S << a, Eigen::Vector3d::Zero();
    }
    // World spatial inertia about the origin: [m 1, -m [c]; m [c], J - m [c][c]].
    const double m = b.inertia.mass;
    const Eigen::Vector3d c = ws_.x[k] + ws_.R[k] * to_eigen(b.inertia.com);
    const Eigen::Matrix3d C = skew(c);
    Matrix6& I = ws_.I[k];
    I.topLeftCorner<3, 3>() = m * Eigen::Matrix3d::Identity();
    I.topRightCorner<3, 3>() = -m * C;
    I.bottomLeftCorner<3, 3>() = m * C;
    I.bottomRightCorner<3, 3>() = ws_.R[k] * to_eigen(b.inertia.J) * ws_.R[k].transpose() - m * C * C;
  }
}

void KinematicTree::rnea(const Eigen::VectorXd& u, bool with_gravity, Eigen::VectorXd& b) const {
  Vector6 base_acceleration = Vector6::Zero();
  if (with_gravity) base_acceleration.head<3>() = -to_eigen(gravity_);  // gravity as the base's acceleration
  for (std::size_t k = 0; k < bodies_.size(); ++k) {
    const Index parent = bodies_[k].parent;
    const auto p = static_cast<std::size_t>(parent);
    const Vector6 Su = ws_.S[k] * u[static_cast<Eigen::Index>(k)];
    ws_.V[k] = parent < 0 ? Su : Vector6(ws_.V[p] + Su);
    ws_.A[k] = (parent < 0 ? base_acceleration : ws_.A[p]) + cross_motion(ws_.V[k], Su);
    ws_.F[k] = ws_.I[k] * ws_.A[k] + cross_force(ws_.V[k], ws_.I[k] * ws_.V[k]);
  }
  b.resize(num_bodies());
  for (std::size_t k = bodies_.size(); k-- > 0;) {
    b[static_cast<Eigen::Index>(k)] = ws_.S[k].dot(ws_.F[k]);
    if (bodies_[k].parent >= 0) ws_.F[static_cast<std::size_t>(bodies_[k].parent)] += ws_.F[k];
  }
}

void KinematicTree::crba() const {
  for (std::size_t k = 0; k < bodies_.size(); ++k) ws_.Ic[k] = ws_.I[k];
  for (std::size_t k = bodies_.size(); k-- > 0;)
    if (bodies_[k].parent >= 0) ws_.Ic[static_cast<std::size_t>(bodies_[k].parent)] += ws_.Ic[k];
  // Entries between joints on different branches stay zero (neither is the other's ancestor).
  ws_.M.setZero();
  for (std::size_t k = 0; k < bodies_.size(); ++k) {
    const Vector6 F = ws_.Ic[k] * ws_.S[k];
    const auto i = static_cast<Eigen::Index>(k);
    ws_.M(i, i) = ws_.S[k].dot(F) + bodies_[k].armature;
    for (Index j = bodies_[k].parent; j >= 0; j = bodies_[static_cast<std::size_t>(j)].parent)
      ws_.M(i, j) = ws_.M(j, i) = ws_.S[static_cast<std::size_t>(j)].dot(F);
  }
}

void KinematicTree::body_pose(const Eigen::VectorXd& q, Index b, Vec3& x, Mat3& R) const {
  check_size(q, "q", "body_pose");
  require(b >= 0 && b < num_bodies(), [&] {
    return "KinematicTree::body_pose: body " + std::to_string(b) + " is not in [0, " + std::to_string(num_bodies()) +
           ")";
  });
  kinematics(q);
  const auto k = static_cast<std::size_t>(b);
  x = to_vec3(ws_.x[k]);
  R = to_mat3(ws_.R[k]);
}

void KinematicTree::frames(const Eigen::VectorXd& q, std::vector<Vec3>& x, std::vector<Mat3>& R,
                           std::vector<Eigen::Matrix<double, 6, 1>>& S) const {
  check_size(q, "q", "frames");
  kinematics(q);
  x.resize(bodies_.size());
  R.resize(bodies_.size());
  S.resize(bodies_.size());
  for (std::size_t k = 0; k < bodies_.size(); ++k) {
    x[k] = to_vec3(ws_.x[k]);
    R[k] = to_mat3(ws_.R[k]);
    S[k] = ws_.S[k];
  }
}

Vec3 KinematicTree::body_point(const Eigen::VectorXd& q, Index b, const Vec3& local) const {
  Vec3 x;
  Mat3 R;
  body_pose(q, b, x, R);
  return to_vec3(to_eigen(x) + to_eigen(R) * to_eigen(local));
}

void KinematicTree::point_jacobian(const Eigen::VectorXd& q, Index b, const Vec3& local, Eigen::MatrixXd& J) const {
  check_size(q, "q", "point_jacobian");
  require(b >= 0 && b < num_bodies(), [&] {
    return "KinematicTree::point_jacobian: body " + std::to_string(b) + " is not in [0, " +
           std::to_string(num_bodies()) + ")";
  });
  kinematics(q);
  const auto k = static_cast<std::size_t>(b);
  const Eigen::Vector3d p = ws_.x[k] + ws_.R[k] * to_eigen(local);
  J.setZero(6, num_bodies());
  // Joint j moves the point by its twist S_j = (v_O, w): v_p = v_O + w x p.
  for (Index j = b; j >= 0; j = bodies_[static_cast<std::size_t>(j)].parent) {
    const Vector6& S = ws_.S[static_cast<std::size_t>(j)];
    J.col(j).head<3>() = S.head<3>() + S.tail<3>().cross(p);
    J.col(j).tail<3>() = S.tail<3>();
  }
}

void KinematicTree::bias_forces(const Eigen::VectorXd& q, const Eigen::VectorXd& u, bool with_gravity,
                                Eigen::VectorXd& b) const {
  check_size(q, "q", "bias_forces");
  check_size(u, "u", "bias_forces");
  kinematics(q);
  rnea(u, with_gravity, b);
}

void KinematicTree::dense_mass_matrix(const Eigen::VectorXd& q, Eigen::MatrixXd& M) const {
  check_size(q, "q", "mass_matrix");
  kinematics(q);
  crba();
  M = ws_.M;
}

void KinematicTree::add_joint_force(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                                    Eigen::VectorXd& f) const {
  if (!joint_force_) return;
  ws_.tau.setZero(num_bodies());
  joint_force_(t, q, u, ws_.tau);
  require(ws_.tau.size() == num_bodies(), [&] {
    return "KinematicTree: the joint force wrote " + std::to_string(ws_.tau.size()) +
           " entries, expected one per joint (" + std::to_string(num_bodies()) + ")";
  });
  f += ws_.tau;
}

bool KinematicTree::accelerations(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                                  Eigen::VectorXd& qdd) const {
  check_size(q, "q", "accelerations");
  check_size(u, "u", "accelerations");
  // The joint forces first: the callback may evaluate this tree, which shares the workspace.
  qdd.setZero(num_bodies());
  add_joint_force(t, q, u, qdd);
  kinematics(q);
  rnea(u, true, ws_.b);
  for (std::size_t k = 0; k < bodies_.size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    qdd[i] -= ws_.b[i] + bodies_[k].damping * u[i];
  }
  crba();
  ws_.llt.compute(ws_.M);
  if (ws_.llt.info() != Eigen::Success) return false;
  ws_.llt.solveInPlace(qdd);
  return qdd.allFinite();
}

void KinematicTree::advance_positions(const Eigen::VectorXd& q0, const Eigen::VectorXd& u, double h,
                                      Eigen::VectorXd& q1) const {
  check_size(q0, "q0", "advance_positions");
  check_size(u, "u", "advance_positions");
  q1 = q0 + h * u;
}

void KinematicTree::mass_matrix(double /*t*/, const Eigen::VectorXd& q, CsrMatrix& M) const {
  check_size(q, "q", "mass_matrix");
  kinematics(q);
  crba();
  dense_to_csr(ws_.M, M);
}

void KinematicTree::forces(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, ForcePart part,
                           Eigen::VectorXd& f) const {
  check_size(q, "q", "forces");
  check_size(u, "u", "forces");
  kinematics(q);
  if (part == ForcePart::kAll) {
    rnea(u, true, f);
  } else if (part == ForcePart::kElastic) {
    ws_.zero.setZero(num_bodies());
    rnea(ws_.zero, true, f);
  } else {
    rnea(u, false, f);
  }
  f = -f;
  // The joint forces after the tree's own: the callback may evaluate this tree, which shares the
  // workspace (tau - b in either order is the same sum).
  if (part != ForcePart::kElastic) add_joint_force(t, q, u, f);
  if (part != ForcePart::kGyroscopic)
    for (std::size_t k = 0; k < bodies_.size(); ++k)
      f[static_cast<Eigen::Index>(k)] -= bodies_[k].damping * u[static_cast<Eigen::Index>(k)];
}

void KinematicTree::stiffness(double /*t*/, const Eigen::VectorXd& q, const Eigen::VectorXd& /*u*/, bool projected,
                              CsrMatrix& K) const {
  check_size(q, "q", "stiffness");
  const Index n = num_bodies();
  ws_.zero.setZero(n);
  const Eigen::VectorXd& zero = ws_.zero;
  Eigen::MatrixXd& D = ws_.K;  // kept between calls, with the projection's: no allocation per step
  D.resize(n, n);
  // K = -dF/dq = d g / dq (F = -g, g = b(q, 0)): central differences, O(eps^2) + round-off / eps.
  for (Index j = 0; j < n; ++j) {
    const double eps = 1e-6 * std::max(1.0, std::abs(q[j]));
    ws_.q_plus = q;
    ws_.q_minus = q;
    ws_.q_plus[j] += eps;
    ws_.q_minus[j] -= eps;
    bias_forces(ws_.q_plus, zero, true, ws_.b_plus);
    bias_forces(ws_.q_minus, zero, true, ws_.b_minus);
    D.col(j) = (ws_.b_plus - ws_.b_minus) / (2.0 * eps);
  }
  // The Hessian of the potential: symmetric up to the differences' error.
  for (Index j = 0; j < n; ++j)
    for (Index i = j + 1; i < n; ++i) D(i, j) = D(j, i) = 0.5 * (D(i, j) + D(j, i));
  // Projected: D itself when its Cholesky factor exists (positive definite, so its own
  // projection, and no eigendecomposition, whose Householder workspace is allocated per call).
  if (projected && ws_.llt_K.compute(D).info() != Eigen::Success) {
    // D = Q T Q^T (Householder tridiagonalization), T = V diag(l) V^T: the steps of Eigen's
    // SelfAdjointEigenSolver::compute() with every buffer kept here (its own forms Q in a
    // workspace it allocates per call).
    ws_.tridiagonal.compute(D);
    ws_.t_diagonal = ws_.tridiagonal.diagonal();
    ws_.t_subdiagonal = ws_.tridiagonal.subDiagonal();
    ws_.eigen.computeFromTridiagonal(ws_.t_diagonal, ws_.t_subdiagonal, Eigen::ComputeEigenvectors);
    ws_.tridiagonal.matrixQ().evalTo(ws_.Q, ws_.householder);
    ws_.eigenvectors.noalias() = ws_.Q * ws_.eigen.eigenvectors();
    ws_.K_half.noalias() = ws_.eigenvectors * ws_.eigen.eigenvalues().cwiseMax(0.0).asDiagonal();
    D.noalias() = ws_.K_half * ws_.eigenvectors.transpose();
  }
  dense_to_csr(D, K);
}

void KinematicTree::damping(double /*t*/, const Eigen::VectorXd& q, const Eigen::VectorXd& /*u*/, CsrMatrix& D) const {
  check_size(q, "q", "damping");
  // Diagonal: each joint's own damping (into D's storage, reused from call to call).
  const Index n = num_bodies();
  D.rows = D.cols = n;
  D.row_ptr.resize(static_cast<std::size_t>(n) + 1);
  D.col_idx.resize(static_cast<std::size_t>(n));
  D.values.resize(static_cast<std::size_t>(n));
  for (Index k = 0; k < n; ++k) {
    const auto i = static_cast<std::size_t>(k);
    D.row_ptr[i] = k;
    D.col_idx[i] = k;
    D.values[i] = bodies_[i].damping;
  }
  D.row_ptr[static_cast<std::size_t>(n)] = n;
}

double KinematicTree::potential_energy(double /*t*/, const Eigen::VectorXd& q) const {
  check_size(q, "q", "potential_energy");
  kinematics(q);
  double V = 0.0;
  for (std::size_t k = 0; k < bodies_.size(); ++k) {
    const Eigen::Vector3d c = ws_.x[k] + ws_.R[k] * to_eigen(bodies_[k].inertia.com);
    V -= bodies_[k].inertia.mass * to_eigen(gravity_).dot(c);
  }
  return V;
}

double KinematicTree::kinetic_energy(double /*t*/, const Eigen::VectorXd& q, const Eigen::VectorXd& u) const {
  check_size(q, "q", "kinetic_energy");
  check_size(u, "u", "kinetic_energy");
  kinematics(q);
  crba();
  return 0.5 * u.dot(ws_.M * u);
}

}  // namespace sinew::model
