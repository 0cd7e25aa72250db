/// @file
/// @brief Mappings from the generalized coordinates of a MechanicalSystem to derived coordinates
/// (compliant-constraints "mappings" and "multimappings": a child state x = g(q) with velocity
/// Jacobian J = dg/dq so that v = J u, forces map back by J^T): component subsets, points fixed
/// in bodies, barycentric points, and points combining several components.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "sinew/core/config.hpp"
#include "sinew/linalg/csr_matrix.hpp"
#include "sinew/model/system_state.hpp"

namespace sinew::model {

class MechanicalSystem;

/// A map x = g(q) from a system's positions to derived coordinates with velocity Jacobian
/// J(q) (output_velocity_size() x num_velocities(), v = J u) and the velocity-product term
/// Jdot u of the derived acceleration a = J udot + Jdot u. Public methods check sizes and
/// evaluate the system state; protected virtual do_* methods do the work. They throw
/// sinew::Error (MechanicalSystem::evaluate_state()) when q or u has the wrong size or a body
/// quaternion is not unit.
class Mapping {
 public:
  virtual ~Mapping() = default;

  /// Number of derived position coordinates.
  virtual Index output_size() const = 0;
  /// Number of derived velocity coordinates (rows of J).
  virtual Index output_velocity_size() const = 0;

  /// x = g(q) (size output_size()).
  void apply(const Eigen::VectorXd& q, Eigen::VectorXd& x) const;
  /// J(q) as CSR (output_velocity_size() x num_velocities()).
  void jacobian(const Eigen::VectorXd& q, CsrMatrix& J) const;
  /// Jdot(q, u) u, the part of the derived acceleration not proportional to udot.
  void jacobian_rate_times(const Eigen::VectorXd& q, const Eigen::VectorXd& u, Eigen::VectorXd& a) const;

  /// The system the mapping reads.
  const MechanicalSystem& system() const { return system_; }

 protected:
  /// A mapping of @p system, which must outlive it.
  explicit Mapping(const MechanicalSystem& system) : system_(system) {}
  /// apply() on an evaluated state.
  virtual void do_apply(const SystemState& s, Eigen::VectorXd& x) const = 0;
  /// jacobian() on an evaluated state.
  virtual void do_jacobian(const SystemState& s, CsrMatrix& J) const = 0;
  /// jacobian_rate_times() on an evaluated state.
  virtual void do_jacobian_rate_times(const SystemState& s, Eigen::VectorXd& a) const = 0;

 private:
  const MechanicalSystem& system_;
};

/// A subset of components: x = their positions (3 per particle, 7 per body), J selects their
/// velocities (3 or 6 rows each). Fixed DOFs are the complement of such a subset.
class SubsetMapping final : public Mapping {
 public:
  /// The particles @p particles then the bodies @p bodies of @p system (indices checked).
  SubsetMapping(const MechanicalSystem& system, std::vector<Index> particles, std::vector<Index> bodies);
  Index output_size() const override;
  Index output_velocity_size() const override;

 protected:
  void do_apply(const SystemState& s, Eigen::VectorXd& x) const override;
  void do_jacobian(const SystemState& s, CsrMatrix& J) const override;
  void do_jacobian_rate_times(const SystemState& s, Eigen::VectorXd& a) const override;

 private:
  std::vector<Index> particles_, bodies_;
};

/// One term w * point of a mapped point.
struct WeightedPoint {
  PointRef point;  ///< a particle, a body marker or a world point
  double weight;   ///< its weight
};

/// A derived point x = sum_k w_k x_k, a weighted sum of points on any components: one term on a
/// body is a rigid point (mechanics notes eq. 0.36), terms on particles with weights summing to
/// one a barycentric point, mixed terms a multimapping over several components.
using MappedPoint = std::vector<WeightedPoint>;

/// A point fixed in body @p b at body coordinates @p local.
MappedPoint rigid_point(Index b, const Vec3& local);
/// The barycentric point sum_k weights[k] x_{particles[k]} (a point in a triangle or tet).
MappedPoint barycentric_point(const std::vector<Index>& particles, const std::vector<double>& weights);

/// Mapped points: x (3 per point) = sum_k w_k x_k, J rows sum_k w_k J_k with J_k = I for a
/// particle and [I, -[R p]] for a body marker; Jdot u = sum_k w_k w x (w x R p) over markers.
class PointMapping final : public Mapping {
 public:
  /// The points @p points of @p system (every reference checked, none empty).
  PointMapping(const MechanicalSystem& system, std::vector<MappedPoint> points);
  Index output_size() const override { return 3 * static_cast<Index>(points_.size()); }
  Index output_velocity_size() const override { return output_size(); }

 protected:
  void do_apply(const SystemState& s, Eigen::VectorXd& x) const override;
  void do_jacobian(const SystemState& s, CsrMatrix& J) const override;
  void do_jacobian_rate_times(const SystemState& s, Eigen::VectorXd& a) const override;

 private:
  std::vector<MappedPoint> points_;
};

/// A frame fixed in a body: its origin @p p and orientation @p r (frame to body) in body
/// coordinates.
struct BodyFrame {
  Index body;    ///< the body carrying the frame
  Vec3 p;        ///< frame origin, body coordinates
  Quaternion r;  ///< frame orientation relative to the body (unit)
};

/// A chain body -> frame -> frame as one frame of the body: the frame with origin @p p and
/// orientation @p r in @p parent's coordinates is the frame (parent.p + R(parent.r) p,
/// parent.r r) of parent's body. Its twist is the parent frame's shifted by the world offset d
/// between the origins, [I, -[d]; 0, I] (mechanics notes eq. 0.41), which FrameMapping's J of the
/// composed frame is. @throws sinew::Error unless @p r is unit within 1e-9.
BodyFrame frame_in_frame(const BodyFrame& parent, const Vec3& p, const Quaternion& r);

/// A chain body -> frame -> point as one rigid point: the point at @p local in @p frame's
/// coordinates, fixed in its body at frame.p + R(frame.r) local (a marker on a tool frame).
MappedPoint frame_point(const BodyFrame& frame, const Vec3& local);

/// Frames fixed in bodies (joint frames): x = 7 per frame (origin x_b + R p, then the quaternion
/// q_b r), velocity = the frame's world twist (v + w x R p, w), J rows [I, -[R p]; 0, I], and
/// Jdot u = (w x (w x R p), 0) (mechanics notes sec. 0.22, eq. 0.41-0.42).
class FrameMapping final : public Mapping {
 public:
  /// The frames @p frames of @p system (bodies checked, orientations unit within 1e-9).
  FrameMapping(const MechanicalSystem& system, std::vector<BodyFrame> frames);
  Index output_size() const override { return 7 * static_cast<Index>(frames_.size()); }
  Index output_velocity_size() const override { return 6 * static_cast<Index>(frames_.size()); }

 protected:
  void do_apply(const SystemState& s, Eigen::VectorXd& x) const override;
  void do_jacobian(const SystemState& s, CsrMatrix& J) const override;
  void do_jacobian_rate_times(const SystemState& s, Eigen::VectorXd& a) const override;

 private:
  std::vector<BodyFrame> frames_;
};

}  // namespace sinew::model
