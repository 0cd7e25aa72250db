/// @file
/// @brief LocalGlobalIntegrator: the local-global (projective-dynamics style) implicit Euler
/// integrator of tetrahedral solids of the seed paper "realtime hyperelastic frictional contact"
/// (Sections 3.1, 3.3 and 4: eqs. (1), (5)-(8), Algorithms 1 and 2), with the global step solved
/// by the sparse inverse S'^T S' b (Algorithm 2), by CHOLMOD triangular solves (the complete
/// solution of Algorithm 1) or by Jacobi iterations (the incomplete solution of Wang 2015), and
/// with frictional contact against analytic obstacles by the constrained global step of
/// Section 5 / Algorithm 4 (local_global_contact.hpp states the formulation).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "sinew/collision/vertex_triangle_contacts.hpp"
#include "sinew/core/backend.hpp"
#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/integrators/local_global_cable.hpp"
#include "sinew/integrators/local_global_contact.hpp"
#include "sinew/linalg/csr_matrix.hpp"
#include "sinew/materials/elastic_parameters.hpp"
#include "sinew/materials/material.hpp"

namespace sinew {
class SparseInverse;
}

namespace sinew::integrators {

/// A vertex pulled towards a target by the stiff spring w/2 ||x_i - t_i||^2, one more term of
/// eq. (1) and a projective constraint with G = selection of x_i and p = t_i: its weight enters
/// the constant matrix A, its (possibly moving) target only the right-hand side b.
struct PositionalTarget {
  Index vertex = -1;       ///< vertex index in [0, n_vertices)
  Vec3 target{{0, 0, 0}};  ///< target position t_i (m); move it with LocalGlobalIntegrator::set_target()
  /// Spring stiffness w (N/m). 0 = automatic: 1e4 times the elastic stiffness at the vertex
  /// (sum_i W_i (G_i^T G_i)_vv), stiff enough to hold the vertex within ~1e-4 of the elastic
  /// displacement while raising A's condition number by no more than ~1e4.
  double weight = 0.0;
};

/// Bending energy of the triangles (cloth) in the local-global path (LocalGlobalDescription::bending).
/// Both forms are written as projective constraints W_r/2 |G_r x - p_r|^2 per coordinate, with
/// k the bending stiffness (N m; the plate's D = E t^3 / (12 (1 - nu^2)) by default) and
/// E_b ~ k/2 int (kappa1 + kappa2)^2 dA, the isometric plate energy D/2 int (2H)^2 dA.
enum class BendingModel {
  kNone,  ///< no bending: membranes only (every result bit for bit as without this field)
  /// The quadratic isometric form (Bergou, Wardetzky, Grinspun, Schroeder 2006, "A quadratic
  /// bending model for inextensible surfaces", eqs. (7)-(8); Wardetzky et al. 2007): per interior
  /// edge (x0, x1) with opposite vertices x2, x3 the constant stencil K_e = (cot b0 + cot b1,
  /// cot a0 + cot a1, -cot a0 - cot b0, -cot a1 - cot b1) of the rest interior angles a (at x0)
  /// and b (at x1) in each adjacent triangle, and E_b = k/2 sum_e 3/(A0 + A1) |K_e x|^2 =
  /// k/2 x^T Q x. Constant (p = 0): it only adds h^2 k Q to A. It assumes a flat rest shape
  /// (Q x_rest = 0); a curved rest shape is pulled flat. Like every hinge energy its scale depends
  /// on the triangulation: on a grid of right triangles bent about a grid axis E_b tends to
  /// 3 x k/2 int (kappa1 + kappa2)^2 dA (only the edges across the bend, a third of the edge
  /// areas, carry it). Unlike the mean-curvature energy it charges anticlastic bending, so a
  /// narrow strip holds as a beam: on that mesh, relaxed at its 2-cell period, with D_beam = 2.4 k
  /// (tests/integrators/local_global_bending_test.cpp measures both and a cantilever's tip).
  kQuadratic,
  /// The Laplace-Beltrami form of projective dynamics (Bouaziz et al. 2014, Sec. 5 "bending"):
  /// per interior vertex i the cotangent Laplacian (Delta x)_i = 1/(2 M_i) sum_j (cot a_ij +
  /// cot b_ij)(x_j - x_i) with M_i the mixed Voronoi area (Meyer et al. 2003), E_b = k/2 sum_i A_i |(Delta x)_i -
  /// p_i|^2 and the local step p_i = |(Delta x_rest)_i| (Delta x)_i / |(Delta x)_i|: zero for a flat rest shape, and a
  /// curved one keeps its mean-curvature magnitude. A_i integrates the energy: M_i, plus the mixed Voronoi shares of a
  /// triangle's boundary vertices split equally among its interior vertices (boundary vertices have no Laplacian, so
  /// without this a strip n triangles wide would lose about 1/n of its stiffness). Consistent on the meshes tested: the
  /// cylinder's energy converges to the plate's. Anticlastic bending (kappa2 = -kappa1) costs nothing, so a narrow
  /// strip has no beam stiffness (a cantilevered one is held only by its membrane): use kQuadratic for strips.
  kLaplaceBeltrami
};

/// The name of a bending model: "none", "quadratic" or "laplace_beltrami".
const char* bending_model_name(BendingModel model);

/// One material of LocalGlobalDescription::materials: what a group of elements (a body, or an
/// element region of a mesh) is made of.
struct LocalGlobalMaterial {
  /// kArap, kCorotational or kStableNeoHookean; the other models have no local step here.
  MaterialModel model = MaterialModel::kArap;
  ElasticParameters elastic;  ///< Young's modulus and Poisson ratio (checked by lame_parameters())
  double density = 1000.0;    ///< kg/m^3 when LocalGlobalDescription::masses is empty
  double thickness = 1e-3;    ///< membrane thickness (m) of the triangles of this material
};

/// Immutable description of a tetrahedral solid and / or triangle membrane for LocalGlobalIntegrator.
struct LocalGlobalDescription {
  std::vector<double> rest_positions;  ///< (3 n_vertices) interleaved rest positions x0 y0 z0 x1 ... (m)
  /// (4 n_tets) vertex indices, positively oriented rest tetrahedra; may be empty with triangles.
  std::vector<Index> tets;
  /// (3 n_triangles) vertex indices of triangle membranes (cloth), next to or instead of tets:
  /// F = Ds Dm^-1 is 3x2 in the rest triangle's own 2-D frame (materials' triangle.hpp) and the
  /// model's membrane energy (membrane_models.hpp) is weighted by V = A thickness.
  std::vector<Index> triangles;
  /// Membrane thickness t (m) of the triangles: energy A t Psi(F), mass density A t (a third per
  /// vertex) when masses is empty. 1 mm: a 1 kg/m^2 cloth at the default density.
  double thickness = 1e-3;
  /// (n_vertices) lumped masses (kg); empty = computed from density (a quarter of each
  /// adjacent tetrahedron's mass and a third of each adjacent triangle's per vertex).
  std::vector<double> masses;
  double density = 1000.0;  ///< kg/m^3 when masses is empty (water; the paper's rho in Sec. 7.5)
  /// kArap, kCorotational or kStableNeoHookean; the other models have no local step here.
  MaterialModel model = MaterialModel::kArap;
  ElasticParameters elastic;  ///< Young's modulus and Poisson ratio (checked by lame_parameters())
  /// Several materials (bodies or element regions of their own model, parameters, density and
  /// thickness), indexed by tet_material and triangle_material; may be empty when both are.
  std::vector<LocalGlobalMaterial> materials;
  /// (n_tets) index into materials of each tetrahedron; empty = every tetrahedron is of the
  /// single material above (model, elastic, density).
  std::vector<Index> tet_material;
  /// (n_triangles) index into materials of each triangle; empty = every triangle is of the
  /// single material above (model, elastic, density, thickness).
  std::vector<Index> triangle_material;
  /// Bending of the triangles (BendingModel); needs triangles, every edge shared by at most two.
  BendingModel bending = BendingModel::kNone;
  /// Bending stiffness k (N m) of every triangle. 0 = automatic: each triangle's plate stiffness
  /// D = E t^3 / (12 (1 - nu^2)) of its material; an edge (quadratic) or vertex (Laplace-
  /// Beltrami) shared by triangles of several materials takes their area-weighted mean D.
  double bending_stiffness = 0.0;
  Vec3 gravity{{0.0, 0.0, -9.81}};        ///< gravitational acceleration (m/s^2): f_ext = M g
  double time_step = 0.01;                ///< h (s); the paper's h = 0.01 s (Table 3)
  std::vector<PositionalTarget> targets;  ///< pinned / driven vertices
  /// Rigid obstacles the solid's contact vertices collide with (frictional contact of Section 5,
  /// kSparseInverse global step only): analytic shapes, closed triangle meshes (Obstacle::mesh,
  /// mesh_obstacle(): the mesh's exact signed distance) or signed-distance grids (Obstacle::grid,
  /// grid_obstacle()); empty = no contact, the step of Algorithms 1-2.
  std::vector<Obstacle> obstacles;
  /// Vertices that can touch obstacles (e.g. the surface vertices); empty = all vertices.
  std::vector<Index> contact_vertices;
  /// A (vertex, obstacle) pair is a contact of the step when its signed distance minus
  /// contact_thickness, at q_t or at the predicted q~, is below this (m); an open contact costs
  /// only its rows. < 0 = automatic: half the mean rest edge length. A margin is needed because
  /// the prediction q~ (inertia and gravity) catches fast vertices but not those that elastic
  /// forces push within the step (docs/benchmarks.md).
  double contact_margin = -1.0;
  /// Gap kept between vertices and obstacle surfaces, between bodies and between the layers of the
  /// cloth's self-contact (m): u_n drives distance - thickness to >= 0.
  double contact_thickness = 0.0;
  /// Cables (local_global_cable.hpp): bilateral rows solved with the contacts in the constrained
  /// global step (seed Sec. 7.8; kSparseInverse global step only); empty = none.
  std::vector<Cable> cables;
  /// Contact between the solid's bodies (the connected components of its tets): each contact
  /// vertex on a body's boundary against the boundary triangles of the other bodies whose three
  /// vertices are contact vertices (vertex_triangle_contacts.hpp), and the sharp edges of those
  /// triangles against the other bodies' edges (edge_edge_contacts.hpp; a body touches itself only
  /// with self_contact; triangle membranes take no part). It acts only with two or more such bodies
  /// (or one with self_contact), and then needs the kSparseInverse global step; false = the bodies
  /// pass through each other and themselves.
  bool body_contact = true;
  /// Mesh obstacles' sharp features touch the bodies' surfaces too (knife edges without
  /// thickness): each obstacle vertex on a sharp edge (faces more than 10 degrees apart, or a
  /// sheet's rim) against the nearest boundary triangle of each body, each sharp obstacle edge
  /// against the boundary edges it crosses, rows over the surface point's vertices with its
  /// barycentric weights. Without them only the bodies' vertices touch obstacles, so a blade
  /// thinner than the vertices' spacing passes between them (scene files: `obstacle_features`).
  bool obstacle_features = true;
  /// Coulomb coefficient mu >= 0 of the contacts between bodies. 0.5: a rubber-like soft pair
  /// (the cable finger's value; scene files: `body_friction`).
  double body_friction = 0.5;
  /// Self-contact of the triangles (cloth): a cloth folding or draping onto itself does not pass
  /// through itself (cloth_self_contacts.hpp). Each vertex of a triangle against the triangles
  /// that do not hold it, and each edge against the edges that share no vertex with it (every
  /// triangle takes part: contact_vertices choose what touches obstacles), kept contact_thickness
  /// apart (the gap between the layers: about the cloth's thickness; 0 lets layers touch with
  /// round-off in between, so keep it > 0) under the same margin rule as the contacts between
  /// bodies. Two-sided: a pair keeps the side of its last step's contact, else the side it is on
  /// at the start of the step. Rows and friction (self_friction) as the contacts between bodies;
  /// needs the kSparseInverse global step. contact_thickness + contact_margin must stay below the
  /// distance from a vertex to the nearest mesh feature outside its neighbourhood (about an edge
  /// length), or the flat cloth touches itself. false (default) = no self-contact, every result
  /// bit for bit as without this field (scene files: `self_contact`). With tets (and body_contact),
  /// each body's boundary also touches itself, a soft body folding onto itself, even with a single
  /// body: the detectors' self-contact mode (vertex_triangle_contacts.hpp, edge_edge_contacts.hpp:
  /// one-sided, away from each vertex's and edge's neighbourhood, between parts of the surface that
  /// face each other), so the body's parts must be thicker than contact_margin + contact_thickness.
  bool self_contact = false;
  /// Coulomb coefficient mu >= 0 of the self-contacts (the cloth's, and each tet body's with itself).
  /// 0.3: cotton on cotton (scene files: `self_friction`).
  double self_friction = 0.3;
};

/// How the global step q = A^-1 b (eq. (6)) is solved.
enum class GlobalStepKind {
  kSparseInverse,  ///< q = S'^T (S' b), two SpMVs on the backend (eq. (8), Algorithm 2)
  kCholmod,        ///< complete solution by CHOLMOD's triangular solves on the host (Algorithm 1)
  kJacobi          ///< incomplete solution: jacobi_iterations Jacobi sweeps from the previous iterate (Wang 2015)
};

/// The name of a global step kind: "sparse_inverse", "cholmod" or "jacobi".
const char* global_step_name(GlobalStepKind kind);

/// Options of LocalGlobalIntegrator.
struct LocalGlobalOptions {
  /// L-G iterations per step; the paper uses 5 (Table 3) for real time.
  int iterations = 5;
  /// The sparse inverse: the paper's method, complete solution with SpMV-only global steps.
  GlobalStepKind global_step = GlobalStepKind::kSparseInverse;
  /// Jacobi sweeps per global step (kJacobi); 1 as the incomplete baseline of the paper's Fig. 9.
  int jacobi_iterations = 1;
  /// Jacobi relaxation omega in (0, 1]; 0 = automatic: 1 / max_i sum_j |a_ij| / a_ii, which bounds
  /// omega rho(D^-1 A) <= 1 by Gershgorin, so the sweeps converge for every mesh (plain Jacobi,
  /// omega = 1, diverges on tetrahedral meshes whose A is not diagonally dominant).
  double jacobi_relaxation = 0.0;
  /// Multiplier of the automatic ADMM weight of Neo-Hookean elements, w_e = max(sqrt(k_e m_e),
  /// k_e / 4): the geometric mean of the element's small-strain stiffness k_e = (2 mu + lambda) V_e
  /// and its inertia in deformation-gradient units m_e = mean vertex mass / (h^2 sum_a |grad N_a|^2),
  /// but not less than a quarter of the stiffness. ADMM-PD converges fastest near the geometric
  /// mean, hence 1 (docs/benchmarks.md); where inertia is small (stiff materials, fine meshes,
  /// large steps) a weight far below k_e let the iterates wander and the steps gain energy, hence
  /// the floor.
  double neo_hookean_weight = 1.0;
  /// The floor of that automatic weight as a multiple of the element stiffness k_e (0.25 above).
  /// Below about k_e the ADMM iteration on compressed (non-convex) elements is not a
  /// contraction: at 0.25 the squeezing ball amplified a 1e-12 m change of its start by about
  /// 10x a step to millimetres, and more L-G iterations do not converge (docs/lib_integrators.md,
  /// "Sensitivity and L-G convergence"); 2 removes both at the cost of a slower rate where the
  /// geometric mean was lower. The reference contact scenes (solid_scenes.hpp) set 2.
  double neo_hookean_weight_floor = 0.25;
  /// Record the incremental potential (eq. (1)) of every iterate in the report: one element
  /// energy per element per iteration (computed with the local step) and three dot products.
  bool record_energy = true;
  /// Synchronize the backend around the phases and time them (local, rhs, global) in the report.
  bool time_phases = false;
  /// The contact solve inside each L-G iteration (used when the description has obstacles).
  LocalGlobalContactOptions contact;
  /// Throws sinew::Error naming the first invalid field.
  void validate() const;
};

/// Outcome of a step.
enum class LocalGlobalStatus {
  kOk,        ///< every iterate finite; the state was advanced
  kNonFinite  ///< an energy or the new positions were NaN or Inf; the state was left as it was
};

/// What happened in one LocalGlobalIntegrator::step().
struct LocalGlobalReport {
  LocalGlobalStatus status = LocalGlobalStatus::kOk;  ///< outcome
  int iterations = 0;                                 ///< L-G iterations done
  /// (iterations + 1) incremental potential E(q^k) of eq. (1) scaled to energy units,
  /// E(q) = 1/(2h^2) ||q - q~||_M^2 + sum_i V_i Psi(F_i) + sum_pins w/2 ||x - t||^2, at
  /// q^0 = q~ (the initial guess) and after each iteration; empty unless record_energy.
  std::vector<double> energies;
  double local_seconds = 0.0;   ///< local steps (G q SpMV, element kernel, energy sums); time_phases only
  double rhs_seconds = 0.0;     ///< right-hand-side assembly b = M q~ + h^2 G^T p_w; time_phases only
  double global_seconds = 0.0;  ///< global solves q = A^-1 b (the seed's "Global"); time_phases only
  std::size_t contacts = 0;     ///< contacts (3 rows each) of this step
  /// Whether this step kept the last step's W (LocalGlobalContactOptions::reuse_delassus)
  bool delassus_reused = false;
  int newton_steps = 0;  ///< Newton steps taken in all L-G iterations' contact solves
  /// Linear solves in all Newton steps: CR iterations (ContactSolve::kSeedSteps), or LU
  /// factorizations and BiCGSTAB iterations (kConverged).
  int cr_iterations = 0;
  /// Natural-map error (relative to ||q_loc||, natural_map.hpp) of the last L-G iteration's local
  /// problem u = W r + q_loc at the final r; 0 without contacts. Since q = q_free + A^-1 h H^T r,
  /// u = H (q - q_t) / h + d / h - H v_obs is the contact velocity of the step's end state, so
  /// this is the residual of Signorini-Coulomb at the end of the step.
  double contact_error = 0.0;
  /// False when contact_error is above LocalGlobalContactOptions::warn_error (or not finite): the
  /// contact conditions do not hold at the end of this step (the step advanced all the same).
  bool contact_converged = true;
  /// Why the step is suspect although it advanced (an unconverged contact solve: its true error,
  /// the limit, the contacts and the solve), "" when it is not; scene runs count it as a warning.
  std::string warning;
  /// (3 contacts) impulses r = h lambda (N s) per contact: normal, tangent 1, tangent 2.
  std::vector<double> impulses;
  /// (3 contacts) unit normals (world frame) of the contacts, pointing out of the obstacle.
  std::vector<double> normals;
  /// (contacts) vertex of each contact, ascending (then by obstacle, then by triangle for the
  /// contacts between bodies): the stable contact order.
  std::vector<Index> contact_vertex;
  /// (contacts) the other side of each contact: the body-contact triangle's index in
  /// LocalGlobalIntegrator::contact_surfaces().triangles, -1 against an obstacle, -2 for an
  /// edge-edge contact between bodies (contact_vertex is then edge a's first vertex), -3 for a
  /// mesh obstacle's sharp vertex or edge on a point of a body's surface
  /// (LocalGlobalDescription::obstacle_features; contact_vertex is then the point's first vertex,
  /// contact_nodes its two or three vertices, contact_weights and contact_barycentric their weights),
  /// -4 for a vertex-triangle self-contact of the cloth (LocalGlobalDescription::self_contact;
  /// contact_nodes: the vertex and the triangle's three) or -5 for an edge-edge one (as -2).
  std::vector<Index> contact_triangle;
  /// (3 contacts) barycentric weights b of the triangle's closest point (0 against an
  /// obstacle): the contact's impulse R = n r_n + t1 r_t1 + t2 r_t2 acts as +R on the vertex and
  /// -b_k R on the triangle's vertex k, so it is internal to the solid (momentum-conserving).
  /// Edge-edge: (s, t, 0), the closest points' parameters on edges a and b.
  std::vector<double> contact_barycentric;
  /// (4 contacts) the vertices of each contact's rows, -1 past the last: the vertex alone against
  /// an obstacle; the vertex and the triangle's three; edge a's two and edge b's two; a body
  /// surface point's two or three under an obstacle feature.
  std::vector<Index> contact_nodes;
  /// (4 contacts) the weights of contact_nodes: the impulse R acts as w_k R on node k (1; 1 and
  /// -b_k; 1 - s, s, -(1 - t), -t; the surface point's b_k), so a contact between bodies is
  /// internal to the solid.
  std::vector<double> contact_weights;
  /// (contacts) the obstacle of each contact (its index in the integrator's obstacles), -1 for a
  /// contact between bodies.
  std::vector<Index> contact_obstacle;
  /// (3 contacts) world witness point of each contact on the vertex's side at the start of the
  /// step (q_t, where its rows are linearized): the vertex, or edge a's closest point.
  std::vector<double> contact_points_a;
  /// (3 contacts) the other side's witness point at the start of the step: the obstacle's closest
  /// point, the triangle's closest point, or edge b's closest point.
  std::vector<double> contact_points_b;
  /// (3 contacts) unit first tangents t1 (world frame) of the contacts; t2 = n x t1. With normals
  /// and impulses they give each contact's impulse in the world frame, n r_n + t1 r_t1 + t2 r_t2.
  std::vector<double> tangents;
  /// (cables) impulse r = h tension (N s) of each cable in this step; 0 for a slack cable.
  std::vector<double> cable_impulses;
  double collision_seconds = 0.0;  ///< collision detection and H, d (host); time_phases only
  /// W = H S'^T S' H^T ("Schur."): its factors, or C and its expansion, and the Newton step's
  /// preparation; time_phases only
  double schur_seconds = 0.0;
  double assembly_seconds = 0.0;    ///< q_loc = H (q_free - q_t)/h + d/h - H v_obs ("Assem."); time_phases only
  double constraint_seconds = 0.0;  ///< indicator-Newton steps ("Cst. Solve"); time_phases only
  double correction_seconds = 0.0;  ///< q = q_free + A^-1 h H^T r ("Corr."); time_phases only
  double frame_seconds = 0.0;       ///< the whole step, collision excluded ("Frame"); time_phases only
  std::string message;              ///< what went wrong, where and when; empty when kOk
  /// True when the step advanced the state.
  bool ok() const { return status == LocalGlobalStatus::kOk; }
};

/// Local-global implicit Euler integrator of tetrahedral solids and cloth on a Backend (Algorithms 1-2).
///
/// Setup (once): lumped masses; per element the constant map G_i: q -> F_i = Ds Dm^-1 and the
/// weight W_i; the constant A = M + h^2 sum W_i G_i^T G_i + h^2 sum_pins w e_v e_v^T (eq. (6)),
/// which is per vertex, A = A_s (x) I_3, so only the scalar A_s is factored (and inverted).
/// Step: q~ = x_n + h v_n + h^2 g; q^0 = q~; K times: F = G q^k (SpMV), p_w = local step per
/// element (eq. (5)), b = M q~ + h^2 G^T p_w + h^2 sum w t (transposed SpMV, a fixed-order
/// gather: deterministic), q^{k+1} = A^-1 b; then v = (q^K - x_n)/h. Every vector operation is a
/// Backend kernel, so positions are bitwise identical on every host backend and thread count.
///
/// Models: ARAP (p = R(F), W = 2 mu V, so the fixed point is the implicit Euler step of
/// materials::Arap exactly); co-rotational (the ARAP constraint plus a volume constraint of
/// weight 3 lambda V projecting the signed singular values onto sum sigma = 3, whose energy is
/// exactly Corotational's lambda/2 tr(R^T F - I)^2 term); stable Neo-Hookean by ADMM-PD
/// (Overby et al. 2017): z = argmin V Psi(Z) + w/2 ||Z - (F + u)||^2, u += F - z,
/// p_w = w (z - u), with the scaled dual u reset to 0 at each step and w per element (see
/// LocalGlobalOptions::neo_hookean_weight), whose fixed point is the exact implicit Euler step
/// of StableNeoHookean. Plain projective dynamics with zeta = Psi (no dual) would converge to the
/// minimiser of a relaxed energy, not to the implicit Euler step, hence ADMM.
///
/// Triangles (membranes, cloth; description.triangles): G_i maps q to the 3x2 F = Ds Dm^-1 and
/// the same three models act on its singular values sigma0, sigma1 >= 0 with V = A thickness:
/// ARAP p = U V^T (closest matrix with orthonormal columns), W = 2 mu V, energy
/// V mu sum (sigma - 1)^2; co-rotational adds an area constraint of weight 2 lambda V projecting
/// onto sigma0 + sigma1 = 2, energy + V lambda/2 (sigma0 + sigma1 - 2)^2; Neo-Hookean by ADMM-PD
/// on the plane-strain stable Neo-Hookean membrane density. These are exactly materials'
/// MembraneArap, MembraneCorotational and MembraneStableNeoHookean times the thickness, so the
/// fixed point is their implicit Euler step.
///
/// Materials: every element is of the description's own model and parameters, or of its entry of
/// description.materials (tet_material, triangle_material: bodies or element regions of their own
/// model, parameters, density and thickness). Each element's W_i, ADMM weight, lumped mass and
/// energy are those of its material, and the local step reads its material from a table on the
/// backend; with one material there is no table and every element takes the same constants.
///
/// Contact (description.obstacles, between bodies with description.body_contact, mesh obstacles'
/// sharp vertices and edges on the bodies' surfaces with description.obstacle_features, and the
/// cloth's self-contact with description.self_contact;
/// kSparseInverse only): collision once per step at q_t, W =
/// H S'^T S' H^T (through its sparse factors or stored, local_global_contact.hpp), and in each L-G iteration
/// q_free = A^-1 b, one indicator-Newton step on u = W r + q_loc warm-started from the current impulses r, and q =
/// q_free + A^-1 h H^T r (Algorithm 4; local_global_contact.hpp states the formulation). Without contacts in a step the
/// step is bit for bit the one without obstacles.
///
/// Cables (description.cables, local_global_cable.hpp; seed Sec. 7.8): each pulled cable is one
/// bilateral row of H (dL/dq at q_t) next to the contacts' rows, in the same W and Newton step;
/// its length is re-measured at each L-G iterate so that the step ends at the target length.
class LocalGlobalIntegrator {
 public:
  /// Checks @p description and @p options, assembles and factors A, and uploads the mesh to
  /// @p backend (which must outlive the integrator; libraries take a Backend&, never a name, so
  /// that none depends on the backend registry). The state starts at rest positions, zero velocity.
  /// @throws sinew::Error naming the parameter: time_step not finite and > 0, youngs_modulus or
  ///         poisson_ratio out of range (of the description or of materials[k]), a model without
  ///         a local step, a tet_material or triangle_material of the wrong size or naming a
  ///         material out of range (naming the element), a tet or triangle index out
  ///         of range or a degenerate / inverted rest tetrahedron or degenerate rest triangle
  ///         (naming the element), thickness not > 0 with triangles, masses or density not
  ///         > 0, a vertex with no mass, a target vertex out of range or weight < 0, bending
  ///         without triangles, bending_stiffness < 0, a non-manifold edge or no interior edge /
  ///         vertex to bend (BendingModel), self_contact or body contact without the kSparseInverse
  ///         global step, body_friction or self_friction < 0, bad options,
  ///         or a backend that can run neither host code nor the CUDA kernel.
  LocalGlobalIntegrator(Backend& backend, const LocalGlobalDescription& description,
                        const LocalGlobalOptions& options = {});
  ~LocalGlobalIntegrator();
  LocalGlobalIntegrator(const LocalGlobalIntegrator&) = delete;
  LocalGlobalIntegrator& operator=(const LocalGlobalIntegrator&) = delete;

