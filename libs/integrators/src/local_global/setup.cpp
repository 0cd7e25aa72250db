// LocalGlobalIntegrator's construction in named stages: checks (all before any work, so that
// nothing is half-built), lumped masses, G and A_s = M + h^2 sum W_e C_e C_e^T + h^2 sum W_r G_r^T
// G_r (bending) + h^2 sum w e_v e_v^T (seed eq. (6)), the pins' targets, the global step (the only factorization,
// Sec. 3.3), the backend arrays and the contact solver.
#include <Eigen/SparseCore>
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "bending_kernels.hpp"
#include "impl.hpp"
#include "kernels.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/integrators/local_global.hpp"
#include "sinew/materials/tetrahedron.hpp"
#include "triangle_kernels.hpp"

namespace sinew::integrators {

namespace {

using Triplets = std::vector<Eigen::Triplet<double, Index>>;

const std::string kWho = "LocalGlobalDescription: ";

// Pin stiffness relative to the elastic stiffness at the vertex when a target's weight is 0.
constexpr double kAutoPinFactor = 1e4;

/// The local step's model of @p model, or an error naming @p field when it has none.
int local_model(MaterialModel model, const std::string& field) {
  switch (model) {
    case MaterialModel::kArap:
      return detail::kLocalArap;
    case MaterialModel::kCorotational:
      return detail::kLocalCorotational;
    case MaterialModel::kStableNeoHookean:
      return detail::kLocalNeoHookean;
    default:
      throw Error(kWho + field + " '" + material_model_name(model) +
                  "' has no local step; use arap, corotational or stable_neo_hookean");
  }
}

/// The local step's materials: d's own (model, elastic) and each of d.materials, whose density
/// (when masses are lumped) and thickness (with triangles) are checked too. Names time_step, or
/// youngs_modulus / poisson_ratio (of materials[k]) when invalid.
detail::MaterialTable checked_materials(const LocalGlobalDescription& d) {
  require(std::isfinite(d.time_step) && d.time_step > 0.0,
          kWho + "time_step must be finite and > 0 (s), got " + number_text(d.time_step));
  detail::MaterialTable out;
  out.single = {local_model(d.model, "model"), lame_parameters(d.elastic)};
  require(d.materials.empty() || !d.tet_material.empty() || !d.triangle_material.empty(),
          kWho + "materials has " + std::to_string(d.materials.size()) +
              " entries but no element refers to them; give tet_material or triangle_material");
  for (std::size_t k = 0; k < d.materials.size(); ++k) {
    const LocalGlobalMaterial& m = d.materials[k];
    const std::string name = "materials[" + std::to_string(k) + "]";
    LameParameters lame{};
    try {
      lame = lame_parameters(m.elastic);
    } catch (const Error& error) {
      throw Error(kWho + name + ".elastic: " + error.what());
    }
    out.table.push_back({local_model(m.model, name + ".model"), lame});
    require(!d.masses.empty() || (std::isfinite(m.density) && m.density > 0.0),
            kWho + name + ".density must be finite and > 0, got " + number_text(m.density));
    require(d.triangles.empty() || (std::isfinite(m.thickness) && m.thickness > 0.0),
            kWho + name + ".thickness must be finite and > 0 (m) when there are triangles, got " +
                number_text(m.thickness));
  }
  return out;
}

/// The rest shape of every tetrahedron, after checking rest_positions, tets and the triangles.
std::vector<TetRest> checked_rest_shapes(const LocalGlobalDescription& d, detail::TriangleElements& tris) {
  require(d.rest_positions.size() % 3 == 0 && !d.rest_positions.empty(),
          kWho + "rest_positions must hold 3 coordinates per vertex (non-empty), got " +
              std::to_string(d.rest_positions.size()) + " values");
  for (std::size_t k = 0; k < d.rest_positions.size(); ++k)
    require(std::isfinite(d.rest_positions[k]), kWho + "rest_positions[" + std::to_string(k) + "] is not finite");
  const Index n = static_cast<Index>(d.rest_positions.size() / 3);
  require(d.tets.size() % 4 == 0 && !(d.tets.empty() && d.triangles.empty()),
          kWho + "tets must hold 4 vertex indices per tetrahedron (non-empty unless there are triangles), got " +
              std::to_string(d.tets.size()));
  tris.check(d, n, kWho);
  detail::check_material_indices(d.tet_material, d.tets.size() / 4, d.materials.size(), "tetrahedron",
                                 kWho + "tet_material");
  for (std::size_t k = 0; k < d.tets.size(); ++k)
    require(d.tets[k] >= 0 && d.tets[k] < n, kWho + "tets[" + std::to_string(k) + "] (tetrahedron " +
                                                 std::to_string(k / 4) + ") = " + std::to_string(d.tets[k]) +
                                                 ", expected 0 <= index < " + std::to_string(n));
  std::vector<TetRest> rests(d.tets.size() / 4);
  for (std::size_t e = 0; e < rests.size(); ++e) {
    double X[12];
    for (int a = 0; a < 4; ++a)
      for (int i = 0; i < 3; ++i) X[3 * a + i] = d.rest_positions[3 * static_cast<std::size_t>(d.tets[4 * e + a]) + i];
    try {
      rests[e] = make_tet_rest(X);
    } catch (const Error& error) {
      throw Error(kWho + "tets: tetrahedron " + std::to_string(e) + " (vertices " + std::to_string(d.tets[4 * e]) +
                  " " + std::to_string(d.tets[4 * e + 1]) + " " + std::to_string(d.tets[4 * e + 2]) + " " +
                  std::to_string(d.tets[4 * e + 3]) + "): " + error.what());
    }
  }
  return rests;
}

/// d.masses checked, or the masses lumped from each element's density over the tets and triangles.
std::vector<double> vertex_masses(const LocalGlobalDescription& d, Index n, const std::vector<TetRest>& rests,
                                  const detail::TriangleElements& tris) {
  if (!d.masses.empty()) {
    require(d.masses.size() == static_cast<std::size_t>(n), kWho + "masses must have one entry per vertex (" +
                                                                std::to_string(n) + "), got " +
                                                                std::to_string(d.masses.size()));
    for (Index i = 0; i < n; ++i)
      require(std::isfinite(d.masses[i]) && d.masses[i] > 0.0,
              kWho + "masses[" + std::to_string(i) + "] must be finite and > 0, got " + number_text(d.masses[i]));
    return d.masses;
  }
  require(std::isfinite(d.density) && d.density > 0.0,
          kWho + "density must be finite and > 0, got " + number_text(d.density));
  std::vector<double> masses(n, 0.0);
  std::vector<double> volumes(rests.size());
  for (std::size_t e = 0; e < rests.size(); ++e) volumes[e] = rests[e].volume;
  detail::add_element_masses<4>(d, d.tet_material, std::move(volumes), d.tets.data(), masses);
  tris.add_masses(d, masses);
  for (Index i = 0; i < n; ++i)
    require(masses[i] > 0.0, kWho + "vertex " + std::to_string(i) +
                                 " belongs to no tetrahedron or triangle and so has no mass; give masses explicitly");
  return masses;
}

/// Checks gravity, targets, contact and cables, and that the global step and the backend can run
/// them; returns the surfaces of contact between bodies.
detail::BodySurfaces checked_loads_and_contact(const LocalGlobalDescription& d, Index n,
                                               const LocalGlobalOptions& options, Backend& backend) {
  require(is_finite(d.gravity), kWho + "gravity must be finite");
  for (std::size_t k = 0; k < d.targets.size(); ++k) {
    const PositionalTarget& t = d.targets[k];
    const std::string name = kWho + "targets[" + std::to_string(k) + "]";
    require(t.vertex >= 0 && t.vertex < n, name + ".vertex = " + std::to_string(t.vertex) +
                                               " is out of range, expected 0 <= vertex < " + std::to_string(n));
    require(is_finite(t.target), name + ".target must be finite");
    require(std::isfinite(t.weight) && t.weight >= 0.0,
            name + ".weight must be finite and >= 0 (0 = automatic), got " + number_text(t.weight));
  }
  detail::validate_contact(d, n, kWho);
  validate_cables(d.cables, d.rest_positions, n, kWho);
  require(d.cables.empty() || options.global_step == GlobalStepKind::kSparseInverse,
          kWho + "cables: cables need the kSparseInverse global step (rows of W = H S'^T S' H^T), got " +
              global_step_name(options.global_step));
  require(d.obstacles.empty() || options.global_step == GlobalStepKind::kSparseInverse,
          kWho + "obstacles: contact needs the kSparseInverse global step (W = H S'^T S' H^T, eq. (27)), got " +
              global_step_name(options.global_step));
  detail::BodySurfaces bodies = detail::body_surfaces(d, n);
  require(!bodies.active || options.global_step == GlobalStepKind::kSparseInverse,
          kWho + "body_contact: contact between the solid's " + std::to_string(bodies.surfaces.bodies) +
              (bodies.self.empty() ? " bodies" : " bodies (and of each with itself: self_contact)") +
              " needs the kSparseInverse global step (W = H S'^T S' H^T, eq. (27)), got " +
              global_step_name(options.global_step) + "; set body_contact = false to let them pass through");
  require(!detail::cloth_self_contact(d) || options.global_step == GlobalStepKind::kSparseInverse,
          kWho +
              "self_contact: the self-contact of the triangles needs the kSparseInverse global step (W = H S'^T "
              "S' H^T, eq. (27)), got " +
              global_step_name(options.global_step) +
              "; set self_contact = false to let the cloth pass through itself");
  require(can_run_kernel<detail::LocalStepKernel>(backend) &&
              can_run_kernel<detail::TriangleLocalStepKernel>(backend) &&
              can_run_kernel<detail::BendingLocalStepKernel>(backend),
          cannot_run_kernel_message(backend, "LocalGlobalIntegrator's local step"));
  return bodies;
}

/// The tetrahedra's share of eq. (6): G (rows (e, j): dF_ij/dx_{v,i} = c_e[a][j] at column v),
/// rest volumes, constraint weights W_e, the triplets h^2 W_e c_a . c_b of A_s and the diagonal
/// of sum W_e G_e^T G_e.
struct TetOperators {
  CsrMatrix G;                           ///< (3 n_tets x n)
  std::vector<double> volumes, weights;  ///< (n_tets)
  Triplets triplets;                     ///< A_s's entries, duplicates summed later
  std::vector<double> elastic_diagonal;  ///< (n)
};

TetOperators assemble_tets(const LocalGlobalDescription& d, const std::vector<TetRest>& rests,
                           const detail::MaterialTable& materials, const std::vector<double>& masses,
                           const LocalGlobalOptions& options) {
  const double h2 = d.time_step * d.time_step;
  const std::size_t n_tets = rests.size();
  const Index n = static_cast<Index>(masses.size());
  TetOperators out;
  CsrMatrix& G = out.G;
  G.rows = static_cast<Index>(3 * n_tets);
  G.cols = n;
  G.row_ptr.resize(3 * n_tets + 1);
  G.col_idx.resize(12 * n_tets);
  G.values.resize(12 * n_tets);
  out.triplets.reserve(16 * n_tets + n + d.targets.size());
  out.elastic_diagonal.assign(n, 0.0);
  out.volumes.resize(n_tets);
  out.weights.resize(n_tets);
  for (std::size_t e = 0; e < n_tets; ++e) {
    double cg[4][3];
    tet_shape_gradients(rests[e], cg);
    out.volumes[e] = rests[e].volume;
    const detail::LocalMaterial& material = materials.of(d.tet_material, e);
    double W = 0.0;
    if (material.model == detail::kLocalNeoHookean) {
      // ADMM penalty (kernels.hpp): near the geometric mean of the element's elastic
      // stiffness and its inertia in F units, where ADMM's rate is best (measured on a bar over
      // E = 1e5..1e7 Pa, nu = 0.3..0.45: the best fixed multiple of (2 mu + lambda) V moved from 0.05
      // to 0.86 and this rule tracked it), and never below a quarter of the stiffness.
      double grad2 = 0.0, mass = 0.0;
      for (int a = 0; a < 4; ++a) {
        grad2 += cg[a][0] * cg[a][0] + cg[a][1] * cg[a][1] + cg[a][2] * cg[a][2];
        mass += 0.25 * masses[d.tets[4 * e + a]];
      }
      W = detail::neo_hookean_admm_weight(material, rests[e].volume, mass, h2, grad2, options.neo_hookean_weight,
                                          options.neo_hookean_weight_floor);
    } else {
      W = detail::projective_weight(material, rests[e].volume);
    }
    out.weights[e] = W;
    std::array<int, 4> order{0, 1, 2, 3};  // CSR rows need increasing columns
    std::sort(order.begin(), order.end(), [&](int a, int b) { return d.tets[4 * e + a] < d.tets[4 * e + b]; });
    for (int j = 0; j < 3; ++j) {
      const std::size_t row = 3 * e + j;
      G.row_ptr[row] = static_cast<Index>(4 * row);
      for (int s = 0; s < 4; ++s) {
        G.col_idx[4 * row + s] = d.tets[4 * e + order[s]];
        G.values[4 * row + s] = cg[order[s]][j];
      }
    }
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) {
        const double gg = cg[a][0] * cg[b][0] + cg[a][1] * cg[b][1] + cg[a][2] * cg[b][2];
        out.triplets.emplace_back(d.tets[4 * e + a], d.tets[4 * e + b], h2 * W * gg);
        if (a == b) out.elastic_diagonal[d.tets[4 * e + a]] += W * gg;
      }
  }
  G.row_ptr[3 * n_tets] = static_cast<Index>(12 * n_tets);
  return out;
}

/// The targets with automatic weights resolved (kAutoPinFactor times the elastic diagonal) and
/// their per-coordinate weights and weighted mean positions.
struct ResolvedTargets {
  std::vector<PositionalTarget> targets;  ///< every weight > 0
  std::vector<double> pin_w3, pin_t3;     ///< (3n) sum of weights, weighted mean target; 0 where free
};

/// Resolves d.targets, adding h^2 w e_v e_v^T to A_s's @p triplets.
ResolvedTargets resolve_targets(const LocalGlobalDescription& d, const std::vector<double>& elastic_diagonal,
                                Triplets& triplets) {
  const double h2 = d.time_step * d.time_step;
  const std::size_t n3 = elastic_diagonal.size() * 3;
  ResolvedTargets out{d.targets, std::vector<double>(n3, 0.0), std::vector<double>(n3, 0.0)};
  for (std::size_t k = 0; k < out.targets.size(); ++k) {
    PositionalTarget& t = out.targets[k];
    if (t.weight == 0.0) {
      t.weight = kAutoPinFactor * elastic_diagonal[t.vertex];
      require(t.weight > 0.0, kWho + "targets[" + std::to_string(k) + "]: vertex " + std::to_string(t.vertex) +
                                  " belongs to no element, so an automatic weight is undefined; give a weight");
    }
    triplets.emplace_back(t.vertex, t.vertex, h2 * t.weight);
    for (int i = 0; i < 3; ++i) out.pin_w3[3 * static_cast<std::size_t>(t.vertex) + i] += t.weight;
  }
  for (const PositionalTarget& t : out.targets)  // several targets on one vertex: their weighted mean
    for (int i = 0; i < 3; ++i) {
      const std::size_t j = 3 * static_cast<std::size_t>(t.vertex) + i;
      out.pin_t3[j] += t.weight * t.target[i] / out.pin_w3[j];
    }
  return out;
}

}  // namespace

