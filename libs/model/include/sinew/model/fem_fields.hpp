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

/// Linear tetrahedra on particles with one constitutive model (linear, co-rotational, ARAP,
/// St. Venant-Kirchhoff or stable Neo-Hookean); conservative, K = the element Hessian.
class TetFemField final : public ForceField {
 public:
  /// A field of @p model with @p parameters (checked by lame_parameters()).
  TetFemField(MaterialModel model, const ElasticParameters& parameters);
  /// Adds a tetrahedron on particles @p nodes whose rest shape is their initial positions in
  /// @p system; throws sinew::Error naming the tetrahedron when a node is out of range or the
  /// rest shape is degenerate or inverted.
  void add(const MechanicalSystem& system, const std::array<Index, 4>& nodes);
  /// Adds a tetrahedron with given rest data.
  void add(const std::array<Index, 4>& nodes, const TetRest& rest);
  /// Number of tetrahedra.
  Index size() const { return static_cast<Index>(nodes_.size()); }

  std::string name() const override { return "tetrahedra"; }
  void check(const MechanicalSystem& system) const override;
  void layout(const MechanicalSystem& system, ElementLayout& out) const override;
  void add_forces(const SystemState& s, Eigen::VectorXd& f) const override;
  void stiffness_values(const SystemState& s, bool projected, double* values) const override;
  bool is_conservative() const override { return true; }
  double energy(const SystemState& s) const override;

 private:
  MaterialModel model_;
  LameParameters lame_;
  std::vector<std::array<Index, 4>> nodes_;  // (n_tets) particle indices
  std::vector<TetRest> rests_;               // (n_tets) rest data
};

/// Linear triangle membranes on particles with one membrane model (the MaterialModel names the
/// membrane version of the volumetric model, membrane_models.hpp); conservative.
class MembraneField final : public ForceField {
 public:
  /// A field of @p model with @p parameters.
  MembraneField(MaterialModel model, const ElasticParameters& parameters);
  /// Adds a triangle whose rest shape is the particles' initial positions; throws sinew::Error
  /// naming the triangle when a node is out of range or the rest triangle is degenerate.
  void add(const MechanicalSystem& system, const std::array<Index, 3>& nodes);

  std::string name() const override { return "membranes"; }
  void check(const MechanicalSystem& system) const override;
  void layout(const MechanicalSystem& system, ElementLayout& out) const override;
  void add_forces(const SystemState& s, Eigen::VectorXd& f) const override;
  void stiffness_values(const SystemState& s, bool projected, double* values) const override;
  bool is_conservative() const override { return true; }
  double energy(const SystemState& s) const override;

 private:
  MaterialModel model_;
  LameParameters lame_;
  std::vector<std::array<Index, 3>> nodes_;
  std::vector<TriRest> rests_;
};

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
