// sinew's rigid multibody step with frictional contact side by side with MuJoCo (Debian's
// libmujoco 2.2.2, linked into this program), on the same scenes at the same step, each run
// whole from its initial state:
//
//  * drop:  a 0.2 m, 1 kg cube dropped flat from 0.2 m while sliding at 2 m/s on a floor with
//           mu = 0.5, 600 steps of 1 ms (scene::drop_scene). Closed form of the rest position
//           (tests/physics/contact_drop_test.cpp): x = 2 t_f + (2 - mu sqrt(2 g H))^2 / (2 mu g)
//           = 0.5077 m; counter x_error = |x / x_exact - 1| at the end of the run.
//  * stack: ten 1 kg boxes 0.1 m high (half widths 0.100 - 0.002 k) resting on the floor, mu =
//           0.5, 500 steps of 1 ms (scene::box_stack_scene); counter top_drift = how far the top
//           box's centre moved (m): both should hold the stack still.
//  * chain: 20 links (0.1 m, 0.2 kg rods) joined by hinges about y, the first to the world,
//           released horizontal, 1000 steps of 1 ms, no contact. Counters tip_z (height of the
//           free end after 1 s, m), tip_error (its distance from the exact motion's, which
//           MuJoCo's RK4 at 0.25 ms gives to ~1e-9 m) and joint_gap (sinew's largest distance
//           between a joint's two anchors at the end; reduced coordinates have none).
//           MuJoCo's Euler at 1 ms is 50x less accurate than sinew's implicit Euler there, so
//           two more MuJoCo rows: its Euler at 20 us (50 steps per ms, as accurate as sinew at
//           1 ms; us_per_step per simulated ms) and its RK4 at 1 ms. The chain also runs in
//           sinew's joint coordinates (model::KinematicTree) with MuJoCo's two schemes,
//           symplectic Euler and RK4 (".../sinew_tree_euler", ".../sinew_tree_rk4").
//  * chain_floor: the same chain, its pivot 0.5 m above the floor and a 0.1 x 0.02 x 0.02 m box
//           on every link, falls onto the floor (mu = 0.5) and onto itself, 1000 steps of 1 ms.
//           Neighbouring links do not touch (MuJoCo filters a body's contacts with its parent;
//           sinew excludes the pairs, constraints::ContactConstraint::exclude_bodies). sinew in
//           joint coordinates with contact through model::TreeBodies and SAP
//           (".../sinew_tree_sap"). Counters tip_z and contacts (at the end).
//
// sinew steps with integrators::ContactStep (implicit Euler, velocity-level contact) and the
// solver of --solver (newton_minmap, newton_fb, pgs, sap) on the Signorini-Coulomb problem;
// the rows ".../sinew_sap" step the cube and the stack with SAP (constraints::SapSolver: the
// convex, near-rigid model of the theta-method seed, solved in the velocities without forming
// the Delassus matrix), MuJoCo's own kind of model. Counter solver_iterations: the contact
// solver's iterations per step. MuJoCo with its Newton solver, pyramidal
// friction cone, Euler integrator (MuJoCo's defaults) and the same friction (its default soft
// contact parameters). Counters: us_per_step (wall time of the run over its steps) and the
// accuracy counter of the scene: a speed figure counts only where both are accurate; sinew's
// joint_error is the largest ContactStepReport::joint_error of the run (m or rad) and
// joint_error_steps counts the steps whose joints had come apart (above_joint_error_limit: a
// joint error above 1 cm or 0.01 rad at the step's start).
//
//   multibody_bench [--solver=newton_minmap] [Google Benchmark flags]
#include <benchmark/benchmark.h>
#include <mujoco/mujoco.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench_flags.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/constraints/joint_types.hpp"
#include "sinew/constraints/newton_solver.hpp"
#include "sinew/constraints/pgs_solver.hpp"
#include "sinew/core/quaternion.hpp"
#include "sinew/integrators/contact_step.hpp"
#include "sinew/integrators/make_integrator.hpp"
#include "sinew/model/kinematic_tree.hpp"
#include "sinew/model/mechanical_system.hpp"
#include "sinew/model/tree_bodies.hpp"
#include "sinew/scene/contact_scenes.hpp"

