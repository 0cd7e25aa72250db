#include "sinew/integrators/contact_step.hpp"

#include "baraff_step.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "sinew/constraints/contact_constraint.hpp"
#include "sinew/constraints/natural_map.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "velocity_newton.hpp"

namespace sinew::integrators {
namespace {

bool same_blocks(const std::vector<constraints::ConstraintBlock>& a,
                 const std::vector<constraints::ConstraintBlock>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].kind != b[i].kind) return false;
  return true;
}

// Removes the blocks without any Jacobian entry (a contact between a fixed body and a static
// obstacle, or two fixed bodies): they constrain no DOF, and their zero rows of W would break
// solvers that scale by W_ii (non-smooth Newton's preconditioner, PGS's diagonal steps).
// @p also (entries of the same rows over other columns) is renumbered with them.
void drop_empty_blocks(constraints::ConstraintRows& rows, std::vector<Eigen::Triplet<double>>& also,
                       std::vector<char>& has_entry) {
  has_entry.assign(static_cast<std::size_t>(rows.rows()), 0);
  for (const Eigen::Triplet<double>& t : rows.jacobian) has_entry[static_cast<std::size_t>(t.row())] = 1;
  bool any_empty = false;
  for (Index b = 0, k = 0; b < static_cast<Index>(rows.blocks.size()) && !any_empty; ++b) {
    bool entry = false;
    for (const Index end = k + constraints::block_size(rows.blocks[b].kind); k < end; ++k)
      entry = entry || has_entry[static_cast<std::size_t>(k)];
    any_empty = !entry;
  }
  if (!any_empty) return;  // the usual case: nothing to copy
  const std::vector<Index> offsets = constraints::block_offsets(rows.blocks);
  auto empty = [&](std::size_t b) {
    for (Index k = offsets[b]; k < offsets[b + 1]; ++k)
      if (has_entry[static_cast<std::size_t>(k)]) return false;
    return true;
  };
  std::vector<Index> new_row(static_cast<std::size_t>(rows.rows()), -1);
  std::vector<Index> new_block(rows.blocks.size(), -1);
  constraints::ConstraintRows kept;
  for (std::size_t b = 0; b < rows.blocks.size(); ++b) {
    if (empty(b)) continue;
    new_block[b] = static_cast<Index>(kept.blocks.size());
    kept.blocks.push_back(rows.blocks[b]);
    kept.labels.push_back(rows.labels[b]);
    for (Index k = offsets[b]; k < offsets[b + 1]; ++k) {
      const std::size_t i = static_cast<std::size_t>(k);
      new_row[i] = kept.rows();
      kept.phi.push_back(rows.phi[i]);
      kept.target.push_back(rows.target[i]);
      kept.compliance.push_back(rows.compliance[i]);
      kept.damping.push_back(rows.damping[i]);
      kept.velocity_level.push_back(rows.velocity_level[i]);
    }
  }
  for (const Eigen::Triplet<double>& t : rows.jacobian)
    kept.jacobian.emplace_back(new_row[static_cast<std::size_t>(t.row())], t.col(), t.value());
  for (constraints::ContactRecord c : rows.contacts) {
    c.block = new_block[static_cast<std::size_t>(c.block)];
    if (c.block >= 0) kept.contacts.push_back(c);
  }
  rows = std::move(kept);
  std::vector<Eigen::Triplet<double>> renumbered;
  for (const Eigen::Triplet<double>& t : also) {
    const Index r = new_row[static_cast<std::size_t>(t.row())];
    if (r >= 0) renumbered.emplace_back(r, t.col(), t.value());
  }
  also.swap(renumbered);
}

// The mechanical system's state at (t, q, u), the coordinates of @p map's dynamical system when
// @p map is set (q_full and u_full: kept storage).
void evaluate_full(const model::MechanicalSystem& mechanics, const model::SystemMap* map, double t,
                   const Eigen::VectorXd& q, const Eigen::VectorXd& u, Eigen::VectorXd& q_full, Eigen::VectorXd& u_full,
                   model::SystemState& s) {
  if (!map) return mechanics.evaluate_state(t, q, u, s);
  map->full_positions(t, q, q_full);
  map->full_velocities(t, q, u, u_full);
  mechanics.evaluate_state(t, q_full, u_full, s);
}

