// Shared helpers of the collision tests: seeded random vectors, rotations and meshes.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "sinew/collision/shape.hpp"
#include "sinew/collision/vec3_ops.hpp"
#include "sinew/collision/vertex_triangle_contacts.hpp"

// Thread-count tests pin TBB with tbb::global_control where oneTBB is installed.
#if defined(__has_include)
#if __has_include(<tbb/global_control.h>)
#include <tbb/global_control.h>
#define SINEW_TEST_HAVE_TBB 1
#endif
#endif

namespace sinew::test {

// Seeded generator so that every failure reproduces.
struct Rng {
  std::mt19937_64 gen;
  explicit Rng(unsigned seed) : gen(seed) {}
  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(gen); }
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); }
  Vec3 vec(double lo, double hi) { return v3::make(uniform(lo, hi), uniform(lo, hi), uniform(lo, hi)); }
  Vec3 unit() {
    for (;;) {
      const Vec3 v = vec(-1, 1);
      const double n = norm(v);
      if (n > 0.1 && n < 1.0) return v3::scale(1.0 / n, v);
    }
  }
  // Random rotation from a random unit quaternion.
  Mat3 rotation() {
    std::normal_distribution<double> g;
    double q[4];
    double n = 0;
    for (double& x : q) {
      x = g(gen);
      n += x * x;
    }
    n = std::sqrt(n);
    const double w = q[0] / n, x = q[1] / n, y = q[2] / n, z = q[3] / n;
    return Mat3{{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y), 2 * (x * y + w * z),
                 1 - 2 * (x * x + z * z), 2 * (y * z - w * x), 2 * (x * z - w * y), 2 * (y * z + w * x),
                 1 - 2 * (x * x + y * y)}};
  }
  Pose pose(double spread) { return Pose{rotation(), vec(-spread, spread)}; }
};

// A cloth patch of nx x ny vertices on [0, sx] x [0, sy] at height z, triangulated.
struct Cloth {
  std::vector<Vec3> x;
  std::vector<std::array<Index, 3>> tri;
};
inline Cloth make_cloth(int nx, int ny, double sx, double sy, double z) {
  Cloth c;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) c.x.push_back(v3::make(sx * i / (nx - 1), sy * j / (ny - 1), z));
  for (int j = 0; j + 1 < ny; ++j)
    for (int i = 0; i + 1 < nx; ++i) {
      const Index a = j * nx + i, b = a + 1, d = a + nx, e = d + 1;
      c.tri.push_back({a, b, e});
      c.tri.push_back({a, e, d});
    }
  return c;
}

// A closed, outward-oriented box mesh with half extents h, each face split into a k x k grid.
inline Cloth box_mesh(const Vec3& h, int k) {
  Cloth m;
  for (int axis = 0; axis < 3; ++axis)
    for (int side = -1; side <= 1; side += 2) {
      const int u = (axis + 1) % 3, w = (axis + 2) % 3;
      const Index base = Index(m.x.size());
      for (int j = 0; j <= k; ++j)
        for (int i = 0; i <= k; ++i) {
          Vec3 p;
          p[axis] = side * h[axis];
          p[u] = h[u] * (-1 + 2.0 * i / k);
          p[w] = h[w] * (-1 + 2.0 * j / k);
          m.x.push_back(p);
        }
      for (int j = 0; j < k; ++j)
        for (int i = 0; i < k; ++i) {
          const Index a = base + j * (k + 1) + i, b = a + 1, c = a + k + 1, d = c + 1;
          // (u, w, axis) is right-handed, so (a, b, d) faces +axis; flip for the -axis side.
          if (side > 0) {
            m.tri.push_back({a, b, d});
            m.tri.push_back({a, d, c});
          } else {
            m.tri.push_back({a, d, b});
            m.tri.push_back({a, c, d});
          }
        }
    }
  // Weld duplicated vertices along the box edges so that the mesh is closed.
  std::vector<Index> remap(m.x.size());
  std::vector<Vec3> unique;
  for (size_t v = 0; v < m.x.size(); ++v) {
    Index found = -1;
    for (size_t u = 0; u < unique.size() && found < 0; ++u)
      if (v3::sqdist(unique[u], m.x[v]) < 1e-20) found = Index(u);
    if (found < 0) {
      found = Index(unique.size());
      unique.push_back(m.x[v]);
    }
    remap[v] = found;
  }
  for (auto& t : m.tri)
    for (Index& v : t) v = remap[v];
  m.x = unique;
  return m;
}

// Positively oriented tet (x0, x1, x2, x3): det(x1 - x0, x2 - x0, x3 - x0) > 0.
inline double orientation(const std::vector<Vec3>& x, const Index* t) {
  return dot(v3::sub(x[t[1]], x[t[0]]), cross(v3::sub(x[t[2]], x[t[0]]), v3::sub(x[t[3]], x[t[0]])));
}

// A box [lo, hi] of nx x ny x nz cubes, six tets per cube (Kuhn), orientation fixed, appended to
// (x, tets); returns the first vertex.
inline Index append_box(std::vector<Vec3>& x, std::vector<Index>& tets, const Vec3& lo, const Vec3& hi, int nx, int ny,
                        int nz) {
  const Index first = static_cast<Index>(x.size());
  auto id = [&](int i, int j, int k) { return first + i + (nx + 1) * (j + (ny + 1) * k); };
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i)
        x.push_back(v3::make(lo[0] + (hi[0] - lo[0]) * i / nx, lo[1] + (hi[1] - lo[1]) * j / ny,
                             lo[2] + (hi[2] - lo[2]) * k / nz));
  static const int kKuhn[6][4] = {{0, 1, 3, 7}, {0, 1, 5, 7}, {0, 2, 3, 7}, {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 4, 6, 7}};
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        Index c[8];
        for (int b = 0; b < 8; ++b) c[b] = id(i + (b & 1), j + ((b >> 1) & 1), k + ((b >> 2) & 1));
        for (const auto& t : kKuhn) {
          Index tet[4] = {c[t[0]], c[t[1]], c[t[2]], c[t[3]]};
          if (orientation(x, tet) < 0) std::swap(tet[2], tet[3]);
          tets.insert(tets.end(), tet, tet + 4);
        }
      }
  return first;
}

// @p s with its triangles (and their bodies) in a random order.
inline TetSurfaces shuffled_triangles(const TetSurfaces& s, Rng& rng) {
  TetSurfaces p = s;
  std::vector<std::size_t> perm(s.triangles.size());
  std::iota(perm.begin(), perm.end(), std::size_t{0});
  std::shuffle(perm.begin(), perm.end(), rng.gen);
  for (std::size_t t = 0; t < perm.size(); ++t) {
    p.triangles[t] = s.triangles[perm[t]];
    p.triangle_body[t] = s.triangle_body[perm[t]];
  }
  return p;
}

}  // namespace sinew::test