// Heap allocations, counted by interposing the C allocator (operator new, Eigen's aligned
// allocations and the standard containers all end in malloc), for the sinew scenes' counter
// allocs_per_step: the steps after the first should allocate nothing (issue 22 point 7), and
// alloc_steps counts those that allocated at all. The buffers only grow, so these are the steps
// whose contact set is larger than any before (the dropped cube's landing, the stack settling).
// MuJoCo allocates its arena once in mj_makeData, sized for its declared maximum of contacts.
std::atomic<long> g_allocations{0};

extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void __libc_free(void* p);
void* malloc(std::size_t size) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_calloc(count, size);
}
void* realloc(void* p, std::size_t size) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_realloc(p, size);
}
void free(void* p) noexcept { __libc_free(p); }
}

namespace {

using namespace sinew;

constexpr double kHalf = 0.1, kDrop = 0.2, kSpeed = 2.0, kMu = 0.5, kStep = 1e-3;
constexpr int kDropSteps = 600, kStackSteps = 500, kBoxes = 10;
constexpr int kLinks = 20, kChainSteps = 1000;
constexpr double kLinkLength = 0.1, kLinkMass = 0.2, kLinkRadius = 0.01;
std::string g_solver = "newton_minmap";
std::unique_ptr<Backend> g_backend;

double drop_rest_x() {
  const double g = scene::kGravity, vz = std::sqrt(2 * g * kDrop), vx = kSpeed - kMu * vz;
  return kSpeed * std::sqrt(2 * kDrop / g) + vx * vx / (2 * kMu * g);
}

std::unique_ptr<constraints::ConstraintSolver> make_solver(const std::string& solver) {
  if (solver == "sap") return nullptr;  // ContactStep solves the global form by SAP
  if (solver == "pgs") {
    constraints::PgsOptions o;
    o.stop = {1e-8, 10000};
    return std::make_unique<constraints::PgsSolver>(o);
  }
  constraints::NewtonOptions o;
  o.function = solver == "newton_fb" ? constraints::NcpFunction::kFischerBurmeister : constraints::NcpFunction::kMinMap;
  return std::make_unique<constraints::NewtonSolver>(*g_backend, o);
}

// Runs @p steps steps of ContactStep (step @p h, @p options) from @p s; false (with the reason in the state) on a
// failed step.
bool run_sinew(benchmark::State& state, const model::MechanicalSystem& system,
               const std::vector<const constraints::Constraint*>& constraints, integrators::State& s, int steps,
               const std::string& solver = g_solver, double h = kStep,
               const integrators::ContactStepOptions& options = {}) {
  integrators::ContactStep stepper(make_solver(solver), options);
  long after_first = 0;              // heap allocations of the steps after the first
  int allocating_steps = 0;          // how many of those steps allocated (a new largest contact set)
  long iterations = 0;               // of the contact solver, over all steps
  int flagged = 0;                   // steps whose joints had come apart (above_joint_error_limit)
  double largest_joint_error = 0.0;  // over the steps' starts
  integrators::ContactStepReport r;  // filled in place: its storage is reused from step to step
  for (int k = 0; k < steps; ++k) {
    const long before = g_allocations.load(std::memory_order_relaxed);
    stepper.step(system, constraints, s, h, r);
    const long allocated = g_allocations.load(std::memory_order_relaxed) - before;
    if (k > 0) {
      after_first += allocated;
      allocating_steps += allocated > 0 ? 1 : 0;
    }
    iterations += r.contact.iterations;
    flagged += r.above_joint_error_limit ? 1 : 0;
    largest_joint_error = std::max(largest_joint_error, r.joint_error);
    if (!r.ok()) {
      state.SkipWithError(("sinew step failed: " + r.message).c_str());
      return false;
    }
  }
  state.counters["allocs_per_step"] = static_cast<double>(after_first) / std::max(1, steps - 1);
  state.counters["alloc_steps"] = allocating_steps;
  state.counters["solver_iterations"] = static_cast<double>(iterations) / steps;
  state.counters["joint_error_steps"] = flagged;
  state.counters["joint_error"] = largest_joint_error;
  return true;
}

// Wall time of the runs (from each scene's construction to its last step) per step, in us.
class StepClock {
 public:
  void start() { begin_ = std::chrono::steady_clock::now(); }
  void stop() { total_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - begin_).count(); }
  void report(benchmark::State& state, int steps) const {
    state.counters["us_per_step"] = 1e6 * total_ / (static_cast<double>(state.iterations()) * steps);
  }

