#include "sinew/constraints/constraint.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/linalg/linear_solver.hpp"

namespace sinew::constraints {

RowLabel::RowLabel(std::string text) : name(std::make_shared<const std::string>(std::move(text))) {}

RowLabel::RowLabel(const char* text) : RowLabel(std::string(text)) {}

RowLabel RowLabel::with_role(const char* role_text) const {
  RowLabel label = *this;
  label.role = role_text;
  return label;
}

std::string RowLabel::text() const { return (name ? *name : std::string()) + role; }

namespace {

// ConstraintRows::add_block on [phi, phi + n_phi) and [target, target + n_target).
Index append_block(ConstraintRows& rows, BlockKind kind, double mu, const double* phi, std::size_t n_phi,
                   const double* target, std::size_t n_target, RowLabel label) {
  const std::size_t size = static_cast<std::size_t>(block_size(kind));
  // Checks build their messages only on failure: rows are assembled every step.
  if (n_phi != size || n_target != size)
    throw Error("ConstraintRows::add_block (" + label.text() + "): a " + to_string(kind) + " block has " +
                std::to_string(size) + " rows, got " + std::to_string(n_phi) + " phi and " + std::to_string(n_target) +
                " targets");
  const Index first = rows.rows();
  rows.blocks.push_back(ConstraintBlock{kind, mu});
  rows.labels.push_back(std::move(label));
  // Rows are appended every step, a block at a time: push_back's inlined path (a resize is an
  // out-of-line library call per vector).
  for (std::size_t k = 0; k < size; ++k) {
    rows.phi.push_back(phi[k]);
    rows.target.push_back(target[k]);
    rows.compliance.push_back(0.0);
    rows.damping.push_back(0.0);
    rows.velocity_level.push_back(0);
  }
  return first;
}

}  // namespace

Index ConstraintRows::add_block(BlockKind kind, double mu, const std::vector<double>& block_phi,
                                const std::vector<double>& block_target, RowLabel label) {
  return append_block(*this, kind, mu, block_phi.data(), block_phi.size(), block_target.data(), block_target.size(),
                      std::move(label));
}

Index ConstraintRows::add_block(BlockKind kind, double mu, std::initializer_list<double> block_phi,
                                std::initializer_list<double> block_target, RowLabel label) {
  return append_block(*this, kind, mu, block_phi.begin(), block_phi.size(), block_target.begin(), block_target.size(),
                      std::move(label));
}

Index ConstraintRows::add_rows(BlockKind kind, Index count, const double* row_phi, const RowLabel& label,
                               const char* const* roles) {
  if (block_size(kind) != 1 || count < 0)
    throw Error("ConstraintRows::add_rows (" + label.text() + "): expected one-row blocks and a count >= 0, got " +
                std::to_string(count) + " " + to_string(kind) + " blocks");
  const Index first = rows();
  // push_back's inlined path, as append_block (resizes and range inserts are calls each).
  for (Index k = 0; k < count; ++k) {
    blocks.push_back(ConstraintBlock{kind, 0.0});
    labels.push_back(label.with_role(roles[k]));
    phi.push_back(row_phi[k]);
    target.push_back(0.0);
    compliance.push_back(0.0);
    damping.push_back(0.0);
    velocity_level.push_back(0);
  }
  return first;
}

void ConstraintRows::set_velocity_level(Index first, Index count) {
  require(first >= 0 && count >= 0 && first + count <= rows(), [&] {
    return "ConstraintRows::set_velocity_level: rows [" + std::to_string(first) + ", " + std::to_string(first + count) +
           ") outside the " + std::to_string(rows()) + " rows";
  });
  for (Index k = first; k < first + count; ++k) velocity_level[static_cast<std::size_t>(k)] = 1;
}

void ConstraintRows::set_compliance(Index first, Index count, double c, double d) {
  require(first >= 0 && count >= 0 && first + count <= rows(), [&] {
    return "ConstraintRows::set_compliance: rows [" + std::to_string(first) + ", " + std::to_string(first + count) +
           ") outside the " + std::to_string(rows()) + " rows";
  });
  require(std::isfinite(c) && c >= 0 && std::isfinite(d) && d >= 0, [&] {
    return "ConstraintRows::set_compliance: compliance and damping must be finite and >= 0, got c = " + number_text(c) +
           ", d = " + number_text(d);
  });
  for (Index k = first; k < first + count; ++k) {
    compliance[static_cast<std::size_t>(k)] = c;
    damping[static_cast<std::size_t>(k)] = d;
  }
}

void ConstraintRows::clear() {
  blocks.clear();
  jacobian.clear();
  phi.clear();
  target.clear();
  compliance.clear();
  damping.clear();
  velocity_level.clear();
  labels.clear();
  contacts.clear();
}

void ConstraintRows::validate(Index num_velocities) const {
  const std::size_t m = phi.size();
  require(target.size() == m && compliance.size() == m && damping.size() == m && velocity_level.size() == m,
          "ConstraintRows: phi, target, compliance, damping and velocity_level must have one entry per row");
  require(labels.size() == blocks.size(), "ConstraintRows: one label per block");
  validate_blocks(blocks, static_cast<Index>(m), "ConstraintRows");
  for (const ContactRecord& c : contacts)
    if (!(c.block >= 0 && c.block < static_cast<Index>(blocks.size()) &&
          (blocks[static_cast<std::size_t>(c.block)].kind == BlockKind::kContact ||
           blocks[static_cast<std::size_t>(c.block)].kind == BlockKind::kContactBoxFriction)))
      throw Error("ConstraintRows: a contact record names block " + std::to_string(c.block) +
                  ", which is not a contact block of the " + std::to_string(blocks.size()) + " blocks");
  // Every step assembles its rows: one pass each without building messages, and the offender is
  // looked for only when a pass fails.
  auto entry_ok = [&](const Eigen::Triplet<double>& t) {
    return static_cast<std::size_t>(t.row()) < m &&
           static_cast<std::size_t>(t.col()) < static_cast<std::size_t>(num_velocities) &&
           std::abs(t.value()) <= std::numeric_limits<double>::max();
  };
  auto row_ok = [&](std::size_t k) {
    constexpr double kMax = std::numeric_limits<double>::max();
    return std::abs(phi[k]) <= kMax && std::abs(target[k]) <= kMax && compliance[k] >= 0 && compliance[k] <= kMax &&
           damping[k] >= 0 && damping[k] <= kMax;
  };
  bool all = true;
  for (const auto& t : jacobian) all = entry_ok(t) && all;
  for (std::size_t k = 0; k < m; ++k) all = row_ok(k) && all;
  if (all) return;
  for (const auto& t : jacobian)
    if (!entry_ok(t))
      throw Error("ConstraintRows: Jacobian entry (" + std::to_string(t.row()) + ", " + std::to_string(t.col()) +
                  ") is outside " + std::to_string(m) + " rows x " + std::to_string(num_velocities) +
                  " velocities or not finite");
  for (std::size_t k = 0; k < m; ++k)
    if (!row_ok(k))
      throw Error("ConstraintRows: row " + std::to_string(k) +
                  " has a non-finite phi or target, or a negative or non-finite compliance or damping");
}

void StabilizationOptions::validate() const {
  require(erp > 0 && erp <= 1, [&] { return "StabilizationOptions: erp must be in (0, 1], got " + number_text(erp); });
}

void StepWeights::validate() const {
  require(theta_q >= 0 && theta_q <= 1 && theta_v >= 0 && theta_v <= 1 && theta_vq > 0 && theta_vq <= 1, [&] {
    return "StepWeights: theta_q and theta_v must be in [0, 1] and theta_vq in (0, 1] (positions that move by the "
           "start velocity alone cannot be constrained by the end velocity), got " +
           number_text(theta_q) + ", " + number_text(theta_v) + ", " + number_text(theta_vq);
  });
}

namespace {

// The 5-argument assemble_step_problem into @p g (storage reused).
void assemble_implicit_euler(const ConstraintRows& rows, const CsrMatrix& A, const Eigen::VectorXd& v_free, double h,
                             const StabilizationOptions& options, GlobalProblem& g, InputCheck check,
                             TripletCsrPlan* h_plan) {
  options.validate();
  require(std::isfinite(h) && h > 0,
          [&] { return "assemble_step_problem: h must be finite and > 0, got " + number_text(h); });
  require(A.rows == A.cols && A.rows == v_free.size(), [&] {
    return "assemble_step_problem: A must be n x n with n = size of v_free (" + std::to_string(v_free.size()) + ")";
  });
  rows.validate(A.rows);
  // The problem is built from checked parts (the rows above, A here, H, w and the compliance by
  // construction), so it is not validated again as a whole: only what A and v_free bring in.
  for (double a : A.values) require(std::isfinite(a), "assemble_step_problem: A has a non-finite entry");
  if (check == InputCheck::kFull) require_symmetric(A, "assemble_step_problem: A");  // and A's pattern
  const Index m = rows.rows();
  g.M = A;
  g.f.resize(A.rows);  // A v_free, row by row
  for (Index i = 0; i < A.rows; ++i) {
    double s = 0.0;
    for (Index k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) s += A.values[k] * v_free[A.col_idx[k]];
    g.f[i] = s;
  }
  if (h_plan)
    h_plan->assemble(rows.jacobian, A.rows, m, /*transposed=*/true, g.H);  // H = J^T
  else
    csr_from_triplets(rows.jacobian, A.rows, m, /*transposed=*/true, g.H);
  g.w.resize(m);
  bool any_compliant = false;
  for (double c : rows.compliance) any_compliant = any_compliant || c > 0;
  g.compliance.resize(any_compliant ? m : 0);
  // A unilateral row that is still open (phi > 0) keeps its whole gap: the step may close it
  // but not cross it. erp only softens the removal of violations (bilateral errors, penetration).
  Index k = 0;
  for (const ConstraintBlock& block : rows.blocks)
    for (Index end = k + block_size(block.kind), first = k; k < end; ++k) {
      const std::size_t i = static_cast<std::size_t>(k);
      const double d = rows.damping[i];
      const bool open_gap = block.kind != BlockKind::kBilateral && k == first && rows.phi[i] > 0;
      g.w[k] = (open_gap ? 1.0 : options.erp) * rows.phi[i] / (h + d) - rows.target[i];
      if (any_compliant) g.compliance[k] = rows.compliance[i] / (h * (h + d));
    }
  g.blocks = rows.blocks;
  require(g.f.allFinite() && g.w.allFinite(), [&] {
    return std::string("assemble_step_problem: ") + (g.f.allFinite() ? "the constraint targets w" : "A v_free") +
           " overflowed (v_free, phi or target far out of range)";
  });
}

}  // namespace

void assemble_step_problem(const ConstraintRows& rows, const CsrMatrix& A, const Eigen::VectorXd& v_free, double h,
                           const StabilizationOptions& options, const StepWeights& weights, const Eigen::VectorXd& v0,
                           GlobalProblem& g, InputCheck check, TripletCsrPlan* h_plan) {
  weights.validate();
  assemble_implicit_euler(rows, A, v_free, h, options, g, check, h_plan);
  if (weights.implicit_euler()) return;
  require(v0.size() == A.rows, [&] {
    return "assemble_step_problem: v0 must have one entry per velocity DOF (" + std::to_string(A.rows) + "), got " +
           std::to_string(v0.size());
  });
  const Index m = rows.rows();
  // J v0 per row, summed into g.w's storage (no allocation per step); every row's w is written
  // below, the hard velocity-level rows with implicit Euler's expression again.
  g.w.setZero(m);
  for (const Eigen::Triplet<double>& t : rows.jacobian) g.w[t.row()] += t.value() * v0[t.col()];
  const double tq = weights.theta_q, tv = weights.theta_v, tvq = weights.theta_vq;
  // g.compliance is sized m exactly when a row is compliant (c > 0), the only rows that write it.
  Index k = 0;
  for (const ConstraintBlock& block : rows.blocks) {
    const bool unilateral = block.kind != BlockKind::kBilateral;
    for (Index end = k + block_size(block.kind), first = k; k < end; ++k) {
      const std::size_t i = static_cast<std::size_t>(k);
      const double c = rows.compliance[i], d = rows.damping[i];
      const double phidot = g.w[k];
      if (unilateral && k == first) {
        // The normal row: the gap through the position update h v^theta_vq.
        const double gain = rows.phi[i] > 0 ? 1.0 : options.erp;
        g.w[k] = (gain * rows.phi[i] / (h + d) + (1.0 - tvq) * phidot) / tvq - rows.target[i];
      } else if (c == 0 && !rows.velocity_level[i]) {
        // A hard position-level row: the violation through the position update h v^theta_vq
        // (the erp fraction removed), so the constraint holds at the positions the step reaches.
        g.w[k] = (options.erp * rows.phi[i] / h + (1.0 - tvq) * phidot) / tvq - rows.target[i];
      } else if (c > 0) {
        const double l = h * tq * tvq + d * tv;
        require(l > 0, [&] {
          return "assemble_step_problem: compliant row " + std::to_string(k) +
                 " has no damping, and theta_q theta_vq = 0 evaluates its force at the start positions: "
                 "an explicit force, not a constraint of the step";
        });
        g.w[k] = (options.erp * rows.phi[i] + (d + tq * h) * phidot) / l - phidot - rows.target[i];
        g.compliance[k] = c / (h * l);
      } else {
        // A hard velocity-level row: implicit Euler's w (no open gap: not a normal row).
        g.w[k] = options.erp * rows.phi[i] / (h + d) - rows.target[i];
      }
    }
  }
  require(g.w.allFinite(),
          "assemble_step_problem: the constraint targets w overflowed (phi or target far out of range)");
}

GlobalProblem assemble_step_problem(const ConstraintRows& rows, const CsrMatrix& A, const Eigen::VectorXd& v_free,
                                    double h, const StabilizationOptions& options, const StepWeights& weights,
                                    const Eigen::VectorXd& v0) {
  GlobalProblem g;
  assemble_step_problem(rows, A, v_free, h, options, weights, v0, g);
  return g;
}

GlobalProblem assemble_step_problem(const ConstraintRows& rows, const CsrMatrix& A, const Eigen::VectorXd& v_free,
                                    double h, const StabilizationOptions& options) {
  GlobalProblem g;
  assemble_implicit_euler(rows, A, v_free, h, options, g, InputCheck::kFull, nullptr);
  return g;
}

}  // namespace sinew::constraints
