// LocalGlobalContactSolver: collision (obstacles, contact between bodies, the cloth's self-contact in
// cloth_self_contact.cpp), H, d, W
// (delassus.cpp), and the per-iteration indicator-Newton step
// and correction of the constrained global step (seed Sec. 5, Algorithm 4).
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

namespace sinew::integrators {

namespace {

// Boundary edges whose faces' normals are more than this apart (10 degrees) take part in
// edge-edge contacts (EdgeEdgeDetector): a flatter edge meets the other body through its faces.
constexpr double kSharpEdgeAngle = 10.0 * 3.14159265358979323846 / 180.0;

}  // namespace

namespace detail {

void validate_obstacle_placement(const Pose& pose, const Motion& motion, const std::string& name) {
  bool finite = is_finite(pose.translation);
  for (double v : pose.rotation.m) finite = finite && std::isfinite(v);
  require(finite, name + ".pose must be finite");
  const Mat3& R = pose.rotation;
  double worst = 0.0;  // max |R^T R - I|
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k) s += R(k, i) * R(k, j);
      worst = std::max(worst, std::abs(s - (i == j ? 1.0 : 0.0)));
    }
  require(worst < 1e-9 && determinant(R) > 0.0,
          name + ".pose.rotation must be a rotation (orthonormal, det +1); |R^T R - I| = " + number_text(worst, 6));
  require(is_finite(motion.linear) && is_finite(motion.angular), name + ".motion must be finite");
}

void validate_contact(const LocalGlobalDescription& d, Index n, const std::string& who) {
  for (std::size_t k = 0; k < d.obstacles.size(); ++k) {
    const Obstacle& o = d.obstacles[k];
    const std::string name = who + "obstacles[" + std::to_string(k) + "]";
    require(std::isfinite(o.friction) && o.friction >= 0.0,
            name + ".friction must be finite and >= 0, got " + number_text(o.friction));
    const double* s = o.shape.size;
    require(!o.mesh || o.mesh->built(), name + ".mesh must be built (MeshSignedDistance::build, or mesh_obstacle())");
    require(!o.grid || o.grid->built(), name + ".grid must be built (SignedDistanceGrid::build, or grid_obstacle())");
    if (o.mesh || o.grid) {
      validate_obstacle_placement(o.pose, o.motion, name);
      continue;
    }
    switch (o.shape.type) {
      case ShapeType::kHalfSpace:
        break;
      case ShapeType::kSphere:
        require(std::isfinite(s[0]) && s[0] > 0.0, name + ".shape.size[0] (radius) must be finite and > 0");
        break;
      case ShapeType::kBox:
        for (int i = 0; i < 3; ++i)
          require(std::isfinite(s[i]) && s[i] > 0.0, name + ".shape.size (half extents) must be finite and > 0");
        break;
      case ShapeType::kCapsule:
      case ShapeType::kCylinder:
        require(std::isfinite(s[0]) && s[0] > 0.0 && std::isfinite(s[1]) && s[1] > 0.0,
                name + ".shape.size (radius, half length) must be finite and > 0");
        break;
      default:
        throw Error(name + ".shape.type must be half-space, sphere, box, capsule or cylinder");
    }
    validate_obstacle_placement(o.pose, o.motion, name);
  }
  for (std::size_t i = 0; i < d.contact_vertices.size(); ++i)
    require(d.contact_vertices[i] >= 0 && d.contact_vertices[i] < n,
            who + "contact_vertices[" + std::to_string(i) + "] = " + std::to_string(d.contact_vertices[i]) +
                " is out of range, expected 0 <= vertex < " + std::to_string(n));
  require(std::isfinite(d.contact_margin),
          who + "contact_margin must be finite (< 0 = automatic), got " + number_text(d.contact_margin));
  require(std::isfinite(d.contact_thickness) && d.contact_thickness >= 0.0,
          who + "contact_thickness must be finite and >= 0, got " + number_text(d.contact_thickness));
  require(std::isfinite(d.body_friction) && d.body_friction >= 0.0,
          who + "body_friction must be finite and >= 0, got " + number_text(d.body_friction));
  require(std::isfinite(d.self_friction) && d.self_friction >= 0.0,
          who + "self_friction must be finite and >= 0, got " + number_text(d.self_friction));
}

