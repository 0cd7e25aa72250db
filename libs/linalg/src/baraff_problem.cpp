// Validation of BaraffProblem: every check of the public input happens here, once, so that the
// solver behind it may assume consistent sizes and definite mass blocks.
#include "sinew/linalg/baraff_problem.hpp"
#include "sinew/core/number_text.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "sinew/core/error.hpp"

namespace sinew {
namespace {

// Throws sinew::Error with message() when condition is false; the message is built only then, so
// that validating 10^5 bodies costs no string work.
template <class Message>
void check(bool condition, Message&& message) {
  if (!condition) throw Error(message());
}

std::string size_text(Eigen::Index rows, Eigen::Index cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}

// Size, finiteness and symmetry of a mass block (assign_values() checks these only).
void check_body_values(const Eigen::MatrixXd& M, int i, double symmetry_tolerance) {
  auto who = [i] { return "BaraffProblem: body " + std::to_string(i); };
  check(M.rows() >= 1 && M.rows() == M.cols(), [&] {
    return who() + ": the mass block must be square d x d with d >= 1, got " + size_text(M.rows(), M.cols());
  });
  check(M.allFinite(), [&] { return who() + ": the mass block has a non-finite entry"; });
  double scale = 0.0, asym = 0.0;
  for (Eigen::Index c = 0; c < M.cols(); ++c)
    for (Eigen::Index r = 0; r < M.rows(); ++r) {
      scale = std::max(scale, std::abs(M(r, c)));
      asym = std::max(asym, std::abs(M(r, c) - M(c, r)));
    }
  check(asym <= symmetry_tolerance * scale, [&] {
    return who() + ": the mass block must be symmetric, but max |M_ij - M_ji| = " + number_text(asym) +
           " exceeds mass_symmetry_tolerance * max |M_ij| = " + number_text(symmetry_tolerance * scale);
  });
}

void check_body(const BaraffBody& body, int i, const BaraffProblemOptions& options) {
  check_body_values(body.mass, i, options.mass_symmetry_tolerance);
  const Eigen::LLT<Eigen::MatrixXd> llt(body.mass);
  check(!body.mass.isZero(0.0) && llt.info() == Eigen::Success, [&] {
    return "BaraffProblem: body " + std::to_string(i) +
           ": the mass block must be symmetric positive definite (its Cholesky factorization failed)";
  });
}

template <class Who>
void check_side(const Eigen::MatrixXd& jac, int body, const char* side, const Who& who,
                const std::vector<int>& body_offset) {
  const int n = static_cast<int>(body_offset.size()) - 1;
  check(body >= kBaraffWorld && body < n, [&] {
    return who() + ": body_" + side + " = " + std::to_string(body) + " must be a body index in [0, " +
           std::to_string(n) + ") or kBaraffWorld (-1)";
  });
  if (body == kBaraffWorld) {
    check(jac.size() == 0, [&] {
      return who() + ": jacobian_" + side + " must be empty (0 x 0) because body_" + side + " is the world, got " +
             size_text(jac.rows(), jac.cols());
    });
    return;
  }
  const int dim = body_offset[body + 1] - body_offset[body];
  check(jac.rows() >= 1 && jac.cols() == dim, [&] {
    return who() + ": jacobian_" + side + " must be m x " + std::to_string(dim) + " (m >= 1, dim of body " +
           std::to_string(body) + "), got " + size_text(jac.rows(), jac.cols());
  });
  check(jac.allFinite(), [&] { return who() + ": jacobian_" + side + " has a non-finite entry"; });
}

void check_constraint(const BaraffConstraint& c, int i, const std::vector<int>& body_offset) {
  auto who = [i] { return "BaraffProblem: primary constraint " + std::to_string(i); };
  check_side(c.jacobian_a, c.body_a, "a", who, body_offset);
  check_side(c.jacobian_b, c.body_b, "b", who, body_offset);
  check(c.body_a != kBaraffWorld || c.body_b != kBaraffWorld,
        [&] { return who() + ": at least one of body_a and body_b must be a body (both are the world)"; });
  check(c.body_a != c.body_b, [&] {
    return who() + ": couples body " + std::to_string(c.body_a) +
           " with itself; a one-body constraint uses kBaraffWorld (-1) as the other body";
  });
  if (c.body_a != kBaraffWorld && c.body_b != kBaraffWorld)
    check(c.jacobian_a.rows() == c.jacobian_b.rows(), [&] {
      return who() + ": jacobian_a and jacobian_b must have the same number of rows m, got " +
             std::to_string(c.jacobian_a.rows()) + " and " + std::to_string(c.jacobian_b.rows());
    });
}

// Returns whether the row is workless (no block carries an explicit force direction).
bool check_auxiliary(const BaraffAuxiliaryConstraint& a, int i, const std::vector<int>& body_offset) {
  auto who = [i] { return "BaraffProblem: auxiliary constraint " + std::to_string(i); };
  const int n = static_cast<int>(body_offset.size()) - 1;
  check(!a.blocks.empty(), [&] { return who() + ": needs at least one block (the bodies it acts on)"; });
  bool workless = true;
  for (std::size_t t = 0; t < a.blocks.size(); ++t) {
    const BaraffAuxiliaryBlock& blk = a.blocks[t];
    auto where = [&] { return who() + ", block " + std::to_string(t); };
    check(blk.body >= 0 && blk.body < n, [&] {
      return where() + ": body = " + std::to_string(blk.body) + " must be in [0, " + std::to_string(n) +
             ") (the world needs no block)";
    });
    for (std::size_t s = 0; s < t; ++s)
      check(a.blocks[s].body != blk.body, [&] {
        return where() + ": body " + std::to_string(blk.body) + " already appears in block " + std::to_string(s);
      });
    const int dim = body_offset[blk.body + 1] - body_offset[blk.body];
    check(blk.jacobian.size() == dim, [&] {
      return where() + ": jacobian must be 1 x " + std::to_string(dim) + " (dim of body " + std::to_string(blk.body) +
             "), got 1 x " + std::to_string(blk.jacobian.size());
    });
    check(blk.force.size() == 0 || blk.force.size() == dim, [&] {
      return where() + ": force must be empty (workless) or of length " + std::to_string(dim) + ", got " +
             std::to_string(blk.force.size());
    });
    check(blk.jacobian.allFinite() && blk.force.allFinite(), [&] { return where() + ": has a non-finite entry"; });
    if (blk.force.size() != 0) workless = false;
  }
  return workless;
}

}  // namespace

BaraffProblem::BaraffProblem(std::vector<BaraffBody> bodies, std::vector<BaraffConstraint> constraints,
                             std::vector<BaraffAuxiliaryConstraint> auxiliary, const BaraffProblemOptions& options)
    : bodies_(std::move(bodies)), constraints_(std::move(constraints)), auxiliary_(std::move(auxiliary)) {
  check(options.mass_symmetry_tolerance >= 0.0,
        [] { return std::string("BaraffProblemOptions: mass_symmetry_tolerance must be >= 0"); });
  mass_symmetry_tolerance_ = options.mass_symmetry_tolerance;
  body_offset_.assign(bodies_.size() + 1, 0);
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    check_body(bodies_[i], static_cast<int>(i), options);
    body_offset_[i + 1] = body_offset_[i] + static_cast<int>(bodies_[i].mass.rows());
  }
  constraint_offset_.assign(constraints_.size() + 1, 0);
  for (std::size_t i = 0; i < constraints_.size(); ++i) {
    const BaraffConstraint& c = constraints_[i];
    check_constraint(c, static_cast<int>(i), body_offset_);
    const auto m = (c.body_a != kBaraffWorld ? c.jacobian_a : c.jacobian_b).rows();
    constraint_offset_[i + 1] = constraint_offset_[i] + static_cast<int>(m);
  }
  for (std::size_t i = 0; i < auxiliary_.size(); ++i)
    auxiliary_workless_ = check_auxiliary(auxiliary_[i], static_cast<int>(i), body_offset_) && auxiliary_workless_;
}

