// A velocity-level time step for joint tests: symplectic-Euler free motion v* = v + h M^-1 f,
// then the constraint solve M (v - v*) = J^T r of the rows of every constraint
// (assemble_step_problem), then q <- q (+) h v. The solve is the direct KKT solver, PGS (for
// unilateral rows: limits, ropes) or Baraff's O(n) tree solver through BaraffConstraintAdapter,
// with each constraint's rows as one primary constraint (bodies only, hard bilateral rows).
#pragma once

#include <Eigen/Core>
#include <Eigen/LU>
#include <Eigen/SparseCholesky>
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <vector>

#include "sinew/constraints/baraff_adapter.hpp"
#include "sinew/constraints/constraint.hpp"
#include "sinew/constraints/kkt_solver.hpp"
#include "sinew/constraints/pgs_solver.hpp"
#include "sinew/core/error.hpp"
#include "sinew/linalg/baraff_problem.hpp"
#include "sinew/linalg/baraff_solver.hpp"
#include "sinew/linalg/eigen_ldlt_solver.hpp"
#include "sinew/model/mechanical_system.hpp"

namespace sinew::constraints::testing {

/// Which solver finishes a step.
enum class StepSolver {
  kKkt,          ///< KktSolver::solve_global (dense Delassus operator, sparse LDL^T)
  kSparseSchur,  ///< r = -W^-1 q with the sparse W = J M^-1 J^T + C (bilateral rows only)
  kPgs,          ///< PGS on the Delassus problem (unilateral rows)
  kBaraff        ///< Baraff's tree LDL^T through BaraffConstraintAdapter (hard rows on bodies)
};

/// Steps a MechanicalSystem with constraints (see the file comment).
class ChainStepper {
 public:
  ChainStepper(const model::MechanicalSystem& system, std::vector<std::shared_ptr<const Constraint>> constraints,
               double h, StepSolver solver, StabilizationOptions stabilization = {})
      : system_(system), constraints_(std::move(constraints)), h_(h), solver_(solver), stab_(stabilization) {
    for (const auto& c : constraints_) c->check(system_);
    PgsOptions pgs;
    pgs.stop.tolerance = 1e-12;
    pgs.stop.max_iterations = 5000;
    pgs_ = std::make_unique<PgsSolver>(pgs);
  }

  /// One step from (t, q, u) to (t + h, q, u).
  void step(double& t, Eigen::VectorXd& q, Eigen::VectorXd& u) {
    system_.evaluate_state(t, q, u, state_);
    system_.mass_matrix_at(state_, M_);
    system_.forces_at(state_, model::ForcePart::kAll, f_);
    mass_solver_.compute(M_);
    v_free_ = u + h_ * mass_solver_.solve(f_);
    rows_.clear();
    first_row_.clear();
    for (const auto& c : constraints_) {
      first_row_.push_back(rows_.next_row());
      c->add_rows(system_, state_, rows_);
    }
    first_row_.push_back(rows_.next_row());
    max_violation_ = 0;
    std::size_t row = 0;
    for (const ConstraintBlock& b : rows_.blocks) {
      if (b.kind == BlockKind::kBilateral) max_violation_ = std::max(max_violation_, std::abs(rows_.phi[row]));
      row += static_cast<std::size_t>(block_size(b.kind));
    }
    const GlobalProblem g = assemble_step_problem(rows_, M_, v_free_, h_, stab_);
    Eigen::VectorXd v;
    switch (solver_) {
      case StepSolver::kKkt:
        v = kkt_.solve_global(g).v;
        break;
      case StepSolver::kPgs: {
        EigenLdltSolver ms;
        const DelassusProblem d = to_delassus(g, ms);
        Eigen::VectorXd r = Eigen::VectorXd::Zero(g.rows());
        const SolverReport rep = pgs_->solve(d, r);
        require(rep.status == SolverStatus::kConverged, "ChainStepper: PGS did not converge");
        v = global_velocity(g, ms, r);
        last_impulse_ = r;
        break;
      }
      case StepSolver::kBaraff:
        v = solve_baraff(g);
        break;
      case StepSolver::kSparseSchur:
        v = solve_schur(g);
        break;
    }
    system_.advance_positions(q, v, h_, q);
    u = v;
    t += h_;
  }

  /// Largest |phi| of the bilateral rows at the start of the last step.
  double max_violation() const { return max_violation_; }
  /// Rows of the last step.
  const ConstraintRows& rows() const { return rows_; }
  /// Impulses of the last PGS step.
  const Eigen::VectorXd& last_impulse() const { return last_impulse_; }

