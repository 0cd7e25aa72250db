// LocalGlobalIntegrator: setup (masses, G, A = A_s (x) I_3, its factor / sparse inverse) and the
// step of Algorithms 1-2 of the seed paper, every vector operation a Backend kernel.
#include "sinew/integrators/local_global.hpp"
#include "sinew/core/number_text.hpp"

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "local_global_impl.hpp"
#include "local_global_kernels.hpp"
#include "local_global_triangle_kernels.hpp"
#include "local_global_triangles.hpp"
#include "sinew/core/error.hpp"
#include "sinew/linalg/cholmod_solver.hpp"
#include "sinew/linalg/kronecker.hpp"
#include "sinew/linalg/sparse_inverse.hpp"
#include "sinew/linalg/traffic.hpp"
#include "sinew/materials/tetrahedron.hpp"
#include "sinew/model/lumped_mass.hpp"

namespace sinew::integrators {

namespace {

using Clock = std::chrono::steady_clock;

bool finite3(const Vec3& a) { return std::isfinite(a[0]) && std::isfinite(a[1]) && std::isfinite(a[2]); }

// Pin stiffness relative to the elastic stiffness at the vertex when a target's weight is 0.
constexpr double kAutoPinFactor = 1e4;

}  // namespace

// One pass of the local step over every element: F = G q (multi-vector SpMV), then the element
// kernel (seed eq. (5)) on the backend (sinew::for_each_index).
void LocalGlobalIntegrator::Impl::local_pass(int mode) {
  detail::LocalConstants k = constants;
  k.mode = mode;
  tris.local_pass(*backend, k, x);
  if (n_tets == 0) return;
  backend->spmv3(1.0, G, Op::kNoTranspose, x, 0.0, F_t);
  const detail::LocalStepKernel kernel{
      k, volumes.data(), weights.data(), F_t.data(), u.empty() ? nullptr : u.data(), p_w.data(), energy.data()};
  for_each_index(*backend, n_tets, kernel, "LocalGlobalIntegrator's local step");
}

// E(x) of eq. (1) in energy units, from the element energies of the last local pass:
// sum_e V_e Psi_e + 1/(2 h^2) (x - q~)^T M (x - q~) + 1/2 (x - t)^T W_pin (x - t). Fixed-order dots.
double LocalGlobalIntegrator::Impl::incremental_potential() {
  double e = (n_tets > 0 ? backend->dot(energy, ones) : 0.0) + tris.energy(*backend);
  backend->copy(x, tmp);
  backend->axpby(-1.0, y, 1.0, tmp);
  backend->multiply(mass3, tmp, tmp2);
  e += backend->dot(tmp, tmp2) / (2.0 * h * h);
  if (!targets.empty()) {
    backend->copy(x, tmp);
    backend->axpby(-1.0, pin_t3, 1.0, tmp);
    backend->multiply(pin_w3, tmp, tmp2);
    e += 0.5 * backend->dot(tmp, tmp2);
  }
  return e;
}

// q^{k+1} = A^-1 b (eq. (6)) by the chosen global step.
void LocalGlobalIntegrator::Impl::global_solve() {
  switch (options.global_step) {
    case GlobalStepKind::kSparseInverse:
      inverse_op->apply(b, x);  // eq. (8): x = S'^T (S' b)
      break;
    case GlobalStepKind::kCholmod: {
      backend->download(b, b_host.data(), b_host.size());
      for (Index i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k) rhs_host(i, k) = b_host[3 * static_cast<std::size_t>(i) + k];
      const Eigen::MatrixXd X = cholmod->solve(rhs_host);  // forward and backward substitutions
      for (Index i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k) x_host[3 * static_cast<std::size_t>(i) + k] = X(i, k);
      backend->upload(x_host.data(), x_host.size(), x);
      break;
    }
    case GlobalStepKind::kJacobi:
      // x += omega D^-1 (b - A x), warm-started from the previous iterate (Wang 2015).
      for (int s = 0; s < options.jacobi_iterations; ++s) {
        backend->copy(b, r);
        backend->spmv3(-1.0, As_dev, Op::kNoTranspose, x, 1.0, r);
        backend->multiply(r, jacobi_scale, r);
        backend->axpby(1.0, r, 1.0, x);
      }
      break;
  }
}

LocalGlobalIntegrator::LocalGlobalIntegrator(Backend& backend, const LocalGlobalDescription& d,
                                             const LocalGlobalOptions& options)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  options.validate();
  m.backend = &backend;
  m.options = options;
  const std::string who = "LocalGlobalDescription: ";