// Gives each friction row that moves no velocity of the step (its Jacobian over them is zero, or
// round-off of the normal's: a tree's joints or fixed DOFs block that tangent, as a slider normal
// to a floor blocks both) a compliance of the size of its block's normal row's W_nn, estimated as
// sum_j H_jn^2 / A_jj (H = J^T, the entries of a velocity summed: a contact between two bodies of
// a tree cancels on their common joints). Such a row's impulse does no work, and its W_tt = 0
// would stop the local solvers that scale by W_ii (the non-smooth Newton's preconditioner, PGS's
// diagonal steps); with the compliance its impulse is 0, which leaves the cone's whole mu gamma_n
// to the other tangent (the largest stick the Coulomb law allows there). A contact whose normal
// row moves nothing cannot act at all: it loses its friction (mu = 0) and its rows take the
// problem's largest estimate as compliance, so that its impulses, which move nothing, stay
// finite. Steps without such rows are untouched.
void soften_blocked_contact_rows(constraints::GlobalProblem& problem, Eigen::VectorXd& a_diagonal,
                                 std::vector<double>& weight, Eigen::VectorXd& spare_compliance) {
  const CsrMatrix& H = problem.H;
  csr_diagonal(problem.M, a_diagonal);
  weight.assign(static_cast<std::size_t>(H.cols), 0.0);
  for (Index j = 0; j < H.rows; ++j)
    for (Index k = H.row_ptr[j]; k < H.row_ptr[j + 1]; ++k)
      weight[static_cast<std::size_t>(H.col_idx[k])] += H.values[k] * H.values[k] / a_diagonal[j];
  const double largest = weight.empty() ? 0.0 : *std::max_element(weight.begin(), weight.end());
  const auto soften = [&](Index k, double c) {
    if (problem.compliance.size() == 0) {
      problem.compliance.swap(spare_compliance);  // the storage of an earlier step's, if any
      problem.compliance.setZero(problem.rows());
    }
    problem.compliance[k] += c > 0.0 ? c : 1.0;
  };
  Index row = 0;
  for (constraints::ConstraintBlock& b : problem.blocks) {
    const Index n = row;
    row += constraints::block_size(b.kind);
    if (b.kind != constraints::BlockKind::kContact && b.kind != constraints::BlockKind::kContactBoxFriction) continue;
    const double w_n = weight[static_cast<std::size_t>(n)];
    if (!(w_n > 1e-20 * largest)) {  // the normal moves nothing: the contact cannot act
      b.mu = 0.0;
      for (Index k = n; k < row; ++k) soften(k, largest);
      continue;
    }
    for (Index k = n + 1; k < row; ++k)
      if (!(weight[static_cast<std::size_t>(k)] > 1e-20 * w_n)) soften(k, w_n);
  }
}

Index count_contacts(const std::vector<constraints::ConstraintBlock>& blocks) {
  Index n = 0;
  for (const constraints::ConstraintBlock& b : blocks)
    if (b.kind == constraints::BlockKind::kContact || b.kind == constraints::BlockKind::kContactBoxFriction) ++n;
  return n;
}

/// The largest |phi| of the hard position-level bilateral rows of @p rows, into @p report
/// (joint_error and its block's label).
void record_joint_error(const constraints::ConstraintRows& rows, ContactStepReport& report) {
  Index row = 0, worst = -1;
  double largest = 0.0;
  for (std::size_t b = 0; b < rows.blocks.size(); ++b) {
    const constraints::BlockKind kind = rows.blocks[b].kind;
    const auto r = static_cast<std::size_t>(row);
    if (kind == constraints::BlockKind::kBilateral && rows.compliance[r] == 0.0 && !rows.velocity_level[r] &&
        std::abs(rows.phi[r]) > largest) {
      largest = std::abs(rows.phi[r]);
      worst = static_cast<Index>(b);
    }
    row += constraints::block_size(kind);
  }
  report.joint_error = largest;
  if (worst >= 0) report.joint_error_label = rows.labels[static_cast<std::size_t>(worst)];
}

}  // namespace

