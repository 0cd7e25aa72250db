// LocalGlobalContactSolver: collision, H, d, W by SpGEMM, and the per-iteration seed Newton step
// and correction of the constrained global step (seed Sec. 5, Algorithm 4).
#include "local_global_contact_solver.hpp"

#include <Eigen/SparseCore>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "sinew/collision/contact_frame.hpp"
#include "sinew/collision/point_shape.hpp"
#include "sinew/collision/vec3_ops.hpp"
#include "sinew/constraints/natural_map.hpp"
#include "sinew/core/error.hpp"
#include "sinew/linalg/csr_matrix.hpp"
#include "sinew/linalg/sparse_inverse.hpp"

namespace sinew::integrators {

namespace {

std::string num(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", v);
  return buffer;
}

bool finite3(const Vec3& a) { return std::isfinite(a[0]) && std::isfinite(a[1]) && std::isfinite(a[2]); }

// A single-entry-per-row selection matrix (rows x cols) with ones at (i, cols_of_row[i]) (-1 = empty row).
CsrMatrix selection(Index rows, Index cols, const std::vector<Index>& col_of_row) {
  CsrMatrix P;
  P.rows = rows;
  P.cols = cols;
  P.row_ptr.assign(static_cast<std::size_t>(rows) + 1, 0);
  for (Index i = 0; i < rows; ++i) {
    P.row_ptr[i + 1] = P.row_ptr[i];
    if (col_of_row[i] >= 0) {
      P.col_idx.push_back(col_of_row[i]);
      P.values.push_back(1.0);
      ++P.row_ptr[i + 1];
    }
  }
  return P;
}

// C = Y Z into C's pattern with a dense accumulator per row (host backends). C = P S'^T S' P^T
// is dense, and the generic spgemm_numeric finds each product's slot by a binary search in C's
// row (~log2(nv) probes); here the slot is the column itself. The products are summed in the same
// order as spgemm_numeric's (by Y's entries, then Z's), so the values are the same bits.
class DenseRowProduct final : public RangeKernel {
 public:
  DenseRowProduct(const DeviceCsr& Y, const DeviceCsr& Z, DeviceCsr& C)
      : Y_(Y.ref()), Z_(Z.ref()), c_ptr_(C.row_ptr.data()), c_col_(C.col_idx.data()), c_val_(C.values.data()) {}
  void operator()(std::size_t begin, std::size_t end) const override {
    std::vector<double> acc(static_cast<std::size_t>(Z_.cols), 0.0);  // (cols of C) one row, zero between rows
    for (std::size_t i = begin; i < end; ++i) {
      for (Index ka = Y_.row_ptr[i]; ka < Y_.row_ptr[i + 1]; ++ka) {
        const double a = Y_.values[ka];
        const Index k = Y_.col_idx[ka];
        for (Index kb = Z_.row_ptr[k]; kb < Z_.row_ptr[k + 1]; ++kb) acc[Z_.col_idx[kb]] += a * Z_.values[kb];
      }
      for (Index p = c_ptr_[i]; p < c_ptr_[i + 1]; ++p) {
        c_val_[p] = acc[c_col_[p]];
        acc[c_col_[p]] = 0.0;
      }
    }
  }

