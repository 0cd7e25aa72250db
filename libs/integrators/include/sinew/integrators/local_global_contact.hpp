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
/// iteration is an FCLIB local problem; Algorithm 4 takes ONE indicator-Newton step on it warm-started
/// from the current r (IndicatorNewtonStep; ContactSolve::kSeedSteps), or it is solved to a
/// tolerance (ContactSolve::kConverged), then corrects q = q_free + A^-1 (h H^T r)
/// (= S'^T S' (b^k + h H^T r), eq. (23b)). The seed's Delta lambda = (1/h^2)(...)^-1(h - J S^T S g)
/// of Algorithm 4 is the same step in lambda units. v = (q - q_t) / h as without contact.
/// The complementarity preconditioner of eq. (28) is rho = diag(W) in these units (the seed's
/// h^2 W_jj and h W_jj are the same numbers expressed for delta and delta-dot); the mass-inverse
/// alternative is diag(H M^-1 H^T) = 1 / m_v per row (Macklin et al. 2019, Sec. 7.5 / Fig. 7).
///
/// Contact between bodies (LocalGlobalDescription::body_contact; vertex_triangle_contacts.hpp): a
/// contact vertex v of one body against the nearest boundary triangle (x_a, x_b, x_c) of another
/// with closest-point weights b. Its rows are H_(j,i) = f_ji^T (e_v - b_a e_a - b_b e_b - b_c e_c)
/// (x) I_3 over four vertices (eq. (11)'s H for two deformable sides; d = the signed gap at q_t
/// minus the thickness, no obstacle velocity), so u is the relative velocity, the cone acts on it
/// and the correction h H^T r pushes both bodies: +R on v, -b_k R on the triangle (internal
/// impulses, momentum kept). W_(j,i),(k,l) = K_jk f_ji . f_kl, K_jk = sum_(a in j, b in k)
/// w_a w_b C_ab; contacts couple across the two bodies' elimination trees (contact_groups()). The
/// key (vertex, obstacles + triangle) orders the contacts after the vertex's obstacle contacts
/// and matches them for the warm start. An edge-edge contact (edge_edge_contacts.hpp) between
/// edges (a0, a1) and (b0, b1) with closest points at s and t has the rows
/// f_ji^T ((1 - s) e_a0 + s e_a1 - (1 - t) e_b0 - t e_b1) (x) I_3, the same four-vertex form; its
/// key (a0, obstacles + triangles + edge b, a1) follows a0's vertex-triangle contacts.
///
/// Where the work runs. Per step: collision on the host (q_t and q~ downloaded, one SignedDistance
/// per candidate vertex and obstacle, contacts ordered by vertex then obstacle); then W, in one of
/// two forms (LocalGlobalContactOptions::delassus, the "Schur." phase either way). With P selecting
/// the rows' nv vertices, W = G (C (x) I_3) G^T, G = H P_3^T (3 frame vectors per contact row),
/// C = P S'^T S' P^T = Y Z, Y = P S'^T (the vertices' rows of S'^T), Z = Y^T. Column a of S' is
/// non-zero exactly on a's elimination-tree path, and all paths of one tree meet at its root, so C
/// (and W: 9 nc^2 entries) is dense among the contact vertices of one connected mesh, while Y has
/// only a path's length per vertex (~180 entries at the 71 x 71 cloth: 5e5 against W's 6.9e7 at
/// 2769 contacts).
///   - operator (local_global/contact_operator.cpp; kAuto's choice when 2 (3 nnz(Y) + nnz(G)) <
///     nnz(W), i.e. from about ten contacts on one mesh): Y, Z, G and G^T are gathered on the
///     host and uploaded; each product with W is X = G^T r, T = Z X, X = Y T (two spmv3, the xyz
///     columns at once), y = G X, all backend kernels in a fixed order (the same bits on serial, tbb
///     and kokkos at any thread count; CUDA runs the same kernels). diag(W) for eq. (28) is
///     C_aa |f|^2 with C_aa = ||Y_a||^2 (cable rows: g^T C g from sparse row products). C and W are
///     never formed, which makes the contact-rich scenes an order of magnitude faster than with
///     the stored W (table3_bench timings in docs/benchmarks.md).
///   - explicit (small contact counts, and the reference the tests compare with): C is built one
///     of two ways (LocalGlobalContactOptions::schur, local_global/delassus.cpp):
///       - dense (host backends; kAuto's choice from 16 vertices when C is at least 25% dense):
///         Z split by rows of S'; the rows that at least a quarter of the columns share (the top
///         separators) form a dense panel and C = Zd^T Zd is an Eigen GEMM in fixed 128 x 128
///         tiles of the upper triangle, the remaining rows add their sparse outer products row by
///         row of C, and the lower triangle is mirrored. Every tile and row is one task with a
///         fixed order of sums, so C has the same bits on serial, tbb and kokkos at any thread
///         count, and is exactly symmetric. It is several times faster than the sparse path
///         (docs/benchmarks.md).
///       - sparse (every backend; the CUDA path, and small or block-diagonal C): Y = P S'^T,
///         Z = S' P^T, C = Y Z by three sparse products on the backend (symbolic phases on the
///         host), C downloaded. The Backend vocabulary has no dense product, so CUDA keeps this path.
///     then W_(j,i),(k,l) = C_ab f_ji . f_kl is written straight into its backend arrays on host
///     backends (in parallel over the contacts, rows of one contact per task) and through a host
///     copy on CUDA; W's arrays only grow. CR's products are SpMVs
///     with the stored W. LocalGlobalIntegrator::delassus() assembles W this way on request also
///     after an operator step.
/// Per L-G iteration, all on the backend: q_loc (one SpMV), the Newton step (indicator kernel + CR
/// on W in either form), the correction (transposed SpMV and a second sparse-inverse apply).
/// Reuse between steps: with the same contacts (vertices, keys, frames, weights) and cable rows as
/// the last step, H and W are the same bit for bit and are kept (LocalGlobalContactOptions::
/// reuse_delassus; W's C is also kept while the rows' vertices stay). H, e, W and the local
/// vectors live in arrays that only grow: a step allocates them only when the contacts outgrow
/// them (the operator form's factors are rebuilt when the contact set changes).
/// Tested on the host backends; the CUDA path uses the same backend kernels and IndicatorNewtonStep's
/// CUDA kernel but has not been run.
#pragma once

