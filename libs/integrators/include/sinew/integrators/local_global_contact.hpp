/// @file
/// @brief Frictional contact of a LocalGlobalIntegrator solid against analytic obstacles: the
/// seed paper's constrained global step (Sections 5.1-5.4, eqs. (9)-(28), Algorithm 4).
///
/// Formulation (impulses r = h lambda, FCLIB's local variables). Implicit Euler with contact
/// impulses, M (v - v_t) = h f + H^T r, times h and with the elastic terms of eq. (11), reads
///   A q = b^k + h H^T r,      A = M + h^2 sum w G^T G,  b^k = M q~ + h^2 sum w G^T p^k,   (11), (15a)
/// i.e. the seed's h^2 J^T lambda with r = h lambda. H (3 rows per contact: n, t1, t2 on the
/// vertex's xyz, built once per step from the collision at q_t) gives the constraint velocities
///   u = H (q - q_t) / h + d / h - H v_obs,
/// normal rows: the rate of the linearized gap d + n.(x - x_t) - h n.v_obs at the step's end
/// (d = distance at q_t minus the thickness; Signorini on u_n >= 0 keeps that gap >= 0);
/// tangent rows: the sliding velocity relative to the obstacle's surface velocity v_obs.
/// With q_free = A^-1 b^k and q = q_free + A^-1 h H^T r,
///   u = W r + q_loc,   W = H A^-1 H^T = H S'^T S' H^T  (eq. (27), no h factor in these units),
///   q_loc = H (q_free - q_t) / h + d / h - H v_obs.
/// W is fixed for the whole step and only q_loc changes with the L-G iteration, so each
/// iteration is an FCLIB local problem; Algorithm 4 takes ONE seed Newton step on it warm-started
/// from the current r (SeedNewtonStep), then corrects q = q_free + A^-1 (h H^T r)
/// (= S'^T S' (b^k + h H^T r), eq. (23b)). The seed's Delta lambda = (1/h^2)(...)^-1(h - J S^T S g)
/// of Algorithm 4 is the same step in lambda units. v = (q - q_t) / h as without contact.
/// The complementarity preconditioner of eq. (28) is rho = diag(W) in these units (the seed's
/// h^2 W_jj and h W_jj are the same numbers expressed for delta and delta-dot); the mass-inverse
/// alternative is diag(H M^-1 H^T) = 1 / m_v per row (Macklin et al. 2019, Sec. 7.5 / Fig. 7).
///
/// Where the work runs. Per step: collision on the host (q_t and q~ downloaded, one SignedDistance
/// per candidate vertex and obstacle, contacts ordered by vertex then obstacle); W from the
/// scalar C = P S'^T S' P^T (P selects the contact vertices) by three sparse products on the
/// backend (symbolic phases on the host; local_global_contact_solver.cpp says why this and not
/// sum_d (S' H_d^T)^T (S' H_d^T)), then its 3x3 frame expansion W = C_ab f_j f_k^T on the host; H, W and the SpGEMM
/// results are (re)allocated each step that has contacts, since the contact set changes (the only allocations of a
/// step). Per L-G iteration, all on the backend: q_loc (one SpMV), the Newton step (indicator kernel + CR on W), the
/// correction (transposed SpMV and a second sparse-inverse apply). Tested on the host backends; the CUDA path uses the
/// same backend kernels and SeedNewtonStep's CUDA kernel but has not been run.
#pragma once

#include <vector>

#include "sinew/collision/shape.hpp"
#include "sinew/constraints/ncp_functions.hpp"
#include "sinew/core/config.hpp"

namespace sinew::integrators {

/// A rigid analytic obstacle: a shape placed by a pose, moving with a rigid motion, with a
/// Coulomb friction coefficient against the solid.
struct Obstacle {
  Shape shape{ShapeType::kHalfSpace, {0.0, 0.0, 0.0}};  ///< shape in its local frame (half-space: z <= 0)
  Pose pose = identity_pose();                          ///< placement at the current step's start
  /// Rigid velocity: enters u through the surface velocity, and the pose advances by it after
  /// each step (translation += h linear, rotation = exp(h angular) rotation).
  Motion motion{{{0.0, 0.0, 0.0}}, {{0.0, 0.0, 0.0}}};
  double friction = 0.0;  ///< Coulomb coefficient mu >= 0 of the contacts on this obstacle
};

/// The half-space {x : n.(x - point) <= 0} with outward normal @p normal (not necessarily unit)
/// as an Obstacle with friction @p mu. @throws sinew::Error naming "normal" when it is zero or
/// not finite, "point" when not finite.
Obstacle half_space_obstacle(const Vec3& normal, const Vec3& point, double mu);

/// Which complementarity preconditioner rho the seed Newton step uses (eq. (28) vs Sec. 7.5).
enum class ContactPreconditioner {
  kDelassusDiagonal,  ///< rho = diag(W) = diag(H A^-1 H^T): the seed's eq. (28), stiffness-aware
  kMassInverse        ///< rho = diag(H M^-1 H^T) = 1 / m_v: Macklin et al. 2019's choice, the seed's foil
};

/// Options of the contact solve inside each L-G iteration.
struct LocalGlobalContactOptions {
  /// NCP function of the seed Newton step; FB is the seed's choice (Sec. 6).
  constraints::NcpFunction function = constraints::NcpFunction::kFischerBurmeister;
  /// CR iterations per Newton step: 10, the seed's Table 3 setting (its stick/slip test, Sec. 7.5,
  /// uses 24).
  int cr_iterations = 10;
  /// Seed Newton steps per L-G iteration: 1 is Algorithm 4 (W fixed, q_loc refreshed each time).
  int newton_steps = 1;
  /// eq. (28)'s diag(W) by default.
  ContactPreconditioner preconditioner = ContactPreconditioner::kDelassusDiagonal;
  /// Start each step's impulses from the previous step's, matched by (vertex, obstacle) and
  /// re-expressed in the new frame: a resting contact then starts at its solution.
  bool warm_start = true;
};

}  // namespace sinew::integrators