 private:
  std::chrono::steady_clock::time_point begin_;
  double total_ = 0.0;
};

void sinew_drop(benchmark::State& state, const std::string& solver) {
  double x = 0.0;
  StepClock clock;
  for (auto _ : state) {
    clock.start();
    scene::ContactScene s = scene::drop_scene(kHalf, kDrop, kSpeed, kMu);
    if (!run_sinew(state, *s.system, s.constraints(), s.state, kDropSteps, solver)) return;
    clock.stop();
    x = s.body_position(0)[0];
  }
  clock.report(state, kDropSteps);
  state.counters["x_error"] = std::abs(x / drop_rest_x() - 1.0);
}

void sinew_stack(benchmark::State& state, const std::string& solver) {
  double drift = 0.0;
  StepClock clock;
  for (auto _ : state) {
    clock.start();
    scene::ContactScene s = scene::box_stack_scene(kBoxes, kMu);
    const Vec3 start = s.body_position(kBoxes - 1);
    if (!run_sinew(state, *s.system, s.constraints(), s.state, kStackSteps, solver)) return;
    clock.stop();
    drift = norm(s.body_position(kBoxes - 1) - start);
  }
  clock.report(state, kStackSteps);
  state.counters["top_drift"] = drift;
}

// The chain's link inertia about its centre (a rod along x): the same numbers in both.
Vec3 link_inertia() {
  const double r2 = kLinkRadius * kLinkRadius, L2 = kLinkLength * kLinkLength;
  return Vec3{{0.5 * kLinkMass * r2, kLinkMass * (3 * r2 + L2) / 12, kLinkMass * (3 * r2 + L2) / 12}};
}

// The hinge chain as a sinew system: bodies at the links' centres, joint anchors at their ends.
struct SinewChain {
  model::MechanicalSystem system;
  std::vector<std::unique_ptr<constraints::Joint>> joints;
  std::vector<const constraints::Constraint*> constraints;
  integrators::State state;
};

std::unique_ptr<SinewChain> make_sinew_chain() {
  auto c = std::make_unique<SinewChain>();
  const Vec3 I = link_inertia();
  const SpatialInertia inertia =
      make_spatial_inertia(kLinkMass, Vec3{{0, 0, 0}}, Mat3{{I[0], 0, 0, 0, I[1], 0, 0, 0, I[2]}});
  c->system.set_gravity(Vec3{{0, 0, -scene::kGravity}});
  const Vec3 y{{0, 1, 0}}, half{{0.5 * kLinkLength, 0, 0}};
  for (int i = 0; i < kLinks; ++i) {
    c->system.add_body(inertia, Vec3{{(i + 0.5) * kLinkLength, 0, 0}}, quat_identity());
    const constraints::JointSide parent =
        i == 0 ? constraints::world_side(Vec3{{0, 0, 0}}, y) : constraints::body_side(i - 1, half, y);
    c->joints.push_back(std::make_unique<constraints::HingeJoint>("hinge " + std::to_string(i), parent,
                                                                  constraints::body_side(i, -1.0 * half, y)));
    c->constraints.push_back(c->joints.back().get());
  }
  c->state.q = c->system.initial_positions();
  c->state.u = c->system.initial_velocities();
  return c;
}

// A point of body @p b of the chain, given in the body's frame.
Vec3 chain_point(const SinewChain& c, Index b, const Vec3& local) {
  Vec3 x;
  Quaternion r;
  c.system.body_pose(c.state.q, b, x, r);
  return x + rotate(r, local);
}

double chain_tip_reference();  // the exact motion's tip height after 1 s (with MuJoCo's models below)