BodySurfaces body_surfaces(const LocalGlobalDescription& d, Index n) {
  BodySurfaces b;
  if (!d.body_contact || d.tets.empty()) return b;
  TetSurfaces all = tet_surfaces(d.tets, n);
  if (all.bodies < 2) return b;
  std::vector<char> candidate(static_cast<std::size_t>(n), d.contact_vertices.empty() ? 1 : 0);
  for (Index v : d.contact_vertices) candidate[v] = 1;
  std::vector<char> boundary(static_cast<std::size_t>(n), 0);
  b.surfaces.vertex_body = all.vertex_body;
  b.surfaces.bodies = all.bodies;
  for (std::size_t t = 0; t < all.triangles.size(); ++t) {
    const auto& tri = all.triangles[t];
    for (Index v : tri) boundary[v] = 1;
    if (candidate[tri[0]] && candidate[tri[1]] && candidate[tri[2]]) {
      b.surfaces.triangles.push_back(tri);
      b.surfaces.triangle_body.push_back(all.triangle_body[t]);
    }
  }
  for (Index v = 0; v < n; ++v)
    if (candidate[v] && boundary[v]) b.queries.push_back(v);
  // Active when a query vertex and a triangle lie on different bodies.
  std::vector<char> has_query(static_cast<std::size_t>(all.bodies), 0);
  for (Index v : b.queries) has_query[all.vertex_body[v]] = 1;
  int query_bodies = 0;
  for (char c : has_query) query_bodies += c;
  for (int body : b.surfaces.triangle_body)
    if (query_bodies > 1 || (query_bodies == 1 && !has_query[body])) b.active = true;
  if (!b.active) b = BodySurfaces{};
  return b;
}

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

double LocalGlobalContactSolver::sheet_side(Index v, int obstacle, const SignedDistance& d) const {
  // contacts_prev_ is ordered by vertex, then key (an obstacle's key is its index), then tri[0].
  const auto first = std::lower_bound(
      contacts_prev_.begin(), contacts_prev_.end(), std::make_pair(v, obstacle),
      [](const Contact& c, const std::pair<Index, int>& key) { return std::make_pair(c.vertex, c.obstacle) < key; });
  if (first != contacts_prev_.end() && first->vertex == v && first->obstacle == obstacle)
    return dot(first->frame[0], d.normal) >= 0.0 ? 1.0 : -1.0;
  return d.distance >= 0.0 ? 1.0 : -1.0;
}