#include <vector>

#include "sinew/collision/obstacle.hpp"
#include "sinew/collision/shape.hpp"
#include "sinew/constraints/ncp_functions.hpp"
#include "sinew/core/config.hpp"

namespace sinew::integrators {

/// Which complementarity preconditioner rho the indicator-Newton step uses (eq. (28) vs Sec. 7.5).
enum class ContactPreconditioner {
  kDelassusDiagonal,  ///< rho = diag(W) = diag(H A^-1 H^T): the seed's eq. (28), stiffness-aware
  kMassInverse        ///< rho = diag(H M^-1 H^T) = 1 / m_v: Macklin et al. 2019's choice, the seed's foil
};

/// How the scalar Schur complement C = P S'^T S' P^T behind W (the "Schur." phase) is computed.
enum class SchurAssembly {
  /// kDense on host backends when C has at least 16 vertices and is at least 25% dense (it is
  /// 100% dense on one connected mesh: every elimination-tree path meets the root); else kSparse.
  kAuto,
  kSparse,  ///< three sparse products on the backend (their symbolic phases on the host); every backend
  kDense    ///< a dense panel product of the gathered columns of S' (Eigen GEMM) plus sparse rows; host backends only
};

/// How the indicator-Newton step applies W = H A^-1 H^T: stored, or through its sparse factors.
enum class DelassusForm {
  /// Per step, the cheaper by entries touched per product: kOperator when 2 (3 nnz(Y) + nnz(G))
  /// < nnz(W) (Y = P S'^T; G = H on the vertices' xyz; a multi-vector entry counts three), else
  /// kExplicit. One connected mesh: nnz(W) = 9 nc^2 grows faster than nnz(Y) ~ nc x path length,
  /// so kOperator from about ten contacts. The estimate leans to kExplicit: the operator was
  /// measured ahead already below that crossover (docs/benchmarks.md).
  kAuto,
  kExplicit,  ///< W assembled as a CSR matrix from C (SchurAssembly); CR's products are SpMVs with it
  kOperator   ///< W r = G (Y (Z (G^T r))) with Z = S' P^T: W and C are never formed (SchurAssembly unused)
};

/// How each L-G iteration solves its local problem u = W r + q_loc (docs/lib_integrators.md,
/// "Stick and slip at every slope", gives the measurements behind the default).
enum class ContactSolve {
  /// Per step: kConverged up to kConvergedAutoRows constraint rows (a few hundred contacts), where
  /// its host W and sparse LU cost about as much as the seed's steps; kSeedSteps above, where
  /// the dense W of a contact-rich mesh (9 nc^2 entries) would dominate the step (measured 0.3 s
  /// against 50 s on the cloth scenes' tests).
  kAuto,
  /// To LocalGlobalContactOptions::tolerance on the natural-map error, by non-smooth Newton with
  /// the exact per-contact 3x3 generalized Jacobians (constraints::NewtonSolver: sparse LU up to
  /// 512 rows, BiCGSTAB above, backtracking line search), warm-started from the current r. W is
  /// assembled once per step on the host (LocalGlobalIntegrator::delassus()). The contact
  /// conditions then hold at the end of every step, so a sticking block does not creep.
  kConverged,
  /// The seed's Algorithm 4: newton_steps undamped steps per L-G iteration with the seed's
  /// diagonal indicators (eq. (25): friction compliance E_f frozen, no d phi_T / d r_n) and
  /// cr_iterations CR iterations (eq. (26)); W stays on the backend, stored or as an operator.
  /// On a block resting on many coupled contacts it does not converge (the friction overshoots
  /// the cone at single contacts and cycles), so a block near the friction threshold creeps.
  kSeedSteps
};

/// Largest number of constraint rows (3 per contact, 1 per pulled cable) that ContactSolve::kAuto
/// solves with kConverged: constraints::NewtonSolver's sparse-LU range.
constexpr int kConvergedAutoRows = 300;

/// Options of the contact solve inside each L-G iteration.
struct LocalGlobalContactOptions {
  /// How the local problem is solved; kAuto by default (see ContactSolve).
  ContactSolve solve = ContactSolve::kAuto;
  /// NCP function; FB is the seed's choice (Sec. 6). With kConverged both functions reach the
  /// same end states on the slope sweep, but min-map's active-set switching stalls at 6e-7 to
  /// 4e-5 on a stiff slab stuck at the cone's edge on all 25 contacts (a nearly singular W)
  /// where the smooth FB converges to 1e-8; with kSeedSteps min-map creeps less.
  constraints::NcpFunction function = constraints::NcpFunction::kFischerBurmeister;
  /// kConverged: natural-map error (natural_map.hpp, relative to ||q_loc||) at which an L-G
  /// iteration's solve stops. 1e-8, Siconos' usual value: the tangential velocity left is then
  /// ~1e-8 ||q_loc||, a slip of ~1e-10 m per step at the slope test's speeds.
  double tolerance = 1e-8;
  /// kConverged: most Newton steps per L-G iteration (the warm start from the previous iterate
  /// usually needs 1-3; 50 bounds a hard step's cost).
  int max_newton_steps = 50;
  /// kSeedSteps: CR iterations per Newton step: 10, the seed's Table 3 setting (its stick/slip
  /// test, Sec. 7.5, uses 24).
  int cr_iterations = 10;
  /// kSeedSteps: indicator-Newton steps per L-G iteration: 1 is Algorithm 4 (W fixed, q_loc
  /// refreshed each time).
  int newton_steps = 1;
  /// kSeedSteps: eq. (28)'s diag(W) by default (kConverged always uses diag(W)).
  ContactPreconditioner preconditioner = ContactPreconditioner::kDelassusDiagonal;
  /// Start each step's impulses from the previous step's, matched by (vertex, obstacle) and
  /// re-expressed in the new frame: a resting contact then starts at its solution.
  bool warm_start = true;
  /// How C (and so W) is assembled; kAuto picks by backend, size and density ("Where the work runs").
  SchurAssembly schur = SchurAssembly::kAuto;
  /// Whether W is stored or applied through its factors; kAuto by the cost estimate ("Where the
  /// work runs"). Both give the same step to rounding (~1e-13 relative).
  DelassusForm delassus = DelassusForm::kAuto;
  /// Whether W (stored or as its factors) is kept from the last step when the contact set has not
  /// changed: the same contacts (vertices, keys, frames, barycentric weights) and cable rows give
  /// the same W bit for bit, so it is not recomputed (the realtime paper's W reuse, after Zeng et
  /// al. 2022); the C behind it is also kept while the rows' vertices stay. false recomputes both
  /// every step (for benchmarks).
  bool reuse_delassus = true;
  /// A step whose contact_error (the natural-map error at its end, LocalGlobalReport) is above
  /// this is reported as unconverged: LocalGlobalReport::contact_converged is false and
  /// LocalGlobalReport::warning says by how much. The step still advances and its bits are those
  /// without the check (it only reads the error). 1e-3, the multibody ContactStepOptions::
  /// accept_error: kConverged ends at tolerance (1e-8), while the seed's steps on a contact-rich
  /// step end at 1e-3 to 1e-1 (docs/lib_integrators.md, "Sensitivity and L-G convergence").
  double warn_error = 1e-3;
};

}  // namespace sinew::integrators
