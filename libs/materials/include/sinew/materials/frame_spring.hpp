/// @file
/// @brief Frame springs: a six-degree-of-freedom spring with damping between frame 1 (fixed to
/// rigid frame A) and frame 2 (fixed to B), its wrenches on A and B and their position and
/// velocity Jacobians in body coordinates (artisynth mechanics notes, section 0.22).
#pragma once

#include <cmath>

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/materials/mat3_ops.hpp"
#include "sinew/materials/small_dense.hpp"

namespace sinew {

/// Parameters and attachments of a frame spring (notes, eqs. 0.37-0.40).
struct FrameSpring {
  double translational_stiffness = 0.0;  ///< k_t (N/m); 0 = no translational spring unless set
  double rotational_stiffness = 0.0;     ///< k_r (N m/rad); 0 = no rotational spring unless set
  double translational_damping = 0.0;    ///< d_t (N s/m); damping is opt-in
  double rotational_damping = 0.0;       ///< d_r (N m s/rad); damping is opt-in
  Mat3 R_1A = identity3();               ///< rotation from frame 1 to A (frame 1 is rigid on A)
  Vec3 p1 = Vec3{{0, 0, 0}};             ///< origin of frame 1 in A coordinates
  Mat3 R_2B = identity3();               ///< rotation from frame 2 to B
  Vec3 p2 = Vec3{{0, 0, 0}};             ///< origin of frame 2 in B coordinates
};

/// Pose and world velocity of a rigid frame.
struct RigidState {
  Mat3 R;  ///< rotation from the body frame to world (R_AW)
  Vec3 x;  ///< origin in world coordinates
  Vec3 v;  ///< velocity of the origin, world coordinates
  Vec3 w;  ///< angular velocity, world coordinates
};

/// Wrenches of a frame spring on A and B, each in its own body coordinates (eqs. 0.39-0.40).
struct FrameSpringWrench {
  Vec3 f_A;    ///< force on A
  Vec3 tau_A;  ///< torque on A about its origin
  Vec3 f_B;    ///< force on B
  Vec3 tau_B;  ///< torque on B about its origin
};

/// Rotation vector phi u of a rotation R (the log map), phi in [0, pi]; near phi = pi the axis
/// comes from the largest column of (R + I) / 2.
SINEW_HD Vec3 rotation_vector(const Mat3& R) {
  const Vec3 w{{0.5 * (R(2, 1) - R(1, 2)), 0.5 * (R(0, 2) - R(2, 0)), 0.5 * (R(1, 0) - R(0, 1))}};  // sin(phi) u
  const double s = norm(w), c = 0.5 * (trace(R) - 1.0);
  const double phi = atan2(s, c);
  if (s > 1e-6 || c > 0.0) {
    const double scale = s > 1e-300 ? phi / s : 1.0;  // phi / sin(phi) -> 1 as phi -> 0
    return Vec3{{scale * w[0], scale * w[1], scale * w[2]}};
  }
  // phi close to pi: u u^T = (R + I) / 2 + O(s); take its largest column, signed by w.
  int k = 0;
  for (int i = 1; i < 3; ++i)
    if (R(i, i) > R(k, k)) k = i;
  Vec3 u{{0.5 * (R(0, k) + (k == 0)), 0.5 * (R(1, k) + (k == 1)), 0.5 * (R(2, k) + (k == 2))}};
  const double n = norm(u), sign = dot(u, w) < 0 ? -1.0 : 1.0;
  return Vec3{{sign * phi * u[0] / n, sign * phi * u[1] / n, sign * phi * u[2] / n}};
}

/// The matrix U of eq. 0.45 with d(phi u)/dt = U omega, phi u the rotation vector of R_21 and
/// omega the angular velocity of frame 2 relative to frame 1 in frame-1 coordinates:
/// U = 1/2 (phi cot(phi/2) I + (2 - phi cot(phi/2)) u u^T - phi [u]), written in v = phi u so
/// that it has the limit U = I at phi = 0 (series for small phi).
SINEW_HD Mat3 rotation_vector_jacobian(const Vec3& v) {
  const double phi = norm(v);
  double a, b;  // a = phi cot(phi/2), b = (2 - a) / phi^2
  if (phi < 1e-4) {
    a = 2.0 - phi * phi / 6.0;
    b = 1.0 / 6.0 + phi * phi / 360.0;
  } else {
    a = phi / tan(0.5 * phi);
    b = (2.0 - a) / (phi * phi);
  }
  return mat3_scale(0.5, mat3_sub(mat3_axpby(a, identity3(), b, outer(v, v)), skew(v)));
}

/// Checks a frame spring's coefficients (host side).
/// @throws sinew::Error naming the coefficient when a stiffness or damping is negative or not
///         finite.
void validate(const FrameSpring& spring);

/// Wrenches on A and B (eqs. 0.37-0.40): f_A = k_t R_AW^T (x2 - x1) + d_t R_AW^T (xdot2 - xdot1),
/// tau_A = k_r R_1A (phi u) + d_r R_AW^T (w_B - w_A) + p1 x f_A, and f_B, tau_B with the opposite
/// signs in B coordinates; phi u is the rotation vector of R_21 = R_1W^T R_2W (frame 1 coords).
SINEW_HD FrameSpringWrench frame_spring_wrench(const FrameSpring& s, const RigidState& A, const RigidState& B) {
  const Vec3 p1w = mat3_mul(A.R, s.p1), p2w = mat3_mul(B.R, s.p2);
  const Vec3 d{
      {B.x[0] + p2w[0] - A.x[0] - p1w[0], B.x[1] + p2w[1] - A.x[1] - p1w[1], B.x[2] + p2w[2] - A.x[2] - p1w[2]}};
  const Vec3 c1 = cross(A.w, p1w), c2 = cross(B.w, p2w);  // xdot = v + w x (R p), eq. 0.41
  const Vec3 dd{{B.v[0] + c2[0] - A.v[0] - c1[0], B.v[1] + c2[1] - A.v[1] - c1[1], B.v[2] + c2[2] - A.v[2] - c1[2]}};
  const Vec3 dw = vec3_sub(B.w, A.w);
  const Vec3 fw{{s.translational_stiffness * d[0] + s.translational_damping * dd[0],
                 s.translational_stiffness * d[1] + s.translational_damping * dd[1],
                 s.translational_stiffness * d[2] + s.translational_damping * dd[2]}};  // world force on A
  const Mat3 R1W = A.R * s.R_1A, R2W = B.R * s.R_2B;
  const Vec3 phi_u = rotation_vector(transpose(R1W) * R2W);
  // Rotational part in world coordinates: k_r R_1W (phi u) + d_r (w_B - w_A).
  const Vec3 rk = mat3_mul(R1W, phi_u);
  const Vec3 rw{{s.rotational_stiffness * rk[0] + s.rotational_damping * dw[0],
                 s.rotational_stiffness * rk[1] + s.rotational_damping * dw[1],
                 s.rotational_stiffness * rk[2] + s.rotational_damping * dw[2]}};
  const Mat3 AT = transpose(A.R), BT = transpose(B.R);
  FrameSpringWrench out{};
  out.f_A = mat3_mul(AT, fw);
  const Vec3 ra = mat3_mul(AT, rw), ta = cross(s.p1, out.f_A);
  out.tau_A = Vec3{{ra[0] + ta[0], ra[1] + ta[1], ra[2] + ta[2]}};
  out.f_B = mat3_mul(BT, Vec3{{-fw[0], -fw[1], -fw[2]}});
  const Vec3 rb = mat3_mul(BT, rw), tb = cross(s.p2, out.f_B);
  out.tau_B = Vec3{{-rb[0] + tb[0], -rb[1] + tb[1], -rb[2] + tb[2]}};
  return out;
}

/// Writes the 3x3 block M at block row bi, block column bj of a 12x12 matrix.
SINEW_HD void set_block(Mat12& J, int bi, int bj, const Mat3& M) {
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) J(3 * bi + r, 3 * bj + c) = M(r, c);
}

