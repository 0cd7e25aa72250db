// Auxiliary constraints by constraint anticipation (Baraff, Section 8): the k x k matrix
// J^a M_hat^-1 K of eq. (12) from one sparse solve per row, and the solve of Section 8.2.
#include <algorithm>
#include <cmath>
#include <string>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/linalg/baraff_solver.hpp"

namespace sinew {

void BaraffSolver::factor_auxiliary(const BaraffProblem& problem) {
  const auto& rows = problem.auxiliary();
  const int k = problem.num_auxiliary();
  // Flatten J^a and K so that the per-solve loops touch contiguous memory only.
  aux_row_ptr_.assign(1, 0);
  aux_body_.clear();
  aux_value_ptr_.assign(1, 0);
  aux_jacobian_.clear();
  aux_force_.clear();
  for (const BaraffAuxiliaryConstraint& row : rows) {
    for (const BaraffAuxiliaryBlock& blk : row.blocks) {
      aux_body_.push_back(blk.body);
      for (Eigen::Index i = 0; i < blk.jacobian.size(); ++i) {
        aux_jacobian_.push_back(blk.jacobian[i]);
        aux_force_.push_back(blk.force.size() == 0 ? blk.jacobian[i] : blk.force[i]);  // workless: k_i = J^a_i^T
      }
      aux_value_ptr_.push_back(static_cast<int>(aux_jacobian_.size()));
    }
    aux_row_ptr_.push_back(static_cast<int>(aux_body_.size()));
  }
  aux_matrix_.resize(k, k);
  if (k == 0) return;

  // Column j of M_hat^-1 K is the motion caused by the force k_j with the primary constraints
  // holding (Section 8.1): H (y; lambda) = (k_j; 0), one O(n) sparse solve. Only J^a y is kept.
  BaraffWorkspace ws;
  prepare_workspace(ws);
  Eigen::VectorXd& x = ws.x_;
  Eigen::VectorXd column(num_dofs_);
  for (int j = 0; j < k; ++j) {
    x.setZero();
    for (int t = aux_row_ptr_[j]; t < aux_row_ptr_[j + 1]; ++t) {
      const int xo = x_offset_[position_[aux_body_[t]]];
      for (int i = aux_value_ptr_[t]; i < aux_value_ptr_[t + 1]; ++i) x[xo + i - aux_value_ptr_[t]] = aux_force_[i];
    }
    sparse_solve(ws);
    for (int b = 0; b < num_bodies_; ++b) {
      const int d = body_offset_[b + 1] - body_offset_[b];
      column.segment(body_offset_[b], d) = x.segment(x_offset_[position_[b]], d);
    }
    for (int i = 0; i < k; ++i) aux_matrix_(i, j) = auxiliary_row_dot(i, column.data());
  }
  if (!aux_matrix_.allFinite())
    throw Error("BaraffSolver::factor: the auxiliary matrix J^a M_hat^-1 K of eq. (12) is not finite");

  aux_method_ = options_.auxiliary_method;
  if (aux_method_ == BaraffAuxiliaryMethod::kAuto)
    aux_method_ = problem.auxiliary_workless() ? BaraffAuxiliaryMethod::kLdlt : BaraffAuxiliaryMethod::kPartialPivLu;
  // rcond() estimates through solves, which skip exactly zero pivots (LDLT's pseudo-inverse), so
  // the ratio of the smallest to the largest pivot bounds it too: an exactly repeated row gives
  // an exactly zero pivot.
  Eigen::VectorXd pivots;
  if (aux_method_ == BaraffAuxiliaryMethod::kLdlt) {
    aux_ldlt_.compute(aux_matrix_);  // reads the lower triangle: right only for symmetric (workless) rows
    aux_rcond_ = aux_ldlt_.rcond();
    pivots = aux_ldlt_.vectorD().cwiseAbs();
  } else {
    aux_lu_.compute(aux_matrix_);
    aux_rcond_ = aux_lu_.rcond();
    pivots = aux_lu_.matrixLU().diagonal().cwiseAbs();
  }
  const double largest = pivots.maxCoeff();
  aux_rcond_ = std::min(aux_rcond_, largest > 0.0 ? pivots.minCoeff() / largest : 0.0);
  if (!std::isfinite(aux_rcond_)) aux_rcond_ = 0.0;
}

// J^a_row v for v in natural numbering (only the row's blocks are read).
double BaraffSolver::auxiliary_row_dot(int row, const double* velocity) const {
  double s = 0.0;
  for (int t = aux_row_ptr_[row]; t < aux_row_ptr_[row + 1]; ++t) {
    const double* v = velocity + body_offset_[aux_body_[t]];
    for (int i = aux_value_ptr_[t]; i < aux_value_ptr_[t + 1]; ++i) s += aux_jacobian_[i] * v[i - aux_value_ptr_[t]];
  }
  return s;
}

// x = (K mu; 0) in elimination order.
void BaraffSolver::scatter_auxiliary_force(const double* mu, double* x) const {
  const int k = num_auxiliary();
  for (Eigen::Index i = 0; i < num_dofs_ + num_multipliers_; ++i) x[i] = 0.0;
  for (int j = 0; j < k; ++j)
    for (int t = aux_row_ptr_[j]; t < aux_row_ptr_[j + 1]; ++t) {
      double* xb = x + x_offset_[position_[aux_body_[t]]];
      for (int i = aux_value_ptr_[t]; i < aux_value_ptr_[t + 1]; ++i)
        xb[i - aux_value_ptr_[t]] += mu[j] * aux_force_[i];
    }
}

const Eigen::VectorXd& BaraffSolver::auxiliary_rhs(const Eigen::Ref<const Eigen::VectorXd>& force,
                                                   const Eigen::Ref<const Eigen::VectorXd>& bias,
                                                   const Eigen::Ref<const Eigen::VectorXd>& aux_bias,
                                                   BaraffWorkspace& ws) const {
  const int k = num_auxiliary();
  check_rhs(force, bias, "BaraffSolver::auxiliary_rhs");
  if (aux_bias.size() != k)
    throw Error("BaraffSolver: aux_bias must have one entry per auxiliary constraint (" + std::to_string(k) +
                "), got " + std::to_string(aux_bias.size()));
  prepare_workspace(ws);
  if (ws.free_velocity_.size() != num_dofs_) ws.free_velocity_.resize(num_dofs_);
  if (ws.free_lambda_.size() != num_multipliers_) ws.free_lambda_.resize(num_multipliers_);
  if (ws.q_.size() != k) ws.q_.resize(k);
  ws.aux_bias_ = aux_bias;  // same size after the first call: no allocation
  // Section 8.2 step 2: the motion without auxiliary forces, v^aux (Section 8.1), and its lambda.
  scatter_natural(force.data(), bias.data(), ws.x_.data());
  sparse_solve(ws);
  gather_natural(ws.x_.data(), ws.free_velocity_.data(), ws.free_lambda_.data());
  // The constant term of eq. (12): J^a v^aux + c^a.
  for (int i = 0; i < k; ++i) ws.q_[i] = auxiliary_row_dot(i, ws.free_velocity_.data()) + aux_bias[i];
  ws.prepared_for_ = factor_id_;
  return ws.q_;
}

void BaraffSolver::finish(const Eigen::Ref<const Eigen::VectorXd>& mu, BaraffWorkspace& ws, BaraffSolution& out) const {
  const int k = num_auxiliary();
  check_factored("BaraffSolver::finish");
  if (ws.prepared_for_ != factor_id_)
    throw Error(
        "BaraffSolver::finish: the workspace was not prepared by auxiliary_rhs() of this solver's current "
        "factorization");
  if (mu.size() != k)
    throw Error("BaraffSolver::finish: mu must have one entry per auxiliary constraint (" + std::to_string(k) +
                "), got " + std::to_string(mu.size()));
  if (!mu.allFinite()) throw Error("BaraffSolver::finish: mu has a non-finite entry");
  if (out.acceleration.size() != num_dofs_) out.acceleration.resize(num_dofs_);
  if (out.lambda.size() != num_multipliers_) out.lambda.resize(num_multipliers_);
  if (out.mu.size() != k) out.mu.resize(k);
  if (out.aux_value.size() != k) out.aux_value.resize(k);
  out.mu = mu;
  // Section 8.2 step 5 by linearity: the response to K mu with the primary constraints holding
  // (H (y; dlambda) = (K mu; 0)), added to the free motion of step 2.
  scatter_auxiliary_force(out.mu.data(), ws.x_.data());
  sparse_solve(ws);
  gather_natural(ws.x_.data(), out.acceleration.data(), out.lambda.data());
  out.acceleration += ws.free_velocity_;
  out.lambda += ws.free_lambda_;
  for (int i = 0; i < k; ++i) out.aux_value[i] = auxiliary_row_dot(i, out.acceleration.data()) + ws.aux_bias_[i];
  ws.prepared_for_ = 0;  // the kept state belongs to this right-hand side only
}

void BaraffSolver::solve(const Eigen::Ref<const Eigen::VectorXd>& force, const Eigen::Ref<const Eigen::VectorXd>& bias,
                         const Eigen::Ref<const Eigen::VectorXd>& aux_bias, BaraffWorkspace& ws,
                         BaraffSolution& out) const {
  const int k = num_auxiliary();
  const Eigen::VectorXd& q = auxiliary_rhs(force, bias, aux_bias, ws);
  if (ws.negative_q_.size() != k) ws.negative_q_.resize(k);
  if (out.mu.size() != k) out.mu.resize(k);
  ws.negative_q_ = -q;
  // Section 8.2 step 4 for equality rows: a = A mu + q = 0.
  if (k > 0) {
    if (!(aux_rcond_ >= options_.auxiliary_min_rcond))
      throw Error("BaraffSolver::solve: the " + std::to_string(k) + " x " + std::to_string(k) +
                  " auxiliary matrix of eq. (12) is singular to working precision (reciprocal condition estimate " +
                  number_text(aux_rcond_, 4) + " < auxiliary_min_rcond " + number_text(options_.auxiliary_min_rcond) +
                  "): are auxiliary rows redundant with each other or with the primary constraints?");
    if (aux_method_ == BaraffAuxiliaryMethod::kLdlt)
      out.mu = aux_ldlt_.solve(ws.negative_q_);
    else
      out.mu = aux_lu_.solve(ws.negative_q_);
  }
  finish(out.mu, ws, out);
}

void BaraffSolver::solve(const Eigen::Ref<const Eigen::VectorXd>& force, const Eigen::Ref<const Eigen::VectorXd>& bias,
                         const Eigen::Ref<const Eigen::VectorXd>& aux_bias, const BaraffAuxiliarySolve& solve_auxiliary,
                         BaraffWorkspace& ws, BaraffSolution& out) const {
  const int k = num_auxiliary();
  if (!solve_auxiliary) throw Error("BaraffSolver::solve: the auxiliary solver callback is empty");
  const Eigen::VectorXd& q = auxiliary_rhs(force, bias, aux_bias, ws);
  const Eigen::VectorXd mu = solve_auxiliary(aux_matrix_, q);
  if (mu.size() != k)
    throw Error("BaraffSolver::solve: the auxiliary solver must return mu with " + std::to_string(k) +
                " entries (one per auxiliary constraint), got " + std::to_string(mu.size()));
  if (!mu.allFinite()) throw Error("BaraffSolver::solve: the auxiliary solver returned a non-finite mu");
  finish(mu, ws, out);
}

}  // namespace sinew