 private:
  CsrRef Y_, Z_;
  const Index* c_ptr_;
  const Index* c_col_;
  double* c_val_;
};

}  // namespace

Obstacle half_space_obstacle(const Vec3& normal, const Vec3& point, double mu) {
  require(finite3(normal) && norm(normal) > 0.0, "half_space_obstacle: normal must be finite and non-zero");
  require(finite3(point), "half_space_obstacle: point must be finite");
  // Local z = the unit normal; (t1, t2, n) is right-handed (t2 = n x t1), so det R = +1.
  const ContactFrame f = contact_frame(normal);
  Obstacle o;
  for (int i = 0; i < 3; ++i) {
    o.pose.rotation(i, 0) = f.tangent1[i];
    o.pose.rotation(i, 1) = f.tangent2[i];
    o.pose.rotation(i, 2) = f.normal[i];
  }
  o.pose.translation = point;
  o.friction = mu;
  return o;
}

namespace detail {

void validate_obstacle_placement(const Pose& pose, const Motion& motion, const std::string& name) {
  bool finite = finite3(pose.translation);
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
          name + ".pose.rotation must be a rotation (orthonormal, det +1); |R^T R - I| = " + num(worst));
  require(finite3(motion.linear) && finite3(motion.angular), name + ".motion must be finite");
}

void validate_contact(const LocalGlobalDescription& d, Index n, const std::string& who) {
  for (std::size_t k = 0; k < d.obstacles.size(); ++k) {
    const Obstacle& o = d.obstacles[k];
    const std::string name = who + "obstacles[" + std::to_string(k) + "]";
    require(std::isfinite(o.friction) && o.friction >= 0.0,
            name + ".friction must be finite and >= 0, got " + num(o.friction));
    const double* s = o.shape.size;
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
          who + "contact_margin must be finite (< 0 = automatic), got " + num(d.contact_margin));
  require(std::isfinite(d.contact_thickness) && d.contact_thickness >= 0.0,
          who + "contact_thickness must be finite and >= 0, got " + num(d.contact_thickness));
}

LocalGlobalContactSolver::LocalGlobalContactSolver(Backend& backend, const LocalGlobalDescription& d,
                                                   const LocalGlobalContactOptions& options,
                                                   const std::vector<double>& masses, const SparseInverse& inverse,
                                                   SparseInverseOperator& op, bool timed)
    : be_(&backend),
      options_(options),
      obstacles_(d.obstacles),
      masses_(masses),
      h_(d.time_step),
      margin_(d.contact_margin),
      thickness_(d.contact_thickness),
      n_(static_cast<Index>(masses.size())),
      timed_(timed),
      op_(&op) {
  cables_ = d.cables;  // checked by validate_cables(); resolve automatic rest lengths
  for (Cable& c : cables_)
    if (c.rest_length < 0.0) c.rest_length = cable_length(c, d.rest_positions);
  cable_r_prev_.assign(cables_.size(), 0.0);
  require(inverse.block() == 3, "LocalGlobalIntegrator: contact needs the per-vertex (Kronecker) sparse inverse");
  if (margin_ < 0.0) {  // automatic: half the mean rest edge length (6 edges per tet)
    double sum = 0.0;
    const std::size_t n_tets = d.tets.size() / 4;
    for (std::size_t e = 0; e < n_tets; ++e)
      for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b) {
          const std::size_t va = 3 * static_cast<std::size_t>(d.tets[4 * e + a]);
          const std::size_t vb = 3 * static_cast<std::size_t>(d.tets[4 * e + b]);
          double l2 = 0.0;
          for (int k = 0; k < 3; ++k)
            l2 += (d.rest_positions[va + k] - d.rest_positions[vb + k]) *
                  (d.rest_positions[va + k] - d.rest_positions[vb + k]);
          sum += std::sqrt(l2);
        }
    margin_ = 0.5 * sum / (6.0 * static_cast<double>(n_tets));
  }
  candidates_ = d.contact_vertices;
  if (candidates_.empty())
    for (Index v = 0; v < n_; ++v) candidates_.push_back(v);
  std::sort(candidates_.begin(), candidates_.end());
  candidates_.erase(std::unique(candidates_.begin(), candidates_.end()), candidates_.end());
  const EigenCsr St = to_eigen(inverse.factor()).transpose();
  St_ = to_device(backend, from_eigen(St));
  const std::size_t n3 = 3 * static_cast<std::size_t>(n_);
  t3n_ = backend.allocate<double>(n3);
  c3n_ = backend.allocate<double>(n3);
  x_host_.resize(n3);
  y_host_.resize(n3);
  constraints::SeedStepOptions so;
  so.function = options.function;
  so.cr_iterations = options.cr_iterations;
  step_ = std::make_unique<constraints::SeedNewtonStep>(backend, so);
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

std::size_t LocalGlobalContactSolver::begin_step(const DeviceArray<double>& q_t, const DeviceArray<double>& q_tilde,
                                                 LocalGlobalReport& report) {
  const double t0 = now_seconds();
  // Collision once per step on the host, at q_t: the constraints are linearized there, because
  // v = (q - q_t)/h and the gap's first-order change n.(x - x_t) are measured from q_t. A pair
  // is kept when it is within the margin at q_t OR at the prediction q~ (inertia and gravity),
  // so that vertices arriving within the step are constrained from its start.
  be_->download(q_t, x_host_.data(), x_host_.size());
  be_->download(q_tilde, y_host_.data(), y_host_.size());
  contacts_.clear();
  std::vector<double>& e_host = e_host_;  // (3c + a) d/h - H v_obs, then the cables' terms
  e_host.clear();
  for (Index v : candidates_) {
    const std::size_t o3 = 3 * static_cast<std::size_t>(v);
    const Vec3 x{{x_host_[o3], x_host_[o3 + 1], x_host_[o3 + 2]}};
    const Vec3 y{{y_host_[o3], y_host_[o3 + 1], y_host_[o3 + 2]}};
    for (std::size_t k = 0; k < obstacles_.size(); ++k) {
      const Obstacle& o = obstacles_[k];
      const SignedDistance at_start = point_shape(x, o.shape, o.pose);
      const double predicted = point_shape(y, o.shape, o.pose).distance;
      if (std::min(at_start.distance, predicted) - thickness_ >= margin_) continue;
      const ContactFrame f = contact_frame(at_start.normal);
      Contact c{v, static_cast<int>(k), {f.normal, f.tangent1, f.tangent2}};
      contacts_.push_back(c);
      const Vec3 v_obs = point_velocity(o.pose, o.motion, at_start.closest);
      const double d = at_start.distance - thickness_;
      for (int i = 0; i < 3; ++i) e_host.push_back((i == 0 ? d / h_ : 0.0) - dot(c.frame[i], v_obs));
    }
  }
  const std::size_t nc = contacts_.size();
  report.contacts = nc;
  // Cables (local_global_cable.hpp): one bilateral row per pulled cable, dL/dq at q_t; its
  // constant term e (u = H (q - q_t) / h + e = 0 puts the linearized length on its target) is set
  // by relinearize_cables() at q^0 = q~ here and at each later L-G iterate.
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
  const std::size_t na = active_.size();
  rows_ = 3 * nc + na;
  e_host.resize(rows_);
  relinearize_cables(y_host_);  // the first L-G iteration's length is measured at q^0 = q~
  if (rows_ == 0) {
    report.collision_seconds += now_seconds() - t0;
    return 0;
  }
  // H (3c + a x 3n): row (j, i) is frame vector i of contact j on its vertex's xyz; then the
  // cables' gradient rows.
  CsrMatrix H;
  H.rows = static_cast<Index>(rows_);
  H.cols = 3 * n_;
  H.row_ptr.assign(1, 0);
  blocks_.assign(nc, constraints::ConstraintBlock{constraints::BlockKind::kContact, 0.0});
  for (std::size_t j = 0; j < nc; ++j) {
    blocks_[j].mu = obstacles_[contacts_[j].obstacle].friction;
    for (int i = 0; i < 3; ++i) {
      for (int k = 0; k < 3; ++k) {
        H.col_idx.push_back(3 * contacts_[j].vertex + k);
        H.values.push_back(contacts_[j].frame[i][k]);
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
  H_ = to_device(*be_, H);
  e_ = be_->upload(e_host);
  if (r_.size() != rows_)
    for (auto* a : {&q_loc_, &r_, &u_}) *a = be_->allocate<double>(rows_);
  // Warm start: the previous step's impulse of the same (vertex, obstacle), re-expressed in the
  // new frame through world coordinates; both lists are sorted by (vertex, obstacle).
  std::vector<double> r0(rows_, 0.0);
  for (std::size_t i = 0; i < na; ++i)
    if (options_.warm_start) r0[3 * nc + i] = cable_r_prev_[active_[i]];
  if (options_.warm_start) {
    std::size_t p = 0;
    for (std::size_t j = 0; j < nc; ++j) {
      const Contact& c = contacts_[j];
      while (p < contacts_prev_.size() &&
             (contacts_prev_[p].vertex < c.vertex ||
              (contacts_prev_[p].vertex == c.vertex && contacts_prev_[p].obstacle < c.obstacle)))
        ++p;
      if (p == contacts_prev_.size() || contacts_prev_[p].vertex != c.vertex ||
          contacts_prev_[p].obstacle != c.obstacle)
        continue;
      Vec3 world{{0, 0, 0}};
      for (int i = 0; i < 3; ++i) world = v3::madd(world, r_prev_[3 * p + i], contacts_prev_[p].frame[i]);
      for (int i = 0; i < 3; ++i) r0[3 * j + i] = dot(c.frame[i], world);
    }
  }
  be_->upload(r0.data(), r0.size(), r_);
  const double t1 = now_seconds();
  report.collision_seconds += t1 - t0;
  build_delassus();
  report.schur_seconds += now_seconds() - t1;
  return nc + na;
}

// W = H A^-1 H^T with A^-1 = (S'^T S') (x) I_3. Every contact row of H touches one vertex, so
// W_(j,i),(k,l) = C_ab (f_ji . f_kl) with C = P S'^T S' P^T, P selecting the contact vertices
// a, b (nv of them) and f the frame vectors. C is one scalar SpGEMM chain on the backend,
// Y = P S'^T (nv x n), Z = S' P^T (n x nv), C = Y Z: a third of the work of the per-coordinate
// form W = sum_d (S' H_d^T)^T (S' H_d^T), and every contact of a vertex reuses its row of C.
// C's numeric phase is DenseRowProduct on host backends (the same bits as spgemm_numeric, 7.5x
// faster on the 16x16x8 bench block: Schur 234 -> 31 ms per step, serial).
// The 3x3 frame expansion of C into W runs on the host (C downloaded, W uploaded): W is
// dense in the contact vertices anyway (all elimination-tree paths meet at the root). A cable row
// touches its K vertices with gradients g_v, so its entries are sums over them of C_vw g_v . f
// (C then spans the cable vertices too); with no cable, C and W are what they were without.
void LocalGlobalContactSolver::build_delassus() {
  const std::size_t nc = contacts_.size(), na = active_.size();
  // The rows' vertices: every contact vertex and every pulled cable's vertex, ascending.
  std::vector<Index> verts;
  for (const Contact& c : contacts_) verts.push_back(c.vertex);
  for (const auto& row : cable_rows_)
    for (const auto& entry : row) verts.push_back(entry.first);
  std::sort(verts.begin(), verts.end());
  verts.erase(std::unique(verts.begin(), verts.end()), verts.end());
  const Index nv = static_cast<Index>(verts.size());
  std::vector<Index> col_of_row(static_cast<std::size_t>(n_), -1);
  for (Index a = 0; a < nv; ++a) col_of_row[verts[a]] = a;
  // Contacts of vertex a: [first[a], last[a]) (contacts are sorted by vertex; empty for a vertex
  // that only a cable touches).
  std::vector<Index> first(static_cast<std::size_t>(nv), 0), last(static_cast<std::size_t>(nv), 0);
  for (std::size_t j = nc; j-- > 0;) {
    const Index a = col_of_row[contacts_[j].vertex];
    if (last[a] == 0) last[a] = static_cast<Index>(j + 1);
    first[a] = static_cast<Index>(j);
  }
  const DeviceCsr P = to_device(*be_, selection(nv, n_, verts));
  const DeviceCsr Pt = to_device(*be_, selection(n_, nv, col_of_row));
  const DeviceCsr& S = op_->factor();
  DeviceCsr Y = be_->spgemm_symbolic(P, St_);
  be_->spgemm_numeric(P, St_, Y);
  DeviceCsr Z = be_->spgemm_symbolic(S, Pt);
  be_->spgemm_numeric(S, Pt, Z);
  DeviceCsr C = be_->spgemm_symbolic(Y, Z);
  if (be_->runs_host_code())
    be_->for_each_range(static_cast<std::size_t>(nv), DenseRowProduct(Y, Z, C));
  else
    be_->spgemm_numeric(Y, Z, C);
  const CsrMatrix Ch = to_host(*be_, C);
  const std::size_t m = rows_;
  CsrMatrix W;
  W.rows = W.cols = static_cast<Index>(m);
  W.row_ptr.assign(m + 1, 0);
  std::vector<double> diag(m, 0.0);
  // Cable rows touch several vertices: W_(row, cable t) = sum_{(w, g) in t} C_(a, w) f . g needs
  // row a of C at arbitrary columns, so it is scattered into a dense (nv) buffer.
  std::vector<double> c_row(na > 0 ? static_cast<std::size_t>(nv) : 0, 0.0);
  auto scatter = [&](Index a, double sign) {  // sign 1: load row a, 0: clear it
    for (Index p = Ch.row_ptr[a]; p < Ch.row_ptr[a + 1]; ++p) c_row[Ch.col_idx[p]] = sign * Ch.values[p];
  };
  std::vector<double> cross(3 * nc * na, 0.0);  // (3c x a) contact rows against cable columns
  for (Index a = 0; a < nv; ++a) {
    if (first[a] == last[a]) continue;
    if (na > 0) scatter(a, 1.0);
    for (Index j = first[a]; j < last[a]; ++j)
      for (int i = 0; i < 3; ++i) {
        const std::size_t row = 3 * static_cast<std::size_t>(j) + i;
        for (Index p = Ch.row_ptr[a]; p < Ch.row_ptr[a + 1]; ++p) {
          const Index b = Ch.col_idx[p];
          for (Index k = first[b]; k < last[b]; ++k)
            for (int l = 0; l < 3; ++l) {
              const Index col = 3 * k + l;
              const double value = Ch.values[p] * dot(contacts_[j].frame[i], contacts_[k].frame[l]);
              W.col_idx.push_back(col);
              W.values.push_back(value);
              if (static_cast<std::size_t>(col) == row) diag[row] = value;
            }
        }
        for (std::size_t t = 0; t < na; ++t) {
          double value = 0.0;
          for (const auto& [w, g] : cable_rows_[t]) value += c_row[col_of_row[w]] * dot(contacts_[j].frame[i], g);
          cross[row * na + t] = value;
          W.col_idx.push_back(static_cast<Index>(3 * nc + t));
          W.values.push_back(value);
        }
        W.row_ptr[row + 1] = static_cast<Index>(W.col_idx.size());
      }
    if (na > 0) scatter(a, 0.0);
  }
  // Cable-cable block sum_{(v, g) in t} sum_{(w, f) in s} C_vw g . f, upper triangle mirrored so
  // that W is exactly symmetric.
  std::vector<double> cc(na * na, 0.0);
  for (std::size_t t = 0; t < na; ++t)
    for (const auto& [v, g] : cable_rows_[t]) {
      scatter(col_of_row[v], 1.0);
      for (std::size_t s = t; s < na; ++s)
        for (const auto& [w, f] : cable_rows_[s]) cc[t * na + s] += c_row[col_of_row[w]] * dot(g, f);
      scatter(col_of_row[v], 0.0);
    }
  for (std::size_t t = 0; t < na; ++t) {
    const std::size_t row = 3 * nc + t;
    for (std::size_t j = 0; j < 3 * nc; ++j) {
      W.col_idx.push_back(static_cast<Index>(j));
      W.values.push_back(cross[j * na + t]);
    }
    for (std::size_t s = 0; s < na; ++s) {
      W.col_idx.push_back(static_cast<Index>(3 * nc + s));
      W.values.push_back(s >= t ? cc[t * na + s] : cc[s * na + t]);
    }
    diag[row] = cc[t * na + t];
    W.row_ptr[row + 1] = static_cast<Index>(W.col_idx.size());
  }
  W_ = to_device(*be_, W);
  std::vector<double> rho;  // empty: eq. (28) from diag(W)
  if (options_.preconditioner == ContactPreconditioner::kMassInverse) {
    // diag(H M^-1 H^T): |f| = 1 on each contact row, so 1 / m_v (the tangent mean is the same
    // value); sum |dL/dx_v|^2 / m_v on a cable row.
    rho.resize(m);
    for (std::size_t j = 0; j < nc; ++j)
      for (int i = 0; i < 3; ++i) rho[3 * j + i] = 1.0 / masses_[contacts_[j].vertex];
    for (std::size_t t = 0; t < na; ++t) {
      double sum = 0.0;
      for (const auto& [v, g] : cable_rows_[t]) sum += dot(g, g) / masses_[v];
      rho[3 * nc + t] = sum;
    }
  }
  step_->prepare(W_, diag, blocks_, rho);
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
  for (int s = 0; s < options_.newton_steps; ++s) {  // Algorithm 4: one step, warm-started from r
    const KrylovResult inner = step_->step(q_loc_, r_, u_);
    report.cr_iterations += inner.iterations;
    ++report.newton_steps;
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
    report.contact_vertex.resize(nc);
    for (std::size_t j = 0; j < nc; ++j) {
      report.contact_vertex[j] = contacts_[j].vertex;
      for (int i = 0; i < 3; ++i) report.normals[3 * j + i] = contacts_[j].frame[0][i];
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