// Collision once per step on the host, at q_t: the constraints are linearized there, because
// v = (q - q_t)/h and the gap's first-order change n.(x - x_t) are measured from q_t. A pair
// is kept when it is within the margin at q_t OR at the prediction q~ (inertia and gravity),
// so that vertices arriving within the step are constrained from its start. Fills contacts_ in
// key order and e_host_ with their rows' constant terms d/h - H v_obs.
void LocalGlobalContactSolver::detect_contacts() {
  contacts_.clear();
  witness_.clear();
  std::vector<double>& e_host = e_host_;
  e_host.clear();
  for (std::size_t v = 0; v < xs_.size(); ++v)  // the positions as points for the detectors
    for (int i = 0; i < 3; ++i) {
      xs_[v][i] = x_host_[3 * v + i];
      ys_[v][i] = y_host_[3 * v + i];
    }
  detect_body_contacts();
  detect_cloth_contacts();
  std::size_t next_cloth_vt = 0, next_cloth_ee = 0;  // cloth_vt_ and cloth_ee_ are sorted by vertex too
  if (features_) features_->detect(obstacles_, x_host_, y_host_, h_, margin_, thickness_, first_feature_key_);
  const std::vector<FeatureContact> no_features;
  const std::vector<FeatureContact>& features = features_ ? features_->found() : no_features;
  std::size_t next_feature = 0;  // features is sorted by (vertex, key, tri[0]) too
  const int n_obstacles = static_cast<int>(obstacles_.size());
  const int n_triangle_keys = n_obstacles + static_cast<int>(bodies_.surfaces.triangles.size());
  std::size_t next_found = 0;  // found_ is sorted by (vertex, triangle) and its vertices are candidates
  std::size_t next_edge = 0;   // found_edges_ likewise by (a0, edge b, a1)
  for (Index v : order_) {
    const std::size_t o3 = 3 * static_cast<std::size_t>(v);
    const Vec3 x{{x_host_[o3], x_host_[o3 + 1], x_host_[o3 + 2]}};
    const Vec3 y{{y_host_[o3], y_host_[o3 + 1], y_host_[o3 + 2]}};
    for (std::size_t k = 0; k < (touches_obstacles_[v] ? obstacles_.size() : 0); ++k) {
      const Obstacle& o = obstacles_[k];
      SignedDistance at_start = obstacle_distance(x, o);
      double predicted = obstacle_distance(y, o).distance;
      if (is_sheet(o)) {
        // A sheet: its distance is signed by the faces' side. The vertex stays on the side of its
        // contact with the sheet in the last step, else on the side it is on: a vertex a little
        // behind the sheet after an inexact solve is pushed back, not through.
        const double side = sheet_side(v, static_cast<int>(k), at_start);
        at_start.distance *= side;
        at_start.normal = v3::scale(side, at_start.normal);
        predicted *= side;
      }
      if (std::min(at_start.distance, predicted) - thickness_ >= margin_) continue;
      const ContactFrame f = contact_frame(at_start.normal);
      Contact c{v, static_cast<int>(k), {f.normal, f.tangent1, f.tangent2}};
      contacts_.push_back(c);
      witness_.insert(witness_.end(), {x, at_start.closest});
      const Vec3 v_obs = point_velocity(o.pose, o.motion, at_start.closest);
      const double d = at_start.distance - thickness_;
      for (int i = 0; i < 3; ++i) e_host.push_back((i == 0 ? d / h_ : 0.0) - dot(c.frame[i], v_obs));
    }
    // Then its contacts with other bodies (keys obstacles + triangle: after the obstacles'). Both
    // sides move, so u's constant part is the gap rate alone: the relative velocity is in H.
    for (; next_found < found_.size() && found_[next_found].vertex == v; ++next_found) {
      const VertexTriangleContact& b = found_[next_found];
      const ContactFrame f = contact_frame(b.normal);
      Contact c{v, n_obstacles + static_cast<int>(b.triangle), {f.normal, f.tangent1, f.tangent2}};
      for (int k = 0; k < 3; ++k) {
        c.tri[k] = bodies_.surfaces.triangles[b.triangle][k];
        c.bary[k] = b.bary[k];
      }
      contacts_.push_back(c);
      witness_.insert(witness_.end(), {x, b.closest});
      const double d = b.distance - thickness_;
      e_host.insert(e_host.end(), {d / h_, 0.0, 0.0});
    }
    // Then its edge-edge contacts as edge a's first vertex: rows over a0, a1, b0, b1 with weights
    // 1 - s, s, -(1 - t), -t.
    const auto& edges = edge_detector_.edges();
    for (; next_edge < found_edges_.size() && edges[found_edges_[next_edge].edge_a][0] == v; ++next_edge) {
      const EdgeEdgeContact& g = found_edges_[next_edge];
      const auto& a = edges[g.edge_a];
      const auto& b = edges[g.edge_b];
      const ContactFrame f = contact_frame(g.normal);
      Contact c{v, n_triangle_keys + static_cast<int>(g.edge_b), {f.normal, f.tangent1, f.tangent2}};
      c.self = 1.0 - g.s;
      c.tri[0] = a[1];
      c.tri[1] = b[0];
      c.tri[2] = b[1];
      c.bary[0] = -g.s;
      c.bary[1] = 1.0 - g.t;
      c.bary[2] = g.t;
      contacts_.push_back(c);
      witness_.insert(witness_.end(), {v3::madd(v3::scale(1.0 - g.s, xs_[static_cast<std::size_t>(a[0])]), g.s,
                                                xs_[static_cast<std::size_t>(a[1])]),
                                       v3::madd(v3::scale(1.0 - g.t, xs_[static_cast<std::size_t>(b[0])]), g.t,
                                                xs_[static_cast<std::size_t>(b[1])])});
      const double d = g.distance - thickness_;
      e_host.insert(e_host.end(), {d / h_, 0.0, 0.0});
    }
    // Then the obstacles' sharp features on the surface points of v's triangles and edges (keys
    // past the edges'): rows over the surface point's vertices, the obstacle's velocity in e.
    for (; next_feature < features.size() && features[next_feature].rows.vertex == v; ++next_feature) {
      const FeatureContact& f = features[next_feature];
      contacts_.push_back(f.rows);
      witness_.insert(witness_.end(), {f.body_point, f.obstacle_point});
      const double d = f.gap - thickness_;
      for (int i = 0; i < 3; ++i) e_host.push_back((i == 0 ? d / h_ : 0.0) - dot(f.rows.frame[i], f.obstacle_velocity));
    }
    // Then the cloth's self-contacts (keys past the features').
    append_cloth_contacts(v, next_cloth_vt, next_cloth_ee);
  }
}