void ContactStepOptions::validate() const {
  free_motion.validate();
  if (theta) theta->validate();
  if (alpha_beta) alpha_beta->validate();
  if (trapezoidal) trapezoidal->validate();
  if (bridson_marino) bridson_marino->validate();
  require(int{theta.has_value()} + int{alpha_beta.has_value()} + int{trapezoidal.has_value()} +
                  int{bridson_marino.has_value()} <=
              1,
          "ContactStepOptions: theta, alpha_beta, trapezoidal and bridson_marino are four schemes; set at most one");
  require(std::isfinite(accept_error) && accept_error >= 0,
          [&] { return "ContactStepOptions: accept_error must be finite and >= 0, got " + number_text(accept_error); });
  require(joint_error_limit > 0, [&] {
    return "ContactStepOptions: joint_error_limit must be > 0 (infinity never flags), got " +
           number_text(joint_error_limit);
  });
  stabilization.validate();
}

ContactStep::ContactStep(std::unique_ptr<constraints::ConstraintSolver> solver, const ContactStepOptions& options)
    : solver_(std::move(solver)),
      sap_(options.sap),
      mass_solver_(make_linear_solver(LinearSolverKind::kEigenLdlt)),
      options_(options),
      free_(options.free_motion) {
  options_.validate();
  if (options_.theta) {
    theta_ = std::make_unique<ThetaMethod>(*options_.theta);
    weights_ = {options_.theta->theta_q, options_.theta->theta_v, options_.theta->theta_vq};
  }
  if (options_.alpha_beta) {
    alpha_beta_ = std::make_unique<CompliantAlphaBeta>(*options_.alpha_beta);
    weights_ = {options_.alpha_beta->alpha, options_.alpha_beta->alpha, options_.alpha_beta->beta};
  }
  if (options_.trapezoidal) {
    // M_hat = M + h/2 D + h^2/4 K and q1 = q0 + h/2 (v + v0): the weights of theta = 1/2.
    trapezoidal_ = std::make_unique<Trapezoidal>(*options_.trapezoidal);
    weights_ = {0.5, 0.5, 0.5};
  }
  if (options_.bridson_marino) bridson_marino_ = std::make_unique<BridsonMarino>(*options_.bridson_marino);
}

ContactStep::~ContactStep() = default;

void ContactStep::set_warm_start(const std::vector<constraints::ConstraintBlock>& blocks, const Eigen::VectorXd& r) {
  const Index m = constraints::block_offsets(blocks).back();
  require(r.size() == m, [&] {
    return "ContactStep::set_warm_start: " + std::to_string(r.size()) + " impulses for blocks of " + std::to_string(m) +
           " rows";
  });
  last_blocks_ = blocks;
  r_ = r;
  contacts_.clear();
}

ContactStepReport ContactStep::step(const model::MechanicalSystem& system,
                                    const std::vector<const constraints::Constraint*>& constraints, State& state,
                                    double h) {
  ContactStepReport report;
  step(system, constraints, state, h, report);
  return report;
}

ContactStepReport ContactStep::step(const model::ReducedSystem& system,
                                    const std::vector<const constraints::Constraint*>& constraints, State& state,
                                    double h) {
  ContactStepReport report;
  step(system, constraints, state, h, report);
  return report;
}

void ContactStep::step(const model::MechanicalSystem& system,
                       const std::vector<const constraints::Constraint*>& constraints, State& state, double h,
                       ContactStepReport& report) {
  step_on(system, system, nullptr, constraints, state, h, report);
}

void ContactStep::step(const model::ReducedSystem& system,
                       const std::vector<const constraints::Constraint*>& constraints, State& state, double h,
                       ContactStepReport& report) {
  step_on(system, system.system(), &system, constraints, state, h, report);
  if (report.advanced) system.sync_positions(state.t, state.q);  // the driven components at t + h
}

ContactStepReport ContactStep::step(const model::DynamicalSystem& dynamics, const model::SystemMap& map,
                                    const std::vector<const constraints::Constraint*>& constraints, State& state,
                                    double h) {
  ContactStepReport report;
  step(dynamics, map, constraints, state, h, report);
  return report;
}

