// Private to the integrators library: the velocity stage of implicit Euler and the theta-method
// for rigid bodies under gravity alone, solved body by body. No force couples two bodies there,
// so the stage matrix of velocity_newton.hpp is block diagonal and its Newton iteration needs no
// sparse assembly, no ordering and no global factorization: one closed-form factor of the
// spatial inertia per body (per step, or per iteration where M is taken at the force point).
#pragma once

#include <Eigen/Core>
#include <vector>

#include "sinew/core/spatial_inertia.hpp"
#include "sinew/integrators/integrator.hpp"
#include "sinew/integrators/newton_options.hpp"
#include "sinew/model/mechanical_system.hpp"
#include "velocity_newton.hpp"

namespace sinew::integrators::detail {

// Buffers of solve_rigid_stage, kept between steps so that a step allocates nothing.
struct RigidStageWorkspace {
  model::SystemState start;             // poses and twists at the start
  std::vector<SpatialInertia> inertia;  // each body's M_b(q0): its inertia in world-aligned axes
  // Their factors M_b = G G^T in closed form (mechanics notes sec. 0.1: a 3x3 Cholesky of the
  // rotational inertia, a fifth of a 6x6 LLT's work).
  std::vector<SpatialInertiaFactor> factors;
  // M_b at the last residual's force point and its factor (the theta-method's M(q_f)).
  std::vector<SpatialInertia> inertia_f;
  std::vector<SpatialInertiaFactor> factors_f;
  std::vector<char> fixed_dof, fixed_body;  // fixed_velocity_dofs as flags
  Eigen::VectorXd u0, u, r;                 // start velocity, iterate, residual
  Eigen::VectorXd c0;                       // the residual's start-of-step part (empty for implicit Euler)
  std::vector<double> norms;                // the residual history's storage while a report does not keep it
};

// @p system as a MechanicalSystem when @p stage can be solved body by body: rigid bodies under
// gravity alone (MechanicalSystem::rigid_bodies_only), a linear solver option of kAuto or
// kBlockDiagonal (a solver asked for by name is used as asked), and a stage with M at q0 or at
// the force point (not at the midpoint) solved to convergence (not linearly implicit); else null.
const model::MechanicalSystem* rigid_stage_system(const model::DynamicalSystem& system, const NewtonOptions& options,
                                                  const VelocityStage& stage);

// The stage of velocity_newton.hpp, r(u) = M (u - u0) - h [w P(q_f, v_f) + (1 - w) P0] - h G_expl
// = 0, with P gravity plus (when implicit) the fictitious force of each body, M at q0 or at the
// force point; for implicit Euler (a = b = c = w = c_end = 1, M(q0)) r(u) = M(q0) (u - u0) -
// h f(q0 (+) h u, u) (ArtiSynth notes 0.9.2). Iterated as solve_velocity_stage does: Newton
// matrix M (dM/dq, dG/du and gravity's O(h^2) stiffness of an offset centre of mass dropped), the
// same tolerance, round-off stop and report. Returns true with @p report and @p out filled when
// it converged or hit numerical trouble (kNonFinite); false, with nothing to use, when a body's
// DOFs are partly fixed or the iteration stopped decreasing |r| or ran out of iterations: the
// caller then runs the general solver, whose line search handles such steps.
bool solve_rigid_stage(const char* who, const model::MechanicalSystem& system, const State& in, double h,
                       const VelocityStage& stage, const NewtonOptions& options, RigidStageWorkspace& ws, State& out,
                       StepReport& report);

}  // namespace sinew::integrators::detail
