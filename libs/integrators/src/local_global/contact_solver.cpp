// LocalGlobalContactSolver: its setup, the once-per-step stages (collision in contact_detection.cpp
// and cloth_self_contact.cpp; H, the warm start and W in contact_rows.cpp), and the per-iteration
// indicator-Newton step and correction of the constrained global step (seed Sec. 5, Algorithm 4),
// then the step's report and the obstacles' motion.
#include "contact_solver.hpp"
#include "sinew/core/number_text.hpp"

#include <Eigen/SparseCore>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <utility>

#include "sinew/collision/contact_frame.hpp"
#include "sinew/collision/point_shape.hpp"
#include "sinew/collision/vec3_ops.hpp"
#include "sinew/constraints/contact_warm_start.hpp"
#include "sinew/constraints/natural_map.hpp"
#include "sinew/core/error.hpp"
#include "sinew/linalg/csr_matrix.hpp"
#include "sinew/linalg/sparse_inverse.hpp"

namespace sinew::integrators::detail {

LocalGlobalContactSolver::LocalGlobalContactSolver(Backend& backend, const LocalGlobalDescription& d,
                                                   const LocalGlobalContactOptions& options,
                                                   const std::vector<double>& masses, const SparseInverse& inverse,
                                                   SparseInverseOperator& op, bool timed, BodySurfaces bodies)
    : be_(&backend),
      options_(options),
      obstacles_(d.obstacles),
      masses_(masses),
      h_(d.time_step),
      margin_(d.contact_margin),
      thickness_(d.contact_thickness),
      n_(static_cast<Index>(masses.size())),
      timed_(timed),
      op_(&op),
      bodies_(std::move(bodies)),
      body_friction_(d.body_friction),
      self_friction_(d.self_friction) {
  cables_ = d.cables;  // checked by validate_cables(); resolve automatic rest lengths
  for (Cable& c : cables_)
    if (c.rest_length < 0.0) c.rest_length = cable_length(c, d.rest_positions);
  cable_r_prev_.assign(cables_.size(), 0.0);
  require(inverse.block() == 3, "LocalGlobalIntegrator: contact needs the per-vertex (Kronecker) sparse inverse");
  require(margin_ >= 0.0,
          "LocalGlobalContactSolver: the automatic contact margin must be resolved first "
          "(with_contact_margin)");
  candidates_ = d.contact_vertices;
  if (candidates_.empty())
    for (Index v = 0; v < n_; ++v) candidates_.push_back(v);
  std::sort(candidates_.begin(), candidates_.end());
  candidates_.erase(std::unique(candidates_.begin(), candidates_.end()), candidates_.end());
  order_ = candidates_;
  touches_obstacles_.assign(static_cast<std::size_t>(n_), 0);
  for (Index v : candidates_) touches_obstacles_[v] = 1;
  const EigenCsr St = to_eigen(inverse.factor()).transpose();
  St_ = to_device(backend, from_eigen(St));
  require(options.schur != SchurAssembly::kDense || backend.runs_host_code(),
          "LocalGlobalIntegrator: contact.schur = kDense needs a backend that runs host code; backend '" +
              backend.name() + "' does not (use kAuto or kSparse)");
  schur_ = std::make_unique<SchurComplement>(backend, op.factor(), St_, inverse.factor());
  if (backend.runs_host_code()) {
    wop_ = std::make_unique<DelassusOperator>(backend, St_.ref());
  } else {
    St_host_ = from_eigen(St);
    wop_ = std::make_unique<DelassusOperator>(
        backend, CsrRef{St_host_.rows, St_host_.cols, St_host_.nnz(), St_host_.row_ptr.data(), St_host_.col_idx.data(),
                        St_host_.values.data()});
  }
  col_of_vertex_.assign(static_cast<std::size_t>(n_), -1);
  const std::size_t n3 = 3 * static_cast<std::size_t>(n_);
  t3n_ = backend.allocate<double>(n3);
  c3n_ = backend.allocate<double>(n3);
  x_host_.resize(n3);
  y_host_.resize(n3);
  first_feature_key_ = static_cast<int>(obstacles_.size() + bodies_.surfaces.triangles.size() +
                                        (bodies_.active ? boundary_edges(bodies_.surfaces).size() : 0));
  if (d.obstacle_features)
    features_ = std::make_unique<ObstacleFeatureContacts>(obstacles_, d.tets, candidates_, n_, kSharpEdgeAngle);
  first_cloth_key_ = first_feature_key_ + (features_ ? features_->keys() : 0);
  if (cloth_self_contact(d)) build_cloth(d);
  if (bodies_.active || cloth_) {
    xs_.resize(static_cast<std::size_t>(n_));
    ys_.resize(static_cast<std::size_t>(n_));
  }
  constraints::IndicatorStepOptions so;
  so.function = options.function;
  so.cr_iterations = options.cr_iterations;
  step_ = std::make_unique<constraints::IndicatorNewtonStep>(backend, so);
  if (options.solve != ContactSolve::kSeedSteps) converged_ = std::make_unique<ConvergedLocalSolve>(backend, options);
}

LocalGlobalContactSolver::~LocalGlobalContactSolver() = default;

double LocalGlobalContactSolver::now_seconds() {
  if (!timed_) return 0.0;
  be_->synchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void LocalGlobalContactSolver::set_obstacle(std::size_t k, const Pose& pose, const Motion& motion) {
  obstacles_[k].pose = pose;
  obstacles_[k].motion = motion;
}

// Algorithm 4's once-per-step part, in stages: collision, cables, H and its blocks, warm start,
// then W.
std::size_t LocalGlobalContactSolver::begin_step(const DeviceArray<double>& q_t, const DeviceArray<double>& q_tilde,
                                                 LocalGlobalReport& report) {
  const double t0 = now_seconds();
  be_->download(q_t, x_host_.data(), x_host_.size());
  be_->download(q_tilde, y_host_.data(), y_host_.size());
  detect_contacts();
  report.contacts = contacts_.size();
  gather_cables(report);
  rows_ = 3 * contacts_.size() + active_.size();
  e_host_.resize(rows_);
  relinearize_cables(y_host_);  // the first L-G iteration's length is measured at q^0 = q~
  if (rows_ == 0) {
    report.collision_seconds += now_seconds() - t0;
    return 0;
  }
  assemble_rows();
  // The same contacts and cable rows as the last step's: H (and its transposed pattern) and W
  // are the same, bit for bit. The per-step arrays only grow.
  same_rows_ = delassus_kept_ && same_delassus_rows(contacts_, delassus_contacts_) &&
               same_delassus_rows(cable_rows_, delassus_cables_);
  if (!same_rows_) to_device(*be_, H_host_, H_);
  e_.grow_to(*be_, e_host_.size());
  be_->upload(e_host_.data(), e_host_.size(), e_);
  for (auto* a : {&q_loc_, &r_, &u_}) a->grow_to(*be_, rows_);
  warm_start();
  const double t1 = now_seconds();
  report.collision_seconds += t1 - t0;
  build_delassus(report);
  report.schur_seconds += now_seconds() - t1;
  return contacts_.size() + active_.size();
}

void LocalGlobalContactSolver::iterate(const DeviceArray<double>& q_t, DeviceArray<double>& x,
                                       LocalGlobalReport& report) {
  if (rows_ == 0) return;
  Backend& be = *be_;
  const double t0 = now_seconds();
  // q_loc = H (q_free - q_t) / h + d/h - H v_obs.
  be.copy(x, t3n_);
  be.axpby(-1.0, q_t, 1.0, t3n_);
  be.copy(e_, q_loc_);
  be.spmv(1.0 / h_, H_, Op::kNoTranspose, t3n_, 1.0, q_loc_);
  const double t1 = now_seconds();
  if (converged_used_) {  // to the tolerance from the current r
    converged_->solve(q_loc_, r_, report);
    step_->velocity(q_loc_, r_, u_);
  } else {
    for (int s = 0; s < options_.newton_steps; ++s) {  // Algorithm 4: one step, warm-started from r
      const KrylovResult inner = step_->step(q_loc_, r_, u_);
      report.cr_iterations += inner.iterations;
      ++report.newton_steps;
    }
  }
  const double t2 = now_seconds();
  // q = q_free + A^-1 (h H^T r) (eq. (23b) with r = h lambda).
  be.spmv(h_, H_, Op::kTranspose, r_, 0.0, c3n_);
  op_->apply(c3n_, t3n_);
  be.axpby(1.0, t3n_, 1.0, x);
  if (!active_.empty()) {  // the next iteration's cable lengths at q^{k+1}
    be.download(x, y_host_.data(), y_host_.size());
    relinearize_cables(y_host_);
    be.upload(e_host_.data(), e_host_.size(), e_);
  }
  const double t3 = now_seconds();
  report.assembly_seconds += t1 - t0;
  report.constraint_seconds += t2 - t1;
  report.correction_seconds += t3 - t2;
}

CsrMatrix LocalGlobalContactSolver::delassus() const {
  if (rows_ == 0) return CsrMatrix{};
  if (!operator_used_) return to_host(*be_, W_);
  // The step used the operator: assemble W as the explicit path would (for inspection and tests).
  std::vector<Index> col(static_cast<std::size_t>(n_), -1);
  for (std::size_t a = 0; a < verts_.size(); ++a) col[verts_[a]] = static_cast<Index>(a);
  schur_->compute(options_.schur, verts_, options_.reuse_delassus);
  DeviceCsr W;
  std::vector<double> diag;
  expand_delassus(*be_, *schur_, col, contacts_, cable_rows_, W, diag);
  return to_host(*be_, W);
}

void LocalGlobalContactSolver::end_step(bool advanced, LocalGlobalReport& report) {
  const std::size_t nc = contacts_.size(), m = rows_;
  if (m > 0) {
    constraints::DelassusProblem local;  // W is not needed: u = W r + q_loc is on the backend
    local.q = Eigen::VectorXd(m);
    local.blocks = blocks_;
    Eigen::VectorXd r(m), u(m);
    be_->download(q_loc_, local.q.data(), m);
    be_->download(r_, r.data(), m);
    be_->download(u_, u.data(), m);
    report.contact_error = constraints::natural_map_error(local, r, u).relative;
    report.impulses.assign(r.data(), r.data() + 3 * nc);
    for (std::size_t t = 0; t < active_.size(); ++t) report.cable_impulses[active_[t]] = r[3 * nc + t];
    report.normals.resize(3 * nc);
    report.tangents.resize(3 * nc);
    report.contact_vertex.resize(nc);
    report.contact_triangle.resize(nc);
    report.contact_barycentric.resize(3 * nc);
    report.contact_nodes.assign(4 * nc, -1);
    report.contact_weights.assign(4 * nc, 0.0);
    report.contact_obstacle.resize(nc);
    report.contact_points_a.resize(3 * nc);
    report.contact_points_b.resize(3 * nc);
    const int n_obstacles = static_cast<int>(obstacles_.size());
    for (std::size_t j = 0; j < nc; ++j) {
      const Contact& c = contacts_[j];
      const bool cloth = is_cloth_contact(c), cloth_edge = is_cloth_edge_contact(c);
      const bool edge = is_edge_contact(c) || cloth_edge, feature = is_feature_contact(c);
      report.contact_vertex[j] = c.vertex;
      report.contact_triangle[j] = c.obstacle < n_obstacles ? -1
                                   : cloth_edge             ? -5
                                   : cloth                  ? -4
                                   : edge                   ? -2
                                   : feature                ? -3
                                                            : c.obstacle - n_obstacles;
      report.contact_obstacle[j] = obstacle_of(c);
      for (int i = 0; i < 3; ++i) {
        report.contact_points_a[3 * j + i] = witness_[2 * j][i];
        report.contact_points_b[3 * j + i] = witness_[2 * j + 1][i];
      }
      // Edge-edge: s, t, 0; a feature: the surface point's weights on contact_nodes.
      const double bary[3] = {edge      ? -c.bary[0]
                              : feature ? c.self
                                        : c.bary[0],
                              edge      ? c.bary[2]
                              : feature ? -c.bary[0]
                                        : c.bary[1],
                              edge      ? 0.0
                              : feature ? -c.bary[1]
                                        : c.bary[2]};
      for (int k = 0; k < 3; ++k) report.contact_barycentric[3 * j + k] = bary[k];
      const Index nodes[4] = {c.vertex, c.tri[0], c.tri[1], c.tri[2]};
      const double weights[4] = {c.self, -c.bary[0], -c.bary[1], -c.bary[2]};
      for (int k = 0; k < 4 && nodes[k] >= 0; ++k) {
        report.contact_nodes[4 * j + k] = nodes[k];
        report.contact_weights[4 * j + k] = weights[k];
      }
      for (int i = 0; i < 3; ++i) {
        report.normals[3 * j + i] = contacts_[j].frame[0][i];
        report.tangents[3 * j + i] = contacts_[j].frame[1][i];
      }
    }
  }
  if (!advanced) return;
  contacts_prev_ = contacts_;
  r_prev_ = report.impulses;
  if (nc == 0) r_prev_.clear();
  cable_r_prev_ = report.cable_impulses;
  // Rigid motion over h: translation += h v, rotation = exp(h omega) rotation (Rodrigues).
  for (Obstacle& o : obstacles_) {
    o.pose.translation = v3::madd(o.pose.translation, h_, o.motion.linear);
    const double theta = h_ * norm(o.motion.angular);
    if (theta == 0.0) continue;
    const Vec3 k = v3::scale(h_ / theta, o.motion.angular);
    const double s = std::sin(theta), c1 = 1.0 - std::cos(theta);
    Mat3 K{{0, -k[2], k[1], k[2], 0, -k[0], -k[1], k[0], 0}};
    Mat3 R = identity3();
    const Mat3 K2 = K * K;
    for (int i = 0; i < 9; ++i) R.m[i] += s * K.m[i] + c1 * K2.m[i];
    o.pose.rotation = R * o.pose.rotation;
  }
}

}  // namespace sinew::integrators::detail