void ContactStep::step(const model::DynamicalSystem& dynamics, const model::SystemMap& map,
                       const std::vector<const constraints::Constraint*>& constraints, State& state, double h,
                       ContactStepReport& report) {
  step_on(dynamics, map.system(), &map, constraints, state, h, report);
}

Eigen::VectorXd ContactStep::last_system_impulses() const {
  if (rows_.rows() == 0 || r_.size() != rows_.rows()) return {};
  const std::vector<Eigen::Triplet<double>>& J = T_.rows > 0 ? full_jacobian_ : rows_.jacobian;
  Eigen::VectorXd g = Eigen::VectorXd::Zero(full_velocities_);
  for (const Eigen::Triplet<double>& t : J) g[t.col()] += t.value() * r_[t.row()];
  return g;
}

void ContactStep::gather_rows(const model::DynamicalSystem& dynamics, const model::MechanicalSystem& mechanics,
                              const model::SystemMap* map,
                              const std::vector<const constraints::Constraint*>& constraints, const State& state,
                              const Eigen::VectorXd& v_free, double h) {
  rows_.clear();
  full_jacobian_.clear();
  T_.rows = T_.cols = 0;  // no reduction unless one is made below (storage kept)
  T_.row_ptr.assign(1, 0);
  T_.col_idx.clear();
  T_.values.clear();
  full_velocities_ = mechanics.num_velocities();
  evaluate_full(mechanics, map, state.t, state.q, state.u, q_full_, u_full_, s0_);
  first_block_.assign(1, 0);
  first_entry_.assign(1, 0);
  for (const constraints::Constraint* c : constraints) {
    c->add_rows(mechanics, s0_, rows_);
    first_block_.push_back(static_cast<Index>(rows_.blocks.size()));
    first_entry_.push_back(rows_.jacobian.size());
  }
  if (!weights_.implicit_euler() && !bridson_marino_)
    take_midpoint_jacobians(dynamics, mechanics, map, constraints, first_block_, state, v_free, h);
  if (!map) return;
  // G' = G T (eq. 0.22); the rows' velocity G (T u + s) = G' u + G s, so G s of the driven
  // motion at the end of the step joins the targets (eq. 0.21, g' - G'_sigma-rho v_rho).
  Eigen::VectorXd& s_end = s_end_;
  map->reduction_matrix(state.t, state.q, T_);
  map->driven_velocities(state.t + h, state.q, s_end);
  full_jacobian_.swap(rows_.jacobian);
  for (const Eigen::Triplet<double>& t : full_jacobian_) {
    rows_.target[static_cast<std::size_t>(t.row())] -= t.value() * s_end[t.col()];
    for (Index k = T_.row_ptr[t.col()]; k < T_.row_ptr[t.col() + 1]; ++k)
      rows_.jacobian.emplace_back(t.row(), T_.col_idx[k], t.value() * T_.values[k]);
  }
}