  /// Advances one step of h (K L-G iterations). Numerical trouble is reported, never thrown.
  LocalGlobalReport step();

  /// Moves the target of description.targets[@p k] for the next steps (A is unchanged).
  /// @throws sinew::Error when k is out of range or the target is not finite.
  void set_target(std::size_t k, const Vec3& target);
  /// Sets the pull (m) of description.cables[@p k] for the next steps: its target length is
  /// rest_length - pull (0 = slack, no row). @throws sinew::Error when k is out of range or the
  /// pull is not finite, < 0 or not below the rest length.
  void set_cable_pull(std::size_t k, double pull);
  /// Places description.obstacles[@p k] at @p pose with rigid velocity @p motion for the next
  /// steps (after each step the pose advances by the motion). @throws sinew::Error when k is out
  /// of range, the pose or motion is not finite, or the rotation is not orthonormal.
  void set_obstacle(std::size_t k, const Pose& pose, const Motion& motion);
  /// The obstacles with their current poses and motions.
  const std::vector<Obstacle>& obstacles() const;
  /// The bodies and the boundary triangles that take part in contact between bodies
  /// (LocalGlobalDescription::body_contact): empty triangles when there is none.
  const TetSurfaces& contact_surfaces() const;
  /// Replaces positions and velocities, (3 n_vertices) each. @throws sinew::Error on a size
  /// mismatch or a non-finite entry.
  void set_state(const std::vector<double>& positions, const std::vector<double>& velocities);
  /// Writes everything the next steps depend on beyond the description and options (steps taken,
  /// positions, velocities, target positions, cable pulls, obstacle poses and motions, the
  /// contact warm start) to @p out, doubles as raw bits, so that restore() on an integrator built
  /// from the same description and options continues bit for bit. @throws sinew::Error when
  /// writing to @p out fails.
  void save(std::ostream& out) const;
  /// Reads what save() wrote. @throws sinew::Error when the data is truncated or its sizes do not
  /// fit this integrator (vertices, targets, cables, obstacles); the state is then unchanged.
  void restore(std::istream& in);
  /// The Delassus operator W = H S'^T S' H^T of the last step's constrained global step
  /// (rows x rows: 3 per contact, then one per pulled cable; downloaded, or assembled here when
  /// the step applied W through its factors, LocalGlobalContactOptions::delassus); 0 x 0 before a
  /// step with constraint rows and without obstacles or cables.
  CsrMatrix delassus() const;
  /// (3 n_vertices) current positions (downloaded).
  std::vector<double> positions() const;
  /// (3 n_vertices) current velocities (downloaded).
  std::vector<double> velocities() const;
  /// Simulated time (steps taken times h).
  double time() const;
  /// Steps taken.
  long steps() const;

  /// Number of vertices.
  Index num_vertices() const;
  /// Number of tetrahedra.
  std::size_t num_tets() const;
  /// Number of triangles (membranes).
  std::size_t num_triangles() const;
  /// (n_vertices) lumped masses in use.
  const std::vector<double>& masses() const;
  /// The scalar system matrix A_s (A = A_s (x) I_3, eq. (6)), as factored.
  const CsrMatrix& system_matrix() const;
  /// The sparse inverse factor (kSparseInverse only; null otherwise).
  const SparseInverse* sparse_inverse() const;
  /// Backend memory traffic of one global step (bytes), to report GB/s: for kSparseInverse what
  /// SparseInverseOperator streams (the run-compressed L^-1 and L^-T and the vector passes on host
  /// backends, S' both ways on CUDA), A_s and the vectors per sweep for kJacobi, 0 for kCholmod (host).
  double global_bytes_per_apply() const;
  /// The options in use.
  const LocalGlobalOptions& options() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sinew::integrators
