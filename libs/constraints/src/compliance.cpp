#include "sinew/constraints/compliance.hpp"

#include <cmath>

#include "sinew/core/error.hpp"

namespace sinew::constraints {

CompliantTerms compliant_terms(const CompliantRow& row) {
  require(std::isfinite(row.compliance) && row.compliance >= 0.0,
          "compliant_terms: compliance must be finite and >= 0");
  require(std::isfinite(row.damping) && row.damping >= 0.0, "compliant_terms: damping must be finite and >= 0");
  require(std::isfinite(row.phi) && std::isfinite(row.phidot), "compliant_terms: phi and phidot must be finite");
  require(std::isfinite(row.time_step) && row.time_step > 0.0, "compliant_terms: time_step must be finite and > 0");
  require(row.alpha > 0.0 && row.alpha <= 1.0 && row.beta > 0.0 && row.beta <= 1.0,
          "compliant_terms: alpha and beta must lie in (0, 1]");
  CompliantTerms terms;
  if (row.compliance == 0.0) return terms;  // hard row: u = 0
  const double l = row.alpha * (row.time_step * row.beta + row.damping);
  terms.regularization = row.compliance / (row.time_step * l);
  terms.shift = (row.phi + (row.damping + row.alpha * row.time_step) * row.phidot) / l - row.phidot;
  return terms;
}

void add_compliance(DelassusProblem& problem, Index i, const CompliantRow& row) {
  require(i >= 0 && i < problem.rows(),
          [&] { return "add_compliance: row " + std::to_string(i) + " is out of range"; });
  const std::vector<Index> offsets = block_offsets(problem.blocks);
  bool bilateral = false;
  for (std::size_t b = 0; b < problem.blocks.size(); ++b)
    if (offsets[b] == i) bilateral = problem.blocks[b].kind == BlockKind::kBilateral;
  require(bilateral, [&] { return "add_compliance: row " + std::to_string(i) + " is not a bilateral block"; });
  const CompliantTerms terms = compliant_terms(row);
  for (Index k = problem.W.row_ptr[i]; k < problem.W.row_ptr[i + 1]; ++k) {
    if (problem.W.col_idx[k] == i) {
      problem.W.values[k] += terms.regularization;
      problem.q[i] += terms.shift;
      return;
    }
  }
  throw Error("add_compliance: W has no stored diagonal entry (" + std::to_string(i) + ", " + std::to_string(i) + ")");
}

}  // namespace sinew::constraints
