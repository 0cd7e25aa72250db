// Random inputs for the Baraff solver tests (fixed seeds), an independent dense assembly of the
// same KKT system for reference solves, and a brute-force LCP solver for small contact sets.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "sinew/linalg/baraff_problem.hpp"

namespace sinew::test {

/// Entries uniform in [-1, 1].
inline Eigen::MatrixXd baraff_random_matrix(Eigen::Index rows, Eigen::Index cols, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::MatrixXd A(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j)
    for (Eigen::Index i = 0; i < rows; ++i) A(i, j) = u(rng);
  return A;
}

/// A well-conditioned SPD block with a random scale in [0.5, 5] (masses and inertias differ).
inline Eigen::MatrixXd baraff_random_spd(int d, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> s(0.5, 5.0);
  const Eigen::MatrixXd B = baraff_random_matrix(d, d, rng);
  Eigen::MatrixXd M = B * B.transpose() + 0.5 * d * Eigen::MatrixXd::Identity(d, d);
  M *= s(rng) / d;
  return 0.5 * (M + M.transpose());
}

/// The raw input of a problem, kept by the tests so that the reference never reads the solver.
struct BaraffInput {
  std::vector<BaraffBody> bodies;
  std::vector<BaraffConstraint> constraints;
  std::vector<BaraffAuxiliaryConstraint> auxiliary;
  BaraffProblem problem() const { return BaraffProblem(bodies, constraints, auxiliary); }
};

/// Edges (a, b) of a chain 0-1-...-(n-1); with `grounded`, body 0 is also tied to the world.
inline std::vector<std::pair<int, int>> baraff_chain_edges(int n, bool grounded, int first = 0) {
  std::vector<std::pair<int, int>> e;
  if (grounded) e.emplace_back(first, kBaraffWorld);
  for (int i = 1; i < n; ++i) e.emplace_back(first + i - 1, first + i);
  return e;
}

/// Edges of a random recursive tree on n bodies (body i hangs from a uniform earlier body), with
/// random orientation of each edge; with `grounded`, a random body is tied to the world.
inline std::vector<std::pair<int, int>> baraff_tree_edges(int n, bool grounded, std::mt19937_64& rng, int first = 0) {
  std::vector<std::pair<int, int>> e;
  for (int i = 1; i < n; ++i) {
    const int p = std::uniform_int_distribution<int>(0, i - 1)(rng);
    if (rng() % 2)
      e.emplace_back(first + p, first + i);
    else
      e.emplace_back(first + i, first + p);
  }
  if (grounded) {
    const int g = std::uniform_int_distribution<int>(0, n - 1)(rng);
    e.insert(e.begin() + static_cast<long>(rng() % (e.size() + 1)),
             rng() % 2 ? std::make_pair(first + g, int{kBaraffWorld}) : std::make_pair(int{kBaraffWorld}, first + g));
  }
  return e;
}

/// A random orthogonal d x d matrix (QR of a Gaussian-like matrix).
inline Eigen::MatrixXd baraff_random_rotation(int d, std::mt19937_64& rng) {
  const Eigen::MatrixXd Q = Eigen::HouseholderQR<Eigen::MatrixXd>(baraff_random_matrix(d, d, rng)).householderQ();
  return Q;
}

/// The d x d map from body velocity to constraint-frame velocity: for a rigid body (d = 6,
/// twist (v, w)) the motion of a frame at lever arm r with |r_i| <= 1 and rotation R,
/// [[R, -R [r]x], [0, R]]; for other d a random rotation. Such maps compose like rigid motions,
/// as real joint Jacobians do (a chain of them does not amplify errors exponentially).
inline Eigen::MatrixXd baraff_random_frame(int d, std::mt19937_64& rng) {
  if (d != 6) return baraff_random_rotation(d, rng);
  const Eigen::Matrix3d R = baraff_random_rotation(3, rng);
  const Eigen::Vector3d r = baraff_random_matrix(3, 1, rng);
  Eigen::Matrix3d rx;
  rx << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(6, 6);
  G.topLeftCorner<3, 3>() = R;
  G.topRightCorner<3, 3>() = -R * rx;
  G.bottomRightCorner<3, 3>() = R;
  return G;
}

/// A constraint Jacobian block (m x d): m random orthonormal directions with scales in [0.5, 2]
/// (units of the constraint rows) applied to a random frame map (baraff_random_frame).
inline Eigen::MatrixXd baraff_random_jacobian(int m, int d, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> s(0.5, 2.0);
  Eigen::MatrixXd P = baraff_random_rotation(d, rng).topRows(m);
  for (int i = 0; i < m; ++i) P.row(i) *= s(rng);
  return P * baraff_random_frame(d, rng);
}

/// Bodies with the given dimensions and random SPD masses; a constraint per edge with a random
/// dimension in [1, min(max_m, dims of its bodies)] and random Jacobian blocks
/// (baraff_random_jacobian, full row rank).
inline BaraffInput baraff_random_input(const std::vector<int>& dims, const std::vector<std::pair<int, int>>& edges,
                                       int max_m, std::mt19937_64& rng) {
  BaraffInput in;
  for (int d : dims) in.bodies.push_back({baraff_random_spd(d, rng)});
  for (const auto& [a, b] : edges) {
    int top = max_m;
    for (int body : {a, b})
      if (body != kBaraffWorld) top = std::min(top, dims[body]);
    const int m = std::uniform_int_distribution<int>(1, top)(rng);
    BaraffConstraint c;
    c.body_a = a;
    c.body_b = b;
    if (a != kBaraffWorld) c.jacobian_a = baraff_random_jacobian(m, dims[a], rng);
    if (b != kBaraffWorld) c.jacobian_b = -baraff_random_jacobian(m, dims[b], rng);
    in.constraints.push_back(c);
  }
  return in;
}

/// A random auxiliary row on the given bodies; `workless` leaves force empty (k = J^a^T).
inline BaraffAuxiliaryConstraint baraff_random_row(const BaraffInput& in, const std::vector<int>& bodies, bool workless,
                                                   std::mt19937_64& rng) {
  BaraffAuxiliaryConstraint row;
  for (int b : bodies) {
    BaraffAuxiliaryBlock blk;
    blk.body = b;
    const auto d = in.bodies[b].mass.rows();
    blk.jacobian = baraff_random_matrix(1, d, rng);
    if (!workless) blk.force = blk.jacobian.transpose() + 0.3 * baraff_random_matrix(d, 1, rng);
    row.blocks.push_back(blk);
  }
  return row;
}

/// Dense M (dofs x dofs), J (multipliers x dofs), J^a and K^T (k x dofs), assembled from the raw
/// input with its own offsets.
struct BaraffDense {
  Eigen::MatrixXd M, J, Ja, Kt;
  explicit BaraffDense(const BaraffInput& in) {
    std::vector<int> off{0};
    for (const auto& b : in.bodies) off.push_back(off.back() + static_cast<int>(b.mass.rows()));
    int rows = 0;
    for (const auto& c : in.constraints)
      rows += static_cast<int>((c.body_a != kBaraffWorld ? c.jacobian_a : c.jacobian_b).rows());
    const int n = off.back(), k = static_cast<int>(in.auxiliary.size());
    M = Eigen::MatrixXd::Zero(n, n);
    J = Eigen::MatrixXd::Zero(rows, n);
    Ja = Eigen::MatrixXd::Zero(k, n);
    Kt = Eigen::MatrixXd::Zero(k, n);
    for (std::size_t i = 0; i < in.bodies.size(); ++i) {
      const auto d = in.bodies[i].mass.rows();
      M.block(off[i], off[i], d, d) = in.bodies[i].mass;
    }
    int r = 0;
    for (const auto& c : in.constraints) {
      const auto m = (c.body_a != kBaraffWorld ? c.jacobian_a : c.jacobian_b).rows();
      if (c.body_a != kBaraffWorld) J.block(r, off[c.body_a], m, c.jacobian_a.cols()) = c.jacobian_a;
      if (c.body_b != kBaraffWorld) J.block(r, off[c.body_b], m, c.jacobian_b.cols()) = c.jacobian_b;
      r += static_cast<int>(m);
    }
    for (int i = 0; i < k; ++i)
      for (const auto& blk : in.auxiliary[i].blocks) {
        Ja.block(i, off[blk.body], 1, blk.jacobian.size()) = blk.jacobian;
        Kt.block(i, off[blk.body], 1, blk.jacobian.size()) =
            blk.force.size() ? Eigen::RowVectorXd(blk.force.transpose()) : blk.jacobian;
      }
  }