  // ---- checks (all before any work, so that nothing is half-built)
  require(std::isfinite(d.time_step) && d.time_step > 0.0,
          who + "time_step must be finite and > 0 (s), got " + number_text(d.time_step));
  m.h = d.time_step;
  const LameParameters lame = lame_parameters(d.elastic);  // names youngs_modulus / poisson_ratio
  int model = 0;
  switch (d.model) {
    case MaterialModel::kArap:
      model = detail::kLocalArap;
      break;
    case MaterialModel::kCorotational:
      model = detail::kLocalCorotational;
      break;
    case MaterialModel::kStableNeoHookean:
      model = detail::kLocalNeoHookean;
      break;
    default:
      throw Error(who + "model '" + material_model_name(d.model) +
                  "' has no local step; use arap, corotational or stable_neo_hookean");
  }
  m.constants = detail::LocalConstants{model, detail::kLocalProject, lame};
  require(d.rest_positions.size() % 3 == 0 && !d.rest_positions.empty(),
          who + "rest_positions must hold 3 coordinates per vertex (non-empty), got " +
              std::to_string(d.rest_positions.size()) + " values");
  for (std::size_t k = 0; k < d.rest_positions.size(); ++k)
    require(std::isfinite(d.rest_positions[k]), who + "rest_positions[" + std::to_string(k) + "] is not finite");
  m.n = static_cast<Index>(d.rest_positions.size() / 3);
  const Index n = m.n;
  require(d.tets.size() % 4 == 0 && !(d.tets.empty() && d.triangles.empty()),
          who + "tets must hold 4 vertex indices per tetrahedron (non-empty unless there are triangles), got " +
              std::to_string(d.tets.size()));
  m.tris.check(d, n, who);
  m.n_tets = d.tets.size() / 4;
  for (std::size_t k = 0; k < d.tets.size(); ++k)
    require(d.tets[k] >= 0 && d.tets[k] < n, who + "tets[" + std::to_string(k) + "] (tetrahedron " +
                                                 std::to_string(k / 4) + ") = " + std::to_string(d.tets[k]) +
                                                 ", expected 0 <= index < " + std::to_string(n));
  std::vector<TetRest> rests(m.n_tets);
  for (std::size_t e = 0; e < m.n_tets; ++e) {
    double X[12];
    for (int a = 0; a < 4; ++a)
      for (int i = 0; i < 3; ++i) X[3 * a + i] = d.rest_positions[3 * static_cast<std::size_t>(d.tets[4 * e + a]) + i];
    try {
      rests[e] = make_tet_rest(X);
    } catch (const Error& error) {
      throw Error(who + "tets: tetrahedron " + std::to_string(e) + " (vertices " + std::to_string(d.tets[4 * e]) + " " +
                  std::to_string(d.tets[4 * e + 1]) + " " + std::to_string(d.tets[4 * e + 2]) + " " +
                  std::to_string(d.tets[4 * e + 3]) + "): " + error.what());
    }
  }
  if (d.masses.empty()) {
    require(std::isfinite(d.density) && d.density > 0.0,
            who + "density must be finite and > 0, got " + number_text(d.density));
    m.masses.assign(n, 0.0);
    std::vector<double> volumes(m.n_tets);
    for (std::size_t e = 0; e < m.n_tets; ++e) volumes[e] = rests[e].volume;
    model::add_lumped_masses<4>(d.density, volumes, d.tets.data(), m.masses);
    m.tris.add_masses(d.density, m.masses);
    for (Index i = 0; i < n; ++i)
      require(m.masses[i] > 0.0,
              who + "vertex " + std::to_string(i) +
                  " belongs to no tetrahedron or triangle and so has no mass; give masses explicitly");
  } else {
    require(d.masses.size() == static_cast<std::size_t>(n), who + "masses must have one entry per vertex (" +
                                                                std::to_string(n) + "), got " +
                                                                std::to_string(d.masses.size()));
    for (Index i = 0; i < n; ++i)
      require(std::isfinite(d.masses[i]) && d.masses[i] > 0.0,
              who + "masses[" + std::to_string(i) + "] must be finite and > 0, got " + number_text(d.masses[i]));
    m.masses = d.masses;
  }
  require(finite3(d.gravity), who + "gravity must be finite");
  for (std::size_t k = 0; k < d.targets.size(); ++k) {
    const PositionalTarget& t = d.targets[k];
    const std::string name = who + "targets[" + std::to_string(k) + "]";
    require(t.vertex >= 0 && t.vertex < n, name + ".vertex = " + std::to_string(t.vertex) +
                                               " is out of range, expected 0 <= vertex < " + std::to_string(n));
    require(finite3(t.target), name + ".target must be finite");
    require(std::isfinite(t.weight) && t.weight >= 0.0,
            name + ".weight must be finite and >= 0 (0 = automatic), got " + number_text(t.weight));
  }
  detail::validate_contact(d, n, who);
  validate_cables(d.cables, d.rest_positions, n, who);
  require(d.cables.empty() || options.global_step == GlobalStepKind::kSparseInverse,
          who + "cables: cables need the kSparseInverse global step (rows of W = H S'^T S' H^T), got " +
              global_step_name(options.global_step));
  require(d.obstacles.empty() || options.global_step == GlobalStepKind::kSparseInverse,
          who + "obstacles: contact needs the kSparseInverse global step (W = H S'^T S' H^T, eq. (27)), got " +
              global_step_name(options.global_step));
  detail::BodySurfaces bodies = detail::body_surfaces(d, n);
  require(!bodies.active || options.global_step == GlobalStepKind::kSparseInverse,
          who + "body_contact: contact between the solid's " + std::to_string(bodies.surfaces.bodies) +
              " bodies needs the kSparseInverse global step (W = H S'^T S' H^T, eq. (27)), got " +
              global_step_name(options.global_step) + "; set body_contact = false to let them pass through");
  require(can_run_kernel<detail::LocalStepKernel>(backend) && can_run_kernel<detail::TriangleLocalStepKernel>(backend),
          cannot_run_kernel_message(backend, "LocalGlobalIntegrator's local step"));