 private:
  // Each constraint is one primary constraint of Baraff's tree on the (one or two) bodies its
  // rows touch; the world needs no block. Baraff's M v = J^T lambda + F, J v + c = 0 is the
  // step's M v = H r + f, J v + w = 0 with F = M v*, c = w.
  Eigen::VectorXd solve_baraff(const GlobalProblem& g) {
    require(system_.num_particles() == 0 && g.compliance.size() == 0,
            "ChainStepper: the Baraff path takes hard rows on bodies only");
    std::vector<BaraffBody> bodies;
    for (Index b = 0; b < system_.num_bodies(); ++b) bodies.push_back(BaraffBody{system_.body_mass_block(state_, b)});
    std::vector<Index> owner(static_cast<std::size_t>(rows_.rows()));
    for (std::size_t c = 0; c + 1 < first_row_.size(); ++c)
      for (Index r = first_row_[c]; r < first_row_[c + 1]; ++r)
        owner[static_cast<std::size_t>(r)] = static_cast<Index>(c);
    std::vector<std::map<int, Eigen::MatrixXd>> blocks(constraints_.size());
    for (const auto& tr : rows_.jacobian) {
      const Index c = owner[static_cast<std::size_t>(tr.row())];
      const int body = tr.col() / 6;
      auto it = blocks[static_cast<std::size_t>(c)].find(body);
      if (it == blocks[static_cast<std::size_t>(c)].end())
        it = blocks[static_cast<std::size_t>(c)]
                 .emplace(body, Eigen::MatrixXd::Zero(first_row_[c + 1] - first_row_[c], 6))
                 .first;
      it->second(tr.row() - first_row_[c], tr.col() % 6) += tr.value();
    }
    std::vector<BaraffConstraint> primary;
    for (const auto& bl : blocks) {
      if (bl.empty()) continue;
      require(bl.size() <= 2, "ChainStepper: a constraint touches more than two bodies");
      BaraffConstraint pc;
      auto it = bl.begin();
      pc.body_a = it->first;
      pc.jacobian_a = it->second;
      if (++it != bl.end()) {
        pc.body_b = it->first;
        pc.jacobian_b = it->second;
      }
      primary.push_back(pc);
    }
    const BaraffProblem problem(std::move(bodies), std::move(primary));
    const BaraffSolver baraff(problem);
    BaraffConstraintAdapter adapter(*pgs_, {});
    const Eigen::VectorXd force = to_eigen(M_) * v_free_;
    const Eigen::VectorXd no_aux(0);
    adapter.solve(baraff, force, g.w, no_aux, ws_, solution_);
    return solution_.acceleration;
  }

  // The global problem's bilateral law u = H^T v + w + C r = 0 with M v = H r + f, through the
  // sparse Schur complement (M is block diagonal: its inverse is too).
  Eigen::VectorXd solve_schur(const GlobalProblem& g) {
    for (const ConstraintBlock& b : g.blocks)
      require(b.kind == BlockKind::kBilateral, "ChainStepper: the sparse Schur path takes bilateral rows only");
    const Index n = g.velocities();
    std::vector<Eigen::Triplet<double>> minv;
    for (Index b = 0; b < system_.num_bodies(); ++b) {
      const Index d = state_.body_dof[static_cast<std::size_t>(b)];
      const Eigen::Matrix<double, 6, 6> inv = system_.body_mass_block(state_, b).inverse();
      for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j) minv.emplace_back(d + i, d + j, inv(i, j));
    }
    for (Index p = 0; p < system_.num_particles(); ++p)
      for (int i = 0; i < 3; ++i)
        minv.emplace_back(state_.particle_dof[static_cast<std::size_t>(p)] + i,
                          state_.particle_dof[static_cast<std::size_t>(p)] + i, 1.0 / system_.particle(p).mass);
    Eigen::SparseMatrix<double> Minv(n, n);
    Minv.setFromTriplets(minv.begin(), minv.end());
    const Eigen::SparseMatrix<double> H = to_eigen(g.H);
    Eigen::SparseMatrix<double> W = H.transpose() * Minv * H;
    if (g.compliance.size() > 0)
      for (Index k = 0; k < g.rows(); ++k) W.coeffRef(k, k) += g.compliance[k];
    const Eigen::VectorXd Minv_f = Minv * g.f;
    const Eigen::VectorXd q = g.w + H.transpose() * Minv_f;
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(W);
    require(ldlt.info() == Eigen::Success, "ChainStepper: W is singular");
    const Eigen::VectorXd r = -ldlt.solve(q);
    return Minv * (H * r) + Minv_f;
  }

  const model::MechanicalSystem& system_;
  std::vector<std::shared_ptr<const Constraint>> constraints_;
  double h_;
  StepSolver solver_;
  StabilizationOptions stab_;
  model::SystemState state_;
  CsrMatrix M_;
  Eigen::VectorXd f_, v_free_, last_impulse_;
  EigenLdltSolver mass_solver_;
  KktSolver kkt_;
  std::unique_ptr<PgsSolver> pgs_;
  ConstraintRows rows_;
  std::vector<Index> first_row_;  // (constraints + 1) first row of each constraint
  double max_violation_ = 0;
  BaraffWorkspace ws_;
  BaraffSolution solution_;
};

}  // namespace sinew::constraints::testing
