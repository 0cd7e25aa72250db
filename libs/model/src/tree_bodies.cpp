#include "sinew/model/tree_bodies.hpp"

#include <algorithm>
#include <string>

#include "sinew/core/eigen_interop.hpp"
#include "sinew/core/error.hpp"

namespace sinew::model {

TreeBodies::TreeBodies(const KinematicTree& tree) : tree_(tree) {
  const Index n = tree.num_bodies();
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(n);
  joints_.resize(static_cast<std::size_t>(n));
  for (Index b = 0; b < n; ++b) {
    Vec3 x;
    Mat3 R;
    tree.body_pose(zero, b, x, R);
    const TreeBody& body = tree.body(b);
    system_.add_body(body.inertia, x, quat_from_rotation_matrix(R), body.name);
    std::vector<Index>& joints = joints_[static_cast<std::size_t>(b)];
    for (Index j = b; j >= 0; j = tree.body(j).parent) joints.push_back(j);
    std::reverse(joints.begin(), joints.end());  // ascending: parents are added before children
  }
}

void TreeBodies::check(const Eigen::VectorXd& q, const char* who) const {
  require(tree_.num_bodies() == system_.num_bodies(), [&] {
    return std::string("TreeBodies::") + who + ": the tree has " + std::to_string(tree_.num_bodies()) +
           " bodies, but had " + std::to_string(system_.num_bodies()) +
           " when its TreeBodies were made; make them after the last add_body()";
  });
  require(q.size() == tree_.num_positions(), [&] {
    return std::string("TreeBodies::") + who + ": q has " + std::to_string(q.size()) + " entries, expected " +
           std::to_string(tree_.num_positions()) + " (one per joint)";
  });
}

void TreeBodies::full_positions(double /*t*/, const Eigen::VectorXd& q, Eigen::VectorXd& q_full) const {
  check(q, "full_positions");
  tree_.frames(q, x_, R_, S_);
  q_full.resize(system_.num_positions());
  for (Index b = 0; b < system_.num_bodies(); ++b) {
    const auto k = static_cast<std::size_t>(b);
    const Quaternion r = quat_from_rotation_matrix(R_[k]);
    const Index o = system_.body_position_offset(b);
    for (int c = 0; c < 3; ++c) q_full[o + c] = x_[k][c];
    q_full[o + 3] = r.s;
    for (int c = 0; c < 3; ++c) q_full[o + 4 + c] = r.v[c];
  }
}

void TreeBodies::full_velocities(double /*t*/, const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                                 Eigen::VectorXd& u_full) const {
  check(q, "full_velocities");
  require(u.size() == tree_.num_velocities(), [&] {
    return "TreeBodies::full_velocities: u has " + std::to_string(u.size()) + " entries, expected " +
           std::to_string(tree_.num_velocities()) + " (one per joint)";
  });
  tree_.frames(q, x_, R_, S_);
  // Twists about the world origin add down the tree, V_b = V_parent + S_b u_b; the origin of
  // body b then moves at V.v + V.w x x_b.
  twist_.resize(S_.size());
  u_full.resize(system_.num_velocities());
  for (Index b = 0; b < system_.num_bodies(); ++b) {
    const auto k = static_cast<std::size_t>(b);
    const Index parent = tree_.body(b).parent;
    twist_[k] = S_[k] * u[b];
    if (parent >= 0) twist_[k] += twist_[static_cast<std::size_t>(parent)];
    const Eigen::Vector3d w = twist_[k].tail<3>();
    const Index o = system_.body_velocity_offset(b);
    u_full.segment<3>(o) = twist_[k].head<3>() + w.cross(to_eigen(x_[k]));
    u_full.segment<3>(o + 3) = w;
  }
}

void TreeBodies::driven_velocities(double /*t*/, const Eigen::VectorXd& q, Eigen::VectorXd& s) const {
  check(q, "driven_velocities");
  s.setZero(system_.num_velocities());
}

void TreeBodies::reduction_matrix(double /*t*/, const Eigen::VectorXd& q, CsrMatrix& T) const {
  check(q, "reduction_matrix");
  tree_.frames(q, x_, R_, S_);
  T.rows = system_.num_velocities();
  T.cols = tree_.num_velocities();
  T.row_ptr.assign(1, 0);
  T.col_idx.clear();
  T.values.clear();
  for (Index b = 0; b < system_.num_bodies(); ++b) {
    const std::vector<Index>& joints = joints_[static_cast<std::size_t>(b)];
    const Eigen::Vector3d p = to_eigen(x_[static_cast<std::size_t>(b)]);
    for (int r = 0; r < 6; ++r) {
      for (Index j : joints) {
        // Joint j moves body b's origin p at S_j.v + S_j.w x p and turns it at S_j.w.
        const Eigen::Matrix<double, 6, 1>& S = S_[static_cast<std::size_t>(j)];
        T.col_idx.push_back(j);
        T.values.push_back(r < 3 ? S[r] + S.tail<3>().cross(p)[r] : S[r]);
      }
      T.row_ptr.push_back(static_cast<Index>(T.col_idx.size()));
    }
  }
}

}  // namespace sinew::model