// Contact between bodies: each boundary contact vertex against the nearest boundary triangle of
// every other body (vertex_triangle_contacts.hpp), and sharp edges crossing (edge-edge), kept on
// the same margin rule as the obstacles' pairs; the broad phase covers each primitive's sweep
// from q_t to q~.
void LocalGlobalContactSolver::detect_body_contacts() {
  found_.clear();
  if (!bodies_.active) return;
  detector_.detect(bodies_.surfaces, bodies_.queries, xs_, &ys_, margin_ + thickness_, found_);
  // Edge-edge contacts in the contacts' key order (a0, edge b, a1).
  edge_detector_.detect(bodies_.surfaces, xs_, &ys_, margin_ + thickness_, kSharpEdgeAngle, found_edges_);
  const auto& edges = edge_detector_.edges();
  std::sort(found_edges_.begin(), found_edges_.end(), [&](const EdgeEdgeContact& a, const EdgeEdgeContact& b) {
    const auto& ea = edges[a.edge_a];
    const auto& eb = edges[b.edge_a];
    return ea[0] != eb[0] ? ea[0] < eb[0] : a.edge_b != b.edge_b ? a.edge_b < b.edge_b : ea[1] < eb[1];
  });
}

// Cables (local_global_cable.hpp): one bilateral row per pulled cable, dL/dq at q_t; its
// constant term e (u = H (q - q_t) / h + e = 0 puts the linearized length on its target) is set
// by relinearize_cables() at q^0 = q~ and at each later L-G iterate.
void LocalGlobalContactSolver::gather_cables(LocalGlobalReport& report) {
  active_.clear();
  cable_rows_.clear();
  report.cable_impulses.assign(cables_.size(), 0.0);
  std::vector<Vec3> gradient;
  for (std::size_t c = 0; c < cables_.size(); ++c) {
    if (cables_[c].pull <= 0.0) continue;  // slack: no row, the step is the one without the cable
    cable_length_gradient(cables_[c], x_host_.data(), gradient);
    std::vector<std::pair<Index, Vec3>> row;
    for (std::size_t k = 0; k < gradient.size(); ++k) row.emplace_back(cables_[c].vertices[k], gradient[k]);
    std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    active_.push_back(c);
    cable_rows_.push_back(std::move(row));
  }
}

// H (3c + a x 3n) on the host: row (j, i) is frame vector i of contact j on its vertex's xyz
// (and -bary_k times it on a triangle's: four-vertex rows; an obstacle feature's: its surface
// point's vertices, contact_entries()); then the cables' gradient rows. blocks_ gets each
// contact's circular cone with its friction and each cable's bilateral row.
void LocalGlobalContactSolver::assemble_rows() {
  CsrMatrix& H = H_host_;  // its storage reused
  H.rows = static_cast<Index>(rows_);
  H.cols = 3 * n_;
  H.row_ptr.assign(1, 0);
  H.col_idx.clear();
  H.values.clear();
  blocks_.assign(contacts_.size(), constraints::ConstraintBlock{constraints::BlockKind::kContact, 0.0});
  for (std::size_t j = 0; j < contacts_.size(); ++j) {
    const Contact& c = contacts_[j];
    const int obstacle = obstacle_of(c);
    blocks_[j].mu = obstacle >= 0         ? obstacles_[static_cast<std::size_t>(obstacle)].friction
                    : is_cloth_contact(c) ? self_friction_
                                          : body_friction_;
    Index verts[kMaxContactVertices];
    double weights[kMaxContactVertices];
    const int count = contact_entries(c, verts, weights);
    for (int i = 0; i < 3; ++i) {
      for (int e = 0; e < count; ++e)
        for (int k = 0; k < 3; ++k) {
          H.col_idx.push_back(3 * verts[e] + k);
          H.values.push_back(count == 1 ? c.frame[i][k] : weights[e] * c.frame[i][k]);
        }
      H.row_ptr.push_back(static_cast<Index>(H.col_idx.size()));
    }
  }
  for (const auto& row : cable_rows_) {
    blocks_.push_back(constraints::ConstraintBlock{constraints::BlockKind::kBilateral, 0.0});
    for (const auto& [vertex, g] : row)
      for (int k = 0; k < 3; ++k) {
        H.col_idx.push_back(3 * vertex + k);
        H.values.push_back(g[k]);
      }
    H.row_ptr.push_back(static_cast<Index>(H.col_idx.size()));
  }
}

