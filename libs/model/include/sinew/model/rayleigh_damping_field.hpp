/// @file
/// @brief Rayleigh damping as a force field: D = alpha M + beta K with M the mass of every
/// particle and body and K the projected stiffness of chosen force fields (materials'
/// rayleigh_damping.hpp; the damping matrix D of the theta-method and artisynth integrators).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sinew/materials/rayleigh_damping.hpp"
#include "sinew/model/force_field.hpp"

namespace sinew::model {

/// Damping force f = -(alpha M(q) + beta K_psd(q)) u. The stiffness part damps only the chosen
/// fields (which must also be added to the system to act elastically); K_psd is their projected
/// stiffness so D stays PSD. Its stiffness K = -df/dq holds the exact q-dependence of the mass
/// term (a rotating body's world inertia) but neglects that of K_psd (exact for linear
/// elasticity and springs at fixed direction, the usual Rayleigh approximation otherwise).
class RayleighDampingField final : public ForceField {
 public:
  /// Damping of @p system with coefficients @p coefficients (checked by validate()); beta acts
  /// on the stiffness of @p fields. The system must outlive the field.
  RayleighDampingField(const MechanicalSystem& system, const RayleighDamping& coefficients,
                       std::vector<std::shared_ptr<const ForceField>> fields);

  std::string name() const override { return "Rayleigh damping"; }
  void check(const MechanicalSystem& system) const override;
  void layout(const MechanicalSystem& system, ElementLayout& out) const override;
  void add_forces(const SystemState& s, Eigen::VectorXd& f) const override;
  void stiffness_values(const SystemState& s, bool projected, double* values) const override;
  void damping_values(const SystemState& s, double* values) const override;
  bool is_conservative() const override { return true; }  // pure damping: V = 0
  double energy(const SystemState& /*s*/) const override { return 0.0; }

 private:
  const MechanicalSystem& system_;
  RayleighDamping c_;
  std::vector<std::shared_ptr<const ForceField>> fields_;
  void ensure_layout() const;
  // Cached by layout() (the layout of a field never changes once added to a system).
  mutable ElementLayout layout_;                   // the fields' elements, then one per particle and body
  mutable std::vector<std::size_t> field_values_;  // (fields) number of block values of each field
};

}  // namespace sinew::model
