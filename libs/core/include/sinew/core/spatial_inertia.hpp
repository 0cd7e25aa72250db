/// @file
/// @brief The 6x6 spatial inertia of a rigid body (mechanics notes sec. 0.1): the matrix, its
/// closed-form inverse, the factorization M = G G^T for cheap solves, momentum, kinetic energy
/// and the fictitious (gyroscopic and offset-centre-of-mass) forces of a rotating body.
///
/// Frames: a SpatialInertia is given in the coordinates of one frame F attached to the body (or
/// a world-aligned frame at the body's origin, see rotate_inertia()): the centre of mass c and
/// the rotational inertia J about the centre of mass are in F coordinates, and twists (v, w) and
/// wrenches (f, tau) are about F's origin in F coordinates (spatial_vector.hpp).
#pragma once

#include <cmath>
#include <sstream>
#include <string>

#include "sinew/core/config.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/core/small_matrix_ops.hpp"
#include "sinew/core/spatial_vector.hpp"

namespace sinew {

/// Mass properties of a rigid body in one frame F: mass m > 0, centre of mass c (F coordinates,
/// offset from F's origin) and rotational inertia J about the centre of mass (F coordinates,
/// symmetric positive definite). Build it checked with make_spatial_inertia().
struct SpatialInertia {
  double mass;  ///< m > 0
  Vec3 com;     ///< centre of mass c relative to the frame origin
  Mat3 J;       ///< rotational inertia about the centre of mass, symmetric positive definite
};

/// The factor G of M = G G^T (mechanics notes sec. 0.1): G = [sqrt(m) I, 0; sqrt(m) [c], L] with
/// J = L L^T (Cholesky, L lower triangular); made by factorize_inertia(), used by
/// solve_inertia().
struct SpatialInertiaFactor {
  double sqrt_mass;  ///< sqrt(m)
  Vec3 com;          ///< c
  Mat3 L;            ///< lower-triangular Cholesky factor of J
};

/// Checked construction of a SpatialInertia (host only): throws sinew::Error when m is not
/// finite and > 0, c is not finite, or J is not symmetric (to 1e-12 of its largest entry) and
/// positive definite; the message names the offending value and the expected range.
inline SpatialInertia make_spatial_inertia(double mass, const Vec3& com, const Mat3& J) {
  std::ostringstream msg;
  msg.precision(17);
  if (!(mass > 0.0) || !std::isfinite(mass)) {
    msg << "spatial inertia: mass must be finite and > 0, got m = " << mass;
    throw Error(msg.str());
  }
  if (!std::isfinite(com[0]) || !std::isfinite(com[1]) || !std::isfinite(com[2])) {
    msg << "spatial inertia: centre of mass must be finite, got c = (" << com[0] << ", " << com[1] << ", " << com[2]
        << ")";
    throw Error(msg.str());
  }
  double scale = 0.0;
  for (double e : J.m) scale = std::fmax(scale, std::fabs(e));
  for (int r = 0; r < 3; ++r) {
    for (int c = r + 1; c < 3; ++c) {
      if (!(std::fabs(J(r, c) - J(c, r)) <= 1e-12 * scale)) {
        msg << "spatial inertia: rotational inertia J must be symmetric (|J(r,c) - J(c,r)| <= 1e-12 max|J|), got J("
            << r << "," << c << ") = " << J(r, c) << " and J(" << c << "," << r << ") = " << J(c, r);
        throw Error(msg.str());
      }
    }
  }
  Mat3 L{};
  if (!cholesky3(J, L)) {
    msg << "spatial inertia: rotational inertia J must be positive definite, got diagonal (" << J(0, 0) << ", "
        << J(1, 1) << ", " << J(2, 2) << ") with a non-positive Cholesky pivot";
    throw Error(msg.str());
  }
  return SpatialInertia{mass, com, J};
}

/// The 6x6 spatial inertia M = [m I, -m [c]; m [c], J - m [c][c]] (mechanics notes sec. 0.1),
/// mapping a twist (v, w) to the spatial momentum about the frame origin.
SINEW_HD SpatialMatrix spatial_inertia_matrix(const SpatialInertia& I) {
  const Mat3 C = cross_matrix(I.com);
  const Mat3 mI = I.mass * identity3(), mC = I.mass * C;
  return spatial_blocks(mI, -1.0 * mC, mC, I.J - mC * C);
}

/// Spatial momentum M V = (m (v + w x c), J w + m c x (v + w x c)): linear momentum and angular
/// momentum about the frame origin (sec. 0.1); it transforms between frames like a wrench.
SINEW_HD Wrench momentum(const SpatialInertia& I, const Twist& V) {
  const Vec3 vc = V.v + cross(V.w, I.com);  // velocity of the centre of mass
  const Vec3 p = I.mass * vc;
  return Wrench{p, I.J * V.w + cross(I.com, p)};
}

/// Kinetic energy T = 1/2 V^T M V = 1/2 m |v + w x c|^2 + 1/2 w^T J w.
SINEW_HD double kinetic_energy(const SpatialInertia& I, const Twist& V) { return 0.5 * power(V, momentum(I, V)); }

/// Fictitious (Coriolis / gyroscopic) force g(w) of Newton-Euler's equations
/// M (a, wdot) = (f, tau) + g, with
/// g = (-m w x (w x c), -w x (J w) - m c x (w x (w x c))) (the rightmost vector of mechanics
/// notes sec. 0.19 generalised to a body with inertia J; m c x (w x (w x c)) equals
/// -m w x c x c x w of the notes). It depends on w only. Two readings of (a, wdot):
/// - body coordinates (I in the body frame, V = (v, w) in body coordinates): a = vdot + w x v,
///   the body-frame components of the world acceleration of the origin (sec. 0.19);
/// - world-aligned coordinates at the body origin (I from rotate_inertia(I, R), V in world
///   coordinates): a = vdot and wdot are plain time derivatives, and (f, tau) is the applied
///   wrench about the moving origin.
/// With c = 0 this is the gyroscopic torque -w x J w of Euler's equations.
SINEW_HD Wrench fictitious_force(const SpatialInertia& I, const Vec3& w) {
  const Vec3 wwc = cross(w, cross(w, I.com));
  return Wrench{-I.mass * wwc, -(cross(w, I.J * w) + I.mass * cross(I.com, wwc))};
}

/// The same body seen in a frame rotated by R (coordinates y = R x): c' = R c, J' = R J R^T. With
/// R = R_BW this gives the world-aligned inertia about the body origin.
SINEW_HD SpatialInertia rotate_inertia(const SpatialInertia& I, const Mat3& R) {
  return SpatialInertia{I.mass, R * I.com, R * I.J * transpose(R)};
}

/// Factorization M = G G^T of sec. 0.1 (G in SpatialInertiaFactor). Returns false when m <= 0 or
/// J is not positive definite; make_spatial_inertia() has checked both on the host.
SINEW_HD bool factorize_inertia(const SpatialInertia& I, SpatialInertiaFactor& F) {
  F.sqrt_mass = I.mass > 0.0 ? sqrt(I.mass) : 0.0;
  F.com = I.com;
  return I.mass > 0.0 && cholesky3(I.J, F.L);
}

/// The 6x6 factor G = [sqrt(m) I, 0; sqrt(m) [c], L] (sec. 0.1).
SINEW_HD SpatialMatrix factor_matrix(const SpatialInertiaFactor& F) {
  return spatial_blocks(F.sqrt_mass * identity3(), Mat3{}, F.sqrt_mass * cross_matrix(F.com), F.L);
}

/// Solves M a = f with M = G G^T (sec. 0.1) by two block triangular solves:
/// a_w = J^-1 (f_tau - c x f_f), a_v = f_f / m + c x a_w (a few dozen flops, no 6x6 matrix formed).
SINEW_HD Twist solve_inertia(const SpatialInertiaFactor& F, const Wrench& f) {
  const Vec3 y1 = (1.0 / F.sqrt_mass) * f.f;                                 // G11 y1 = f1
  const Vec3 y2 = lower_solve(F.L, f.tau - F.sqrt_mass * cross(F.com, y1));  // L y2 = f2 - G21 y1
  const Vec3 aw = lower_transpose_solve(F.L, y2);                            // L^T x2 = y2
  return Twist{(1.0 / F.sqrt_mass) * y1 + cross(F.com, aw), aw};             // sqrt(m) (x1 - c x x2) = y1
}

/// J^-1 = L^-T L^-1 from the factor.
SINEW_HD Mat3 inverse_rotational_inertia(const SpatialInertiaFactor& F) {
  Mat3 Jinv{};
  for (int k = 0; k < 3; ++k) {
    Vec3 e{{0, 0, 0}};
    e[k] = 1.0;
    set_column(Jinv, k, lower_transpose_solve(F.L, lower_solve(F.L, e)));
  }
  return Jinv;
}

/// The closed-form inverse M^-1 = [1/m I - [c] J^-1 [c], [c] J^-1; -J^-1 [c], J^-1] (sec. 0.1).
SINEW_HD SpatialMatrix spatial_inertia_inverse(const SpatialInertiaFactor& F) {
  const Mat3 Jinv = inverse_rotational_inertia(F), C = cross_matrix(F.com);
  const double inv_m = 1.0 / (F.sqrt_mass * F.sqrt_mass);
  return spatial_blocks(inv_m * identity3() - C * Jinv * C, C * Jinv, -1.0 * (Jinv * C), Jinv);
}

}  // namespace sinew