void LocalGlobalIntegrator::Impl::allocate(const LocalGlobalDescription& d, const CsrMatrix& G_host,
                                           const std::vector<double>& tet_volumes,
                                           const std::vector<double>& tet_weights,
                                           const std::vector<double>& pin_w3_host) {
  Impl& m = *this;
  Backend& backend = *m.backend;
  const std::size_t n3 = 3 * static_cast<std::size_t>(m.n);
  if (m.n_tets > 0) m.G = to_device(backend, G_host);
  m.tris.upload(backend, m.materials);
  m.bending.upload(backend);
  if (!m.materials.table.empty()) m.material_table = backend.upload(m.materials.table);
  if (!d.tet_material.empty()) m.tet_material = backend.upload(d.tet_material);
  m.volumes = backend.upload(tet_volumes);
  m.weights = backend.upload(tet_weights);
  m.x = backend.upload(d.rest_positions);
  m.v = backend.allocate<double>(n3);
  backend.fill(m.v, 0.0);
  for (auto* a : {&m.x_prev, &m.y, &m.c, &m.b, &m.tmp, &m.tmp2}) *a = backend.allocate<double>(n3);
  std::vector<double> mass3(n3), gravity3(n3);
  for (std::size_t i = 0; i < n3; ++i) {
    mass3[i] = m.masses[i / 3];
    gravity3[i] = d.gravity[static_cast<int>(i % 3)];
  }
  m.mass3 = backend.upload(mass3);
  m.gravity3 = backend.upload(gravity3);
  m.pin_w3 = backend.upload(pin_w3_host);
  m.pin_t3 = backend.allocate<double>(n3);
  m.F_t = backend.allocate<double>(9 * m.n_tets);
  m.p_w = backend.allocate<double>(9 * m.n_tets);
  if (m.materials.any_neo_hookean(d.tet_material, m.n_tets)) m.u = backend.allocate<double>(9 * m.n_tets);
  m.energy = backend.allocate<double>(m.n_tets);
  m.ones = backend.allocate<double>(m.n_tets);
  backend.fill(m.ones, 1.0);
}

