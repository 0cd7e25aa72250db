// The triangle (membrane, cloth) elements of LocalGlobalIntegrator (private): checks and rest
// data, their share of the lumped masses and of A = M + h^2 sum W_i G_i^T G_i (eq. (6)), the
// constant map G_tri: q -> F (3x2 per triangle, F = Ds Dm^-1 in the rest triangle's own 2-D
// frame, materials' triangle.hpp) on the backend, and per L-G iteration the local pass
// (triangle_kernels.hpp), its h^2 G_tri^T p_w share of b and its energy sum.
#pragma once

#include <Eigen/SparseCore>
#include <cstddef>
#include <string>
#include <vector>

#include "kernels.hpp"
#include "sinew/core/backend.hpp"
#include "sinew/core/device_sparse.hpp"
#include "sinew/integrators/local_global.hpp"
#include "sinew/linalg/csr_matrix.hpp"
#include "sinew/materials/triangle.hpp"
#include "sinew/model/lumped_mass.hpp"

namespace sinew::integrators::detail {

/// The triangles of one LocalGlobalIntegrator (see the file comment); empty when it has none.
class TriangleElements {
 public:
  /// Checks description.triangles (indices in [0, @p n), non-degenerate rest triangles),
  /// description.triangle_material (one index into materials per triangle, or empty) and
  /// description.thickness when it is used, and computes the rest data (each triangle's volume
  /// with its material's thickness). @throws sinew::Error naming the triangle (or field)
  /// prefixed by @p who; nothing is built when it throws.
  void check(const LocalGlobalDescription& d, Index n, const std::string& who);
  /// Number of triangles.
  std::size_t size() const { return rests_.size(); }
  /// Adds a third of each triangle's mass rho A t (its material's density) to its vertices'
  /// @p masses (n).
  void add_masses(const LocalGlobalDescription& d, std::vector<double>& masses) const;
  /// Builds G_tri and the weights, and appends h^2 W_i G_i^T G_i to @p triplets (A_s) and
  /// W_i (G_i^T G_i)_vv to @p elastic_diagonal (n), for each triangle's material of
  /// @p materials, @p masses (n) and step @p h.
  void assemble(const MaterialTable& materials, const std::vector<double>& masses, double h, double neo_hookean_weight,
                double neo_hookean_floor, std::vector<Eigen::Triplet<double, Index>>& triplets,
                std::vector<double>& elastic_diagonal);
  /// Uploads G_tri, volumes, weights and material indices and allocates the per-iteration arrays
  /// on @p backend (ADMM duals when a triangle of @p materials is Neo-Hookean).
  void upload(Backend& backend, const MaterialTable& materials);
  /// Sets the ADMM duals to 0 (start of a step; Neo-Hookean only).
  void reset_duals(Backend& backend);
  /// F = G_tri x, then the triangle kernel in LocalMode @p mode on the backend
  /// (sinew::for_each_index), each triangle of @p single or of its entry of @p table (the
  /// backend's copy of MaterialTable::table, null with one material).
  void local_pass(Backend& backend, const LocalMaterial& single, const LocalMaterial* table, int mode,
                  const DeviceArray<double>& x);
  /// b = alpha G_tri^T p_w + beta b (the triangles' share of eq. (6)'s right-hand side).
  void add_rhs(Backend& backend, double alpha, double beta, DeviceArray<double>& b);
  /// Sum of the element energies of the last pass that computed them.
  double energy(Backend& backend);
  /// Sum of the rest edge lengths (3 per triangle, shared edges counted per triangle).
  double edge_length_sum(const LocalGlobalDescription& d) const;

 private:
  std::vector<TriRest> rests_;   // (n_tri) rest data (area without thickness)
  std::vector<Index> nodes_;     // (3 n_tri) vertex indices
  std::vector<Index> material_;  // (n_tri) index into the description's materials, or empty
  std::vector<double> volumes_;  // (n_tri) V = A t
  CsrMatrix G_host_;             // (2 n_tri x n) rows (e, j): dF_ij/dx_{v,i} = c_e[a][j] at column v
  std::vector<double> weights_;  // (n_tri) W_i (ADMM w_i of Neo-Hookean triangles)
  DeviceCsr G_;                  // G_host_ on the backend
  DeviceArray<double> volumes_dev_, weights_dev_;
  DeviceArray<Index> material_dev_;    // material_ on the backend
  DeviceArray<double> F_, p_w_, u_;    // (6 n_tri) F by columns, weighted projections, ADMM dual
  DeviceArray<double> energy_, ones_;  // (n_tri) element energies, ones for their sum
};

/// Adds each element's mass rho_e V_e, split equally among its K nodes (@p nodes, K per element),
/// to @p masses: rho_e its material's density (@p index: tet_material or triangle_material), or
/// d.density for every element when index is empty. rho_e V_e is split as
/// model::add_lumped_masses() splits rho V, so equal densities give the same bits.
template <int K>
void add_element_masses(const LocalGlobalDescription& d, const std::vector<Index>& index, std::vector<double> volumes,
                        const Index* nodes, std::vector<double>& masses) {
  if (index.empty()) {
    model::add_lumped_masses<K>(d.density, volumes, nodes, masses);
    return;
  }
  for (std::size_t e = 0; e < volumes.size(); ++e)
    volumes[e] *= d.materials[static_cast<std::size_t>(index[e])].density;
  model::add_lumped_masses<K>(1.0, volumes, nodes, masses);
}

/// Checks an element material index @p index (LocalGlobalDescription::tet_material or
/// triangle_material): empty, or one entry per element (@p count) in [0, @p materials).
/// @throws sinew::Error naming @p field and the @p element ("tetrahedron", "triangle").
void check_material_indices(const std::vector<Index>& index, std::size_t count, std::size_t materials,
                            const std::string& element, const std::string& field);

/// @p d with contact_margin resolved when it is automatic (< 0): half the mean rest edge length
/// over the tets' 6 and the triangles' 3 edges per element (what the contact solver is given).
LocalGlobalDescription with_contact_margin(const LocalGlobalDescription& d, const TriangleElements& tris);

}  // namespace sinew::integrators::detail