void BaraffProblem::assign_values(const std::vector<BaraffBody>& bodies,
                                  const std::vector<BaraffConstraint>& constraints,
                                  const std::vector<BaraffAuxiliaryConstraint>& auxiliary) {
  auto same = [](bool condition, const char* what, std::size_t i) {
    check(condition, [&] {
      return "BaraffProblem::assign_values: " + std::string(what) + " " + std::to_string(i) +
             " does not have the structure of the problem's (sizes, bodies, force directions)";
    });
  };
  same(bodies.size() == bodies_.size(), "the number of bodies, at body", bodies.size());
  same(constraints.size() == constraints_.size(), "the number of primary constraints, at constraint",
       constraints.size());
  same(auxiliary.size() == auxiliary_.size(), "the number of auxiliary rows, at row", auxiliary.size());
  // Every check first, then every copy: a refused call changes nothing.
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    same(bodies[i].mass.rows() == bodies_[i].mass.rows() && bodies[i].mass.cols() == bodies_[i].mass.cols(), "body", i);
    check_body_values(bodies[i].mass, static_cast<int>(i), mass_symmetry_tolerance_);
  }
  for (std::size_t i = 0; i < constraints.size(); ++i) {
    const BaraffConstraint &c = constraints[i], &mine = constraints_[i];
    same(c.body_a == mine.body_a && c.body_b == mine.body_b && c.jacobian_a.rows() == mine.jacobian_a.rows() &&
             c.jacobian_a.cols() == mine.jacobian_a.cols() && c.jacobian_b.rows() == mine.jacobian_b.rows() &&
             c.jacobian_b.cols() == mine.jacobian_b.cols(),
         "primary constraint", i);
    check(c.jacobian_a.allFinite() && c.jacobian_b.allFinite(), [&] {
      return "BaraffProblem::assign_values: primary constraint " + std::to_string(i) + " has a non-finite entry";
    });
  }
  for (std::size_t i = 0; i < auxiliary.size(); ++i) {
    const auto &blocks = auxiliary[i].blocks, &mine = auxiliary_[i].blocks;
    bool equal = blocks.size() == mine.size();
    for (std::size_t t = 0; equal && t < blocks.size(); ++t)
      equal = blocks[t].body == mine[t].body && blocks[t].jacobian.size() == mine[t].jacobian.size() &&
              blocks[t].force.size() == mine[t].force.size();
    same(equal, "auxiliary row", i);
    for (const BaraffAuxiliaryBlock& b : blocks)
      check(b.jacobian.allFinite() && b.force.allFinite(), [&] {
        return "BaraffProblem::assign_values: auxiliary row " + std::to_string(i) + " has a non-finite entry";
      });
  }
  for (std::size_t i = 0; i < bodies.size(); ++i) bodies_[i].mass = bodies[i].mass;
  for (std::size_t i = 0; i < constraints.size(); ++i) {
    constraints_[i].jacobian_a = constraints[i].jacobian_a;
    constraints_[i].jacobian_b = constraints[i].jacobian_b;
  }
  for (std::size_t i = 0; i < auxiliary.size(); ++i)
    for (std::size_t t = 0; t < auxiliary[i].blocks.size(); ++t) {
      auxiliary_[i].blocks[t].jacobian = auxiliary[i].blocks[t].jacobian;
      auxiliary_[i].blocks[t].force = auxiliary[i].blocks[t].force;
    }
}

}  // namespace sinew
