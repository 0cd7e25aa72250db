// LocalGlobalIntegrator's triangle (membrane) elements: setup of G_tri and the weights, the
// local pass on the backend (triangle_kernels.hpp) and the triangles' share of the
// right-hand side and of the incremental potential.
#include "triangles.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "triangle_kernels.hpp"

namespace sinew::integrators::detail {

void check_material_indices(const std::vector<Index>& index, std::size_t count, std::size_t materials,
                            const std::string& element, const std::string& field) {
  if (index.empty()) return;
  require(index.size() == count, field + " must have one entry per " + element + " (" + std::to_string(count) +
                                     ") or none, got " + std::to_string(index.size()));
  for (std::size_t e = 0; e < count; ++e)
    require(index[e] >= 0 && static_cast<std::size_t>(index[e]) < materials,
            field + "[" + std::to_string(e) + "] (" + element + " " + std::to_string(e) +
                ") = " + std::to_string(index[e]) + ", expected 0 <= material < " + std::to_string(materials) +
                " (the number of materials)");
}

void TriangleElements::check(const LocalGlobalDescription& d, Index n, const std::string& who) {
  require(d.triangles.size() % 3 == 0,
          who + "triangles must hold 3 vertex indices per triangle, got " + std::to_string(d.triangles.size()));
  if (d.triangles.empty()) return;
  const std::size_t count = d.triangles.size() / 3;
  check_material_indices(d.triangle_material, count, d.materials.size(), "triangle", who + "triangle_material");
  if (d.triangle_material.empty())
    require(std::isfinite(d.thickness) && d.thickness > 0.0,
            who + "thickness must be finite and > 0 (m) when there are triangles, got " + number_text(d.thickness));
  for (std::size_t k = 0; k < d.triangles.size(); ++k)
    require(d.triangles[k] >= 0 && d.triangles[k] < n,
            who + "triangles[" + std::to_string(k) + "] (triangle " + std::to_string(k / 3) +
                ") = " + std::to_string(d.triangles[k]) + ", expected 0 <= index < " + std::to_string(n));
  std::vector<TriRest> rests(count);
  for (std::size_t e = 0; e < count; ++e) {
    double X[9];
    for (int a = 0; a < 3; ++a)
      for (int i = 0; i < 3; ++i)
        X[3 * a + i] = d.rest_positions[3 * static_cast<std::size_t>(d.triangles[3 * e + a]) + i];
    try {
      rests[e] = make_tri_rest(X);  // degenerate (or repeated-vertex) triangles throw
    } catch (const Error& error) {
      throw Error(who + "triangles: triangle " + std::to_string(e) + " (vertices " +
                  std::to_string(d.triangles[3 * e]) + " " + std::to_string(d.triangles[3 * e + 1]) + " " +
                  std::to_string(d.triangles[3 * e + 2]) + "): " + error.what());
    }
  }
  rests_ = std::move(rests);
  nodes_ = d.triangles;
  material_ = d.triangle_material;
  volumes_.resize(count);
  for (std::size_t e = 0; e < count; ++e)
    volumes_[e] = rests_[e].area * (material_.empty() ? d.thickness : d.materials[material_[e]].thickness);
}

void TriangleElements::add_masses(const LocalGlobalDescription& d, std::vector<double>& masses) const {
  add_element_masses<3>(d, material_, volumes_, nodes_.data(), masses);
}

void TriangleElements::assemble(const MaterialTable& materials, const std::vector<double>& masses, double h,
                                double neo_hookean_weight, double neo_hookean_floor,
                                std::vector<Eigen::Triplet<double, Index>>& triplets,
                                std::vector<double>& elastic_diagonal) {
  const std::size_t count = rests_.size();
  const double h2 = h * h;
  G_host_ = CsrMatrix{};
  G_host_.rows = static_cast<Index>(2 * count);
  G_host_.cols = static_cast<Index>(masses.size());
  G_host_.row_ptr.resize(2 * count + 1);
  G_host_.col_idx.resize(6 * count);
  G_host_.values.resize(6 * count);
  weights_.resize(count);
  for (std::size_t e = 0; e < count; ++e) {
    double cg[3][2];
    tri_shape_gradients(rests_[e], cg);
    const LocalMaterial& material = materials.of(material_, e);
    double W = 0.0;
    if (material.model == kLocalNeoHookean) {
      // The tets' rule (neo_hookean_admm_weight()) with the triangle's 2-D gradients.
      double grad2 = 0.0, mass = 0.0;
      for (int a = 0; a < 3; ++a) {
        grad2 += cg[a][0] * cg[a][0] + cg[a][1] * cg[a][1];
        mass += masses[nodes_[3 * e + a]] / 3.0;
      }
      W = neo_hookean_admm_weight(material, volumes_[e], mass, h2, grad2, neo_hookean_weight, neo_hookean_floor);
    } else {
      W = triangle_projective_weight(material, volumes_[e]);
    }
    weights_[e] = W;
    std::array<int, 3> order{0, 1, 2};  // CSR rows need increasing columns
    std::sort(order.begin(), order.end(), [&](int a, int b) { return nodes_[3 * e + a] < nodes_[3 * e + b]; });
    for (int j = 0; j < 2; ++j) {
      const std::size_t row = 2 * e + j;
      G_host_.row_ptr[row] = static_cast<Index>(3 * row);
      for (int s = 0; s < 3; ++s) {
        G_host_.col_idx[3 * row + s] = nodes_[3 * e + order[s]];
        G_host_.values[3 * row + s] = cg[order[s]][j];
      }
    }
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) {
        const double gg = cg[a][0] * cg[b][0] + cg[a][1] * cg[b][1];
        triplets.emplace_back(nodes_[3 * e + a], nodes_[3 * e + b], h2 * W * gg);
        if (a == b) elastic_diagonal[nodes_[3 * e + a]] += W * gg;
      }
  }
  G_host_.row_ptr[2 * count] = static_cast<Index>(6 * count);
}