  // ---- G (3 n_tets x n) and A_s = M + h^2 sum W_e C_e C_e^T + h^2 sum_pins w e_v e_v^T (eq. (6))
  const double h2 = m.h * m.h;
  CsrMatrix G;
  G.rows = static_cast<Index>(3 * m.n_tets);
  G.cols = n;
  G.row_ptr.resize(3 * m.n_tets + 1);
  G.col_idx.resize(12 * m.n_tets);
  G.values.resize(12 * m.n_tets);
  std::vector<Eigen::Triplet<double, Index>> triplets;
  triplets.reserve(16 * m.n_tets + n + d.targets.size());
  std::vector<double> elastic_diagonal(n, 0.0);  // (n) diagonal of sum W_e G_e^T G_e
  std::vector<double> volumes(m.n_tets), weights(m.n_tets);
  for (std::size_t e = 0; e < m.n_tets; ++e) {
    double cg[4][3];
    tet_shape_gradients(rests[e], cg);
    volumes[e] = rests[e].volume;
    double W = 0.0;
    if (model == detail::kLocalNeoHookean) {
      // ADMM penalty (local_global_kernels.hpp): near the geometric mean of the element's elastic
      // stiffness and its inertia in F units, where ADMM's rate is best (measured on a bar over
      // E = 1e5..1e7 Pa, nu = 0.3..0.45: the best fixed multiple of (2 mu + lambda) V moved from 0.05
      // to 0.86 and this rule tracked it), and never below a quarter of the stiffness.
      double grad2 = 0.0, mass = 0.0;
      for (int a = 0; a < 4; ++a) {
        grad2 += cg[a][0] * cg[a][0] + cg[a][1] * cg[a][1] + cg[a][2] * cg[a][2];
        mass += 0.25 * m.masses[d.tets[4 * e + a]];
      }
      W = detail::neo_hookean_admm_weight(m.constants, rests[e].volume, mass, h2, grad2, options.neo_hookean_weight);
    } else {
      W = detail::projective_weight(m.constants, rests[e].volume);
    }
    weights[e] = W;
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
        triplets.emplace_back(d.tets[4 * e + a], d.tets[4 * e + b], h2 * W * gg);
        if (a == b) elastic_diagonal[d.tets[4 * e + a]] += W * gg;
      }
  }
  G.row_ptr[3 * m.n_tets] = static_cast<Index>(12 * m.n_tets);
  m.tris.assemble(m.constants, m.masses, m.h, options.neo_hookean_weight, triplets, elastic_diagonal);
  for (Index i = 0; i < n; ++i) triplets.emplace_back(i, i, m.masses[i]);
  m.targets = d.targets;
  std::vector<double> pin_w3(3 * static_cast<std::size_t>(n), 0.0);
  m.pin_t3_host.assign(3 * static_cast<std::size_t>(n), 0.0);
  for (std::size_t k = 0; k < m.targets.size(); ++k) {
    PositionalTarget& t = m.targets[k];
    if (t.weight == 0.0) {
      t.weight = kAutoPinFactor * elastic_diagonal[t.vertex];
      require(t.weight > 0.0, who + "targets[" + std::to_string(k) + "]: vertex " + std::to_string(t.vertex) +
                                  " belongs to no element, so an automatic weight is undefined; give a weight");
    }
    triplets.emplace_back(t.vertex, t.vertex, h2 * t.weight);
    for (int i = 0; i < 3; ++i) pin_w3[3 * static_cast<std::size_t>(t.vertex) + i] += t.weight;
  }
  for (const PositionalTarget& t : m.targets)  // several targets on one vertex: their weighted mean
    for (int i = 0; i < 3; ++i)
      m.pin_t3_host[3 * static_cast<std::size_t>(t.vertex) + i] +=
          t.weight * t.target[i] / pin_w3[3 * static_cast<std::size_t>(t.vertex) + i];
  EigenCsr A_eigen(n, n);
  A_eigen.setFromTriplets(triplets.begin(), triplets.end());  // duplicates summed in a fixed order
  m.As = from_eigen(A_eigen);

  // ---- global step setup: A_s is constant, so this is the only factorization (Sec. 3.3)
  switch (options.global_step) {
    case GlobalStepKind::kSparseInverse: {
      SparseInverseOptions sio;
      sio.structure = KroneckerStructure::kKronecker3;  // only A_s is factored and inverted
      m.inverse = std::make_unique<SparseInverse>(kronecker3_expand(m.As), sio);
      m.inverse_op = std::make_unique<SparseInverseOperator>(backend, *m.inverse);
      break;
    }
    case GlobalStepKind::kCholmod:
      m.cholmod = std::make_unique<CholmodSolver>();
      m.cholmod->compute(m.As);
      m.b_host.resize(3 * static_cast<std::size_t>(n));
      m.x_host.resize(3 * static_cast<std::size_t>(n));
      m.rhs_host.resize(n, 3);
      break;
    case GlobalStepKind::kJacobi: {
      double ratio = 1.0;  // max_i sum_j |a_ij| / a_ii, the Gershgorin bound of rho(D^-1 A)
      std::vector<double> diagonal(n, 0.0);
      for (Index i = 0; i < n; ++i) {
        double row = 0.0;
        for (Index p = m.As.row_ptr[i]; p < m.As.row_ptr[i + 1]; ++p) {
          row += std::abs(m.As.values[p]);
          if (m.As.col_idx[p] == i) diagonal[i] = m.As.values[p];
        }
        ratio = std::max(ratio, row / diagonal[i]);
      }
      m.jacobi_omega = options.jacobi_relaxation > 0.0 ? options.jacobi_relaxation : 1.0 / ratio;
      std::vector<double> scale(3 * static_cast<std::size_t>(n));
      for (Index i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k) scale[3 * static_cast<std::size_t>(i) + k] = m.jacobi_omega / diagonal[i];
      m.As_dev = to_device(backend, m.As);
      m.jacobi_scale = backend.upload(scale);
      m.r = backend.allocate<double>(3 * static_cast<std::size_t>(n));
      break;
    }
  }

  // ---- backend arrays (allocated once; a step allocates nothing on the backend)
  const std::size_t n3 = 3 * static_cast<std::size_t>(n);
  if (m.n_tets > 0) m.G = to_device(backend, G);
  m.tris.upload(backend, model == detail::kLocalNeoHookean);
  m.volumes = backend.upload(volumes);
  m.weights = backend.upload(weights);
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
  m.pin_w3 = backend.upload(pin_w3);
  m.pin_t3 = backend.allocate<double>(n3);
  m.F_t = backend.allocate<double>(9 * m.n_tets);
  m.p_w = backend.allocate<double>(9 * m.n_tets);
  if (model == detail::kLocalNeoHookean) m.u = backend.allocate<double>(9 * m.n_tets);
  m.energy = backend.allocate<double>(m.n_tets);
  m.ones = backend.allocate<double>(m.n_tets);
  backend.fill(m.ones, 1.0);
  // Cables and contacts between bodies are rows of the same constrained global step.
  if (!d.obstacles.empty() || !d.cables.empty() || bodies.active)
    m.contact = std::make_unique<detail::LocalGlobalContactSolver>(backend, detail::with_contact_margin(d, m.tris),
                                                                   options.contact, m.masses, *m.inverse, *m.inverse_op,
                                                                   options.time_phases, std::move(bodies));
}