/// Position Jacobian J_p of the body-coordinate wrench (f_A, tau_A, f_B, tau_B) with respect to
/// (dx_A, dtheta_A, dx_B, dtheta_B), each in its body's coordinates, world velocities held fixed
/// (notes, section 0.22.1, the block matrix after eq. 0.53, built from eqs. 0.43-0.53).
/// @param s   the spring.
/// @param A   state of frame A.
/// @param B   state of frame B.
/// @param Jp  (12 x 12) output, not symmetric in general (rotating frames, damping).
SINEW_HD void frame_spring_position_jacobian(const FrameSpring& s, const RigidState& A, const RigidState& B,
                                             Mat12& Jp) {
  const double kt = s.translational_stiffness, kr = s.rotational_stiffness, dt = s.translational_damping;
  const FrameSpringWrench W = frame_spring_wrench(s, A, B);
  const Mat3 R_BA = transpose(A.R) * B.R, R_AB = transpose(R_BA);
  const Mat3 R1W = A.R * s.R_1A, R2W = B.R * s.R_2B;
  const Mat3 R_A1 = transpose(s.R_1A), R_B1 = transpose(R1W) * B.R, R_1B = transpose(R_B1);
  const Mat3 U = rotation_vector_jacobian(rotation_vector(transpose(R1W) * R2W)), Ut = transpose(U);
  const Mat3 P1 = skew(s.p1), P2 = skew(s.p2), I = identity3();
  const Mat3 WA = skew(mat3_mul(transpose(A.R), A.w)), WB = skew(mat3_mul(transpose(B.R), B.w));
  const Vec3 ta1 = vec3_sub(W.tau_A, cross(s.p1, W.f_A)), tb2 = vec3_sub(W.tau_B, cross(s.p2, W.f_B));
  const Mat3 J00 = mat3_scale(-kt, I);
  const Mat3 J01 = mat3_add(mat3_axpby(kt, P1, dt, WA * P1), skew(W.f_A));
  const Mat3 J02 = mat3_scale(kt, R_BA);
  const Mat3 J03 = mat3_axpby(-kt, R_BA * P2, -dt, R_BA * WB * P2);
  const Mat3 J20 = mat3_scale(kt, R_AB);
  const Mat3 J21 = mat3_axpby(-kt, R_AB * P1, -dt, R_AB * WA * P1);
  const Mat3 J22 = mat3_scale(-kt, I);
  const Mat3 J23 = mat3_add(mat3_axpby(kt, P2, dt, WB * P2), skew(W.f_B));
  set_block(Jp, 0, 0, J00);
  set_block(Jp, 0, 1, J01);
  set_block(Jp, 0, 2, J02);
  set_block(Jp, 0, 3, J03);
  set_block(Jp, 1, 0, P1 * J00);
  set_block(Jp, 1, 1, mat3_add(mat3_axpby(1.0, P1 * J01, -kr, s.R_1A * Ut * R_A1), skew(ta1)));
  set_block(Jp, 1, 2, P1 * J02);
  set_block(Jp, 1, 3, mat3_axpby(1.0, P1 * J03, kr, s.R_1A * U * R_B1));
  set_block(Jp, 2, 0, J20);
  set_block(Jp, 2, 1, J21);
  set_block(Jp, 2, 2, J22);
  set_block(Jp, 2, 3, J23);
  set_block(Jp, 3, 0, P2 * J20);
  set_block(Jp, 3, 1, mat3_axpby(1.0, P2 * J21, kr, R_1B * Ut * R_A1));
  set_block(Jp, 3, 2, P2 * J22);
  set_block(Jp, 3, 3, mat3_add(mat3_axpby(1.0, P2 * J23, -kr, R_1B * U * R_B1), skew(tb2)));
}

