#include "sinew/constraints/natural_map.hpp"

#include <cfloat>

#include "sinew/core/error.hpp"

namespace sinew::constraints {

NaturalMapError natural_map_error(const DelassusProblem& problem, const Eigen::VectorXd& r) {
  require(r.size() == problem.rows(), [&] {
    return "natural_map_error: r must have " + std::to_string(problem.rows()) + " entries, got " +
           std::to_string(r.size());
  });
  problem.W.validate();  // the pattern the view below reads (the copy this replaced checked it too)
  const Eigen::VectorXd u = as_eigen(problem.W) * r + problem.q;
  return natural_map_error(problem, r, u);
}

NaturalMapError natural_map_error(const DelassusProblem& problem, const Eigen::VectorXd& r, const Eigen::VectorXd& u) {
  require(r.size() == problem.rows() && u.size() == problem.rows(),
          [&] { return "natural_map_error: r and u must have " + std::to_string(problem.rows()) + " entries"; });
  double sum = 0.0;
  Index row = 0;
  for (const ConstraintBlock& block : problem.blocks) {  // fixed order: deterministic sum
    const double* ub = u.data() + row;
    const double* rb = r.data() + row;
    switch (block.kind) {
      case BlockKind::kBilateral:
        sum += ub[0] * ub[0];
        break;
      case BlockKind::kUnilateral: {
        const double p = rb[0] - ub[0] > 0.0 ? rb[0] - ub[0] : 0.0;
        sum += (rb[0] - p) * (rb[0] - p);
        break;
      }
      case BlockKind::kContact:
        sum += contact_natural_map_squared(ub, rb, block.mu);
        break;
      case BlockKind::kContactBoxFriction:
        sum += box_contact_natural_map_squared(ub, rb, block.mu);
        break;
    }
    row += block_size(block.kind);
  }
  NaturalMapError e;
  e.absolute = std::sqrt(sum);
  e.norm_q = problem.q.norm();
  e.relative = std::fabs(e.norm_q) > DBL_EPSILON ? e.absolute / e.norm_q : e.absolute;  // Siconos' rule
  e.fclib_merit = e.absolute / (1.0 + std::sqrt(e.norm_q));
  return e;
}

}  // namespace sinew::constraints