void TriangleElements::upload(Backend& backend, const MaterialTable& materials) {
  const std::size_t count = rests_.size();
  if (count == 0) return;
  G_ = to_device(backend, G_host_);
  volumes_dev_ = backend.upload(volumes_);
  weights_dev_ = backend.upload(weights_);
  if (!material_.empty()) material_dev_ = backend.upload(material_);
  F_ = backend.allocate<double>(6 * count);
  p_w_ = backend.allocate<double>(6 * count);
  if (materials.any_neo_hookean(material_, count)) u_ = backend.allocate<double>(6 * count);
  energy_ = backend.allocate<double>(count);
  backend.fill(energy_, 0.0);
  ones_ = backend.allocate<double>(count);
  backend.fill(ones_, 1.0);
}

void TriangleElements::reset_duals(Backend& backend) {
  if (!u_.empty()) backend.fill(u_, 0.0);
}

void TriangleElements::local_pass(Backend& backend, const LocalMaterial& single, const LocalMaterial* table, int mode,
                                  const DeviceArray<double>& x) {
  const std::size_t count = rests_.size();
  if (count == 0) return;
  backend.spmv3(1.0, G_, Op::kNoTranspose, x, 0.0, F_);  // F by columns: row (e, j) holds F's column j
  const LocalMaterials materials{single, table, material_dev_.empty() ? nullptr : material_dev_.data()};
  const TriangleLocalStepKernel kernel{materials,           mode,          volumes_dev_.data(),
                                       weights_dev_.data(), F_.data(),     u_.empty() ? nullptr : u_.data(),
                                       p_w_.data(),         energy_.data()};
  for_each_index(backend, count, kernel, "LocalGlobalIntegrator's triangle local step");
}

void TriangleElements::add_rhs(Backend& backend, double alpha, double beta, DeviceArray<double>& b) {
  if (rests_.empty()) return;
  backend.spmv3(alpha, G_, Op::kTranspose, p_w_, beta, b);  // a fixed-order gather: deterministic
}

double TriangleElements::energy(Backend& backend) { return rests_.empty() ? 0.0 : backend.dot(energy_, ones_); }

double TriangleElements::edge_length_sum(const LocalGlobalDescription& d) const {
  double sum = 0.0;
  for (std::size_t e = 0; e < rests_.size(); ++e)
    for (int a = 0; a < 3; ++a) {
      const std::size_t va = 3 * static_cast<std::size_t>(nodes_[3 * e + a]);
      const std::size_t vb = 3 * static_cast<std::size_t>(nodes_[3 * e + (a + 1) % 3]);
      double l2 = 0.0;
      for (int k = 0; k < 3; ++k)
        l2 += (d.rest_positions[va + k] - d.rest_positions[vb + k]) *
              (d.rest_positions[va + k] - d.rest_positions[vb + k]);
      sum += std::sqrt(l2);
    }
  return sum;
}

LocalGlobalDescription with_contact_margin(const LocalGlobalDescription& d, const TriangleElements& tris) {
  LocalGlobalDescription r = d;
  const std::size_t edges = 6 * (d.tets.size() / 4) + 3 * tris.size();
  if (d.contact_margin >= 0.0 || edges == 0) return r;
  double sum = tris.edge_length_sum(d);
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
  r.contact_margin = 0.5 * sum / static_cast<double>(edges);
  return r;
}

}  // namespace sinew::integrators::detail
