// Small DynamicalSystems with closed-form physics for the integrator tests: a pendulum in its
// angle, a 3-D chain of particles joined by nonlinear springs (a projectile when it has no
// springs), a torque-free rigid body with quaternion positions, and systems that misbehave on
// purpose (NaN forces, an indefinite mass matrix).
#pragma once

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <cmath>
#include <limits>
#include <vector>

#include "sinew/core/quaternion.hpp"
#include "sinew/linalg/csr_matrix.hpp"
#include "sinew/model/dynamical_system.hpp"
#include "sinew/model/kinematic_tree.hpp"

namespace sinew::integrators::testing {

using model::ForcePart;

// A CSR copy of a dense matrix (every entry stored, so the pattern never changes).
inline CsrMatrix dense_to_csr(const Eigen::MatrixXd& A) {
  EigenCsr S = A.sparseView(0.0, 0.0);
  return from_eigen(S);
}

// An n x n matrix with no stored entries.
inline CsrMatrix zero_csr(Index n) {
  CsrMatrix Z;
  Z.rows = Z.cols = n;
  Z.row_ptr.assign(static_cast<std::size_t>(n) + 1, 0);
  return Z;
}

// Pendulum of mass m on a massless rod of length L in the angle theta from the downward vertical:
// m L^2 theta'' = -m g L sin(theta) - c theta'. Everything is elastic (F), G = 0.
class Pendulum : public model::DynamicalSystem {
 public:
  double m = 1.0, L = 1.0, g = 9.81, c = 0.0;

  Index num_positions() const override { return 1; }
  Index num_velocities() const override { return 1; }
  void advance_positions(const Eigen::VectorXd& q0, const Eigen::VectorXd& u, double h,
                         Eigen::VectorXd& q1) const override {
    q1 = q0 + h * u;
  }
  void mass_matrix(double, const Eigen::VectorXd&, CsrMatrix& M) const override {
    M = dense_to_csr(Eigen::MatrixXd::Constant(1, 1, m * L * L));
  }
  void forces(double, const Eigen::VectorXd& q, const Eigen::VectorXd& u, ForcePart part,
              Eigen::VectorXd& f) const override {
    f.setZero(1);
    if (part != ForcePart::kGyroscopic) f[0] = -m * g * L * std::sin(q[0]) - c * u[0];
  }
  void stiffness(double, const Eigen::VectorXd& q, const Eigen::VectorXd&, bool projected,
                 CsrMatrix& K) const override {
    double k = m * g * L * std::cos(q[0]);
    if (projected) k = std::max(k, 0.0);
    K = dense_to_csr(Eigen::MatrixXd::Constant(1, 1, k));
  }
  void damping(double, const Eigen::VectorXd&, const Eigen::VectorXd&, CsrMatrix& D) const override {
    D = dense_to_csr(Eigen::MatrixXd::Constant(1, 1, c));
  }
  bool has_potential() const override { return true; }
  double potential_energy(double, const Eigen::VectorXd& q) const override {
    return m * g * L * (1.0 - std::cos(q[0]));
  }
  // Total mechanical energy (zero at rest at the bottom).
  double energy(const Eigen::VectorXd& q, const Eigen::VectorXd& u) const {
    return 0.5 * m * L * L * u[0] * u[0] + potential_energy(0.0, q);
  }
  // Right-hand side of the first-order ODE (theta', omega'), for the RK4 reference.
  Eigen::Vector2d rate(const Eigen::Vector2d& y) const {
    return {y[1], (-m * g * L * std::sin(y[0]) - c * y[1]) / (m * L * L)};
  }
};

// n particles of mass m in 3-D (3 positions and velocities each) under gravity (0, 0, -g), joined
// in a chain by springs with tension T(e) = k e + k3 e^3 for the extension e = l - L0; with an
// anchor, a first spring joins the fixed point `anchor` to particle 0. Linear dashpots -c v per
// particle. fixed lists velocity DOFs held fixed (for the alpha/beta projection).
class SpringChain : public model::DynamicalSystem {
 public:
  int n = 1;
  double m = 1.0, g = 9.81, k = 100.0, k3 = 0.0, L0 = 1.0, c = 0.0;
  bool use_anchor = true;
  Eigen::Vector3d anchor = Eigen::Vector3d::Zero();
  std::vector<Index> fixed;