void ContactStep::take_midpoint_jacobians(const model::DynamicalSystem& dynamics,
                                          const model::MechanicalSystem& mechanics, const model::SystemMap* map,
                                          const std::vector<const constraints::Constraint*>& constraints,
                                          const std::vector<Index>& first_block, const State& state,
                                          const Eigen::VectorXd& v_free, double h) {
  // The positions move along the chord h v^theta_vq. A row's force along the constraint gradient
  // at the chord's midpoint does no work on the chord for a quadratic constraint (a rod, a ball
  // joint: g(q1) - g(q0) = G_mid (q1 - q0)), so the theta = 1/2 schemes keep their energy; rows at
  // the start pump it (their straight chord leaves the constraint outward and the correction
  // does positive work). Contact keeps its rows at the start (the theta-method seed's stage).
  const auto midpoint_rows = [&](std::size_t c) {
    return first_block[c] != first_block[c + 1] && !dynamic_cast<const constraints::ContactConstraint*>(constraints[c]);
  };
  bool any = false;
  for (std::size_t c = 0; c < constraints.size() && !any; ++c) any = midpoint_rows(c);
  if (!any) return;  // contact alone: nothing to evaluate at the midpoint
  const double tvq = weights_.theta_vq;
  Eigen::VectorXd& u_vq = u_mix_;
  u_vq = tvq * v_free + (1.0 - tvq) * state.u;
  dynamics.advance_positions(state.q, u_vq, 0.5 * h, q_mid_);
  evaluate_full(mechanics, map, state.t + 0.5 * h, q_mid_, u_vq, q_full_, u_full_, s_mid_);
  std::vector<Index>& offsets = mid_offsets_;
  offsets.assign(1, 0);
  for (const constraints::ConstraintBlock& b : rows_.blocks)
    offsets.push_back(offsets.back() + constraints::block_size(b.kind));
  std::vector<char>& replaced = mid_replaced_;
  replaced.assign(static_cast<std::size_t>(rows_.rows()), 0);
  std::vector<Eigen::Triplet<double>>& mid_entries = mid_entries_;
  mid_entries.clear();
  bool spliced = false;  // a constraint's midpoint entries replace its start entries elsewhere
  for (std::size_t c = 0; c < constraints.size(); ++c) {
    const Index b0 = first_block[c], b1 = first_block[c + 1];
    if (!midpoint_rows(c)) continue;
    mid_rows_.clear();
    constraints[c]->add_rows(mechanics, s_mid_, mid_rows_);
    // Same blocks at the midpoint (a limit may switch on or off there): else keep the start's.
    bool same = static_cast<Index>(mid_rows_.blocks.size()) == b1 - b0;
    for (Index b = b0; same && b < b1; ++b) same = mid_rows_.blocks[b - b0].kind == rows_.blocks[b].kind;
    if (!same) continue;
    const Index first_row = offsets[b0];
    // Entries at the same rows and columns as at the start (a joint's, every step): the values
    // are written in place. Else the start rows' entries are replaced below.
    const std::size_t e0 = first_entry_[c], count = first_entry_[c + 1] - e0;
    bool in_place = mid_rows_.jacobian.size() == count;
    for (std::size_t k = 0; in_place && k < count; ++k) {
      const Eigen::Triplet<double>& start = rows_.jacobian[e0 + k];
      const Eigen::Triplet<double>& mid = mid_rows_.jacobian[k];
      in_place = start.row() == first_row + mid.row() && start.col() == mid.col();
    }
    if (in_place) {
      for (std::size_t k = 0; k < count; ++k) {
        const Eigen::Triplet<double>& start = rows_.jacobian[e0 + k];
        rows_.jacobian[e0 + k] = Eigen::Triplet<double>(start.row(), start.col(), mid_rows_.jacobian[k].value());
      }
      continue;
    }
    spliced = true;
    for (Index k = first_row; k < offsets[b1]; ++k) replaced[static_cast<std::size_t>(k)] = 1;
    for (const Eigen::Triplet<double>& t : mid_rows_.jacobian)
      mid_entries.emplace_back(first_row + t.row(), t.col(), t.value());
  }
  if (!spliced) return;
  rows_.jacobian.erase(
      std::remove_if(rows_.jacobian.begin(), rows_.jacobian.end(),
                     [&](const Eigen::Triplet<double>& t) { return replaced[static_cast<std::size_t>(t.row())] != 0; }),
      rows_.jacobian.end());
  rows_.jacobian.insert(rows_.jacobian.end(), mid_entries.begin(), mid_entries.end());
}

