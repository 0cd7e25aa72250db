// LocalGlobalOptions' checks and the global step's and bending models' names (kept apart from local_global.cpp, the
// integrator's setup and step, to keep each file to one concept).
#include <cmath>
#include <cstdio>
#include <string>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/integrators/local_global.hpp"

namespace sinew::integrators {

namespace {}  // namespace

const char* global_step_name(GlobalStepKind kind) {
  switch (kind) {
    case GlobalStepKind::kSparseInverse:
      return "sparse_inverse";
    case GlobalStepKind::kCholmod:
      return "cholmod";
    case GlobalStepKind::kJacobi:
      return "jacobi";
  }
  return "unknown";
}

const char* bending_model_name(BendingModel model) {
  switch (model) {
    case BendingModel::kNone:
      return "none";
    case BendingModel::kQuadratic:
      return "quadratic";
    case BendingModel::kLaplaceBeltrami:
      return "laplace_beltrami";
  }
  return "unknown";
}

void LocalGlobalOptions::validate() const {
  require(iterations >= 1, "LocalGlobalOptions: iterations must be >= 1, got " + std::to_string(iterations));
  require(global_step == GlobalStepKind::kSparseInverse || global_step == GlobalStepKind::kCholmod ||
              global_step == GlobalStepKind::kJacobi,
          "LocalGlobalOptions: global_step must be kSparseInverse, kCholmod or kJacobi");
  require(jacobi_iterations >= 1,
          "LocalGlobalOptions: jacobi_iterations must be >= 1, got " + std::to_string(jacobi_iterations));
  require(std::isfinite(jacobi_relaxation) && jacobi_relaxation >= 0.0 && jacobi_relaxation <= 1.0,
          "LocalGlobalOptions: jacobi_relaxation must lie in [0, 1] (0 = automatic), got " +
              number_text(jacobi_relaxation));
  require(std::isfinite(neo_hookean_weight) && neo_hookean_weight > 0.0,
          "LocalGlobalOptions: neo_hookean_weight must be finite and > 0, got " + number_text(neo_hookean_weight));
  require(std::isfinite(neo_hookean_weight_floor) && neo_hookean_weight_floor >= 0.0,
          "LocalGlobalOptions: neo_hookean_weight_floor must be finite and >= 0, got " +
              number_text(neo_hookean_weight_floor));
  require(contact.function == constraints::NcpFunction::kFischerBurmeister ||
              contact.function == constraints::NcpFunction::kMinMap,
          "LocalGlobalOptions: contact.function must be kFischerBurmeister or kMinMap");
  require(contact.solve == ContactSolve::kAuto || contact.solve == ContactSolve::kConverged ||
              contact.solve == ContactSolve::kSeedSteps,
          "LocalGlobalOptions: contact.solve must be kAuto, kConverged or kSeedSteps");
  require(std::isfinite(contact.tolerance) && contact.tolerance >= 0.0,
          "LocalGlobalOptions: contact.tolerance must be finite and >= 0, got " + number_text(contact.tolerance));
  require(contact.max_newton_steps >= 1,
          "LocalGlobalOptions: contact.max_newton_steps must be >= 1, got " + std::to_string(contact.max_newton_steps));
  require(contact.cr_iterations >= 1,
          "LocalGlobalOptions: contact.cr_iterations must be >= 1, got " + std::to_string(contact.cr_iterations));
  require(contact.newton_steps >= 1,
          "LocalGlobalOptions: contact.newton_steps must be >= 1, got " + std::to_string(contact.newton_steps));
  require(contact.warn_error >= 0.0,
          "LocalGlobalOptions: contact.warn_error must be >= 0 (or +inf), got " + number_text(contact.warn_error));
  require(contact.preconditioner == ContactPreconditioner::kDelassusDiagonal ||
              contact.preconditioner == ContactPreconditioner::kMassInverse,
          "LocalGlobalOptions: contact.preconditioner must be kDelassusDiagonal or kMassInverse");
  require(contact.schur == SchurAssembly::kAuto || contact.schur == SchurAssembly::kSparse ||
              contact.schur == SchurAssembly::kDense,
          "LocalGlobalOptions: contact.schur must be kAuto, kSparse or kDense");
  require(contact.delassus == DelassusForm::kAuto || contact.delassus == DelassusForm::kExplicit ||
              contact.delassus == DelassusForm::kOperator,
          "LocalGlobalOptions: contact.delassus must be kAuto, kExplicit or kOperator");
}

}  // namespace sinew::integrators
