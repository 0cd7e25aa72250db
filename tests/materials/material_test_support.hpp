// Shared inputs of the materials tests: conversions between sinew's POD matrices and Eigen,
// random rotations and random deformation gradients of given kinds (mild, strong, inverted).
#pragma once

#include <Eigen/Dense>
#include <random>

#include "sinew/core/eigen_interop.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/materials/small_dense.hpp"

namespace sinew::test {

using sinew::to_eigen;  // Vec3 and Mat3 (core/eigen_interop.hpp)

/// MatN -> Eigen.
template <int N>
Eigen::MatrixXd to_eigen(const MatN<N>& A) {
  Eigen::MatrixXd E(N, N);
  for (int r = 0; r < N; ++r)
    for (int c = 0; c < N; ++c) E(r, c) = A(r, c);
  return E;
}

/// Row-major vec(F) as an Eigen vector (the order of every 9x9 dP/dF).
inline Eigen::VectorXd vec(const Mat3& A) { return Eigen::Map<const Eigen::Matrix<double, 9, 1>>(A.m); }

/// Inverse of vec().
inline Mat3 unvec(const Eigen::VectorXd& v) {
  Mat3 A{};
  for (int i = 0; i < 9; ++i) A.m[i] = v[i];
  return A;
}

/// A uniformly random proper rotation.
inline Eigen::Matrix3d random_rotation(std::mt19937_64& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  Eigen::Quaterniond q(n(rng), n(rng), n(rng), n(rng));
  return q.normalized().toRotationMatrix();
}

/// Kinds of random deformation gradients F = R1 diag(s) R2.
enum class Deformation {
  kMild,      // s in [0.8, 1.25]
  kStrong,    // s in [0.3, 2.5]: strong stretch and compression
  kInverted,  // s0 in [1.3, 1.6], s1 in [0.9, 1.2], s2 in [-0.8, -0.2]: det F < 0, no s_i + s_j near 0
};

/// A random deformation gradient of the given kind.
inline Mat3 random_deformation(std::mt19937_64& rng, Deformation kind) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Eigen::Vector3d s;
  switch (kind) {
    case Deformation::kMild:
      s = Eigen::Vector3d(0.8 + 0.45 * u(rng), 0.8 + 0.45 * u(rng), 0.8 + 0.45 * u(rng));
      break;
    case Deformation::kStrong:
      s = Eigen::Vector3d(0.3 + 2.2 * u(rng), 0.3 + 2.2 * u(rng), 0.3 + 2.2 * u(rng));
      break;
    case Deformation::kInverted:
      s = Eigen::Vector3d(1.3 + 0.3 * u(rng), 0.9 + 0.3 * u(rng), -0.8 + 0.6 * u(rng));
      break;
  }
  return to_mat3(random_rotation(rng) * s.asDiagonal() * random_rotation(rng));
}

}  // namespace sinew::test