void ContactStep::step_on(const model::DynamicalSystem& system, const model::MechanicalSystem& mechanics,
                          const model::SystemMap* map, const std::vector<const constraints::Constraint*>& constraints,
                          State& state, double h, ContactStepReport& report) {
  for (std::size_t i = 0; i < constraints.size(); ++i) {
    require(constraints[i] != nullptr,
            [&] { return "ContactStep::step: constraint " + std::to_string(i) + " is null"; });
    constraints[i]->check(mechanics);
  }
  // A fresh report's values in the report's own storage.
  report.free_motion = StepReport{};
  report.contact.reset();
  report.natural_map_error = 0.0;
  report.contacts = report.rows = 0;
  report.solver = solver_ ? solver_->name() : sap_.name();
  report.baraff = report.baraff_split_kept = report.advanced = report.above_accept_limit = false;
  report.joint_error = 0.0;
  report.joint_error_label = constraints::RowLabel{};
  report.above_joint_error_limit = false;
  report.message.clear();
  contacts_.clear();  // until this step's problem is assembled

  // Stage 1: free motion v* by the scheme's integrator (it checks h and the state), or
  // Bridson-Marino's free half-step velocity.
  free_state_ = state;
  if (bridson_marino_) {
    // The free half-step velocity, and A = M + h/2 D (notes 0.9.4) for the constraints.
    report.free_motion = bridson_marino_->first_half(system, state, h, free_state_.u, A_);
  } else {
    report.free_motion = theta_         ? theta_->step(system, free_state_, h)
                         : alpha_beta_  ? alpha_beta_->step(system, free_state_, h)
                         : trapezoidal_ ? trapezoidal_->step(system, free_state_, h)
                                        : free_.step(system, free_state_, h);
  }
  if (!report.free_motion.ok()) {
    report.message = "free motion failed at t = " + number_text(state.t, 6) + ": " + report.free_motion.message;
    return;
  }
  const Eigen::VectorXd& v_free = free_state_.u;

  // Rows at the start of the step; columns of fixed DOFs are dropped so that those stay at rest.
  gather_rows(system, mechanics, map, constraints, state, v_free, h);
  const std::vector<Index>& fixed = detail::checked_fixed_dofs(system, "ContactStep");
  if (!fixed.empty()) {
    std::vector<char> is_fixed(static_cast<std::size_t>(system.num_velocities()), 0);
    for (Index i : fixed) is_fixed[static_cast<std::size_t>(i)] = 1;
    rows_.jacobian.erase(std::remove_if(rows_.jacobian.begin(), rows_.jacobian.end(),
                                        [&](const Eigen::Triplet<double>& t) {
                                          return t.col() >= 0 && t.col() < system.num_velocities() &&
                                                 is_fixed[static_cast<std::size_t>(t.col())];
                                        }),
                         rows_.jacobian.end());
  }
  drop_empty_blocks(rows_, full_jacobian_, has_entry_);
  report.rows = rows_.rows();
  report.contacts = count_contacts(rows_.blocks);
  record_joint_error(rows_, report);
  report.above_joint_error_limit = !(report.joint_error <= options_.joint_error_limit);
  if (rows_.rows() == 0) {
    v_ = v_free;
    last_blocks_.clear();
    if (bridson_marino_) {
      report.message = advance(system, state, h);
      report.advanced = report.message.empty();
      return;
    }
    state = free_state_;
    report.advanced = true;
    return;
  }

  // Stage 2: A = M + h^2 K + h D at the free end point (theta-method's expression for A with
  // theta = 1), the Newton Jacobian of stage 1 at convergence; for other thetas, eq.
  // expression_for_A at (q^theta_q, v^theta_v) of the free motion.
  const Index n = system.num_velocities();
  if (bridson_marino_) {
    // A = M + h/2 D from the first half, fixed DOFs pinned.
  } else if (theta_) {
    const ThetaOptions& o = theta_->options();
    Eigen::VectorXd &v_vq = u_mix_, &v_theta = v_mix_, &q_theta = q_mid_;  // kept storage
    v_vq = o.theta_vq * v_free + (1.0 - o.theta_vq) * state.u;
    v_theta = o.theta_v * v_free + (1.0 - o.theta_v) * state.u;
    system.advance_positions(state.q, v_vq, o.theta_q * h, q_theta);
    const double t_theta = state.t + o.theta_q * h;
    const double k_weight = o.theta_q * o.theta_vq * h * h, d_weight = o.theta_v * h;
    if (!system.has_force_jacobians() || (k_weight == 0.0 && d_weight == 0.0)) {
      system.mass_matrix(t_theta, q_theta, A_);  // K and D absent or unweighted: A = M, symmetric
    } else if (k_weight == 0.0) {
      // Forces at the start of the step (theta_q = 0, symplectic Euler): no stiffness to evaluate.
      system.mass_matrix(t_theta, q_theta, M_);
      system.damping(t_theta, q_theta, v_theta, D_);
      detail::combine(n, {{1.0, &M_}, {d_weight, &D_}}, /*symmetrize=*/true, A_);
    } else {
      system.mass_matrix(t_theta, q_theta, M_);
      system.stiffness(t_theta, q_theta, v_theta, /*projected=*/true, K_);
      system.damping(t_theta, q_theta, v_theta, D_);
      detail::combine(n, {{1.0, &M_}, {k_weight, &K_}, {d_weight, &D_}}, /*symmetrize=*/true, A_);
    }
  } else {
    // Implicit Euler (alpha = beta = 1) or CompliantAlphaBeta: the Newton matrix at the free end
    // point, M + h alpha D + h^2 alpha beta K with forces at (q0 + h v^beta, v).
    const double alpha = weights_.theta_v, beta = weights_.theta_vq;
    if (!system.has_force_jacobians()) {
      system.mass_matrix(state.t, state.q, A_);  // K = D = 0: A = M, symmetric as mass_matrix() promises
    } else {
      system.mass_matrix(state.t, state.q, M_);
      system.stiffness(state.t + h, free_state_.q, v_free, /*projected=*/true, K_);
      system.damping(state.t + h, free_state_.q, v_free, D_);
      detail::combine(n, {{1.0, &M_}, {alpha * beta * h * h, &K_}, {alpha * h, &D_}}, /*symmetrize=*/true, A_);
    }
  }
  if (!bridson_marino_) detail::pin_fixed(fixed, A_, nullptr);
  // The compliance a step softened goes back to spare storage, so that the next step's assembly
  // (which empties it without compliant rows) does not free it and the softening reallocate it.
  if (spare_compliance_.size() == 0) spare_compliance_.swap(problem_.compliance);
  try {
    // A_ is symmetric by construction (combine's symmetrize, pin_fixed's mirrored rows).
    constraints::assemble_step_problem(rows_, A_, v_free, h, options_.stabilization, weights_, state.u, problem_,
                                       InputCheck::kTrusted, &h_plan_);
  } catch (const Error& e) {
    // theta_vq = 0 (explicit Euler, alpha/beta with beta = 0): positions ignore the end velocity
    // the rows constrain; or a compliant row the scheme makes explicit.
    report.message =
        "contact: the rows cannot be stepped with this scheme at t = " + number_text(state.t, 6) + ": " + e.what();
    return;
  }
  // Only a map or fixed DOFs can leave a contact row that moves nothing.
  if (map || !fixed.empty()) soften_blocked_contact_rows(problem_, a_diagonal_, row_weight_, spare_compliance_);
  contacts_ = rows_.contacts;  // copied into kept storage: no allocation once sized

  const bool warm = options_.warm_start && same_blocks(rows_.blocks, last_blocks_) && r_.size() == problem_.rows();
  if (!warm) r_.setZero(problem_.rows());
  if (options_.factor != StepFactor::kSparse) {
    // Baraff's O(n) factor of the joint forest, the rest auxiliary (baraff_step.hpp).
    if (!baraff_) baraff_ = std::make_unique<detail::BaraffStep>();
    static const std::string sap_reason = "SAP works on the global form";
    const std::string& why = solver_ ? baraff_->build(problem_) : sap_reason;
    if (why.empty()) {
      report.baraff = true;
      report.baraff_split_kept = baraff_->kept();
      report.contact = baraff_->solve(*solver_, r_, v_);
      report.natural_map_error = report.contact.error;
      return finish_step(system, report, state, h);
    }
    if (options_.factor == StepFactor::kBaraff) {
      report.message = "contact: Baraff's factor cannot be used at t = " + number_text(state.t, 6) + ": " + why;
      return;
    }
  }
  // Uncoupled bodies (block-diagonal A) are factored block by block: no ordering to compute.
  // The solver kind follows from M's pattern alone: while the factor's analysis holds, so does it.
  if (!mass_solver_ || !mass_solver_->analysed(problem_.M)) {
    const LinearSolverKind kind = resolve_linear_solver(LinearSolverKind::kAuto, problem_.M);
    if (kind != mass_solver_kind_) {
      mass_solver_ = make_linear_solver(kind);
      mass_solver_kind_ = kind;
    }
  }
  constraints::DelassusProblem& local = local_;
  try {
    // problem_ was checked where it was assembled (assemble_step_problem): not again here.
    // SAP works on the global form and needs M's factor only: W is never formed for it.
    if (solver_)
      constraints::to_delassus(problem_, *mass_solver_, local, InputCheck::kTrusted);
    else
      mass_solver_->compute(problem_.M, InputCheck::kTrusted);
  } catch (const Error& e) {
    report.message = std::string("contact: the step matrix A could not be factored at t = ") + number_text(state.t, 6) +
                     ": " + e.what();
    return;
  }
  if (!solver_) {
    // The solution's vectors are r_ and v_ themselves (swapped in and out): no copies.
    sap_solution_.r.swap(r_);
    sap_solution_.v.swap(v_);
    sap_.solve(problem_, *mass_solver_, sap_solution_, report.contact, InputCheck::kTrusted);
    r_.swap(sap_solution_.r);
    v_.swap(sap_solution_.v);
    // SAP's error is the natural-map error of the original problem at its r (sap_solver.hpp),
    // computed from M's factor without W.
    report.natural_map_error = report.contact.error;
    return finish_step(system, report, state, h);
  }
  solver_->solve(local, r_, report.contact, InputCheck::kTrusted);  // r_: zero or the last step's
  constraints::global_velocity(problem_, *mass_solver_, r_, v_);
  u_.noalias() = as_eigen(local.W) * r_;  // local is the solver's checked problem: a view, no copy of W
  u_ += local.q;
  report.natural_map_error = constraints::natural_map_error(local, r_, u_).relative;
  return finish_step(system, report, state, h);
}