// The chain for 1 s of motion at step @p h with @p options; us_per_step per kStep of simulated
// time (so that rows of other steps compare per simulated ms).
void sinew_chain_run(benchmark::State& state, double h, const integrators::ContactStepOptions& options) {
  const Vec3 half{{0.5 * kLinkLength, 0, 0}};
  const int steps = static_cast<int>(std::lround(kChainSteps * kStep / h));
  double tip_z = 0.0, gap = 0.0;
  StepClock clock;
  for (auto _ : state) {
    clock.start();
    const std::unique_ptr<SinewChain> c = make_sinew_chain();
    if (!run_sinew(state, c->system, c->constraints, c->state, steps, g_solver, h, options)) return;
    clock.stop();
    tip_z = chain_point(*c, kLinks - 1, half)[2];
    gap = norm(chain_point(*c, 0, -1.0 * half));
    for (Index i = 1; i < kLinks; ++i)
      gap = std::max(gap, norm(chain_point(*c, i, -1.0 * half) - chain_point(*c, i - 1, half)));
  }
  clock.report(state, kChainSteps);
  state.counters["tip_z"] = tip_z;
  state.counters["tip_error"] = std::abs(tip_z - chain_tip_reference());
  state.counters["joint_gap"] = gap;
}

void sinew_chain(benchmark::State& state) { sinew_chain_run(state, kStep, {}); }

// Work against accuracy (chain_wp/...): the chain's 1 s at the step of the row's argument (us),
// implicit Euler or theta = 1/2 (the midpoint scheme, second order: ContactStepOptions::theta).
void sinew_chain_wp(benchmark::State& state, bool midpoint) {
  integrators::ContactStepOptions options;
  if (midpoint) {
    options.theta = integrators::ThetaOptions{};
    options.theta->newton.record_residuals = false;  // as the default free motion: no history to allocate
  }
  sinew_chain_run(state, 1e-6 * static_cast<double>(state.range(0)), options);
}

// The chain in joint coordinates (model::KinematicTree): one hinge per link about y, each body's
// frame at its link's centre as in the maximal chain, released horizontal (q = 0).
model::KinematicTree make_tree_chain() {
  model::KinematicTree tree(Vec3{{0, 0, -scene::kGravity}});
  const Vec3 I = link_inertia();
  for (int i = 0; i < kLinks; ++i) {
    model::TreeBody b;
    b.parent = i - 1;
    b.axis = Vec3{{0, 1, 0}};
    b.joint_in_parent = Vec3{{i == 0 ? 0.0 : 0.5 * kLinkLength, 0, 0}};
    b.joint_in_body = Vec3{{-0.5 * kLinkLength, 0, 0}};
    b.inertia = make_spatial_inertia(kLinkMass, Vec3{{0, 0, 0}}, Mat3{{I[0], 0, 0, 0, I[1], 0, 0, 0, I[2]}});
    tree.add_body(b);
  }
  return tree;
}

// The tree chain for 1 s at step @p h with sinew's integrator @p name ("symplectic_euler": the
// scheme of MuJoCo's "Euler"; "runge_kutta4": of its "RK4"); us_per_step per kStep of simulated time.
void tree_chain_run(benchmark::State& state, const char* name, double h) {
  const model::KinematicTree tree = make_tree_chain();
  const int steps = static_cast<int>(std::lround(kChainSteps * kStep / h));
  double tip_z = 0.0;
  long after_first = 0;
  StepClock clock;
  for (auto _ : state) {
    clock.start();
    const std::unique_ptr<integrators::Integrator> integrator = integrators::make_integrator(name);
    integrators::State s{0.0, Eigen::VectorXd::Zero(kLinks), Eigen::VectorXd::Zero(kLinks)};
    after_first = 0;
    for (int k = 0; k < steps; ++k) {
      const long before = g_allocations.load(std::memory_order_relaxed);
      const integrators::StepReport r = integrator->step(tree, s, h);
      if (k > 0) after_first += g_allocations.load(std::memory_order_relaxed) - before;
      if (!r.ok()) {
        state.SkipWithError(("sinew tree step failed: " + r.message).c_str());
        return;
      }
    }
    clock.stop();
    tip_z = tree.body_point(s.q, kLinks - 1, Vec3{{0.5 * kLinkLength, 0, 0}})[2];
  }
  clock.report(state, kChainSteps);
  state.counters["tip_z"] = tip_z;
  state.counters["tip_error"] = std::abs(tip_z - chain_tip_reference());
  state.counters["joint_gap"] = 0.0;
  state.counters["allocs_per_step"] = static_cast<double>(after_first) / std::max(1, steps - 1);
}