LocalGlobalIntegrator::~LocalGlobalIntegrator() = default;

LocalGlobalReport LocalGlobalIntegrator::step() {
  Impl& m = *impl_;
  Backend& be = *m.backend;
  LocalGlobalReport report;
  const bool record = m.options.record_energy, timed = m.options.time_phases;
  const double h = m.h;
  auto now = [&]() {
    if (timed) be.synchronize();
    return Clock::now();
  };
  auto seconds = [](Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); };
  const Clock::time_point frame_start = now();
  if (m.targets_dirty) {
    be.upload(m.pin_t3_host.data(), m.pin_t3_host.size(), m.pin_t3);
    m.targets_dirty = false;
  }
  // q~ = x_n + h v_n + h^2 M^-1 f_ext (eq. (1)); c = M q~ + h^2 W_pin t, constant over the step.
  Clock::time_point t0 = now();
  be.copy(m.x, m.x_prev);
  be.copy(m.x, m.y);
  be.axpby(h, m.v, 1.0, m.y);
  be.axpby(h * h, m.gravity3, 1.0, m.y);
  be.multiply(m.mass3, m.y, m.c);
  if (!m.targets.empty()) {
    be.multiply(m.pin_w3, m.pin_t3, m.tmp);
    be.axpby(h * h, m.tmp, 1.0, m.c);
  }
  be.copy(m.y, m.x);                    // q^0 = q~
  if (!m.u.empty()) be.fill(m.u, 0.0);  // ADMM dual starts at 0 each step (no state across steps)
  m.tris.reset_duals(be);
  report.rhs_seconds += seconds(t0, now());
  // Collision at q_t, H, d and W = H S'^T S' H^T once per step (Algorithm 4).
  const std::size_t contacts = m.contact ? m.contact->begin_step(m.x_prev, m.y, report) : 0;
  for (int k = 0; k < m.options.iterations; ++k) {
    Clock::time_point a = now();
    m.local_pass(record ? detail::kLocalProjectAndEnergy : detail::kLocalProject);
    if (record) report.energies.push_back(m.incremental_potential());  // E(q^k)
    Clock::time_point b = now();
    if (m.n_tets > 0) be.spmv3(h * h, m.G, Op::kTranspose, m.p_w, 0.0, m.b);  // h^2 G^T p_w: fixed-order gather
    m.tris.add_rhs(be, h * h, m.n_tets > 0 ? 1.0 : 0.0, m.b);
    be.axpby(1.0, m.c, 1.0, m.b);
    Clock::time_point c = now();
    m.global_solve();
    Clock::time_point e = now();
    report.local_seconds += seconds(a, b);
    report.rhs_seconds += seconds(b, c);
    report.global_seconds += seconds(c, e);
    // Constrained global step: x = q_free on entry; one indicator-Newton step; x = q on exit.
    if (contacts > 0) m.contact->iterate(m.x_prev, m.x, report);
    ++report.iterations;
  }
  if (record) {
    Clock::time_point a = now();
    m.local_pass(detail::kLocalEnergyOnly);
    report.energies.push_back(m.incremental_potential());  // E(q^K)
    report.local_seconds += seconds(a, now());
  }
  // Numerical trouble is reported, not thrown: the first non-finite energy or positions.
  int bad_iteration = -1;
  for (std::size_t k = 0; k < report.energies.size() && bad_iteration < 0; ++k)
    if (!std::isfinite(report.energies[k])) bad_iteration = static_cast<int>(k);
  const double xx = be.dot(m.x, m.x);
  if (bad_iteration >= 0 || !std::isfinite(xx)) {
    be.copy(m.x_prev, m.x);
    if (m.contact) m.contact->end_step(false, report);
    report.status = LocalGlobalStatus::kNonFinite;
    report.message =
        "LocalGlobalIntegrator: step " + std::to_string(m.steps + 1) +
        " (t = " + number_text(static_cast<double>(m.steps) * h, 6) + " s): " +
        (bad_iteration >= 0
             ? "non-finite incremental potential at iterate " + std::to_string(bad_iteration)
             : std::string("non-finite positions after ") + std::to_string(report.iterations) + " iterations") +
        " (" + global_step_name(m.options.global_step) + " global step); the state was left at the start of the step";
    return report;
  }
  be.copy(m.x, m.v);  // v = (q^K - x_n) / h
  be.axpby(-1.0, m.x_prev, 1.0, m.v);
  be.scale(1.0 / h, m.v);
  if (m.contact) m.contact->end_step(true, report);
  ++m.steps;
  if (timed) report.frame_seconds = seconds(frame_start, now()) - report.collision_seconds;
  return report;
}

