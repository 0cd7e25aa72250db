// Step a deformable bar, clamped at one end, with implicit Euler: a cantilever sagging under
// gravity. Implicit Euler is dissipative, so the bar comes to rest at its static deflection and
// the total energy never grows; both are checked.
#include <cmath>
#include <cstdio>

#include "sinew/integrators/implicit_euler.hpp"
#include "sinew/model/mechanical_system.hpp"
#include "sinew/scene/deformable_body.hpp"
#include "sinew/scene/procedural_mesh.hpp"

int main() {
  // A 1 m x 0.1 m x 0.1 m bar of 10 x 1 x 1 cells (6 tets each), along x.
  const sinew::scene::TetMesh mesh =
      sinew::scene::box_tet_mesh(sinew::Vec3{{0, 0, 0}}, sinew::Vec3{{1.0, 0.1, 0.1}}, 10, 1, 1);

  // Particles with lumped masses and one FEM field: stable Neo-Hookean, E = 1e6 Pa, nu = 0.3.
  sinew::model::MechanicalSystem system;
  system.set_gravity(sinew::Vec3{{0, 0, -9.81}});
  const sinew::scene::DeformableBody bar = sinew::scene::add_deformable_body(
      system, mesh, /*density=*/1000.0, sinew::MaterialModel::kStableNeoHookean, {1e6, 0.3});

  // Clamp the x = 0 face: fixed particles keep zero velocity in every integrator.
  sinew::Index tip = 0;
  for (sinew::Index i = 0; i < bar.num_particles; ++i) {
    const sinew::Vec3& x = mesh.vertices[i];
    if (x[0] == 0.0) system.fix_particle(bar.first_particle + i);
    if (x[0] == 1.0 && x[2] == 0.0) tip = bar.first_particle + i;  // a bottom corner of the free end
  }

  sinew::integrators::State state;
  state.q = system.initial_positions();
  state.u = system.initial_velocities();
  sinew::integrators::ImplicitEuler integrator;  // Newton with line search on the incremental potential

  const double h = 0.02;  // large steps: implicit Euler damps the swing fast (numerical damping ~ h)
  auto energy = [&] {
    return system.kinetic_energy(state.t, state.q, state.u) + system.potential_energy(state.t, state.q);
  };
  double previous = energy(), energy_growth = 0.0, peak_kinetic = 0.0;
  int newton_iterations = 0;
  for (int step = 0; step < 500; ++step) {
    const sinew::integrators::StepReport report = integrator.step(system, state, h);
    if (!report.ok()) {  // a failed step leaves the state unchanged and says why
      std::fprintf(stderr, "step %d: %s\n", step, sinew::integrators::to_string(report.status));
      return 1;
    }
    newton_iterations += report.iterations;
    const double e = energy();
    energy_growth = std::max(energy_growth, e - previous);
    peak_kinetic = std::max(peak_kinetic, system.kinetic_energy(state.t, state.q, state.u));
    previous = e;
  }

  const double tip_z = system.particle_position(state.q, tip)[2];
  const double kinetic = system.kinetic_energy(state.t, state.q, state.u);
  std::printf(
      "t = %.2f s: tip z = %.4f m, kinetic energy %.2e J (peak %.2e J), %d Newton iterations, "
      "max energy growth %.1e J\n",
      state.t, tip_z, kinetic, peak_kinetic, newton_iterations, energy_growth);
  // Sagged, nearly at rest, and no step created energy (beyond round-off of the Newton tolerance).
  return (tip_z < -0.1 && kinetic < 1e-3 * peak_kinetic && energy_growth < 1e-6) ? 0 : 1;
}
