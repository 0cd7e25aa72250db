/// @file
/// @brief Lumped masses of linear elements: each element's mass, density x measure (the volume
/// of a tetrahedron, the area, or area x thickness, of a triangle), split equally among its
/// nodes: the diagonal mass matrix of linear tetrahedra and triangles. One rule for every body
/// built from a mesh (scene's deformable bodies and cloths, the local-global integrator).
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "sinew/core/config.hpp"

namespace sinew::model {

/// Adds density * measures[e] / K to masses[v] for each node v of each element e, whose K nodes
/// are nodes[K e .. K e + K) (valid indices into @p masses; the caller checks them).
template <int K>
void add_lumped_masses(double density, const std::vector<double>& measures, const Index* nodes,
                       std::vector<double>& masses) {
  for (std::size_t e = 0; e < measures.size(); ++e)
    for (int a = 0; a < K; ++a) masses[static_cast<std::size_t>(nodes[K * e + a])] += density * measures[e] / K;
}

/// add_lumped_masses() of elements given as arrays of K node indices.
template <std::size_t K>
void add_lumped_masses(double density, const std::vector<double>& measures,
                       const std::vector<std::array<Index, K>>& elements, std::vector<double>& masses) {
  for (std::size_t e = 0; e < measures.size(); ++e)
    for (Index v : elements[e]) masses[static_cast<std::size_t>(v)] += density * measures[e] / static_cast<double>(K);
}

}  // namespace sinew::model