void LocalGlobalIntegrator::set_target(std::size_t k, const Vec3& target) {
  Impl& m = *impl_;
  require(k < m.targets.size(), "LocalGlobalIntegrator::set_target: target index " + std::to_string(k) +
                                    " is out of range, expected < " + std::to_string(m.targets.size()));
  require(finite3(target), "LocalGlobalIntegrator::set_target: target " + std::to_string(k) + " must be finite");
  m.targets[k].target = target;
  // Recompute the weighted mean target of that vertex (several targets may share it).
  const Index v = m.targets[k].vertex;
  double wsum = 0.0;
  Vec3 sum{{0, 0, 0}};
  for (const PositionalTarget& t : m.targets)
    if (t.vertex == v) {
      wsum += t.weight;
      for (int i = 0; i < 3; ++i) sum[i] += t.weight * t.target[i];
    }
  for (int i = 0; i < 3; ++i) m.pin_t3_host[3 * static_cast<std::size_t>(v) + i] = sum[i] / wsum;
  m.targets_dirty = true;
}

void LocalGlobalIntegrator::set_cable_pull(std::size_t k, double pull) {
  Impl& m = *impl_;
  const std::size_t count = m.contact ? m.contact->cable_count() : 0;
  require(k < count, "LocalGlobalIntegrator::set_cable_pull: cable index " + std::to_string(k) +
                         " is out of range, expected < " + std::to_string(count));
  const double rest = m.contact->cable_rest_length(k);
  require(std::isfinite(pull) && pull >= 0.0 && pull < rest,
          "LocalGlobalIntegrator::set_cable_pull: cables[" + std::to_string(k) + "] pull must be finite, >= 0 and < " +
              number_text(rest) + " (the rest length), got " + number_text(pull));
  m.contact->set_cable_pull(k, pull);
}