// The chain on the floor (the file comment): the tree of make_tree_chain() with a box on every
// link, its neighbours excluded, stepped by ContactStep through model::TreeBodies with SAP.
constexpr double kPivotHeight = 0.5;
const Vec3 kLinkBoxHalf{{0.5 * kLinkLength, kLinkRadius, kLinkRadius}};

void sinew_chain_floor(benchmark::State& state, const integrators::ContactStepOptions& options) {
  const model::KinematicTree tree = make_tree_chain();
  const model::TreeBodies bodies(tree);
  constraints::ContactOptions o;
  o.mu = kMu;
  constraints::ContactConstraint contact(o);
  const Obstacle floor = half_space_obstacle(Vec3{{0, 0, -kPivotHeight}}, Vec3{{0, 0, 1}});
  contact.add_obstacle(floor.shape, floor.pose);
  for (Index b = 0; b < kLinks; ++b) {
    contact.add_body_collider(b, scene::box_shape(kLinkBoxHalf));
    if (b > 0) contact.exclude_bodies(b - 1, b);
  }
  const std::vector<const constraints::Constraint*> constraints{&contact};  // not rebuilt (allocated) per step
  double tip_z = 0.0;
  Index contacts = 0;
  long after_first = 0, iterations = 0;
  int allocating_steps = 0;
  StepClock clock;
  for (auto _ : state) {
    clock.start();
    integrators::ContactStep stepper(nullptr, options);
    integrators::State s{0.0, Eigen::VectorXd::Zero(kLinks), Eigen::VectorXd::Zero(kLinks)};
    integrators::ContactStepReport r;
    after_first = iterations = 0;
    allocating_steps = 0;
    for (int k = 0; k < kChainSteps; ++k) {
      const long before = g_allocations.load(std::memory_order_relaxed);
      stepper.step(tree, bodies, constraints, s, kStep, r);
      const long allocated = g_allocations.load(std::memory_order_relaxed) - before;
      iterations += r.contact.iterations;
      if (k > 0) {
        after_first += allocated;
        allocating_steps += allocated > 0 ? 1 : 0;
      }
      if (!r.ok()) {
        state.SkipWithError(("sinew tree contact step failed: " + r.message).c_str());
        return;
      }
    }
    clock.stop();
    tip_z = tree.body_point(s.q, kLinks - 1, Vec3{{0.5 * kLinkLength, 0, 0}})[2];
    contacts = r.contacts;
  }
  clock.report(state, kChainSteps);
  state.counters["tip_z"] = tip_z;
  state.counters["contacts"] = static_cast<double>(contacts);
  state.counters["allocs_per_step"] = static_cast<double>(after_first) / (kChainSteps - 1);
  state.counters["alloc_steps"] = allocating_steps;
  state.counters["solver_iterations"] = static_cast<double>(iterations) / kChainSteps;
}

// A MuJoCo model from MJCF text; nullptr when it does not load, with MuJoCo's reason in @p error
// (parse_mjcf) or in the benchmark's state (load_mjcf).
struct MjModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct MjDataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using MjModelPtr = std::unique_ptr<mjModel, MjModelDeleter>;
using MjDataPtr = std::unique_ptr<mjData, MjDataDeleter>;

MjModelPtr parse_mjcf(const std::string& xml, std::string& error) {
  const auto vfs = std::make_unique<mjVFS>();  // megabytes: not on the stack
  mj_defaultVFS(vfs.get());
  mj_makeEmptyFileVFS(vfs.get(), "scene.xml", static_cast<int>(xml.size()));
  std::copy(xml.begin(), xml.end(), static_cast<char*>(vfs->filedata[vfs->nfile - 1]));
  char text[1000] = "";
  MjModelPtr m(mj_loadXML("scene.xml", vfs.get(), text, sizeof(text)));
  mj_deleteVFS(vfs.get());
  error = text;
  return m;
}

MjModelPtr load_mjcf(benchmark::State& state, const std::string& xml) {
  std::string error;
  MjModelPtr m = parse_mjcf(xml, error);
  if (!m) state.SkipWithError(("MuJoCo cannot load the scene: " + error).c_str());
  return m;
}

// A fresh mjData of @p m, set up by @p start, then @p steps steps: timed by @p clock from the
// data's creation on, as sinew's runs are from the scene's.
template <class Start>
MjDataPtr run_mujoco(const mjModel& m, int steps, StepClock& clock, Start start) {
  clock.start();
  MjDataPtr d(mj_makeData(&m));
  start(*d);
  for (int k = 0; k < steps; ++k) mj_step(&m, d.get());
  clock.stop();
  return d;
}

