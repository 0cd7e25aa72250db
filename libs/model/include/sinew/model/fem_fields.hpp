/// @file
/// @brief Finite-element force fields on particles: linear tetrahedra with any volumetric model,
/// triangle membranes with any membrane model, and quadratic hinge bending, each from the
/// materials library's per-element energy, gradient and (projected) Hessian.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "sinew/materials/elastic_parameters.hpp"
#include "sinew/materials/material.hpp"
#include "sinew/materials/quadratic_bending.hpp"
#include "sinew/materials/tetrahedron.hpp"
#include "sinew/materials/triangle.hpp"
#include "sinew/model/force_field.hpp"

namespace sinew::model {

/// The tetrahedra of TetFemField: 4 nodes, tetrahedron rest data.
struct TetElements {
  static constexpr int kNodes = 4;  ///< nodes per element
  using Rest = TetRest;             ///< rest data per element
};

/// The triangles of MembraneField: 3 nodes, triangle rest data.
struct MembraneElements {
  static constexpr int kNodes = 3;  ///< nodes per element
  using Rest = TriRest;             ///< rest data per element
};

/// Linear finite elements of one kind (TetElements, MembraneElements) on particles with one
/// constitutive model; conservative, K = the element Hessian (its PSD projection when asked).
/// One template for both kinds: the materials library's per-element energy, gradient and Hessian
/// of the kind, looped over the elements.
template <class Elements>
class FemField final : public ForceField {
 public:
  /// Node indices of one element.
  using Nodes = std::array<Index, Elements::kNodes>;
  /// A field of @p model with @p parameters (checked by lame_parameters()); for membranes the
  /// MaterialModel names the membrane version of the volumetric model (membrane_models.hpp).
  FemField(MaterialModel model, const ElasticParameters& parameters);
  /// Adds an element on particles @p nodes whose rest shape is their initial positions in
  /// @p system; throws sinew::Error naming the element when a node is out of range or the rest
  /// shape is degenerate (or, for a tetrahedron, inverted).
  void add(const MechanicalSystem& system, const Nodes& nodes);
  /// Adds an element with given rest data.
  void add(const Nodes& nodes, const typename Elements::Rest& rest);
  /// Number of elements.
  Index size() const { return static_cast<Index>(nodes_.size()); }
  std::string name() const override;
  void check(const MechanicalSystem& system) const override;
  void layout(const MechanicalSystem& system, ElementLayout& out) const override;
  void add_forces(const SystemState& s, Eigen::VectorXd& f) const override;
  void stiffness_values(const SystemState& s, bool projected, double* values) const override;
  bool is_conservative() const override { return true; }
  double energy(const SystemState& s) const override;

 private:
  MaterialModel model_;
  LameParameters lame_;
  std::vector<Nodes> nodes_;                    // (n_elements) particle indices
  std::vector<typename Elements::Rest> rests_;  // (n_elements) rest data
};

/// Linear tetrahedra on particles with one constitutive model (linear, co-rotational, ARAP,
/// St. Venant-Kirchhoff or stable Neo-Hookean).
using TetFemField = FemField<TetElements>;

/// Linear triangle membranes on particles with one membrane model.
using MembraneField = FemField<MembraneElements>;

extern template class FemField<TetElements>;
extern template class FemField<MembraneElements>;

/// Quadratic (isometric) bending hinges on particles (Bergou et al. 2006, materials'
/// quadratic_bending.hpp): edge (x0, x1) shared by triangles (x0, x1, x2) and (x0, x1, x3).
class BendingField final : public ForceField {
 public:
  /// Adds a hinge with bending stiffness @p stiffness (>= 0), rest shape from the particles'
  /// initial positions (flat rest state assumed, as the energy is). Throws sinew::Error naming the
  /// hinge for a negative or non-finite stiffness, a node out of range or a degenerate triangle.
  void add(const MechanicalSystem& system, const std::array<Index, 4>& nodes, double stiffness);

  std::string name() const override { return "bending hinges"; }
  void check(const MechanicalSystem& system) const override;
  void layout(const MechanicalSystem& system, ElementLayout& out) const override;
  void add_forces(const SystemState& s, Eigen::VectorXd& f) const override;
  void stiffness_values(const SystemState& s, bool projected, double* values) const override;
  bool is_conservative() const override { return true; }
  double energy(const SystemState& s) const override;

 private:
  std::vector<std::array<Index, 4>> nodes_;
  std::vector<BendingHinge> hinges_;
  std::vector<double> stiffness_;
};

}  // namespace sinew::model
