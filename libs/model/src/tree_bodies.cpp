#include "sinew/model/tree_bodies.hpp"

#include <algorithm>
#include <string>

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
  q_full.resize(system_.num_positions());
  for (Index b = 0; b < system_.num_bodies(); ++b) {
    Vec3 x;
    Mat3 R;
    tree_.body_pose(q, b, x, R);
    const Quaternion r = quat_from_rotation_matrix(R);
    const Index o = system_.body_position_offset(b);
    for (int c = 0; c < 3; ++c) q_full[o + c] = x[c];
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
  u_full.resize(system_.num_velocities());
  for (Index b = 0; b < system_.num_bodies(); ++b) {
    tree_.point_jacobian(q, b, Vec3{{0, 0, 0}}, jacobian_);
    u_full.segment<6>(system_.body_velocity_offset(b)) = jacobian_ * u;
  }
}

void TreeBodies::reduction_matrix(double /*t*/, const Eigen::VectorXd& q, CsrMatrix& T) const {
  check(q, "reduction_matrix");
  const Index n = system_.num_bodies();
  T.rows = system_.num_velocities();
  T.cols = tree_.num_velocities();
  T.row_ptr.assign(1, 0);
  T.col_idx.clear();
  T.values.clear();
  for (Index b = 0; b < n; ++b) {
    tree_.point_jacobian(q, b, Vec3{{0, 0, 0}}, jacobian_);
    for (int r = 0; r < 6; ++r) {
      for (Index j : joints_[static_cast<std::size_t>(b)]) {
        T.col_idx.push_back(j);
        T.values.push_back(jacobian_(r, j));
      }
      T.row_ptr.push_back(static_cast<Index>(T.col_idx.size()));
    }
  }
}

}  // namespace sinew::model
