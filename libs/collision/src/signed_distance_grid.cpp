#include "sinew/collision/signed_distance_grid.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "parallel_chunks.hpp"
#include "sinew/collision/mesh_signed_distance.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew {

using Triangles = std::vector<std::array<Index, 3>>;

void SignedDistanceGrid::build(const std::vector<Vec3>& x, const Triangles& tris, const SdfGridOptions& params) {
  require(!tris.empty(), "SignedDistanceGrid::build: the mesh has no triangles");
  require(std::isfinite(params.cell_size) && params.cell_size >= 0.0, [&] {
    return "SdfGridOptions.cell_size must be finite and >= 0 (0: automatic), got " + number_text(params.cell_size);
  });
  require(params.padding >= 1,
          [&] { return "SdfGridOptions.padding must be at least 1, got " + std::to_string(params.padding); });
  MeshSignedDistance mesh;
  try {
    mesh.build(x, tris);
  } catch (const Error& e) {
    throw Error(std::string("SignedDistanceGrid::build: ") + e.what());
  }
  const Aabb all = mesh.bounds();
  const double extent = std::max({all.hi[0] - all.lo[0], all.hi[1] - all.lo[1], all.hi[2] - all.lo[2]});
  require(extent > 0.0, "SignedDistanceGrid::build: the mesh has zero extent");
  cell_ = params.cell_size > 0.0 ? params.cell_size : extent / 32.0;
  for (int k = 0; k < 3; ++k) {
    origin_[k] = all.lo[k] - params.padding * cell_;
    dims_[k] = static_cast<int>(std::ceil((all.hi[k] - all.lo[k]) / cell_)) + 2 * params.padding + 1;
  }
  const double nodes = double(dims_[0]) * dims_[1] * dims_[2];
  require(nodes <= 1e9, [&] {
    return "SignedDistanceGrid::build: " + number_text(nodes) +
           " grid nodes is too many; raise SdfGridOptions.cell_size";
  });
  values_.assign(static_cast<size_t>(nodes), 0.0);
  const Index n = static_cast<Index>(nodes);
  // The exact signed distance of the mesh at every node (MeshSignedDistance).
  detail::for_each_chunk(n, 1024, [&](Index, Index begin, Index end) {
    for (Index id = begin; id < end; ++id) {
      const int i = id % dims_[0], j = (id / dims_[0]) % dims_[1], k = id / (dims_[0] * dims_[1]);
      const Vec3 p = v3::make(origin_[0] + i * cell_, origin_[1] + j * cell_, origin_[2] + k * cell_);
      values_[id] = mesh.query(p).distance;
    }
  });
}

SignedDistance SignedDistanceGrid::query(const Vec3& p) const {
  require(!values_.empty(), "SignedDistanceGrid::query: call build() first");
  return sdf_grid_query(view(), p);
}

SdfGridView SignedDistanceGrid::view() const {
  return SdfGridView{values_.data(), {dims_[0], dims_[1], dims_[2]}, origin_, cell_};
}

}  // namespace sinew
