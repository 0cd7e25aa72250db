#include "sinew/model/frame_spring_field.hpp"
#include "sinew/core/eigen_interop.hpp"

#include "sinew/core/error.hpp"
#include "sinew/core/small_matrix_ops.hpp"
#include "sinew/model/mechanical_system.hpp"
#include "sinew/model/point_kinematics.hpp"

namespace sinew::model {
namespace {

RigidState rigid_state(const SystemState& s, Index b) {
  if (b == FrameSpringField::kWorldFrame)
    return RigidState{identity3(), Vec3{{0, 0, 0}}, Vec3{{0, 0, 0}}, Vec3{{0, 0, 0}}};
  const BodyState& B = s.bodies[b];
  return RigidState{B.R, B.x, B.v, B.w};
}

Eigen::Matrix<double, 12, 12> to_eigen(const Mat12& A) {
  Eigen::Matrix<double, 12, 12> E;
  for (int r = 0; r < 12; ++r)
    for (int c = 0; c < 12; ++c) E(r, c) = A(r, c);
  return E;
}

// blockdiag(R_A, R_A, R_B, R_B): body to world coordinates of (f_A, tau_A, f_B, tau_B).
Eigen::Matrix<double, 12, 12> frame_rotations(const RigidState& A, const RigidState& B) {
  Eigen::Matrix<double, 12, 12> T = Eigen::Matrix<double, 12, 12>::Zero();
  const Eigen::Matrix3d RA = to_eigen(A.R), RB = to_eigen(B.R);
  T.block<3, 3>(0, 0) = T.block<3, 3>(3, 3) = RA;
  T.block<3, 3>(6, 6) = T.block<3, 3>(9, 9) = RB;
  return T;
}

}  // namespace

void FrameSpringField::add(Index a, Index b, const FrameSpring& spring) {
  validate(spring);
  require(a != b, [&] {
    return "FrameSpringField::add: spring " + std::to_string(springs_.size()) + " joins body " + std::to_string(a) +
           " to itself";
  });
  springs_.push_back(Spring{a, b, spring});
}

void FrameSpringField::check(const MechanicalSystem& system) const {
  for (std::size_t k = 0; k < springs_.size(); ++k) {
    system.check_body(springs_[k].a, "frame spring " + std::to_string(k) + ", body A");
    if (springs_[k].b != kWorldFrame)
      system.check_body(springs_[k].b, "frame spring " + std::to_string(k) + ", body B");
  }
}

void FrameSpringField::layout(const MechanicalSystem& system, ElementLayout& out) const {
  std::vector<Index> dofs;
  for (const Spring& sp : springs_) {
    dofs.clear();
    system.append_point_dofs(body_point(sp.a, Vec3{{0, 0, 0}}), dofs);
    if (sp.b != kWorldFrame) system.append_point_dofs(body_point(sp.b, Vec3{{0, 0, 0}}), dofs);
    out.add(dofs);
  }
}

void FrameSpringField::add_forces(const SystemState& s, Eigen::VectorXd& f) const {
  for (const Spring& sp : springs_) {
    const RigidState A = rigid_state(s, sp.a), B = rigid_state(s, sp.b);
    const FrameSpringWrench W = frame_spring_wrench(sp.params, A, B);
    const Vec3 fa = A.R * W.f_A, ta = A.R * W.tau_A;
    for (int c = 0; c < 3; ++c) {
      f[s.body_dof[sp.a] + c] += fa[c];
      f[s.body_dof[sp.a] + 3 + c] += ta[c];
    }
    if (sp.b == kWorldFrame) continue;
    const Vec3 fb = B.R * W.f_B, tb = B.R * W.tau_B;
    for (int c = 0; c < 3; ++c) {
      f[s.body_dof[sp.b] + c] += fb[c];
      f[s.body_dof[sp.b] + 3 + c] += tb[c];
    }
  }
}

void FrameSpringField::stiffness_values(const SystemState& s, bool projected, double* values) const {
  for (const Spring& sp : springs_) {
    const RigidState A = rigid_state(s, sp.a), B = rigid_state(s, sp.b);
    Mat12 Jp{};
    frame_spring_position_jacobian(sp.params, A, B, Jp);
    const FrameSpringWrench W = frame_spring_wrench(sp.params, A, B);
    const Eigen::Matrix<double, 12, 12> T = frame_rotations(A, B);
    // World wrench F_w = T F_body and world perturbations dq_w = T dq_body. Besides T Jp T^T,
    // rotating a body by dtheta turns its world wrench: d(R f)/dtheta = -[R f] (notes sec. 0.23).
    Eigen::Matrix<double, 12, 12> dF = T * to_eigen(Jp) * T.transpose();
    const Vec3 w[4] = {A.R * W.f_A, A.R * W.tau_A, B.R * W.f_B, B.R * W.tau_B};
    for (int k = 0; k < 4; ++k) dF.block<3, 3>(3 * k, k < 2 ? 3 : 9) -= to_eigen(cross_matrix(w[k]));
    const int n = sp.b == kWorldFrame ? 6 : 12;
    Eigen::MatrixXd K = -dF.topLeftCorner(n, n);
    if (projected) project_to_psd(K);
    values = write_element_block(K, values);
  }
}

void FrameSpringField::damping_values(const SystemState& s, double* values) const {
  for (const Spring& sp : springs_) {
    const RigidState A = rigid_state(s, sp.a), B = rigid_state(s, sp.b);
    Mat12 Jv{};
    frame_spring_velocity_jacobian(sp.params, A, B, Jv);
    const Eigen::Matrix<double, 12, 12> T = frame_rotations(A, B);
    const int n = sp.b == kWorldFrame ? 6 : 12;
    const Eigen::MatrixXd D = -(T * to_eigen(Jv) * T.transpose()).topLeftCorner(n, n);
    values = write_element_block(D, values);
  }
}

double FrameSpringField::energy(const SystemState& s) const {
  double V = 0.0;
  for (const Spring& sp : springs_) {
    const RigidState A = rigid_state(s, sp.a), B = rigid_state(s, sp.b);
    const FrameSpring& p = sp.params;
    const Vec3 x1 = A.x + A.R * p.p1, x2 = B.x + B.R * p.p2;
    const Vec3 phi = rotation_vector(transpose(A.R * p.R_1A) * (B.R * p.R_2B));
    V += 0.5 * p.translational_stiffness * squared_norm(x2 - x1) + 0.5 * p.rotational_stiffness * squared_norm(phi);
  }
  return V;
}

}  // namespace sinew::model
