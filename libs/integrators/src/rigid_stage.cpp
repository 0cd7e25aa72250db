#include "rigid_stage.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sinew/core/number_text.hpp"

namespace sinew::integrators::detail {
namespace {

using Vector6 = Eigen::Matrix<double, 6, 1>;

// Body velocities u[d .. d + 6) as a twist.
Twist twist_at(const Eigen::VectorXd& u, Index d) {
  return Twist{Vec3{{u[d], u[d + 1], u[d + 2]}}, Vec3{{u[d + 3], u[d + 4], u[d + 5]}}};
}

Vector6 to_vector(const Wrench& w) {
  Vector6 x;
  x << w.f[0], w.f[1], w.f[2], w.tau[0], w.tau[1], w.tau[2];
  return x;
}

// x + (1 - c)-weighted y as velocity_newton.hpp mixes velocities; exactly x for c = 1.
Vec3 mix(double c, const Vec3& x, const Vec3& y) { return c == 1.0 ? x : c * x + (1.0 - c) * y; }

// Body @p b's force P at the force point: gravity at the pose q0 (+) ah w_rot and, when @p
// gyroscopic, the fictitious force of angular velocity w_f (the terms MechanicalSystem::forces
// sums for a body); the body's inertia at that pose into @p I_f.
Vector6 body_force(const model::MechanicalSystem& system, const Eigen::VectorXd& q0, Index b, const Vec3& w_rot,
                   double ah, bool gyroscopic, const Vec3& w_f, SpatialInertia& I_f) {
  const Index p = system.body_position_offset(b);
  const Quaternion q{q0[p + 3], Vec3{{q0[p + 4], q0[p + 5], q0[p + 6]}}};
  const Mat3 R = rotation_matrix(normalized(quat_step_world(q, w_rot, ah)));
  I_f = rotate_inertia(system.body(b).inertia, R);
  Vector6 P = to_vector(system.body_gravity(R, b));
  if (gyroscopic) P += to_vector(fictitious_force(I_f, w_f));
  return P;
}

}  // namespace

const model::MechanicalSystem* rigid_stage_system(const model::DynamicalSystem& system, const NewtonOptions& options,
                                                  const VelocityStage& stage) {
  if (stage.mass_at_midpoint || stage.linearly_implicit) return nullptr;
  if (options.linear_solver != LinearSolverKind::kAuto && options.linear_solver != LinearSolverKind::kBlockDiagonal)
    return nullptr;
  const auto* mechanics = dynamic_cast<const model::MechanicalSystem*>(&system);
  return mechanics && mechanics->rigid_bodies_only() && mechanics->num_bodies() > 0 ? mechanics : nullptr;
}

bool solve_rigid_stage(const char* who, const model::MechanicalSystem& system, const State& in, double h,
                       const VelocityStage& stage, const NewtonOptions& options, RigidStageWorkspace& ws, State& out,
                       StepReport& report) {
  const Index n = system.num_velocities(), bodies = system.num_bodies();
  // A start-of-step part of the residual: a force weighted at the start or G explicit.
  const bool start_part = stage.w != 1.0 || !stage.gyroscopic_implicit;
  ws.fixed_dof.assign(static_cast<std::size_t>(n), 0);
  for (Index i : system.fixed_velocity_dofs()) {
    if (i < 0 || i >= n) return false;  // the general solver names the bad index
    ws.fixed_dof[static_cast<std::size_t>(i)] = 1;
  }
  ws.fixed_body.assign(static_cast<std::size_t>(bodies), 0);
  for (Index b = 0; b < bodies; ++b) {
    const Index d = system.body_velocity_offset(b);
    int fixed = 0;
    for (int c = 0; c < 6; ++c) fixed += ws.fixed_dof[static_cast<std::size_t>(d + c)];
    if (fixed != 0 && fixed != 6) return false;  // a partly fixed body: the general solver pins single DOFs
    ws.fixed_body[static_cast<std::size_t>(b)] = fixed == 6;
  }

  report = StepReport{};
  // The history is needed for the round-off test below; without NewtonOptions::record_residuals
  // it lives in the workspace's storage and goes back there on every return (no allocation).
  report.residual_norms.swap(ws.norms);
  report.residual_norms.clear();
  struct ReturnHistory {
    bool keep;
    std::vector<double>& from;
    std::vector<double>& to;
    ~ReturnHistory() {
      if (!keep) from.swap(to);
    }
  } return_history{options.record_residuals, report.residual_norms, ws.norms};
  const double t = in.t;
  ws.u0 = in.u;
  for (Index i : system.fixed_velocity_dofs()) ws.u0[i] = 0.0;
  system.evaluate_state(t, in.q, ws.u0, ws.start);  // checks the quaternions
  ws.inertia.resize(static_cast<std::size_t>(bodies));
  ws.factors.resize(static_cast<std::size_t>(bodies));
  ws.c0.resize(start_part ? n : 0);
  // Start-of-step forces, for the round-off floor of the tolerance as solve_velocity_stage has it.
  double Mu0 = 0.0, f0 = 0.0, g0 = 0.0;
  for (Index b = 0; b < bodies; ++b) {
    const std::size_t k = static_cast<std::size_t>(b);
    const model::BodyState& B = ws.start.bodies[k];
    ws.inertia[k] = rotate_inertia(system.body(b).inertia, B.R);
    if (!factorize_inertia(ws.inertia[k], ws.factors[k])) return false;
    Mu0 += to_vector(momentum(ws.inertia[k], twist_at(ws.u0, system.body_velocity_offset(b)))).squaredNorm();
    const Vector6 f0_b = to_vector(system.body_gravity(B.R, b)), g0_b = to_vector(fictitious_force(ws.inertia[k], B.w));
    f0 += f0_b.squaredNorm();
    g0 += g0_b.squaredNorm();
    // The residual's start-of-step part: -h [(1 - w) P0 + G_expl] (velocity_newton.hpp).
    if (start_part)
      ws.c0.segment<6>(system.body_velocity_offset(b)) =
          (-h * (1.0 - stage.w)) * f0_b - (stage.gyroscopic_implicit ? h * (1.0 - stage.w) : h) * g0_b;
  }
  if (stage.mass_at_force_point) {
    ws.inertia_f.resize(static_cast<std::size_t>(bodies));
    ws.factors_f.resize(static_cast<std::size_t>(bodies));
  }
  if (!std::isfinite(f0 + g0)) {
    report.status = StepStatus::kNonFinite;
    report.message =
        std::string(who) + ": force at the start of the step (t = " + number_text(t, 4) + ") is not finite";
    return true;
  }

  // r(u) body by body; fixed bodies keep u = 0 and r = 0 (the projection of the general solver).
  auto residual = [&](const Eigen::VectorXd& u, Eigen::VectorXd& r) {
    r.setZero(n);
    for (Index b = 0; b < bodies; ++b) {
      const std::size_t k = static_cast<std::size_t>(b);
      if (ws.fixed_body[k]) continue;
      const Index d = system.body_velocity_offset(b);
      const Twist u_b = twist_at(u, d), u0_b = twist_at(ws.u0, d);
      const Twist du{u_b.v - u0_b.v, u_b.w - u0_b.w};
      // The force point q_f = q0 (+) h a (c u + (1 - c) u0) and velocity v_f = b u + (1 - b) u0.
      SpatialInertia I_f;
      const Vector6 P = body_force(system, in.q, b, mix(stage.c, u_b.w, u0_b.w), stage.a * h, stage.gyroscopic_implicit,
                                   mix(stage.b, u_b.w, u0_b.w), I_f);
      if (stage.mass_at_force_point) ws.inertia_f[k] = I_f;
      const SpatialInertia& M = stage.mass_at_force_point ? I_f : ws.inertia[k];
      r.segment<6>(d) = to_vector(momentum(M, du)) - (h * stage.w) * P;
      if (start_part) r.segment<6>(d) += ws.c0.segment<6>(d);
    }
    return r.allFinite();
  };
  ws.u = ws.u0;
  if (!residual(ws.u, ws.r)) {
    report.status = StepStatus::kNonFinite;
    report.message =
        std::string(who) + ": residual is not finite at the start velocity (t = " + number_text(t, 4) + ")";
    return true;
  }
  double rnorm = ws.r.norm();
  report.residual_norms.reserve(static_cast<std::size_t>(options.max_iterations) + 1);  // one allocation
  report.residual_norms.push_back(rnorm);
  const double floor =
      100.0 * std::numeric_limits<double>::epsilon() * (std::sqrt(Mu0) + h * std::sqrt(f0) + h * std::sqrt(g0));
  report.tolerance = std::max({options.absolute_tolerance, options.relative_tolerance * rnorm, floor});
  for (int k = 0;; ++k) {
    report.residual_norm = rnorm;
    if (rnorm <= report.tolerance) break;
    const std::vector<double>& history = report.residual_norms;
    if (k >= 2 && rnorm <= 1e-6 * history.front() && rnorm > 0.5 * history[k - 1]) break;  // round-off floor
    if (k == options.max_iterations) return false;
    for (Index b = 0; b < bodies; ++b) {
      const std::size_t kb = static_cast<std::size_t>(b);
      if (ws.fixed_body[kb]) continue;
      const Index d = system.body_velocity_offset(b);
      const Twist r_b = twist_at(ws.r, d);  // a wrench's six numbers
      // Newton matrix M at the iterate's force point (the theta-method's M(q_f)) or at q0.
      if (stage.mass_at_force_point && !factorize_inertia(ws.inertia_f[kb], ws.factors_f[kb])) return false;
      const Twist du =
          solve_inertia(stage.mass_at_force_point ? ws.factors_f[kb] : ws.factors[kb], Wrench{r_b.v, r_b.w});
      for (int c = 0; c < 3; ++c) {
        ws.u[d + c] -= du.v[c];
        ws.u[d + 3 + c] -= du.w[c];
      }
    }
    ++report.iterations;
    ++report.linear_solves;
    if (!residual(ws.u, ws.r)) {
      report.status = StepStatus::kNonFinite;
      report.message = std::string(who) + ": residual is not finite at Newton iteration " + std::to_string(k) +
                       " (t = " + number_text(t, 4) + ")";
      return true;
    }
    const double next = ws.r.norm();
    if (!(next <= (1.0 - options.armijo) * rnorm) && next > report.tolerance) return false;  // wants a line search
    rnorm = next;
    report.residual_norms.push_back(rnorm);
  }
  out.t = t + h;
  out.u = ws.u;
  if (stage.c_end == 1.0) {
    system.advance_positions(in.q, ws.u, h, out.q);
  } else {
    ws.r = stage.c_end * ws.u + (1.0 - stage.c_end) * ws.u0;  // q1 = q0 (+) h (c_end u + (1 - c_end) u0)
    system.advance_positions(in.q, ws.r, h, out.q);
  }
  if (!out.q.allFinite() || !out.u.allFinite()) {
    report.status = StepStatus::kNonFinite;
    report.message = std::string(who) + ": the new state at t = " + number_text(t + h, 4) + " is not finite";
  }
  return true;
}

}  // namespace sinew::integrators::detail