  Index num_positions() const override { return 3 * n; }
  Index num_velocities() const override { return 3 * n; }
  void advance_positions(const Eigen::VectorXd& q0, const Eigen::VectorXd& u, double h,
                         Eigen::VectorXd& q1) const override {
    q1 = q0 + h * u;
  }
  void mass_matrix(double, const Eigen::VectorXd&, CsrMatrix& M) const override {
    M = dense_to_csr(m * Eigen::MatrixXd::Identity(3 * n, 3 * n));
  }
  // Spring s joins points a and b (a = -1: the anchor).
  int num_springs() const { return n - 1 + (use_anchor ? 1 : 0); }
  void ends(int s, int& a, int& b) const {
    a = use_anchor ? s - 1 : s;
    b = a + 1;
  }
  Eigen::Vector3d point(const Eigen::VectorXd& q, int i) const {
    return i < 0 ? anchor : Eigen::Vector3d(q.segment<3>(3 * i));
  }
  void forces(double, const Eigen::VectorXd& q, const Eigen::VectorXd& u, ForcePart part,
              Eigen::VectorXd& f) const override {
    f.setZero(3 * n);
    if (part == ForcePart::kGyroscopic) return;
    for (int i = 0; i < n; ++i) {
      f[3 * i + 2] -= m * g;
      f.segment<3>(3 * i) -= c * u.segment<3>(3 * i);
    }
    for (int s = 0; s < num_springs(); ++s) {
      int a, b;
      ends(s, a, b);
      const Eigen::Vector3d d = point(q, b) - point(q, a);
      const double l = d.norm(), e = l - L0;
      const Eigen::Vector3d fa = (k * e + k3 * e * e * e) / l * d;  // pulls a towards b when stretched
      if (a >= 0) f.segment<3>(3 * a) += fa;
      f.segment<3>(3 * b) -= fa;
    }
  }
  void stiffness(double, const Eigen::VectorXd& q, const Eigen::VectorXd&, bool projected,
                 CsrMatrix& K) const override {
    Eigen::MatrixXd Kd = Eigen::MatrixXd::Zero(3 * n, 3 * n);
    for (int s = 0; s < num_springs(); ++s) {
      int a, b;
      ends(s, a, b);
      const Eigen::Vector3d d = point(q, b) - point(q, a);
      const double l = d.norm(), e = l - L0;
      const Eigen::Vector3d nn = d / l;
      const double kl = k + 3.0 * k3 * e * e;    // dT/dl
      double tl = (k * e + k3 * e * e * e) / l;  // T / l: negative under compression
      if (projected) tl = std::max(tl, 0.0);
      const Eigen::Matrix3d P = nn * nn.transpose();
      const Eigen::Matrix3d Ks = kl * P + tl * (Eigen::Matrix3d::Identity() - P);
      Kd.block<3, 3>(3 * b, 3 * b) += Ks;
      if (a >= 0) {
        Kd.block<3, 3>(3 * a, 3 * a) += Ks;
        Kd.block<3, 3>(3 * a, 3 * b) -= Ks;
        Kd.block<3, 3>(3 * b, 3 * a) -= Ks;
      }
    }
    K = dense_to_csr(Kd);
  }
  void damping(double, const Eigen::VectorXd&, const Eigen::VectorXd&, CsrMatrix& D) const override {
    D = dense_to_csr(c * Eigen::MatrixXd::Identity(3 * n, 3 * n));
  }
  bool has_potential() const override { return true; }
  double potential_energy(double, const Eigen::VectorXd& q) const override {
    double V = 0.0;
    for (int i = 0; i < n; ++i) V += m * g * q[3 * i + 2];
    for (int s = 0; s < num_springs(); ++s) {
      int a, b;
      ends(s, a, b);
      const double e = (point(q, b) - point(q, a)).norm() - L0;
      V += 0.5 * k * e * e + 0.25 * k3 * e * e * e * e;
    }
    return V;
  }
  const std::vector<Index>& fixed_velocity_dofs() const override { return fixed; }
};

// Torque-free rigid body: q = unit quaternion (s, x, y, z) of the body frame, u = angular
// velocity w in body coordinates, M = J = diag(J1, J2, J3), F = 0 and the gyroscopic force
// G = -w x J w (Euler's equations). advance_positions is the exact exponential map
// q1 = q0 exp(h w) (quaternion.hpp, quat_step_body).
class RigidBody : public model::DynamicalSystem {
 public:
  Eigen::Vector3d J{1.0, 2.0, 3.0};

