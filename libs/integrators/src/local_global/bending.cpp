// LocalGlobalIntegrator's bending rows (bending.hpp): the stencils of both forms from the rest
// triangles, their share of A, and the local pass, right-hand side and energy on the backend.
#include "bending.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <utility>

#include "bending_kernels.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew::integrators::detail {

namespace {

using Vec = std::array<double, 3>;
using Row = std::vector<std::pair<Index, double>>;  // (column, value)

Vec sub(const Vec& a, const Vec& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double dot(const Vec& a, const Vec& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vec cross(const Vec& a, const Vec& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double norm(const Vec& a) { return std::sqrt(dot(a, a)); }

/// cot of the interior angle at @p p of the triangle (p, q, r).
double cot_at(const Vec& p, const Vec& q, const Vec& r) {
  const Vec a = sub(q, p), b = sub(r, p);
  return dot(a, b) / norm(cross(a, b));
}

/// The mixed Voronoi areas (Meyer et al. 2003) of the triangle (p0, p1, p2) of area @p area at its
/// vertices: the Voronoi cells when no angle is obtuse, else half the area at the obtuse angle's
/// vertex and a quarter at the others. They sum to the area.
std::array<double, 3> mixed_voronoi_shares(const Vec& p0, const Vec& p1, const Vec& p2, double area) {
  const std::array<Vec, 3> p{p0, p1, p2};
  std::array<double, 3> cot{}, out{};
  for (int a = 0; a < 3; ++a) cot[a] = cot_at(p[a], p[(a + 1) % 3], p[(a + 2) % 3]);
  for (int a = 0; a < 3; ++a)
    if (cot[a] < 0.0) {  // obtuse at a
      for (int b = 0; b < 3; ++b) out[b] = b == a ? 0.5 * area : 0.25 * area;
      return out;
    }
  for (int a = 0; a < 3; ++a) {
    const int b = (a + 1) % 3, c = (a + 2) % 3;
    const Vec ab = sub(p[b], p[a]), ac = sub(p[c], p[a]);
    out[a] = (dot(ab, ab) * cot[c] + dot(ac, ac) * cot[b]) / 8.0;
  }
  return out;
}

/// The triangles on each side of an edge (its key: the smaller vertex first).
struct EdgeSide {
  std::size_t triangle;
  Index opposite;
};

}  // namespace

void BendingElements::build(const LocalGlobalDescription& d, Index n, const std::string& who) {
  if (d.bending == BendingModel::kNone) return;
  const std::string name = who + "bending '" + bending_model_name(d.bending) + "': ";
  require(d.bending == BendingModel::kQuadratic || d.bending == BendingModel::kLaplaceBeltrami,
          who + "bending must be kNone, kQuadratic or kLaplaceBeltrami");
  require(!d.triangles.empty(), name + "bending acts on triangles (cloth), and the description has none");
  require(std::isfinite(d.bending_stiffness) && d.bending_stiffness >= 0.0,
          who + "bending_stiffness must be finite and >= 0 (N m; 0 = the plate's D of each material), got " +
              number_text(d.bending_stiffness));
  const std::size_t count = d.triangles.size() / 3;
  auto X = [&](Index v) {
    const std::size_t i = 3 * static_cast<std::size_t>(v);
    return Vec{d.rest_positions[i], d.rest_positions[i + 1], d.rest_positions[i + 2]};
  };
  // Per triangle: rest area and the stiffness it brings, k or its material's D = E t^3 / (12 (1 - nu^2)).
  std::vector<double> area(count), stiffness(count);
  for (std::size_t t = 0; t < count; ++t) {
    const Index* v = &d.triangles[3 * t];
    area[t] = 0.5 * norm(cross(sub(X(v[1]), X(v[0])), sub(X(v[2]), X(v[0]))));
    if (d.bending_stiffness > 0.0) {
      stiffness[t] = d.bending_stiffness;
    } else {
      const bool own = !d.triangle_material.empty();
      const LocalGlobalMaterial* m = own ? &d.materials[static_cast<std::size_t>(d.triangle_material[t])] : nullptr;
      const double E = own ? m->elastic.youngs_modulus : d.elastic.youngs_modulus;
      const double nu = own ? m->elastic.poisson_ratio : d.elastic.poisson_ratio;
      const double th = own ? m->thickness : d.thickness;
      stiffness[t] = E * th * th * th / (12.0 * (1.0 - nu * nu));
    }
  }
  std::map<std::pair<Index, Index>, std::vector<EdgeSide>> edges;  // ordered: deterministic rows
  for (std::size_t t = 0; t < count; ++t)
    for (int a = 0; a < 3; ++a) {
      const Index u = d.triangles[3 * t + a], w = d.triangles[3 * t + (a + 1) % 3];
      edges[{std::min(u, w), std::max(u, w)}].push_back({t, d.triangles[3 * t + (a + 2) % 3]});
    }
  for (const auto& [edge, sides] : edges) {
    // The messages are built only on failure: an edge with one triangle has no sides[1].
    require(sides.size() <= 2, [&, &edge = edge, &sides = sides] {
      return name + "edge (" + std::to_string(edge.first) + ", " + std::to_string(edge.second) + ") belongs to " +
             std::to_string(sides.size()) + " triangles; bending needs a manifold mesh (at most two per edge)";
    });
    require(sides.size() < 2 || sides[0].opposite != sides[1].opposite, [&, &edge = edge, &sides = sides] {
      return name + "triangles " + std::to_string(sides[0].triangle) + " and " + std::to_string(sides[1].triangle) +
             " are the same triangle (vertices " + std::to_string(edge.first) + " " + std::to_string(edge.second) +
             " " + std::to_string(sides[0].opposite) + ")";
    });
  }
  std::vector<Row> rows;
  if (d.bending == BendingModel::kQuadratic) {
    // Bergou et al. 2006 eq. (7): K_e with a at x0 and b at x1 in each triangle (x0, x1, x_opposite).
    for (const auto& [edge, sides] : edges) {
      if (sides.size() != 2) continue;
      const Index v0 = edge.first, v1 = edge.second, v2 = sides[0].opposite, v3 = sides[1].opposite;
      const double a0 = cot_at(X(v0), X(v1), X(v2)), b0 = cot_at(X(v1), X(v0), X(v2));
      const double a1 = cot_at(X(v0), X(v1), X(v3)), b1 = cot_at(X(v1), X(v0), X(v3));
      rows.push_back({{v0, b0 + b1}, {v1, a0 + a1}, {v2, -a0 - b0}, {v3, -a1 - b1}});
      const double A0 = area[sides[0].triangle], A1 = area[sides[1].triangle];
      const double k = (A0 * stiffness[sides[0].triangle] + A1 * stiffness[sides[1].triangle]) / (A0 + A1);
      weights_.push_back(3.0 * k / (A0 + A1));
    }
    require(!rows.empty(), name + "the triangles have no interior edge (one shared by two triangles) to bend about");
  } else {
    // A vertex is interior when every edge at it has two triangles; its Laplacian is
    // 1/(2 M_i) sum_j (cot of the two angles opposite edge ij) (x_j - x_i), M_i its mixed Voronoi area.
    std::vector<int> boundary_edges(static_cast<std::size_t>(n), 0);
    std::vector<std::vector<std::pair<Index, double>>> neighbours(static_cast<std::size_t>(n));
    for (const auto& [edge, sides] : edges) {
      if (sides.size() != 2) {
        ++boundary_edges[edge.first];
        ++boundary_edges[edge.second];
        continue;
      }
      const double w = 0.5 * (cot_at(X(sides[0].opposite), X(edge.first), X(edge.second)) +
                              cot_at(X(sides[1].opposite), X(edge.first), X(edge.second)));
      neighbours[edge.first].push_back({edge.second, w});
      neighbours[edge.second].push_back({edge.first, w});
    }
    auto interior = [&](Index v) { return boundary_edges[v] == 0 && !neighbours[v].empty(); };
    // Each triangle's area goes to its vertices by the mixed Voronoi rule, and it integrates the
    // energy (with its stiffness) at its interior vertices: a boundary vertex's share goes to them.
    std::vector<double> voronoi(static_cast<std::size_t>(n), 0.0), vertex_weight(static_cast<std::size_t>(n), 0.0);
    for (std::size_t t = 0; t < count; ++t) {
      const std::array<double, 3> share =
          mixed_voronoi_shares(X(d.triangles[3 * t]), X(d.triangles[3 * t + 1]), X(d.triangles[3 * t + 2]), area[t]);
      int inner = 0;
      double outer_share = 0.0;
      for (int a = 0; a < 3; ++a) {
        voronoi[d.triangles[3 * t + a]] += share[a];
        if (interior(d.triangles[3 * t + a])) {
          ++inner;
        } else {
          outer_share += share[a];
        }
      }
      for (int a = 0; a < 3; ++a)
        if (interior(d.triangles[3 * t + a]))
          vertex_weight[d.triangles[3 * t + a]] += (share[a] + outer_share / inner) * stiffness[t];
    }
    for (Index v = 0; v < n; ++v) {
      if (!interior(v)) continue;
      Row row{{v, 0.0}};
      for (const auto& [j, w] : neighbours[v]) {
        row.push_back({j, w / voronoi[v]});
        row[0].second -= w / voronoi[v];
      }
      rows.push_back(std::move(row));
      weights_.push_back(vertex_weight[v]);
    }
    require(!rows.empty(), name + "the triangles have no interior vertex (one whose every edge has two triangles)");
    projects_ = true;
  }
  G_host_ = CsrMatrix{};
  G_host_.rows = static_cast<Index>(rows.size());
  G_host_.cols = n;
  G_host_.row_ptr.assign(1, 0);
  for (Row& row : rows) {
    std::sort(row.begin(), row.end());  // CSR rows need increasing columns
    Vec y{0.0, 0.0, 0.0};
    for (const auto& [col, value] : row) {
      G_host_.col_idx.push_back(col);
      G_host_.values.push_back(value);
      const Vec x = X(col);
      for (int i = 0; i < 3; ++i) y[i] += value * x[i];
    }
    G_host_.row_ptr.push_back(static_cast<Index>(G_host_.col_idx.size()));
    if (projects_) rest_norm_.push_back(norm(y));
  }
}

void BendingElements::assemble(double h, std::vector<Eigen::Triplet<double, Index>>& triplets,
                               std::vector<double>& elastic_diagonal) const {
  const double h2 = h * h;
  for (std::size_t r = 0; r < weights_.size(); ++r)
    for (Index a = G_host_.row_ptr[r]; a < G_host_.row_ptr[r + 1]; ++a) {
      for (Index b = G_host_.row_ptr[r]; b < G_host_.row_ptr[r + 1]; ++b)
        triplets.emplace_back(G_host_.col_idx[a], G_host_.col_idx[b],
                              h2 * weights_[r] * G_host_.values[a] * G_host_.values[b]);
      elastic_diagonal[G_host_.col_idx[a]] += weights_[r] * G_host_.values[a] * G_host_.values[a];
    }
}

void BendingElements::upload(Backend& backend) {
  const std::size_t rows = weights_.size();
  if (rows == 0) return;
  G_ = to_device(backend, G_host_);
  weights_dev_ = backend.upload(weights_);
  if (projects_) rest_norm_dev_ = backend.upload(rest_norm_);
  Gx_ = backend.allocate<double>(3 * rows);
  p_w_ = backend.allocate<double>(3 * rows);
  backend.fill(p_w_, 0.0);
  energy_ = backend.allocate<double>(rows);
  backend.fill(energy_, 0.0);
  ones_ = backend.allocate<double>(rows);
  backend.fill(ones_, 1.0);
}

void BendingElements::run_kernel(Backend& backend, int mode, bool residual, const DeviceArray<double>& x) {
  backend.spmv3(1.0, G_, Op::kNoTranspose, x, 0.0, Gx_);
  const BendingLocalStepKernel kernel{
      mode,       residual,    weights_dev_.data(), projects_ ? rest_norm_dev_.data() : nullptr,
      Gx_.data(), p_w_.data(), energy_.data()};
  for_each_index(backend, weights_.size(), kernel, "LocalGlobalIntegrator's bending local step");
}

void BendingElements::local_pass(Backend& backend, int mode, const DeviceArray<double>& x) {
  if (weights_.empty() || (!projects_ && mode == kLocalProject)) return;
  run_kernel(backend, mode, false, x);
}

void BendingElements::add_rhs(Backend& backend, double alpha, DeviceArray<double>& b) {
  if (!projects_) return;
  backend.spmv3(alpha, G_, Op::kTranspose, p_w_, 1.0, b);  // a fixed-order gather: deterministic
}

double BendingElements::energy(Backend& backend) { return weights_.empty() ? 0.0 : backend.dot(energy_, ones_); }

double BendingElements::energy_and_gradient(Backend& backend, const DeviceArray<double>& x,
                                            DeviceArray<double>& gradient) {
  if (weights_.empty()) {
    backend.fill(gradient, 0.0);
    return 0.0;
  }
  run_kernel(backend, kLocalEnergyOnly, true, x);
  backend.spmv3(1.0, G_, Op::kTranspose, p_w_, 0.0, gradient);
  // p_w holds W (y - p) now; a step's local pass writes W p again before b reads it.
  return energy(backend);
}

}  // namespace sinew::integrators::detail
