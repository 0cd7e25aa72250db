// Contact between surfaces (contact_constraint.hpp, add_surface()): triangle meshes over mapped
// points touching vertex on triangle and sharp edge across sharp edge. Rigid mesh on rigid mesh,
// particles on a rigid mesh: the gaps against a brute-force nearest-triangle oracle, the rows
// against finite differences of the gap over every velocity direction of both sides, an edge on
// an edge by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>

#include "expect_error.hpp"
#include "joint_test_support.hpp"
#include "sinew/collision/point_triangle.hpp"
#include "sinew/collision/shape_surface_contacts.hpp"
#include "sinew/constraints/contact_constraint.hpp"
#include "sinew/core/eigen_interop.hpp"

namespace sinew::constraints::surface_contact_test {
namespace {

using testing::dense_jacobian;
using testing::rows_at;

constexpr double kPi = 3.14159265358979323846;

// The corners of a box of half extents @p h (corner i has the signs of bits 0, 1, 2 of i on x,
// y, z) and its 12 triangles, counter-clockwise seen from outside.
std::vector<Vec3> box_corners(const Vec3& h) {
  std::vector<Vec3> c;
  for (int i = 0; i < 8; ++i)
    c.push_back(Vec3{{(i & 1) ? h[0] : -h[0], (i & 2) ? h[1] : -h[1], (i & 4) ? h[2] : -h[2]}});
  return c;
}
const std::vector<std::array<Index, 3>> kBoxTriangles = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6},
                                                         {0, 1, 5}, {0, 5, 4}, {2, 6, 7}, {2, 7, 3},
                                                         {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};

// A box surface fixed in body @p b (rigid points at its corners).
std::shared_ptr<model::MappedPoints> rigid_box(const model::MechanicalSystem& sys, Index b, const Vec3& h) {
  std::vector<model::MappedPoint> points;
  for (const Vec3& c : box_corners(h)) points.push_back(model::rigid_point(b, c));
  return std::make_shared<model::MappedPoints>(sys, std::move(points), "box " + std::to_string(b) + " corners");
}

// The particles [first, first + count) as mapped points.
std::shared_ptr<model::MappedPoints> particles(const model::MechanicalSystem& sys, Index first, Index count) {
  std::vector<model::MappedPoint> points;
  for (Index i = first; i < first + count; ++i) points.push_back({{model::particle_point(i), 1.0}});
  return std::make_shared<model::MappedPoints>(sys, std::move(points), "particles");
}

SpatialInertia box_inertia(double m, const Vec3& h) {
  const double a = 4 * h[0] * h[0], b = 4 * h[1] * h[1], c = 4 * h[2] * h[2];
  return make_spatial_inertia(m, Vec3{{0, 0, 0}},
                              Mat3{{m * (b + c) / 12, 0, 0, 0, m * (a + c) / 12, 0, 0, 0, m * (a + b) / 12}});
}

// The largest error of the normal rows of every contact block against central differences of
// its gap along each velocity DOF (the contact set must not change within eps).
double normal_rows_fd_error(const Constraint& c, const model::MechanicalSystem& sys, const Eigen::VectorXd& q) {
  return testing::jacobian_fd_error(c, sys, q, -1, 1e-7, 3);
}

model::SystemState state_of(const model::MechanicalSystem& sys) {
  model::SystemState s;
  sys.evaluate_state(0, sys.initial_positions(), sys.initial_velocities(), s);
  return s;
}

TEST(SurfaceContact, ACornerOfARigidMeshOverAnotherRigidMeshsFace) {
  // A tilted moving box (body 0) and a small box (body 1), turned so that one corner points
  // down, that corner 2 mm above the big box's top face.
  model::MechanicalSystem sys;
  const Vec3 ha{{0.2, 0.15, 0.1}}, hb{{0.05, 0.04, 0.03}};
  const Quaternion qa = quat_from_axis_angle(Vec3{{0.6, 0.8, 0}}, 0.05);
  sys.add_body(box_inertia(3.0, ha), Vec3{{0.1, -0.1, 0.2}}, qa, "base", Vec3{{0.1, 0, -0.2}}, Vec3{{0.3, -0.1, 0.2}});
  const Quaternion qb =
      quat_from_axis_angle(Vec3{{1 / std::sqrt(14.0), 2 / std::sqrt(14.0), 3 / std::sqrt(14.0)}}, 0.7);
  const Mat3 Ra = rotation_matrix(qa), Rb = rotation_matrix(qb);
  const Vec3 n = Ra * Vec3{{0, 0, 1}};
  const std::vector<Vec3> corners = box_corners(hb);
  std::size_t low = 0;
  for (std::size_t k = 1; k < corners.size(); ++k)
    if (dot(n, Rb * corners[k]) < dot(n, Rb * corners[low])) low = k;
  const Vec3 touch = Vec3{{0.1, -0.1, 0.2}} + Ra * Vec3{{0.01, -0.02, 0.1}} + 0.002 * n;
  sys.add_body(box_inertia(0.5, hb), touch - Rb * corners[low], qb, "tip", Vec3{{0, 0.1, -0.3}},
               Vec3{{-0.4, 0.2, 0.5}});
  ContactConstraint c;
  c.add_surface(rigid_box(sys, 0, ha), kBoxTriangles);
  c.add_surface(rigid_box(sys, 1, hb), kBoxTriangles);
  c.check(sys);
  const ConstraintRows rows = rows_at(c, sys, sys.initial_positions(), sys.initial_velocities());
  ASSERT_GE(rows.blocks.size(), 1u);
  // The corner's block: gap 2 mm along the face normal (from the face toward the corner).
  EXPECT_NEAR(rows.phi[0], 0.002, 1e-12);
  const Eigen::MatrixXd J = dense_jacobian(rows, sys.num_velocities());
  EXPECT_TRUE(J.block(0, 6, 1, 3).transpose().isApprox(to_eigen(n), 1e-12)) << J.row(0);
  EXPECT_TRUE(J.block(0, 0, 1, 3).transpose().isApprox(-to_eigen(n), 1e-12)) << J.row(0);
  // The rows' rates are the gaps' on both moving sides, and the normal row's product with the
  // velocities is the relative normal velocity of the corner and the face point under it.
  EXPECT_LT(normal_rows_fd_error(c, sys, sys.initial_positions()), 1e-6);
  const model::SystemState s = state_of(sys);
  const Vec3 r_a = touch - 0.002 * n - s.bodies[0].x, r_b = touch - s.bodies[1].x;
  const Vec3 rel = (s.bodies[1].v + cross(s.bodies[1].w, r_b)) - (s.bodies[0].v + cross(s.bodies[0].w, r_a));
  EXPECT_NEAR((J.row(0) * sys.initial_velocities())(0), dot(n, rel), 1e-12);
}

TEST(SurfaceContact, ParticlesOnARigidMeshMatchABruteForceNearestTriangleOracle) {
  // 200 placements of a cube of particles near a tilted rigid box, none interpenetrating: each
  // vertex of either surface within the margin of the other gets one contact whose gap is its
  // distance to the nearest triangle of the other (brute force over every triangle).
  const Vec3 ha{{0.2, 0.15, 0.1}}, hp{{0.04, 0.05, 0.03}};
  const Quaternion qa = quat_from_axis_angle(Vec3{{0.6, 0.8, 0}}, 0.1);
  const Mat3 Ra = rotation_matrix(qa);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  ContactOptions options;
  options.margin = 0.03;
  options.sharp_edge_angle = kPi;  // vertex-triangle contacts only: the oracle's
  int trials = 0, contacts = 0, fd_checked = 0;
  for (int trial = 0; trial < 400 && trials < 200; ++trial) {
    model::MechanicalSystem sys;
    sys.add_body(box_inertia(3.0, ha), Vec3{{0, 0, 0}}, qa, "base");
    const Mat3 Rp = rotation_matrix(testing::random_rotation(rng));
    const Vec3 centre = Ra * Vec3{{0.25 * uni(rng), 0.2 * uni(rng), 0.1 + 0.05 + 0.04 * uni(rng)}};
    const std::vector<Vec3> local = box_corners(hp);
    for (const Vec3& p : local) sys.add_particle(0.1, centre + Rp * p, "");
    // Skip interpenetrating placements (a corner of either inside the other box).
    const model::SystemState s = state_of(sys);
    bool inside = false;
    for (Index i = 0; i < 8; ++i) {
      const Vec3 l = transpose(Ra) * s.x[static_cast<std::size_t>(i)];
      inside = inside || (std::abs(l[0]) < ha[0] && std::abs(l[1]) < ha[1] && std::abs(l[2]) < ha[2]);
    }
    for (const Vec3& corner : box_corners(ha)) {
      const Vec3 l = transpose(Rp) * (Ra * corner - centre);
      inside = inside || (std::abs(l[0]) < hp[0] && std::abs(l[1]) < hp[1] && std::abs(l[2]) < hp[2]);
    }
    if (inside) continue;
    ++trials;
    ContactConstraint c(options);
    c.add_surface(rigid_box(sys, 0, ha), kBoxTriangles);
    c.add_surface(particles(sys, 0, 8), kBoxTriangles);
    c.check(sys);
    // The oracle: vertices numbered surface after surface (the box's corners, then the particles).
    std::vector<Vec3> box_world, cube_world;
    for (const Vec3& corner : box_corners(ha)) box_world.push_back(Ra * corner);
    for (Index i = 0; i < 8; ++i) cube_world.push_back(s.x[static_cast<std::size_t>(i)]);
    std::vector<double> expected;
    for (int side = 0; side < 2; ++side) {
      const std::vector<Vec3>& mine = side == 0 ? box_world : cube_world;
      const std::vector<Vec3>& other = side == 0 ? cube_world : box_world;
      for (const Vec3& v : mine) {
        double d2 = 1e300;
        for (const auto& t : kBoxTriangles)
          d2 = std::min(d2, closest_point_triangle(v, other[t[0]], other[t[1]], other[t[2]]).distance_squared);
        if (std::sqrt(d2) < options.margin) expected.push_back(std::sqrt(d2));
      }
    }
    const ConstraintRows rows = rows_at(c, sys, sys.initial_positions(), sys.initial_velocities());
    ASSERT_EQ(rows.blocks.size(), expected.size()) << "trial " << trial;
    for (std::size_t k = 0; k < expected.size(); ++k)
      EXPECT_NEAR(rows.phi[3 * k], expected[k], 1e-12) << "trial " << trial << " contact " << k;
    contacts += static_cast<int>(expected.size());
    // The rows of the first placements with contacts against finite differences of the gaps
    // (away from a feature change: every gap at least 1e-4, so the nearest triangle holds).
    const bool clear = std::all_of(expected.begin(), expected.end(), [](double d) { return d > 1e-4; });
    if (!expected.empty() && clear && fd_checked < 20) {
      EXPECT_LT(normal_rows_fd_error(c, sys, sys.initial_positions()), 1e-5) << "trial " << trial;
      ++fd_checked;
    }
  }
  EXPECT_EQ(trials, 200);
  EXPECT_GT(contacts, 150) << "the oracle would pass vacuously";
  EXPECT_EQ(fd_checked, 20);
}

// Two moving cubes of half extent kCubeHalf, the lower (body 0) turned 45 degrees about x (an
// edge up, along x), the upper (body 1) 45 degrees about y (an edge down, along y), their edges
// crossing 3 mm apart; returns that gap.
const Vec3 kCubeHalf{{0.1, 0.1, 0.1}};
double add_crossed_cubes(model::MechanicalSystem& sys) {
  const double ridge = 0.1 * std::sqrt(2.0), gap = 0.003;
  sys.add_body(box_inertia(1.0, kCubeHalf), Vec3{{0, 0, 0}}, quat_from_axis_angle(Vec3{{1, 0, 0}}, kPi / 4), "lower",
               Vec3{{0.1, 0, 0}}, Vec3{{0, 0.3, 0.1}});
  sys.add_body(box_inertia(1.0, kCubeHalf), Vec3{{0.01, -0.02, 2 * ridge + gap}},
               quat_from_axis_angle(Vec3{{0, 1, 0}}, kPi / 4), "upper", Vec3{{0, 0.2, -0.1}}, Vec3{{0.4, 0, -0.2}});
  return gap;
}

TEST(SurfaceContact, ASharpEdgeAcrossASharpEdge) {
  // Two cubes, the lower turned 45 degrees about x (an edge up, along x), the upper 45 degrees
  // about y (an edge down, along y), 3 mm apart: one edge-edge contact between the edges'
  // middles, normal -z (out of the upper, later surface toward the lower's edge).
  model::MechanicalSystem sys;
  const Vec3 h = kCubeHalf;
  const double gap = add_crossed_cubes(sys);
  ContactConstraint c;
  c.add_surface(rigid_box(sys, 0, h), kBoxTriangles);
  c.add_surface(rigid_box(sys, 1, h), kBoxTriangles);
  c.check(sys);
  const ConstraintRows rows = rows_at(c, sys, sys.initial_positions(), sys.initial_velocities());
  ASSERT_EQ(rows.blocks.size(), 1u);
  EXPECT_NEAR(rows.phi[0], gap, 1e-12);
  const Eigen::MatrixXd J = dense_jacobian(rows, sys.num_velocities());
  EXPECT_TRUE(J.block(0, 0, 1, 3).isApprox(Eigen::RowVector3d(0, 0, -1), 1e-12)) << J.row(0);
  EXPECT_TRUE(J.block(0, 6, 1, 3).isApprox(Eigen::RowVector3d(0, 0, 1), 1e-12)) << J.row(0);
  EXPECT_LT(normal_rows_fd_error(c, sys, sys.initial_positions()), 1e-6);
  // Without sharp edges (threshold pi) nothing touches: the corners are far from the faces.
  ContactOptions smooth;
  smooth.sharp_edge_angle = kPi;
  ContactConstraint none(smooth);
  none.add_surface(rigid_box(sys, 0, h), kBoxTriangles);
  none.add_surface(rigid_box(sys, 1, h), kBoxTriangles);
  EXPECT_EQ(rows_at(none, sys, sys.initial_positions(), sys.initial_velocities()).blocks.size(), 0u);
}

TEST(SurfaceContact, ASharpEdgeAcrossASharpEdgeOfTheSameSurfaceWithSelfContact) {
  // The two crossed cubes of the previous test as one surface (two parts of one body folded onto
  // itself): with self-contact the edges meet as between two surfaces; without, nothing.
  model::MechanicalSystem sys;
  const Vec3 h = kCubeHalf;
  const double gap = add_crossed_cubes(sys);
  std::vector<model::MappedPoint> points;
  for (Index b = 0; b < 2; ++b)
    for (const Vec3& c : box_corners(h)) points.push_back(model::rigid_point(b, c));
  auto both = std::make_shared<model::MappedPoints>(sys, std::move(points), "both boxes' corners");
  std::vector<std::array<Index, 3>> triangles = kBoxTriangles;
  for (const auto& t : kBoxTriangles) triangles.push_back({t[0] + 8, t[1] + 8, t[2] + 8});
  ContactConstraint self, plain;
  self.add_surface(both, triangles, 0, true);
  plain.add_surface(both, triangles);
  self.check(sys);
  const ConstraintRows rows = rows_at(self, sys, sys.initial_positions(), sys.initial_velocities());
  ASSERT_EQ(rows.blocks.size(), 1u);
  EXPECT_NEAR(rows.phi[0], gap, 1e-12);
  const Eigen::MatrixXd J = dense_jacobian(rows, sys.num_velocities());
  EXPECT_NEAR(std::abs(J(0, 2)), 1.0, 1e-12) << J.row(0);
  EXPECT_NEAR(J(0, 2), -J(0, 8), 1e-12) << "opposite on the two bodies";
  EXPECT_LT(normal_rows_fd_error(self, sys, sys.initial_positions()), 1e-6);
  EXPECT_EQ(rows_at(plain, sys, sys.initial_positions(), sys.initial_velocities()).blocks.size(), 0u);
}

TEST(SurfaceContact, FrictionOfThePairOfSurfaceMaterialsAndNoSelfContactByDefault) {
  model::MechanicalSystem sys;
  for (const Vec3& p : box_corners(Vec3{{0.05, 0.05, 0.05}})) sys.add_particle(0.1, p + Vec3{{0, 0, 0.152}}, "");
  sys.add_body(box_inertia(1.0, Vec3{{0.1, 0.1, 0.1}}), Vec3{{0, 0, 0}}, quat_identity(), "base");
  ContactConstraint c;
  c.add_surface(particles(sys, 0, 8), kBoxTriangles, 2);
  c.add_surface(rigid_box(sys, 0, Vec3{{0.1, 0.1, 0.1}}), kBoxTriangles, 1);
  c.set_friction(1, 2, 0.3);
  const ConstraintRows rows = rows_at(c, sys, sys.initial_positions(), sys.initial_velocities());
  ASSERT_EQ(rows.blocks.size(), 4u);  // the cube's four lower corners, 2 mm above the face
  for (std::size_t b = 0; b < 4; ++b) {
    EXPECT_DOUBLE_EQ(rows.blocks[b].mu, 0.3);
    EXPECT_NEAR(rows.phi[3 * b], 0.002, 1e-12);
  }
  // One surface alone never touches itself, however close its own triangles are.
  ContactConstraint alone;
  alone.add_surface(particles(sys, 0, 8), kBoxTriangles);
  EXPECT_EQ(rows_at(alone, sys, sys.initial_positions(), sys.initial_velocities()).blocks.size(), 0u);
}

TEST(SurfaceContact, SelfContactMeetsFacingFacesAndNotTheNeighbourhood) {
  // One surface of two square patches 3 mm apart, facing each other: the lower (z = 0, 0.2 m
  // wide) faces up, the upper (z = 3 mm, 0.1 m wide, inside the lower's outline) faces down. With
  // self-contact the upper corners meet the lower faces; the lower corners lie outside the upper
  // patch (edge and vertex regions), so they meet nothing.
  model::MechanicalSystem sys;
  for (const double z : {0.0, 0.003})
    for (int i = 0; i < 4; ++i) {
      const double half = z == 0.0 ? 0.1 : 0.05;
      sys.add_particle(0.1, Vec3{{(i & 1) ? half : -half, (i & 2) ? half : -half, z}}, "");
    }
  const std::vector<std::array<Index, 3>> patches = {{0, 1, 3}, {0, 3, 2}, {4, 7, 5}, {4, 6, 7}};
  ContactConstraint self;
  self.add_surface(particles(sys, 0, 8), patches, 0, true);
  self.check(sys);
  const ConstraintRows rows = rows_at(self, sys, sys.initial_positions(), sys.initial_velocities());
  ASSERT_EQ(rows.blocks.size(), 4u);
  const Eigen::MatrixXd J = dense_jacobian(rows, sys.num_velocities());
  for (Index b = 0; b < 4; ++b) {
    EXPECT_NEAR(rows.phi[3 * b], 0.003, 1e-15);
    // The upper corner 4 + b moves up along +z relative to the lower face.
    EXPECT_NEAR(J(3 * b, 3 * (4 + b) + 2), 1.0, 1e-15);
  }
  EXPECT_LT(normal_rows_fd_error(self, sys, sys.initial_positions()), 1e-6);
  // Without the flag the same surface meets nothing.
  ContactConstraint plain;
  plain.add_surface(particles(sys, 0, 8), patches);
  EXPECT_EQ(rows_at(plain, sys, sys.initial_positions(), sys.initial_velocities()).blocks.size(), 0u);
  // A flat 5 x 5 grid never meets itself: its vertices lie in the plane of the other triangles.
  model::MechanicalSystem flat;
  std::vector<std::array<Index, 3>> grid;
  for (int j = 0; j < 5; ++j)
    for (int i = 0; i < 5; ++i) flat.add_particle(0.1, Vec3{{0.01 * i, 0.01 * j, 0.0}}, "");
  for (Index j = 0; j < 4; ++j)
    for (Index i = 0; i < 4; ++i) {
      const Index a = i + 5 * j;
      grid.push_back({a, a + 1, a + 6});
      grid.push_back({a, a + 6, a + 5});
    }
  ContactConstraint sheet;
  sheet.add_surface(particles(flat, 0, 25), grid, 0, true);
  EXPECT_EQ(rows_at(sheet, flat, flat.initial_positions(), flat.initial_velocities()).blocks.size(), 0u);
}

TEST(SurfaceContact, SpheresCapsulesBoxesAndCylindersTouchTheFacesAndEdgesOfASurface) {
  // A bumpy 6 x 6 grid of moving particles (5 cm cells, heights 0-2 cm) as a surface, and a
  // moving rigid body carrying a sphere, a capsule, a box or a cylinder a few mm above it (and the same shape
  // as a static obstacle): every face and edge contact of shape_surface_contacts() is a block,
  // in its order, with its gap, the friction of the materials' pair, and rows whose rates are the
  // gaps' on both moving sides.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> uni(0.0, 1.0);
  const Shape shapes[4] = {Shape{ShapeType::kSphere, {0.02, 0, 0}}, Shape{ShapeType::kCapsule, {0.015, 0.04, 0}},
                           Shape{ShapeType::kBox, {0.03, 0.02, 0.015}}, Shape{ShapeType::kCylinder, {0.02, 0.03, 0}}};
  int blocks = 0;
  for (int trial = 0; trial < 16; ++trial) {
    model::MechanicalSystem sys;
    for (int j = 0; j <= 6; ++j)
      for (int i = 0; i <= 6; ++i) {
        // One draw per statement: the same numbers whatever order a compiler evaluates arguments in.
        const Vec3 x{{0.05 * i, 0.05 * j, 0.02 * uni(rng)}};
        const Vec3 v{{uni(rng), uni(rng), uni(rng)}};
        sys.add_particle(0.1, x, "", v);
      }
    std::vector<std::array<Index, 3>> grid;
    for (Index j = 0; j < 6; ++j)
      for (Index i = 0; i < 6; ++i) {
        const Index a = i + 7 * j;
        grid.push_back({a, a + 1, a + 8});
        grid.push_back({a, a + 8, a + 7});
      }
    const Shape& shape = shapes[trial % 4];
    const Quaternion q = testing::random_rotation(rng);
    const Vec3 at{{0.1 + 0.1 * uni(rng), 0.1 + 0.1 * uni(rng), 0.0}};
    // Lowered by 0.5 mm steps until the shape's deepest contact is within 3 mm of the surface.
    ContactOptions options;
    options.margin = 0.01;
    const model::SystemState s0 = state_of(sys);
    const std::vector<Vec3> x0(s0.x.begin(), s0.x.begin() + 49);
    double height = 0.15;
    for (int it = 0; it < 400; ++it, height -= 5e-4) {
      std::vector<ShapeSurfaceContact> found;
      shape_surface_contacts(shape, Pose{rotation_matrix(q), at + Vec3{{0, 0, height}}}, x0.data(), SurfaceEdges(grid),
                             options.margin, found);
      double least = 1e300;
      for (const auto& c : found) least = std::min(least, c.gap);
      if (least <= 0.003) break;
    }
    sys.add_body(box_inertia(0.5, Vec3{{0.03, 0.03, 0.03}}), at + Vec3{{0, 0, height}}, q, "tool",
                 Vec3{{0.1, -0.2, 0.3}}, Vec3{{0.5, -0.3, 0.2}});
    ContactConstraint c(options);
    c.add_surface(particles(sys, 0, 49), grid, 2);
    c.add_body_collider(0, shape, 1);
    c.set_friction(1, 2, 0.3);
    c.check(sys);
    const model::SystemState s = state_of(sys);
    std::vector<ShapeSurfaceContact> expected;
    std::vector<Vec3> x(s.x.begin(), s.x.begin() + 49);
    shape_surface_contacts(shape, Pose{s.bodies[0].R, s.bodies[0].x}, x.data(), SurfaceEdges(grid), options.margin,
                           expected);
    ASSERT_FALSE(expected.empty()) << "trial " << trial;
    const ConstraintRows rows = rows_at(c, sys, sys.initial_positions(), sys.initial_velocities());
    ASSERT_EQ(rows.blocks.size(), expected.size()) << "trial " << trial;
    for (std::size_t k = 0; k < expected.size(); ++k) {
      EXPECT_EQ(rows.phi[3 * k], expected[k].gap) << "trial " << trial;
      EXPECT_EQ(rows.blocks[k].mu, 0.3);
    }
    EXPECT_LT(normal_rows_fd_error(c, sys, sys.initial_positions()), 1e-6) << "trial " << trial;
    blocks += static_cast<int>(expected.size());
    // The same shape as a static obstacle where the body is: the same gaps, rows on the particles only.
    ContactConstraint fixed(options);
    fixed.add_surface(particles(sys, 0, 49), grid);
    fixed.add_obstacle(shape, Pose{s.bodies[0].R, s.bodies[0].x});
    const ConstraintRows still = rows_at(fixed, sys, sys.initial_positions(), sys.initial_velocities());
    ASSERT_EQ(still.blocks.size(), expected.size());
    const Index body = sys.body_velocity_offset(0);
    for (const auto& t : still.jacobian) EXPECT_TRUE(t.col() < body || t.col() >= body + 6) << "a DOF of the body";
    EXPECT_LT(normal_rows_fd_error(fixed, sys, sys.initial_positions()), 1e-6) << "trial " << trial;
  }
  EXPECT_GT(blocks, 12);
}

TEST(SurfaceContact, PointsTouchingSurfacesMeetTheirNearestTriangles) {
  // Loose particles (a cloth's, say) above a tilted moving rigid box's mesh: added with
  // touch_surfaces, each within the margin touches the box's nearest triangle (brute force), with
  // rows on both sides; added without, they touch nothing (the box is no collider).
  const Vec3 h{{0.2, 0.15, 0.1}};
  model::MechanicalSystem sys;
  const Quaternion q = quat_from_axis_angle(Vec3{{0.6, 0.8, 0}}, 0.1);
  sys.add_body(box_inertia(3.0, h), Vec3{{0, 0, 0}}, q, "base", Vec3{{0.1, 0, -0.2}}, Vec3{{0.3, -0.1, 0.2}});
  const Mat3 R = rotation_matrix(q);
  std::mt19937 rng(2);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  for (int i = 0; i < 40; ++i) {
    const Vec3 x = R * Vec3{{0.25 * uni(rng), 0.2 * uni(rng), 0.1 + 0.012 + 0.01 * uni(rng)}};
    const Vec3 v{{uni(rng), uni(rng), uni(rng)}};
    sys.add_particle(0.01, x, "", v);
  }
  ContactOptions options;
  options.margin = 0.015;
  ContactConstraint touching(options), apart(options);
  for (ContactConstraint* c : {&touching, &apart}) c->add_surface(rigid_box(sys, 0, h), kBoxTriangles);
  touching.add_points(particles(sys, 0, 40), 0, true);
  apart.add_points(particles(sys, 0, 40));
  touching.check(sys);
  const model::SystemState s = state_of(sys);
  std::vector<double> expected;
  std::vector<Vec3> corners;
  for (const Vec3& c : box_corners(h)) corners.push_back(R * c);
  for (Index i = 0; i < 40; ++i) {
    double d2 = 1e300;
    for (const auto& t : kBoxTriangles)
      d2 = std::min(
          d2, closest_point_triangle(s.x[static_cast<std::size_t>(i)], corners[t[0]], corners[t[1]], corners[t[2]])
                  .distance_squared);
    if (std::sqrt(d2) < options.margin) expected.push_back(std::sqrt(d2));
  }
  ASSERT_GT(expected.size(), 10u);
  const ConstraintRows rows = rows_at(touching, sys, sys.initial_positions(), sys.initial_velocities());
  ASSERT_EQ(rows.blocks.size(), expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) EXPECT_NEAR(rows.phi[3 * k], expected[k], 1e-12);
  EXPECT_LT(normal_rows_fd_error(touching, sys, sys.initial_positions()), 1e-6);
  EXPECT_EQ(rows_at(apart, sys, sys.initial_positions(), sys.initial_velocities()).blocks.size(), 0u);
}

TEST(SurfaceContact, BadSurfacesAreRefusedByName) {
  model::MechanicalSystem sys, other;
  sys.add_particle(1.0, Vec3{{0, 0, 0}}, "");
  other.add_particle(1.0, Vec3{{0, 0, 0}}, "");
  ContactConstraint c(ContactOptions{}, "touch");
  const std::vector<std::array<Index, 3>> bad_triangle = {{0, 0, 1}};
  EXPECT_SINEW_ERROR(c.add_surface(particles(sys, 0, 1), bad_triangle),
                     "touch: surface 0: triangle 0 has vertex 1, expected 0 <= vertex < 1");
  EXPECT_SINEW_ERROR(c.add_surface(nullptr, {}), "touch: surface 0: add_surface needs vertices");
  c.add_surface(particles(other, 0, 1), {});
  EXPECT_SINEW_ERROR(c.check(sys), "are mapped from another MechanicalSystem");
  ContactOptions bad;
  bad.sharp_edge_angle = 4.0;
  EXPECT_SINEW_ERROR(ContactConstraint b(bad), "sharp_edge_angle must be in [0, pi]");
}

}  // namespace
}  // namespace sinew::constraints::surface_contact_test