void ContactStep::finish_step(const model::DynamicalSystem& system, ContactStepReport& report, State& state, double h) {
  if (!std::isfinite(report.natural_map_error)) report.natural_map_error = std::numeric_limits<double>::infinity();
  last_blocks_ = rows_.blocks;

  const bool rejected =
      !report.contact.converged() && (!solver_ || !(report.natural_map_error <= options_.accept_error));
  const bool failed = report.contact.status == constraints::SolverStatus::kFailed || rejected || !v_.allFinite();
  if (failed) {
    report.message = "contact solve (" + report.solver + ") " + constraints::to_string(report.contact.status) +
                     " at t = " + number_text(state.t, 6) + " after " + std::to_string(report.contact.iterations) +
                     " iterations, solver error " + number_text(report.contact.error, 4) + ", natural-map error " +
                     number_text(report.natural_map_error, 4) + ": " + report.contact.message;
    last_blocks_.clear();
    return;
  }
  report.above_accept_limit = !(report.natural_map_error <= options_.accept_error);
  if (!report.contact.converged())
    report.message = "contact solve (" + report.solver + ") stopped unconverged at t = " + number_text(state.t, 6) +
                     ", error " + number_text(report.contact.error, 4);

  const std::string failed_end = advance(system, state, h);
  if (!failed_end.empty()) {
    report.message = failed_end;
    last_blocks_.clear();
    return;
  }
  report.advanced = true;
  return;
}

std::string ContactStep::advance(const model::DynamicalSystem& system, State& state, double h) {
  if (bridson_marino_) {
    // The second half from the constrained half-step velocity (notes 0.9.4, 0.10).
    State end;
    const StepReport r = bridson_marino_->second_half(system, state, h, v_, end);
    if (!r.ok()) return "second half failed at t = " + number_text(state.t, 6) + ": " + r.message;
    state = std::move(end);
    return "";
  }
  // q1 = q0 (+) h v, or q0 (+) h v^theta_vq (eq. q_update; beta for alpha/beta).
  if (!weights_.implicit_euler()) {
    const double tvq = weights_.theta_vq;
    u_mix_ = tvq * v_ + (1.0 - tvq) * state.u;  // kept storage
    system.advance_positions(state.q, u_mix_, h, q1_);
  } else {
    system.advance_positions(state.q, v_, h, q1_);
  }
  state.t += h;
  state.q.swap(q1_);  // q1_ keeps the old storage for the next step
  state.u = v_;
  return "";
}

}  // namespace sinew::integrators
