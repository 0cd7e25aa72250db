/// @file
/// @brief The contact frame: unit normal and two orthonormal tangents built by Gram-Schmidt
/// (realtime-hyperelastic-frictional-contact, Section 3.2 and Appendix A.1, Eq. 29-33).
#pragma once

#include "sinew/collision/vec3_ops.hpp"

namespace sinew {

/// Orthonormal contact basis: the rows of the contact Jacobian H of one contact are
/// n^T C, t1^T C and t2^T C (Appendix A.1, Eq. 30-31), so {n, t1, t2} must be orthonormal for
/// the force split of Eq. 33 to hold.
struct ContactFrame {
  Vec3 normal;    ///< unit normal, pointing from participant B towards participant A
  Vec3 tangent1;  ///< first unit tangent, orthogonal to normal
  Vec3 tangent2;  ///< second unit tangent, normal x tangent1 (right-handed frame)
};

/// Builds {n, t1, t2} from a normal by Gram-Schmidt: t1 is @p seed with its component along n
/// removed and normalised; t2 = n x t1. When @p seed is (nearly) parallel to n, the coordinate
/// axis least aligned with n is used instead, so the frame is always orthonormal.
/// @param normal a non-zero vector (normalised here); a zero vector yields the z axis.
/// @param seed preferred direction of t1 (e.g. the tangential relative velocity).
SINEW_HD ContactFrame contact_frame(const Vec3& normal, const Vec3& seed) {
  ContactFrame f;
  f.normal = v3::normalized_or(normal, v3::make(0, 0, 1));
  const Vec3& n = f.normal;
  // Gram-Schmidt on the seed; 1e-6 of |seed| left after projection is the least we accept,
  // below that the seed carries no reliable direction.
  Vec3 t = v3::madd(seed, -dot(seed, n), n);
  const double seed_norm = norm(seed);
  if (!(norm(t) > 1e-6 * seed_norm) || seed_norm == 0.0) {
    // The axis with the smallest |n_k| is at least 1/sqrt(3)-away from parallel to n.
    int k = 0;
    if (fabs(n[1]) < fabs(n[k])) k = 1;
    if (fabs(n[2]) < fabs(n[k])) k = 2;
    Vec3 e = v3::make(0, 0, 0);
    e[k] = 1.0;
    t = v3::madd(e, -dot(e, n), n);
  }
  f.tangent1 = v3::normalized_or(t, v3::make(1, 0, 0));
  f.tangent2 = cross(n, f.tangent1);
  return f;
}

/// Builds {n, t1, t2} from a normal alone (seed: the coordinate axis least aligned with n), a
/// deterministic frame that depends only on n.
SINEW_HD ContactFrame contact_frame(const Vec3& normal) { return contact_frame(normal, v3::make(0, 0, 0)); }

}  // namespace sinew