void LocalGlobalIntegrator::set_obstacle(std::size_t k, const Pose& pose, const Motion& motion) {
  Impl& m = *impl_;
  const std::size_t count = m.contact ? m.contact->obstacles().size() : 0;
  require(k < count, "LocalGlobalIntegrator::set_obstacle: obstacle index " + std::to_string(k) +
                         " is out of range, expected < " + std::to_string(count));
  detail::validate_obstacle_placement(pose, motion,
                                      "LocalGlobalIntegrator::set_obstacle: obstacles[" + std::to_string(k) + "]");
  m.contact->set_obstacle(k, pose, motion);
}

const std::vector<Obstacle>& LocalGlobalIntegrator::obstacles() const {
  return impl_->contact ? impl_->contact->obstacles() : impl_->no_obstacles;
}

const TetSurfaces& LocalGlobalIntegrator::contact_surfaces() const {
  return impl_->contact ? impl_->contact->surfaces() : impl_->no_surfaces;
}

void LocalGlobalIntegrator::set_state(const std::vector<double>& positions, const std::vector<double>& velocities) {
  Impl& m = *impl_;
  const std::size_t n3 = 3 * static_cast<std::size_t>(m.n);
  require(positions.size() == n3 && velocities.size() == n3,
          "LocalGlobalIntegrator::set_state: positions and velocities must have 3 n_vertices = " + std::to_string(n3) +
              " entries, got " + std::to_string(positions.size()) + " and " + std::to_string(velocities.size()));
  for (std::size_t i = 0; i < n3; ++i)
    require(std::isfinite(positions[i]) && std::isfinite(velocities[i]),
            "LocalGlobalIntegrator::set_state: entry " + std::to_string(i) + " is not finite");
  m.backend->upload(positions.data(), n3, m.x);
  m.backend->upload(velocities.data(), n3, m.v);
}

