/// @file
/// @brief A tetrahedral mesh's connectivity and rest data resident on a backend, and the
/// per-element values that batch element kernels write there (TetMaterial::evaluate_elements).
#pragma once

#include <vector>

#include "sinew/core/backend.hpp"
#include "sinew/core/config.hpp"
#include "sinew/materials/tetrahedron.hpp"

namespace sinew {

/// Connectivity and rest data of a tetrahedral mesh in a backend's memory, checked once on the
/// host when made, so that kernels on any backend may trust the indices.
class DeviceTetMesh {
 public:
  /// Checks and uploads @p tets (4 per element, each in [0, n_vertices)) and @p rests.
  /// @throws sinew::Error naming the element and index that is out of range, or the sizes.
  DeviceTetMesh(Backend& backend, const std::vector<Index>& tets, const std::vector<TetRest>& rests, Index n_vertices);

  /// Number of vertices the indices refer to (positions have 3 n_vertices entries).
  Index num_vertices() const { return n_vertices_; }
  /// Number of tetrahedra.
  std::size_t num_tets() const { return rests_.size(); }
  /// (4 num_tets()) vertex indices.
  const DeviceArray<Index>& tets() const { return tets_; }
  /// (num_tets()) rest data.
  const DeviceArray<TetRest>& rests() const { return rests_; }
  /// The backend holding the arrays.
  Backend& backend() const { return *backend_; }

 private:
  Backend* backend_;
  Index n_vertices_;
  DeviceArray<Index> tets_;
  DeviceArray<TetRest> rests_;
};

/// Per-element values in a backend's memory, element e's at e, 12 e and 144 e.
struct DeviceTetValues {
  DeviceArray<double> energy;    ///< (n_tets) V_e Psi(F_e)
  DeviceArray<double> gradient;  ///< (12 n_tets) energy gradients w.r.t. the element's 12 coordinates
  DeviceArray<double> hessian;   ///< (144 n_tets) row-major 12x12 Hessians (exact or PSD-projected)
};

/// Per-element values copied to the host (see DeviceTetValues for the layout).
struct TetElementValues {
  std::vector<double> energy;    ///< (n_tets) V_e Psi(F_e)
  std::vector<double> gradient;  ///< (12 n_tets) energy gradients
  std::vector<double> hessian;   ///< (144 n_tets) row-major 12x12 Hessians
};

}  // namespace sinew