// The options shared by the scenes: the same step and friction as sinew, MuJoCo's own solver
// (its Euler unless @p integrator says otherwise), at step @p step.
std::string mjcf_header(double step = kStep, const char* integrator = "Euler") {
  std::ostringstream timestep;
  timestep.precision(17);
  timestep << step;
  return "<mujoco><option timestep='" + timestep.str() +
         "' gravity='0 0 -9.81' solver='Newton' cone='pyramidal' integrator='" + integrator +
         "'/>"
         "<default><geom friction='" +
         std::to_string(kMu) + " 0.005 0.0001'/></default><worldbody><geom name='floor' type='plane' size='5 5 0.1'/>";
}

void mujoco_drop(benchmark::State& state) {
  const std::string xml = mjcf_header() + "<body pos='0 0 " + std::to_string(kDrop + kHalf) +
                          "'><freejoint/><geom type='box' size='0.1 0.1 0.1' mass='1'/></body></worldbody></mujoco>";
  MjModelPtr m = load_mjcf(state, xml);
  if (!m) return;
  double x = 0.0;
  StepClock clock;
  for (auto _ : state) {
    const MjDataPtr d = run_mujoco(*m, kDropSteps, clock, [](mjData& start) { start.qvel[0] = kSpeed; });
    x = d->qpos[0];
  }
  clock.report(state, kDropSteps);
  state.counters["x_error"] = std::abs(x / drop_rest_x() - 1.0);
}

void mujoco_stack(benchmark::State& state) {
  std::string xml = mjcf_header();
  for (int k = 0; k < kBoxes; ++k) {
    const double hw = scene::stack_half_width(k);
    xml += "<body pos='0 0 " + std::to_string(0.05 + 0.1 * k) + "'><freejoint/><geom type='box' size='" +
           std::to_string(hw) + " " + std::to_string(hw) + " 0.05' mass='1'/></body>";
  }
  xml += "</worldbody></mujoco>";
  MjModelPtr m = load_mjcf(state, xml);
  if (!m) return;
  double drift = 0.0;
  StepClock clock;
  for (auto _ : state) {
    const int top = 7 * (kBoxes - 1);
    double x0 = 0.0, y0 = 0.0, z0 = 0.0;
    const MjDataPtr d = run_mujoco(*m, kStackSteps, clock, [&](mjData& start) {
      x0 = start.qpos[top];
      y0 = start.qpos[top + 1];
      z0 = start.qpos[top + 2];
    });
    drift = std::hypot(d->qpos[top] - x0, d->qpos[top + 1] - y0, d->qpos[top + 2] - z0);
  }
  clock.report(state, kStackSteps);
  state.counters["top_drift"] = drift;
}

// The chain as MJCF at step @p step with @p integrator: nested bodies, each framed at its hinge,
// the rod's centre of mass half a link further along x.
std::string mujoco_chain_xml(double step, const char* integrator, bool on_floor = false) {
  // Every number to the last digit: std::to_string's six decimals would make the links' inertia
  // 0.2% off sinew's (1.7167e-4 written as 0.000172), a different model by ~1e-5 m at the tip.
  const auto num = [](double v) {
    std::ostringstream out;
    out.precision(17);
    out << v;
    return out.str();
  };
  const Vec3 I = link_inertia();
  std::string xml = mjcf_header(step, integrator), close;
  for (int k = 0; k < kLinks; ++k) {
    xml += "<body pos='" + num(k == 0 ? 0.0 : kLinkLength) + " 0 " + num(k == 0 && on_floor ? kPivotHeight : 0.0) +
           "'><joint type='hinge' axis='0 1 0'/>" + "<inertial pos='" + num(0.5 * kLinkLength) + " 0 0' mass='" +
           num(kLinkMass) + "' diaginertia='" + num(I[0]) + " " + num(I[1]) + " " + num(I[2]) + "'/>";
    if (on_floor)
      xml += "<geom type='box' pos='" + num(0.5 * kLinkLength) + " 0 0' size='" + num(kLinkBoxHalf[0]) + " " +
             num(kLinkBoxHalf[1]) + " " + num(kLinkBoxHalf[2]) + "'/>";
    close += "</body>";
  }
  return xml + close + "</worldbody></mujoco>";
}

