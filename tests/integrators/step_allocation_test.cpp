// Counts heap allocations of ContactStep on a hinge chain (issue 22: no allocation per step after
// the first) through a replaced malloc family, so that Eigen's vectors count as well as the
// standard containers. Skipped under AddressSanitizer, which replaces the allocator itself.
#include <gtest/gtest.h>

#include "sanitizers.hpp"

#ifndef SINEW_TEST_ASAN

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sinew/backends/registry.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/constraints/joint_types.hpp"
#include "sinew/constraints/newton_solver.hpp"
#include "sinew/constraints/pgs_solver.hpp"
#include "sinew/core/quaternion.hpp"
#include "sinew/integrators/contact_step.hpp"
#include "sinew/model/kinematic_tree.hpp"
#include "sinew/model/mechanical_system.hpp"
#include "sinew/model/tree_bodies.hpp"
#include "sinew/scene/contact_scenes.hpp"
#include "test_systems.hpp"

namespace {
// Counting is switched on only around the measured steps; every thread's allocations count.
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};
void count() {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void __libc_free(void* p);
void* malloc(std::size_t size) noexcept {
  count();
  return __libc_malloc(size);
}
void* calloc(std::size_t n, std::size_t size) noexcept {
  count();
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t size) noexcept {
  count();
  return __libc_realloc(p, size);
}
void free(void* p) noexcept { __libc_free(p); }
}

