// LocalGlobalIntegrator: the step of Algorithms 1-2 of the seed paper, every vector operation a
// Backend kernel (construction: setup.cpp; the global step: global_step.hpp).
#include "sinew/integrators/local_global.hpp"
#include "sinew/core/number_text.hpp"

#include <chrono>
#include <cmath>
#include <string>

#include "bending.hpp"
#include "impl.hpp"
#include "kernels.hpp"
#include "sinew/core/error.hpp"
#include "sinew/linalg/sparse_inverse.hpp"
#include "triangle_kernels.hpp"
#include "triangles.hpp"

namespace sinew::integrators {

namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

// One pass of the local step over every element: F = G q (multi-vector SpMV), then the element
// kernel (seed eq. (5)) on the backend (sinew::for_each_index).
void LocalGlobalIntegrator::Impl::local_pass(int mode) {
  const detail::LocalMaterial* table = material_table.empty() ? nullptr : material_table.data();
  tris.local_pass(*backend, materials.single, table, mode, x);
  bending.local_pass(*backend, mode, x);
  if (n_tets == 0) return;
  backend->spmv3(1.0, G, Op::kNoTranspose, x, 0.0, F_t);
  const detail::LocalMaterials tet_materials{materials.single, table,
                                             tet_material.empty() ? nullptr : tet_material.data()};
  const detail::LocalStepKernel kernel{tet_materials,  mode,         volumes.data(),
                                       weights.data(), F_t.data(),   u.empty() ? nullptr : u.data(),
                                       p_w.data(),     energy.data()};
  for_each_index(*backend, n_tets, kernel, "LocalGlobalIntegrator's local step");
}

// E(x) of eq. (1) in energy units, from the element energies of the last local pass:
// sum_e V_e Psi_e + E_bending + 1/(2 h^2) (x - q~)^T M (x - q~) + 1/2 (x - t)^T W_pin (x - t). Fixed-order dots.
double LocalGlobalIntegrator::Impl::incremental_potential() {
  double e = (n_tets > 0 ? backend->dot(energy, ones) : 0.0) + tris.energy(*backend) + bending.energy(*backend);
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
    m.bending.add_rhs(be, h * h, m.b);  // bending needs triangles: b is written above
    be.axpby(1.0, m.c, 1.0, m.b);
    Clock::time_point c = now();
    m.global->solve(m.b, m.x);  // q^{k+1} = A^-1 b (eq. (6))
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
  // An unconverged contact solve is reported (the step stands): the true error against the limit.
  if (contacts > 0 && !(report.contact_error <= m.options.contact.warn_error)) {
    report.contact_converged = false;
    report.warning = "LocalGlobalIntegrator: step " + std::to_string(m.steps + 1) +
                     " (t = " + number_text(static_cast<double>(m.steps) * h, 6) +
                     " s): contact solve not converged, natural-map error " + number_text(report.contact_error, 3) +
                     " above warn_error " + number_text(m.options.contact.warn_error, 3) + " (" +
                     std::to_string(report.contacts) + " contacts, " + std::to_string(report.iterations) +
                     " L-G iterations, " + std::to_string(report.newton_steps) + " Newton steps)";
  }
  ++m.steps;
  if (timed) report.frame_seconds = seconds(frame_start, now()) - report.collision_seconds;
  return report;
}

void LocalGlobalIntegrator::set_target(std::size_t k, const Vec3& target) {
  Impl& m = *impl_;
  require(k < m.targets.size(), "LocalGlobalIntegrator::set_target: target index " + std::to_string(k) +
                                    " is out of range, expected < " + std::to_string(m.targets.size()));
  require(is_finite(target), "LocalGlobalIntegrator::set_target: target " + std::to_string(k) + " must be finite");
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
const SparseInverse* LocalGlobalIntegrator::sparse_inverse() const { return impl_->global->sparse_inverse(); }
const LocalGlobalOptions& LocalGlobalIntegrator::options() const { return impl_->options; }

double LocalGlobalIntegrator::global_bytes_per_apply() const { return impl_->global->bytes_per_apply(); }

}  // namespace sinew::integrators