// The chain's free end: the last body's frame (its hinge) plus one link along its x axis, at the
// state's positions. mj_step leaves xpos and xmat as its forward pass found them, before it moved
// qpos (one step behind with Euler, ~2.5 mm at the tip at 1 ms): they are recomputed first.
double mujoco_tip_z(const mjModel& m, mjData& d) {
  mj_kinematics(&m, &d);
  const double* R = d.xmat + 9 * kLinks;  // body 0 is the world
  return d.xpos[3 * kLinks + 2] + kLinkLength * R[6];
}

// The chain's tip height after 1 s of the exact motion: MuJoCo's RK4 at 0.25 ms (-0.916765, within
// 2e-9 m of its 0.125 ms run), onto which sinew's RK4 in joint coordinates and its theta = 1/2 step
// in maximal coordinates converge under halving (implicit Euler at first order). Computed once.
double chain_tip_reference() {
  static const double reference = [] {
    std::string error;
    const MjModelPtr m = parse_mjcf(mujoco_chain_xml(0.25 * kStep, "RK4"), error);
    if (!m) return std::nan("");
    const MjDataPtr d(mj_makeData(m.get()));
    for (int k = 0; k < 4 * kChainSteps; ++k) mj_step(m.get(), d.get());
    return mujoco_tip_z(*m, *d);
  }();
  return reference;
}

// MuJoCo's chain for 1 s of motion at step @p h with @p integrator; us_per_step is per kStep of
// simulated time, so that rows of other steps and of equal accuracy compare.
void mujoco_chain_run(benchmark::State& state, const char* integrator, double h) {
  MjModelPtr m = load_mjcf(state, mujoco_chain_xml(h, integrator));
  if (!m) return;
  const int steps = static_cast<int>(std::lround(kChainSteps * kStep / h));
  double tip_z = 0.0;
  StepClock clock;
  for (auto _ : state) {
    const MjDataPtr d = run_mujoco(*m, steps, clock, [](mjData&) {});
    // MuJoCo resets a diverged simulation and carries on: its end state then means nothing.
    if (d->warning[mjWARN_BADQACC].number > 0) {
      state.SkipWithError(("MuJoCo diverged: a non-finite or huge acceleration at DOF " +
                           std::to_string(d->warning[mjWARN_BADQACC].lastinfo) + " (" + integrator +
                           ", h = " + std::to_string(h) + " s)")
                              .c_str());
      return;
    }
    tip_z = mujoco_tip_z(*m, *d);
  }
  clock.report(state, kChainSteps);
  state.counters["tip_z"] = tip_z;
  state.counters["tip_error"] = std::abs(tip_z - chain_tip_reference());
  state.counters["joint_gap"] = 0.0;
}

void mujoco_chain(benchmark::State& state) { mujoco_chain_run(state, "Euler", kStep); }

// The chain on the floor (the file comment) with MuJoCo's Euler at 1 ms.
void mujoco_chain_floor(benchmark::State& state) {
  MjModelPtr m = load_mjcf(state, mujoco_chain_xml(kStep, "Euler", /*on_floor=*/true));
  if (!m) return;
  double tip_z = 0.0;
  int contacts = 0;
  StepClock clock;
  for (auto _ : state) {
    const MjDataPtr d = run_mujoco(*m, kChainSteps, clock, [](mjData&) {});
    tip_z = mujoco_tip_z(*m, *d) - kPivotHeight;  // in sinew's frame: the pivot at 0
    contacts = d->ncon;
  }
  clock.report(state, kChainSteps);
  state.counters["tip_z"] = tip_z;
  state.counters["contacts"] = contacts;
}
// MuJoCo's Euler as accurate as sinew's implicit Euler at 1 ms (tip within ~1.3e-3 m): its error
// falls linearly with the step, 6e-2 m at 1 ms.
void mujoco_chain_fine(benchmark::State& state) { mujoco_chain_run(state, "Euler", kStep / 50); }
void mujoco_chain_rk4(benchmark::State& state) { mujoco_chain_run(state, "RK4", kStep); }
// Work against accuracy: MuJoCo's @p integrator at the step of the row's argument (us).
void mujoco_chain_wp(benchmark::State& state, const char* integrator) {
  mujoco_chain_run(state, integrator, 1e-6 * static_cast<double>(state.range(0)));
}

}  // namespace

