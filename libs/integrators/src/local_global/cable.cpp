// Cable length, its gradient (the bilateral row of H) and the checks of the cables of a
// LocalGlobalDescription (seed Sec. 7.8: cable constraints as bilateral rows of eq. (18)).
#include "sinew/core/number_text.hpp"
#include "sinew/integrators/local_global_cable.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sinew/collision/vec3_ops.hpp"
#include "sinew/core/error.hpp"

namespace sinew::integrators {

namespace {

Vec3 at(const double* x, Index v) {
  const std::size_t o = 3 * static_cast<std::size_t>(v);
  return Vec3{{x[o], x[o + 1], x[o + 2]}};
}

}  // namespace

double cable_length(const Cable& cable, const std::vector<double>& positions) {
  double length = 0.0;
  for (std::size_t k = 0; k + 1 < cable.vertices.size(); ++k)
    length += norm(v3::sub(at(positions.data(), cable.vertices[k + 1]), at(positions.data(), cable.vertices[k])));
  return length;
}

double cable_length_gradient(const Cable& cable, const double* positions, std::vector<Vec3>& gradient) {
  const std::size_t K = cable.vertices.size();
  gradient.assign(K, Vec3{{0.0, 0.0, 0.0}});
  double length = 0.0;
  for (std::size_t k = 0; k + 1 < K; ++k) {
    const Vec3 s = v3::sub(at(positions, cable.vertices[k + 1]), at(positions, cable.vertices[k]));
    const double l = norm(s);
    length += l;
    if (l == 0.0) continue;
    const Vec3 e = v3::scale(1.0 / l, s);  // d|s|/dx_{k+1} = e, d|s|/dx_k = -e
    gradient[k + 1] = v3::add(gradient[k + 1], e);
    gradient[k] = v3::sub(gradient[k], e);
  }
  return length;
}

void validate_cables(const std::vector<Cable>& cables, const std::vector<double>& rest_positions, Index n_vertices,
                     const std::string& who) {
  for (std::size_t c = 0; c < cables.size(); ++c) {
    const Cable& cable = cables[c];
    const std::string name = who + "cables[" + std::to_string(c) + "]";
    require(cable.vertices.size() >= 2,
            name + ".vertices must hold at least 2 vertices, got " + std::to_string(cable.vertices.size()));
    for (std::size_t k = 0; k < cable.vertices.size(); ++k)
      require(cable.vertices[k] >= 0 && cable.vertices[k] < n_vertices,
              name + ".vertices[" + std::to_string(k) + "] = " + std::to_string(cable.vertices[k]) +
                  " is out of range, expected 0 <= vertex < " + std::to_string(n_vertices));
    std::vector<Index> sorted = cable.vertices;
    std::sort(sorted.begin(), sorted.end());
    require(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end(),
            name + ".vertices must be distinct (a vertex routed twice would give H a repeated column)");
    for (std::size_t k = 0; k + 1 < cable.vertices.size(); ++k)
      require(norm(v3::sub(at(rest_positions.data(), cable.vertices[k + 1]),
                           at(rest_positions.data(), cable.vertices[k]))) > 0.0,
              name + ": rest segment " + std::to_string(k) + " has zero length");
    const double rest = cable.rest_length < 0.0 ? cable_length(cable, rest_positions) : cable.rest_length;
    require(std::isfinite(cable.rest_length) && rest > 0.0,
            name + ".rest_length must be finite and > 0 (< 0 = automatic), got " + number_text(cable.rest_length));
    require(std::isfinite(cable.pull) && cable.pull >= 0.0 && cable.pull < rest,
            name + ".pull must be finite, >= 0 and < the rest length " + number_text(rest) + ", got " +
                number_text(cable.pull));
  }
}

}  // namespace sinew::integrators
