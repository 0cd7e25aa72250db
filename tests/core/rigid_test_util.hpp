// Conversions between the core POD types (Vec3, Mat3, Quaternion, Twist, Wrench, SpatialMatrix)
// and Eigen, and a seeded random source, shared by the rigid-body math tests.
#pragma once

#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <random>

#include "sinew/core/eigen_interop.hpp"
#include "sinew/core/quaternion.hpp"
#include "sinew/core/spatial_vector.hpp"

namespace sinew {
namespace test {

using sinew::to_eigen;  // Vec3 and Mat3 (core/eigen_interop.hpp)
inline Eigen::Matrix<double, 6, 6> to_eigen(const SpatialMatrix& A) {
  Eigen::Matrix<double, 6, 6> E;
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c) E(r, c) = A(r, c);
  return E;
}
inline Eigen::Matrix<double, 6, 1> to_eigen(const Twist& V) {
  Eigen::Matrix<double, 6, 1> x;
  x << to_eigen(V.v), to_eigen(V.w);
  return x;
}
inline Eigen::Matrix<double, 6, 1> to_eigen(const Wrench& F) {
  Eigen::Matrix<double, 6, 1> x;
  x << to_eigen(F.f), to_eigen(F.tau);
  return x;
}

// Seeded uniform random scalars and vectors in [-1, 1], unit vectors, rotations and twists.
struct Rng {
  explicit Rng(unsigned seed) : gen(seed) {}
  std::mt19937_64 gen;
  std::uniform_real_distribution<double> u{-1.0, 1.0};
  double scalar() { return u(gen); }
  Vec3 vec() { return Vec3{{u(gen), u(gen), u(gen)}}; }
  Vec3 unit() {
    const Vec3 a = vec();
    return (1.0 / norm(a)) * a;
  }
  Quaternion quat() {
    const Quaternion q{u(gen), vec()};
    return normalized(q);
  }
  Mat3 rotation() { return rotation_matrix(quat()); }
  Twist twist() { return Twist{vec(), vec()}; }
  Wrench wrench() { return Wrench{vec(), vec()}; }
};

}  // namespace test
}  // namespace sinew
