/// @file
/// @brief The ForceField interface: a batch of elements adding generalized forces, their
/// stiffness and damping as dense local blocks on velocity DOFs, and (when conservative) their
/// energy. The system sums the blocks with a reusable AssemblyPlan (compliant-constraints,
/// "assembly by shift matrices").
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "sinew/core/config.hpp"
#include "sinew/model/system_state.hpp"

namespace sinew::model {

class MechanicalSystem;

/// Where the dense local blocks of a force field land: element e covers the velocity DOFs
/// dofs[offsets[e] .. offsets[e + 1]) (repeats allowed, they are summed) and owns an n_e x n_e
/// row-major block of values.
struct ElementLayout {
  std::vector<Index> offsets{0};  ///< (n_elements + 1) offsets into dofs
  std::vector<Index> dofs;        ///< velocity DOFs of each element, concatenated

  /// Number of elements.
  Index size() const { return static_cast<Index>(offsets.size()) - 1; }
  /// Values of all blocks, sum_e n_e^2.
  std::size_t value_count() const;
  /// Appends an element covering @p element_dofs.
  void add(const std::vector<Index>& element_dofs);
};

/// Writes the dense square block @p B of one element row-major at @p values (the order of an
/// ElementLayout's block values) and returns the position after it.
double* write_element_block(const Eigen::MatrixXd& B, double* values);

/// A batch of force elements (springs, finite elements, gravity, damping). The system calls
/// layout() once to plan the sparsity pattern, then per evaluation the value methods, which
/// write blocks in layout order. Implementations throw sinew::Error from check() for bad
/// references; the evaluation methods may assume checked input.
class ForceField {
 public:
  virtual ~ForceField() = default;

  /// A short name for messages ("axial springs", "tetrahedra").
  virtual std::string name() const = 0;

  /// Throws sinew::Error naming the element and the bad reference when the field does not fit
  /// @p system (index out of range, a point on a missing body); called when the field is added.
  virtual void check(const MechanicalSystem& system) const = 0;

  /// The velocity DOFs of every element (fixed once the field is added).
  virtual void layout(const MechanicalSystem& system, ElementLayout& out) const = 0;

  /// Adds the generalized forces at @p s to @p f (size num_velocities()).
  virtual void add_forces(const SystemState& s, Eigen::VectorXd& f) const = 0;

  /// Writes the stiffness blocks K_e = -dF_e/dq (velocity space) in layout order into
  /// @p values (zeroed by the caller); with @p projected each block is positive semi-definite.
  virtual void stiffness_values(const SystemState& s, bool projected, double* values) const = 0;

  /// Writes the damping blocks D_e = -dF_e/du in layout order into @p values (zeroed by the
  /// caller; the default leaves them zero: no damping).
  virtual void damping_values(const SystemState& s, double* values) const;

  /// True when the field carries inertia (masses on mapped points, SOFA's "Mass" is such a field):
  /// its mass_values() blocks join the system's mass matrix.
  virtual bool has_mass() const { return false; }

  /// Writes the mass blocks in layout order into @p values (zeroed by the caller); throws
  /// sinew::Error unless has_mass().
  virtual void mass_values(const SystemState& s, double* values) const;

  /// Adds the velocity-product (fictitious) forces of the field's inertia, -J^T M Jdot u, to @p f
  /// (ForcePart::kGyroscopic; the default adds none).
  virtual void add_fictitious_forces(const SystemState& s, Eigen::VectorXd& f) const;

  /// True when the forces at zero velocity are -dV/dq of energy() (velocity terms pure damping).
  virtual bool is_conservative() const { return false; }

  /// Potential energy V at @p s; throws sinew::Error unless is_conservative().
  virtual double energy(const SystemState& s) const;
};

}  // namespace sinew::model