LocalGlobalIntegrator::LocalGlobalIntegrator(Backend& backend, const LocalGlobalDescription& d,
                                             const LocalGlobalOptions& options)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  options.validate();
  m.backend = &backend;
  m.options = options;
  m.materials = checked_materials(d);
  m.h = d.time_step;
  const std::vector<TetRest> rests = checked_rest_shapes(d, m.tris);
  m.n = static_cast<Index>(d.rest_positions.size() / 3);
  m.bending.build(d, m.n, kWho);
  m.n_tets = rests.size();
  m.masses = vertex_masses(d, m.n, rests, m.tris);
  detail::BodySurfaces bodies = checked_loads_and_contact(d, m.n, options, backend);

  TetOperators tets = assemble_tets(d, rests, m.materials, m.masses, options);
  m.tris.assemble(m.materials, m.masses, m.h, options.neo_hookean_weight, options.neo_hookean_weight_floor,
                  tets.triplets, tets.elastic_diagonal);
  m.bending.assemble(m.h, tets.triplets, tets.elastic_diagonal);
  for (Index i = 0; i < m.n; ++i) tets.triplets.emplace_back(i, i, m.masses[i]);
  ResolvedTargets pins = resolve_targets(d, tets.elastic_diagonal, tets.triplets);
  m.targets = std::move(pins.targets);
  m.pin_t3_host = std::move(pins.pin_t3);
  EigenCsr A_eigen(m.n, m.n);
  A_eigen.setFromTriplets(tets.triplets.begin(), tets.triplets.end());  // duplicates summed in a fixed order
  m.As = from_eigen(A_eigen);

  m.global = detail::make_global_step(backend, m.As, options);
  m.allocate(d, tets.G, tets.volumes, tets.weights, pins.pin_w3);
  // Cables, contacts between bodies and the cloth's self-contacts are rows of the same constrained global step.
  if (!d.obstacles.empty() || !d.cables.empty() || bodies.active || detail::cloth_self_contact(d))
    m.contact = std::make_unique<detail::LocalGlobalContactSolver>(
        backend, detail::with_contact_margin(d, m.tris), options.contact, m.masses, *m.global->sparse_inverse(),
        *m.global->sparse_inverse_operator(), options.time_phases, std::move(bodies));
}

}  // namespace sinew::integrators