/// Velocity Jacobian J_v of the body-coordinate wrench with respect to the body-coordinate
/// velocities (v_A, w_A, v_B, w_B) (notes, section 0.22.2, eqs. 0.54-0.57).
/// @param s   the spring.
/// @param A   state of frame A (its velocities do not enter).
/// @param B   state of frame B.
/// @param Jv  (12 x 12) output.
SINEW_HD void frame_spring_velocity_jacobian(const FrameSpring& s, const RigidState& A, const RigidState& B,
                                             Mat12& Jv) {
  const double dt = s.translational_damping, dr = s.rotational_damping;
  const Mat3 R_BA = transpose(A.R) * B.R, R_AB = transpose(R_BA);
  const Mat3 P1 = skew(s.p1), P2 = skew(s.p2), I = identity3();
  set_block(Jv, 0, 0, mat3_scale(-dt, I));
  set_block(Jv, 0, 1, mat3_scale(dt, P1));
  set_block(Jv, 0, 2, mat3_scale(dt, R_BA));
  set_block(Jv, 0, 3, mat3_scale(-dt, R_BA * P2));
  set_block(Jv, 1, 0, mat3_scale(-dt, P1));
  set_block(Jv, 1, 1, mat3_axpby(-dr, I, dt, P1 * P1));
  set_block(Jv, 1, 2, mat3_scale(dt, P1 * R_BA));
  set_block(Jv, 1, 3, mat3_axpby(dr, R_BA, -dt, P1 * R_BA * P2));
  set_block(Jv, 2, 0, mat3_scale(dt, R_AB));
  set_block(Jv, 2, 1, mat3_scale(-dt, R_AB * P1));
  set_block(Jv, 2, 2, mat3_scale(-dt, I));
  set_block(Jv, 2, 3, mat3_scale(dt, P2));
  set_block(Jv, 3, 0, mat3_scale(dt, P2 * R_AB));
  set_block(Jv, 3, 1, mat3_axpby(dr, R_AB, -dt, P2 * R_AB * P1));
  set_block(Jv, 3, 2, mat3_scale(-dt, P2));
  set_block(Jv, 3, 3, mat3_axpby(-dr, I, dt, P2 * P2));
}

}  // namespace sinew