// The contact's identity across steps: (vertex, obstacle key, and for an edge-edge contact a's
// second vertex), the order contacts_ is sorted in.
constraints::KeyedContactFrame LocalGlobalContactSolver::keyed(const Contact& c) const {
  return constraints::KeyedContactFrame{{c.vertex, static_cast<Index>(c.obstacle), second_key(c)},
                                        {c.frame[0], c.frame[1], c.frame[2]}};
}

// r on the backend: the previous step's impulses of the contacts found again
// (constraints::carry_contact_impulses) and of the cables still pulled; 0 without warm start.
void LocalGlobalContactSolver::warm_start() {
  const std::size_t nc = contacts_.size();
  std::vector<double> r0(rows_, 0.0);
  if (options_.warm_start) {
    std::vector<constraints::KeyedContactFrame> prev, next;
    prev.reserve(contacts_prev_.size());
    next.reserve(nc);
    for (const Contact& c : contacts_prev_) prev.push_back(keyed(c));
    for (const Contact& c : contacts_) next.push_back(keyed(c));
    constraints::carry_contact_impulses(prev, r_prev_, next, r0.data());
    for (std::size_t i = 0; i < active_.size(); ++i) r0[3 * nc + i] = cable_r_prev_[active_[i]];
  }
  be_->upload(r0.data(), r0.size(), r_);
}

// W = H A^-1 H^T with A^-1 = (S'^T S') (x) I_3 through the rows' vertices' columns of S': as an
// operator (contact_operator.cpp: W r = G (Y (Z (G^T r)))) or stored, from the
// scalar C = P S'^T S' P^T (delassus.cpp: sparse or dense C, then the 3x3 frame
// expansion); use_operator() picks. With no cable, C and W are what they were without.
void LocalGlobalContactSolver::build_delassus(LocalGlobalReport& report) {
  const std::size_t nc = contacts_.size(), na = active_.size();
  const std::size_t m = rows_;
  // W reuse: W depends on the contacts' vertices, frames and weights and the cables' rows only
  // (S' is fixed), so the same ones give the same W, bit for bit.
  report.delassus_reused = options_.reuse_delassus && same_rows_;
  if (!report.delassus_reused) {
    delassus_kept_ = false;  // until W is complete
    // The rows' vertices: every contact vertex and every pulled cable's vertex, ascending.
    std::vector<Index>& verts = verts_;
    verts.clear();
    for (const Contact& c : contacts_) {
      Index v[kMaxContactVertices];
      double w[kMaxContactVertices];
      const int count = contact_entries(c, v, w);
      verts.insert(verts.end(), v, v + count);
    }
    for (const auto& row : cable_rows_)
      for (const auto& entry : row) verts.push_back(entry.first);
    std::sort(verts.begin(), verts.end());
    verts.erase(std::unique(verts.begin(), verts.end()), verts.end());
    for (std::size_t a = 0; a < verts.size(); ++a) col_of_vertex_[verts[a]] = static_cast<Index>(a);
    operator_used_ = use_operator(verts);
    if (operator_used_) {
      wop_->build(verts, col_of_vertex_, H_host_, contacts_, cable_rows_, diag_);
    } else {
      schur_->compute(options_.schur, verts, options_.reuse_delassus);
      expand_delassus(*be_, *schur_, col_of_vertex_, contacts_, cable_rows_, W_, diag_);
    }
    for (Index v : verts) col_of_vertex_[v] = -1;
    delassus_contacts_ = contacts_;
    delassus_cables_ = cable_rows_;
    delassus_kept_ = true;
  }
  const std::vector<double>& diag = diag_;
  std::vector<double> rho;  // empty: eq. (28) from diag(W)
  if (options_.preconditioner == ContactPreconditioner::kMassInverse) {
    // diag(H M^-1 H^T): |f| = 1 on each contact row, so sum_a w_a^2 / m_a over its vertices
    // (1 / m_v against an obstacle); sum |dL/dx_v|^2 / m_v on a cable row.
    rho.resize(m);
    for (std::size_t j = 0; j < nc; ++j) {
      Index v[kMaxContactVertices];
      double w[kMaxContactVertices];
      const int count = contact_entries(contacts_[j], v, w);
      double sum = 0.0;
      for (int e = 0; e < count; ++e) sum += w[e] * w[e] / masses_[v[e]];
      if (count == 1) sum = 1.0 / masses_[v[0]];
      for (int i = 0; i < 3; ++i) rho[3 * j + i] = sum;
    }
    for (std::size_t t = 0; t < na; ++t) {
      double sum = 0.0;
      for (const auto& [v, g] : cable_rows_[t]) sum += dot(g, g) / masses_[v];
      rho[3 * nc + t] = sum;
    }
  }
  if (operator_used_)
    step_->prepare(*wop_, diag, blocks_, rho);
  else
    step_->prepare(W_, diag, blocks_, rho);
  // ContactSolve::kAuto: the converged solve up to kConvergedAutoRows rows (its W on the host, once per step).
  converged_used_ =
      converged_ && (options_.solve == ContactSolve::kConverged || m <= static_cast<std::size_t>(kConvergedAutoRows));
  // A kept W is already the converged solve's (the same m takes the same path).
  if (converged_used_ && !report.delassus_reused) converged_->prepare(delassus(), blocks_);
}