namespace sinew::integrators::integrators_step_allocation_test {
namespace {

// A chain of @p links rods (0.1 m, 0.2 kg) hinged about y, the first to the world, released
// horizontal: the multibody benchmark's chain.
struct Chain {
  model::MechanicalSystem system;
  std::vector<std::unique_ptr<constraints::Joint>> joints;
  std::vector<const constraints::Constraint*> constraints;
  State state;
};

std::unique_ptr<Chain> make_chain(int links) {
  auto c = std::make_unique<Chain>();
  const SpatialInertia inertia =
      make_spatial_inertia(0.2, Vec3{{0, 0, 0}}, Mat3{{1e-5, 0, 0, 0, 1.7e-4, 0, 0, 0, 1.7e-4}});
  c->system.set_gravity(Vec3{{0, 0, -9.81}});
  const Vec3 y{{0, 1, 0}}, half{{0.05, 0, 0}};
  for (int i = 0; i < links; ++i) {
    c->system.add_body(inertia, Vec3{{(i + 0.5) * 0.1, 0, 0}}, quat_identity());
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

// Allocations of @p steps steps after three that settle the stepper's buffers.
long allocations_per_steps(int links, int steps) {
  const std::unique_ptr<Chain> c = make_chain(links);
  ContactStep stepper(std::make_unique<constraints::PgsSolver>());
  for (int k = 0; k < 3; ++k) EXPECT_TRUE(stepper.step(c->system, c->constraints, c->state, 1e-3).ok());
  g_allocations = 0;
  g_counting = true;
  for (int k = 0; k < steps; ++k) {
    const ContactStepReport r = stepper.step(c->system, c->constraints, c->state, 1e-3);
    if (!r.ok()) ADD_FAILURE() << r.message;
  }
  g_counting = false;
  return g_allocations.load();
}

// The steps' buffers are kept and reused: a chain's step allocates nothing once the first few
// have sized them, whatever its length (the 40-link chain's H has entries that round-off takes
// across zero, which must not redo Baraff's split). The free motion's residual history, the one
// vector a returned report would own, is off in ContactStep's default options.
TEST(StepAllocation, AChainStepAllocatesNothing) {
  const int steps = 20;
  EXPECT_EQ(allocations_per_steps(5, steps), 0);
  EXPECT_EQ(allocations_per_steps(40, steps), 0);
}

// With the history asked for (NewtonOptions::record_residuals), the report carries it: one
// allocation per step, which the default leaves out.
TEST(StepAllocation, ARecordedResidualHistoryIsTheOneAllocation) {
  const std::unique_ptr<Chain> c = make_chain(5);
  ContactStepOptions options;
  options.free_motion.newton.record_residuals = true;
  ContactStep stepper(std::make_unique<constraints::PgsSolver>(), options);
  for (int k = 0; k < 3; ++k) EXPECT_TRUE(stepper.step(c->system, c->constraints, c->state, 1e-3).ok());
  g_allocations = 0;
  g_counting = true;
  const ContactStepReport r = stepper.step(c->system, c->constraints, c->state, 1e-3);
  g_counting = false;
  EXPECT_EQ(g_allocations.load(), 1);
  EXPECT_EQ(r.free_motion.residual_norms.size(), static_cast<std::size_t>(r.free_motion.iterations) + 1);
  EXPECT_EQ(r.free_motion.residual_norms.back(), r.free_motion.residual_norm);
  const ContactStepReport quiet =
      ContactStep(std::make_unique<constraints::PgsSolver>()).step(c->system, c->constraints, c->state, 1e-3);
  EXPECT_TRUE(quiet.free_motion.residual_norms.empty());
  EXPECT_GT(quiet.free_motion.residual_norm, 0.0);
}

// Resting contact with a report kept by the caller (ContactStep::step into a report): the steps of
// a three-box stack allocate nothing once the contact set has settled, with the contact Newton
// solver (dense LU at 36 rows) and with SAP; the by-value step hands the caller a new report (its
// contact states and message) each step.
TEST(StepAllocation, ARestingStackStepsIntoAKeptReportWithoutAllocating) {
  auto backend = make_backend("serial");
  for (const bool sap : {false, true}) {
    scene::ContactScene s = scene::box_stack_scene(3, 0.5);
    std::unique_ptr<constraints::ConstraintSolver> solver;
    if (!sap) solver = std::make_unique<constraints::NewtonSolver>(*backend);
    ContactStep stepper(std::move(solver));
    ContactStepReport report;
    const std::vector<const constraints::Constraint*> rows = s.constraints();
    for (int k = 0; k < 10; ++k) stepper.step(*s.system, rows, s.state, 1e-3, report);
    ASSERT_TRUE(report.ok()) << report.message;
    EXPECT_EQ(report.contacts, 12);
    g_allocations = 0;
    g_counting = true;
    for (int k = 0; k < 20; ++k) stepper.step(*s.system, rows, s.state, 1e-3, report);
    g_counting = false;
    EXPECT_TRUE(report.ok()) << report.message;
    EXPECT_EQ(report.contact.states.size(), 12u);
    EXPECT_EQ(g_allocations.load(), 0) << (sap ? "sap" : "newton");
    g_counting = true;
    const ContactStepReport fresh = stepper.step(*s.system, rows, s.state, 1e-3);
    g_counting = false;
    EXPECT_GT(g_allocations.load(), 0) << "a returned report owns its states";
    EXPECT_EQ(fresh.contact.states, report.contact.states);
  }
}

// Contact that comes and goes: the dropped sliding cube lands (0 -> 4 contacts) and slides to
// rest, and is lifted by 1 cm at steps 500 and 700 to fall again (4 -> 0 -> 4). The solvers'
// buffers are sized with each problem, not at their first Newton step, and kept, so once the
// largest contact set has been seen no step allocates, with either solver (a report kept by the
// caller): a step without rows resizes nothing. (A change between two non-zero row counts does
// reallocate: RowCountChangesAreTheOnlyStepsThatAllocate.)
TEST(StepAllocation, ContactThatComesAndGoesAllocatesOnlyForANewLargestSet) {
  auto backend = make_backend("serial");
  for (const bool sap : {false, true}) {
    scene::ContactScene s = scene::drop_scene();
    std::unique_ptr<constraints::ConstraintSolver> solver;
    if (!sap) solver = std::make_unique<constraints::NewtonSolver>(*backend);
    ContactStep stepper(std::move(solver));
    ContactStepReport report;
    const std::vector<const constraints::Constraint*> rows = s.constraints();
    int largest = 0, changes = 0, previous = 0;
    for (int k = 0; k < 900; ++k) {
      if (k == 500 || k == 700) s.state.q[2] += 0.01;  // the cube's centre, lifted
      g_allocations = 0;
      g_counting = true;
      stepper.step(*s.system, rows, s.state, 1e-3, report);
      g_counting = false;
      ASSERT_TRUE(report.ok()) << report.message;
      if (report.contacts != previous) ++changes;
      previous = report.contacts;
      if (report.contacts > largest) {
        largest = report.contacts;
        continue;  // a new largest set may size the buffers
      }
      if (k >= 3) {
        EXPECT_EQ(g_allocations.load(), 0)
            << (sap ? "sap" : "newton") << ", step " << k << ", " << report.contacts << " contacts";
      }
    }
    std::printf("%s: largest set %d contacts, %d changes of the count\n", sap ? "sap" : "newton", largest, changes);
    EXPECT_EQ(largest, 4);
    EXPECT_GE(changes, 5);  // landed, lifted off and landed twice
  }
}

// What the steps of a run allocated.
struct Allocations {
  int steps = 0;              // steps run
  int row_changes = 0;        // steps after the first whose row count differs from the step before's
  int allocating = 0;         // steps after the first that allocated
  int allocating_kept = 0;    // of those, steps at the row count of the step before
  int first_kept_step = -1;   // the first of the latter
  long first_kept_count = 0;  // and its allocations
  Index largest_rows = 0;
};

// Runs @p steps steps of @p step (which steps once into its report and returns it) and counts.
Allocations count_steps(int steps, const std::function<const ContactStepReport&()>& step) {
  Allocations a;
  Index last_rows = -1;
  for (int k = 0; k < steps; ++k) {
    g_allocations = 0;
    g_counting = true;
    const ContactStepReport& r = step();
    g_counting = false;
    const long allocated = g_allocations.load();
    if (!r.ok()) {
      ADD_FAILURE() << "step " << k << ": " << r.message;
      return a;
    }
    ++a.steps;
    a.largest_rows = std::max(a.largest_rows, r.rows);
    if (k > 0) {
      const bool kept = r.rows == last_rows;
      a.row_changes += kept ? 0 : 1;
      a.allocating += allocated > 0 ? 1 : 0;
      if (kept && allocated > 0 && a.allocating_kept++ == 0) {
        a.first_kept_step = k;
        a.first_kept_count = allocated;
      }
    }
    last_rows = r.rows;
  }
  return a;
}

// Steps the motion that @p start sets up twice with @p step (as count_steps()): the first run
// meets the motion's largest structures; in the second, a step allocates only where its row count
// differs from the step before's (Eigen's dynamic vectors sized by the rows reallocate on every
// change of size).
void expect_allocations_only_at_row_changes(const std::string& what, int steps, const std::function<void()>& start,
                                            const std::function<const ContactStepReport&()>& step) {
  start();
  const Allocations first = count_steps(steps, step);
  start();
  const Allocations a = count_steps(steps, step);
  std::printf(
      "%s: %d steps, up to %ld rows, %d row-count changes; allocating steps %d (%d at a kept count) in the first "
      "run, %d (%d) in the second\n",
      what.c_str(), a.steps, static_cast<long>(a.largest_rows), a.row_changes, first.allocating, first.allocating_kept,
      a.allocating, a.allocating_kept);
  EXPECT_EQ(a.steps, steps) << what;
  EXPECT_GT(a.largest_rows, 0) << what << ": the scene never made contact";
  EXPECT_EQ(a.allocating_kept, 0) << what << ": step " << a.first_kept_step << " allocated " << a.first_kept_count
                                  << " times at the row count of the step before";
  EXPECT_LE(a.allocating, a.row_changes) << what;
}

std::unique_ptr<constraints::ConstraintSolver> solver_named(const std::string& name, Backend& backend) {
  if (name == "pgs") return std::make_unique<constraints::PgsSolver>();
  if (name == "newton_minmap") return std::make_unique<constraints::NewtonSolver>(backend);
  return nullptr;  // SAP
}

// The row count changing up and down: the dropped cube, and the cube dropped tilted and spinning,
// which lands on a corner, an edge, rocks between them and onto a face (1, 2, 4 contacts), with
// SAP, PGS and the non-smooth Newton; the benchmark's 10-box stack settling (SAP, and the
// non-smooth Newton, whose Newton matrix on its 120 rows is banded: factored in its band, where a
// sparse LU would allocate at every factorization); and an 8-rod hinge
// chain in joint coordinates (KinematicTree, its mass matrix factored by kDense) falling onto a
// floor through TreeBodies, with implicit Euler (the tree's projected stiffness in A) and the
// symplectic Euler preset.
TEST(StepAllocation, RowCountChangesAreTheOnlyStepsThatAllocate) {
  auto backend = make_backend("serial");
  for (const std::string solver : {"sap", "newton_minmap", "pgs"})
    for (const bool tumbling : {false, true}) {
      scene::ContactScene s = scene::drop_scene();
      const State initial = s.state;
      const std::vector<const constraints::Constraint*> rows = s.constraints();
      ContactStep step(solver_named(solver, *backend));
      ContactStepReport r;
      const auto start = [&] {
        s.state = initial;
        if (!tumbling) return;
        const Quaternion q = quat_from_axis_angle(Vec3{{std::sqrt(0.5), std::sqrt(0.5), 0}}, 0.5);
        s.state.q.segment<4>(3) = Eigen::Vector4d(q.s, q.v[0], q.v[1], q.v[2]);
        s.state.u.segment<3>(3) = Eigen::Vector3d(0, 25, 5);
      };
      expect_allocations_only_at_row_changes(solver + (tumbling ? ", tumbling cube" : ", dropped cube"), 600, start,
                                             [&]() -> const ContactStepReport& {
                                               step.step(*s.system, rows, s.state, 1e-3, r);
                                               return r;
                                             });
    }

  for (const std::string solver : {"sap", "newton_minmap"}) {
    scene::ContactScene stack = scene::box_stack_scene(10);
    const State stack_start = stack.state;
    const std::vector<const constraints::Constraint*> stack_rows = stack.constraints();
    ContactStep stack_step(solver_named(solver, *backend));
    ContactStepReport stack_report;
    expect_allocations_only_at_row_changes(
        solver + ", box stack", 300, [&] { stack.state = stack_start; },
        [&]() -> const ContactStepReport& {
          stack_step.step(*stack.system, stack_rows, stack.state, 1e-3, stack_report);
          return stack_report;
        });
  }

  constexpr int kLinks = 8;
  const model::KinematicTree tree = testing::hinge_chain_tree(kLinks);
  const model::TreeBodies bodies(tree);
  constraints::ContactOptions o;
  o.mu = 0.5;
  constraints::ContactConstraint contact(o);
  const Obstacle floor = half_space_obstacle(Vec3{{0, 0, -0.3}}, Vec3{{0, 0, 1}});
  contact.add_obstacle(floor.shape, floor.pose);
  for (Index b = 0; b < kLinks; ++b) {
    contact.add_body_collider(b, scene::box_shape(Vec3{{0.05, 0.01, 0.01}}));
    if (b > 0) contact.exclude_bodies(b - 1, b);
  }
  const std::vector<const constraints::Constraint*> tree_rows{&contact};
  for (const bool symplectic : {false, true}) {
    ContactStepOptions options;
    if (symplectic) {
      options.theta = ThetaOptions::preset(ThetaPreset::kSymplecticEuler);
      options.theta->newton.record_residuals = false;
    }
    ContactStep step(nullptr, options);
    State s;
    ContactStepReport r;
    expect_allocations_only_at_row_changes(
        symplectic ? "sap, tree, symplectic Euler" : "sap, tree, implicit Euler", 600,
        [&] {
          s = State{0.0, Eigen::VectorXd::Zero(kLinks), Eigen::VectorXd::Zero(kLinks)};
        },
        [&]() -> const ContactStepReport& {
          step.step(tree, bodies, tree_rows, s, 1e-3, r);
          return r;
        });
  }
}

}  // namespace
}  // namespace sinew::integrators::integrators_step_allocation_test

#endif  // SINEW_TEST_ASAN
