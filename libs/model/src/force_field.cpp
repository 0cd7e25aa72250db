#include "sinew/model/force_field.hpp"

#include "sinew/core/error.hpp"

namespace sinew::model {

std::size_t ElementLayout::value_count() const {
  std::size_t n = 0;
  for (std::size_t e = 0; e + 1 < offsets.size(); ++e) {
    const std::size_t m = static_cast<std::size_t>(offsets[e + 1] - offsets[e]);
    n += m * m;
  }
  return n;
}

void ElementLayout::add(const std::vector<Index>& element_dofs) {
  dofs.insert(dofs.end(), element_dofs.begin(), element_dofs.end());
  offsets.push_back(static_cast<Index>(dofs.size()));
}

double* write_element_block(const Eigen::MatrixXd& B, double* values) {
  for (Eigen::Index r = 0; r < B.rows(); ++r)
    for (Eigen::Index c = 0; c < B.cols(); ++c) *values++ = B(r, c);
  return values;
}

void ForceField::damping_values(const SystemState& /*s*/, double* /*values*/) const {}

void ForceField::mass_values(const SystemState& /*s*/, double* /*values*/) const {
  throw Error("ForceField::mass_values: the force field '" + name() + "' carries no mass (has_mass() is false)");
}

void ForceField::add_fictitious_forces(const SystemState& /*s*/, Eigen::VectorXd& /*f*/) const {}

double ForceField::energy(const SystemState& /*s*/) const {
  throw Error("ForceField::energy: the force field '" + name() + "' is not conservative (is_conservative() is false)");
}

}  // namespace sinew::model