// DelassusForm::kAuto's estimate, in entries touched per product with W: the stored W's nnz (a
// 3 x 3 block per pair of contacts whose vertices share an elimination-tree root, dense cable
// rows and columns) against the operator's two passes over Y (three columns each) and over G.
bool LocalGlobalContactSolver::use_operator(const std::vector<Index>& verts) const {
  if (options_.delassus != DelassusForm::kAuto) return options_.delassus == DelassusForm::kOperator;
  const double nc = static_cast<double>(contacts_.size()), na = static_cast<double>(active_.size());
  // Contacts couple within their group of connected elimination-tree roots (contact_groups()).
  std::vector<Index>& group = group_;
  const Index groups = contact_groups(contacts_, schur_->vertex_roots(), group);
  std::vector<double> sizes(static_cast<std::size_t>(groups), 0.0);
  for (Index g : group) sizes[g] += 1.0;
  double w_entries = 6.0 * nc * na + na * na;
  for (double size : sizes) w_entries += 9.0 * size * size;
  const double op_entries =
      2.0 * (3.0 * static_cast<double>(wop_->y_entries(verts)) + static_cast<double>(H_host_.nnz()));
  return op_entries < w_entries;
}

// The cable rows' constant term at the iterate q^k (@p xk, 3n, host): with H's gradient frozen
// at q_t (so that W stays fixed for the step, Algorithm 4), u = 0 on a cable row reads
// L(q^k) + H (q - q^k) = L_target, i.e. e = (L(q^k) - L_target - H (q^k - q_t)) / h in
// u = H (q - q_t) / h + e: a chord iteration whose fixed point has the exact length, where a
// single linearization at q_t would leave the second-order error of the step's rotation of the
// cable's segments (measured 2.4e-4 m on a 0.4 m cable bending a bar, 1e-6 m with this).
void LocalGlobalContactSolver::relinearize_cables(const std::vector<double>& xk) {
  const std::size_t nc = contacts_.size();
  for (std::size_t t = 0; t < active_.size(); ++t) {
    const Cable& cable = cables_[active_[t]];
    double hq = 0.0;  // H_t (q^k - q_t)
    for (const auto& [v, g] : cable_rows_[t])
      for (int k = 0; k < 3; ++k) {
        const std::size_t i = 3 * static_cast<std::size_t>(v) + k;
        hq += g[k] * (xk[i] - x_host_[i]);
      }
    e_host_[3 * nc + t] = (cable_length(cable, xk) - (cable.rest_length - cable.pull) - hq) / h_;
  }
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

}  // namespace detail
}  // namespace sinew::integrators
