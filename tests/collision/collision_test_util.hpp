// Shared helpers of the collision tests: seeded random vectors, rotations and meshes.
#pragma once

#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "sinew/collision/shape.hpp"

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

}  // namespace sinew::test