CsrMatrix LocalGlobalIntegrator::delassus() const { return impl_->contact ? impl_->contact->delassus() : CsrMatrix{}; }
std::vector<double> LocalGlobalIntegrator::positions() const { return impl_->backend->download(impl_->x); }
std::vector<double> LocalGlobalIntegrator::velocities() const { return impl_->backend->download(impl_->v); }
double LocalGlobalIntegrator::time() const { return static_cast<double>(impl_->steps) * impl_->h; }
long LocalGlobalIntegrator::steps() const { return impl_->steps; }
Index LocalGlobalIntegrator::num_vertices() const { return impl_->n; }
std::size_t LocalGlobalIntegrator::num_tets() const { return impl_->n_tets; }
std::size_t LocalGlobalIntegrator::num_triangles() const { return impl_->tris.size(); }
const std::vector<double>& LocalGlobalIntegrator::masses() const { return impl_->masses; }
const CsrMatrix& LocalGlobalIntegrator::system_matrix() const { return impl_->As; }
const SparseInverse* LocalGlobalIntegrator::sparse_inverse() const { return impl_->inverse.get(); }
const LocalGlobalOptions& LocalGlobalIntegrator::options() const { return impl_->options; }

double LocalGlobalIntegrator::global_bytes_per_apply() const {
  const Impl& m = *impl_;
  switch (m.options.global_step) {
    case GlobalStepKind::kSparseInverse:
      return m.inverse_op->bytes_per_apply();
    case GlobalStepKind::kJacobi: {
      // Per sweep: copy b to r (2 vectors), r -= A x (spmv3), r *= scale (3), x += r (3).
      const double vec = 3.0 * static_cast<double>(m.n) * sizeof(double);
      return m.options.jacobi_iterations * (spmv3_bytes(m.As.rows, m.As.cols, m.As.nnz()) + 8.0 * vec);
    }
    case GlobalStepKind::kCholmod:
      return 0.0;
  }
  return 0.0;
}

}  // namespace sinew::integrators