  Index num_positions() const override { return 4; }
  Index num_velocities() const override { return 3; }
  static Quaternion quat(const Eigen::VectorXd& q) { return Quaternion{q[0], Vec3{{q[1], q[2], q[3]}}}; }
  static Eigen::Vector4d vec(const Quaternion& p) { return {p.s, p.v[0], p.v[1], p.v[2]}; }
  void advance_positions(const Eigen::VectorXd& q0, const Eigen::VectorXd& u, double h,
                         Eigen::VectorXd& q1) const override {
    q1 = vec(quat_step_body(quat(q0), Vec3{{u[0], u[1], u[2]}}, h));
  }
  void mass_matrix(double, const Eigen::VectorXd&, CsrMatrix& M) const override {
    M = dense_to_csr(Eigen::MatrixXd(J.asDiagonal()));
  }
  void forces(double, const Eigen::VectorXd&, const Eigen::VectorXd& u, ForcePart part,
              Eigen::VectorXd& f) const override {
    f.setZero(3);
    if (part == ForcePart::kElastic) return;
    const Eigen::Vector3d w = u.head<3>();
    f = -w.cross(Eigen::Vector3d(J.cwiseProduct(w)));
  }
  void stiffness(double, const Eigen::VectorXd&, const Eigen::VectorXd&, bool, CsrMatrix& K) const override {
    K = zero_csr(3);
  }
  void damping(double, const Eigen::VectorXd&, const Eigen::VectorXd&, CsrMatrix& D) const override { D = zero_csr(3); }
  bool has_potential() const override { return true; }
  double potential_energy(double, const Eigen::VectorXd&) const override { return 0.0; }
  // Rotation matrix body -> world.
  static Eigen::Matrix3d rotation(const Eigen::VectorXd& q) {
    const Mat3 R = rotation_matrix(quat(q));
    Eigen::Matrix3d E;
    for (int r = 0; r < 3; ++r)
      for (int cc = 0; cc < 3; ++cc) E(r, cc) = R(r, cc);
    return E;
  }
  // Angular momentum in world coordinates R J w.
  Eigen::Vector3d world_momentum(const Eigen::VectorXd& q, const Eigen::VectorXd& u) const {
    return rotation(q) * Eigen::Vector3d(J.cwiseProduct(Eigen::Vector3d(u.head<3>())));
  }
};

// One DOF with a convex but saturating potential V = k log cosh(x), F = -k tanh(x),
// K = k / cosh^2(x): plain Newton on tanh overshoots and diverges from far starts, which is what
// the line search on the incremental potential is for.
class SaturatingSpring : public model::DynamicalSystem {
 public:
  double m = 1e-3, k = 1.0;

  Index num_positions() const override { return 1; }
  Index num_velocities() const override { return 1; }
  void advance_positions(const Eigen::VectorXd& q0, const Eigen::VectorXd& u, double h,
                         Eigen::VectorXd& q1) const override {
    q1 = q0 + h * u;
  }
  void mass_matrix(double, const Eigen::VectorXd&, CsrMatrix& M) const override {
    M = dense_to_csr(Eigen::MatrixXd::Constant(1, 1, m));
  }
  void forces(double, const Eigen::VectorXd& q, const Eigen::VectorXd&, ForcePart part,
              Eigen::VectorXd& f) const override {
    f.setZero(1);
    if (part != ForcePart::kGyroscopic) f[0] = -k * std::tanh(q[0]);
  }
  void stiffness(double, const Eigen::VectorXd& q, const Eigen::VectorXd&, bool, CsrMatrix& K) const override {
    const double c = std::cosh(q[0]);
    K = dense_to_csr(Eigen::MatrixXd::Constant(1, 1, k / (c * c)));
  }
  void damping(double, const Eigen::VectorXd&, const Eigen::VectorXd&, CsrMatrix& D) const override { D = zero_csr(1); }
  bool has_potential() const override { return true; }
  double potential_energy(double, const Eigen::VectorXd& q) const override {
    const double x = std::fabs(q[0]);
    return k * (x + std::log1p(std::exp(-2.0 * x)) - std::log(2.0));  // log cosh without overflow
  }
};

// A pendulum whose elastic forces turn NaN from time t_bad on (or whose stiffness is NaN).
class NanPendulum : public Pendulum {
 public:
  double t_bad = 0.0;
  bool nan_stiffness_only = false;
  void forces(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, ForcePart part,
              Eigen::VectorXd& f) const override {
    Pendulum::forces(t, q, u, part, f);
    if (!nan_stiffness_only && t >= t_bad && part != ForcePart::kGyroscopic)
      f[0] = std::numeric_limits<double>::quiet_NaN();
  }
  void stiffness(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, bool projected,
                 CsrMatrix& K) const override {
    Pendulum::stiffness(t, q, u, projected, K);
    if (nan_stiffness_only) K.values[0] = std::numeric_limits<double>::quiet_NaN();
  }
};

// A pendulum with a negative mass: every Cholesky / LDL^T of M + ... must reject it.
class NegativeMassPendulum : public Pendulum {
 public:
  void mass_matrix(double, const Eigen::VectorXd&, CsrMatrix& M) const override {
    M = dense_to_csr(Eigen::MatrixXd::Constant(1, 1, -1.0));
  }
};

// The multibody benchmark's hinge chain in joint coordinates: @p links rods of 0.1 m and 0.2 kg
// hinged about y, the first to the world at the origin, horizontal along x at q = 0.
inline model::KinematicTree hinge_chain_tree(int links) {
  model::KinematicTree tree(Vec3{{0, 0, -9.81}});
  for (int i = 0; i < links; ++i) {
    model::TreeBody b;
    b.parent = i - 1;
    b.axis = Vec3{{0, 1, 0}};
    b.joint_in_parent = Vec3{{i == 0 ? 0.0 : 0.05, 0, 0}};
    b.joint_in_body = Vec3{{-0.05, 0, 0}};
    b.inertia = make_spatial_inertia(0.2, Vec3{{0, 0, 0}}, Mat3{{1e-5, 0, 0, 0, 1.7e-4, 0, 0, 0, 1.7e-4}});
    tree.add_body(b);
  }
  return tree;
}

}  // namespace sinew::integrators::testing