int main(int argc, char** argv) {
  g_solver = bench::take_flag(argc, argv, "solver", "newton_minmap");
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  g_backend = make_backend("serial");
  // MuJoCo's warnings (a diverged run, which the rows check in mjData::warning) would go to stdout,
  // inside --benchmark_format=json, and to MUJOCO_LOG.TXT in the working folder.
  mju_user_warning = [](const char*) {};
  // The cube and the stack with the solver of --solver and with SAP (the convex model in the
  // global form, no Delassus matrix), side by side with MuJoCo.
  const auto reg = [](const char* name, auto fn) {
    benchmark::RegisterBenchmark(name, fn)->Unit(benchmark::kMillisecond)->UseRealTime();
  };
  reg("drop/sinew", [](benchmark::State& st) { sinew_drop(st, g_solver); });
  reg("drop/sinew_sap", [](benchmark::State& st) { sinew_drop(st, "sap"); });
  reg("drop/mujoco", &mujoco_drop);
  reg("stack/sinew", [](benchmark::State& st) { sinew_stack(st, g_solver); });
  reg("stack/sinew_sap", [](benchmark::State& st) { sinew_stack(st, "sap"); });
  reg("stack/mujoco", &mujoco_stack);
  reg("chain/sinew", &sinew_chain);
  reg("chain/mujoco", &mujoco_chain);
  reg("chain/mujoco_euler_h20us", &mujoco_chain_fine);
  reg("chain/mujoco_rk4", &mujoco_chain_rk4);
  reg("chain/sinew_tree_euler", [](benchmark::State& st) { tree_chain_run(st, "symplectic_euler", kStep); });
  reg("chain/sinew_tree_rk4", [](benchmark::State& st) { tree_chain_run(st, "runge_kutta4", kStep); });
  reg("chain_floor/sinew_tree_sap", [](benchmark::State& st) { sinew_chain_floor(st, {}); });
  reg("chain_floor/sinew_tree_sap_symplectic", [](benchmark::State& st) {
    integrators::ContactStepOptions o;
    o.theta = integrators::ThetaOptions::preset(integrators::ThetaPreset::kSymplecticEuler);
    o.theta->newton.record_residuals = false;  // as the default free motion: no history to allocate
    sinew_chain_floor(st, o);
  });
  reg("chain_floor/mujoco", &mujoco_chain_floor);
  // The chain's work against accuracy: 1 s of motion at steps from 125 us to 20 ms in each scheme
  // (tip_error against us_per_step per simulated ms): where both reach an accuracy, which is faster.
  const auto sweep = [](const char* name, auto fn) {
    benchmark::internal::Benchmark* b =
        benchmark::RegisterBenchmark(name, fn)->Unit(benchmark::kMillisecond)->UseRealTime()->ArgName("h_us");
    for (const int h_us : {125, 250, 500, 1000, 2000, 4000, 8000, 20000}) b->Arg(h_us);  // whole steps in 1 s
  };
  sweep("chain_wp/sinew_implicit_euler", [](benchmark::State& st) { sinew_chain_wp(st, false); });
  sweep("chain_wp/sinew_midpoint", [](benchmark::State& st) { sinew_chain_wp(st, true); });
  sweep("chain_wp/sinew_tree_euler",
        [](benchmark::State& st) { tree_chain_run(st, "symplectic_euler", 1e-6 * static_cast<double>(st.range(0))); });
  sweep("chain_wp/sinew_tree_rk4",
        [](benchmark::State& st) { tree_chain_run(st, "runge_kutta4", 1e-6 * static_cast<double>(st.range(0))); });
  sweep("chain_wp/mujoco_euler", [](benchmark::State& st) { mujoco_chain_wp(st, "Euler"); });
  sweep("chain_wp/mujoco_rk4", [](benchmark::State& st) { mujoco_chain_wp(st, "RK4"); });
  sweep("chain_wp/mujoco_implicit", [](benchmark::State& st) { mujoco_chain_wp(st, "implicit"); });
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  g_backend.reset();
  return 0;
}