  /// Solves [M -J^T -K_S; -J 0 0; -Ja_S 0 0] (v; lambda; mu_S) = (F; c; ca_S) by full-pivot LU,
  /// with the auxiliary rows in `active` as equalities and the others absent (mu = 0 there).
  void solve(const Eigen::VectorXd& F, const Eigen::VectorXd& c, const Eigen::VectorXd& ca,
             const std::vector<int>& active, Eigen::VectorXd& v, Eigen::VectorXd& lambda, Eigen::VectorXd& mu) const {
    const auto n = M.rows(), m = J.rows();
    const auto s = static_cast<Eigen::Index>(active.size());
    Eigen::MatrixXd H = Eigen::MatrixXd::Zero(n + m + s, n + m + s);
    Eigen::VectorXd z(n + m + s);
    H.topLeftCorner(n, n) = M;
    H.block(0, n, n, m) = -J.transpose();
    H.block(n, 0, m, n) = -J;
    z << F, c, Eigen::VectorXd::Zero(s);
    for (Eigen::Index t = 0; t < s; ++t) {
      H.block(0, n + m + t, n, 1) = -Kt.row(active[t]).transpose();
      H.block(n + m + t, 0, 1, n) = -Ja.row(active[t]);
      z[n + m + t] = ca[active[t]];
    }
    const Eigen::VectorXd x = H.fullPivLu().solve(z);
    v = x.head(n);
    lambda = x.segment(n, m);
    mu = Eigen::VectorXd::Zero(Ja.rows());
    for (Eigen::Index t = 0; t < s; ++t) mu[active[t]] = x[n + m + t];
  }
};

/// ||x - ref|| / ||ref|| (ref nonzero in every use).
inline double baraff_rel_error(const Eigen::VectorXd& x, const Eigen::VectorXd& ref) {
  return (x - ref).norm() / ref.norm();
}

/// Brute-force LCP: w = A mu + q, w >= 0, mu >= 0, w^T mu = 0, by enumerating the active sets
/// (k <= 10). Returns the first set whose solution is feasible within tol; throws if none is.
inline Eigen::VectorXd baraff_brute_force_lcp(const Eigen::MatrixXd& A, const Eigen::VectorXd& q, double tol = 1e-12) {
  const auto k = q.size();
  const double scale = std::max(A.cwiseAbs().maxCoeff(), q.cwiseAbs().maxCoeff());
  for (long mask = 0; mask < (1L << k); ++mask) {
    std::vector<Eigen::Index> S;
    for (Eigen::Index i = 0; i < k; ++i)
      if (mask & (1L << i)) S.push_back(i);
    Eigen::VectorXd mu = Eigen::VectorXd::Zero(k);
    if (!S.empty()) {
      Eigen::MatrixXd ASS(S.size(), S.size());
      Eigen::VectorXd qS(S.size());
      for (std::size_t r = 0; r < S.size(); ++r) {
        qS[r] = q[S[r]];
        for (std::size_t c = 0; c < S.size(); ++c) ASS(r, c) = A(S[r], S[c]);
      }
      const Eigen::VectorXd x = ASS.fullPivLu().solve(-qS);
      for (std::size_t r = 0; r < S.size(); ++r) mu[S[r]] = x[r];
    }
    const Eigen::VectorXd w = A * mu + q;
    if (mu.minCoeff() >= -tol * scale && w.minCoeff() >= -tol * scale) return mu;
  }
  throw std::runtime_error("baraff_brute_force_lcp: no feasible active set");
}

}  // namespace sinew::test
