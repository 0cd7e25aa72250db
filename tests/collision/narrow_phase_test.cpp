#include "sinew/collision/narrow_phase.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include "collision_test_util.hpp"
#include "expect_error.hpp"
#include "mesh_proximity_oracle.hpp"
#include "sinew/collision/edge_edge.hpp"
#include "sinew/collision/point_triangle.hpp"

namespace sinew::collision_narrow_phase_test {
namespace {

using test::brute_mesh;
using test::expect_closest_features_covered;
using test::keys_of;

const Motion kStill{{{0, 0, 0}}, {{0, 0, 0}}};

Vec3 read3(const std::vector<double>& a, Index i) { return v3::make(a[3 * i], a[3 * i + 1], a[3 * i + 2]); }

// Every contact: unit normal, orthonormal tangents, gap = n . (point_a - point_b).
void check_contacts_consistent(const ContactSet& cs) {
  for (Index i = 0; i < cs.size(); ++i) {
    const Contact c = cs.at(i);
    EXPECT_NEAR(norm(c.frame.normal), 1.0, 1e-12);
    EXPECT_NEAR(dot(c.frame.normal, c.frame.tangent1), 0.0, 1e-12);
    EXPECT_NEAR(dot(c.frame.normal, c.frame.tangent2), 0.0, 1e-12);
    EXPECT_NEAR(dot(c.frame.tangent1, c.frame.tangent2), 0.0, 1e-12);
    EXPECT_NEAR(norm(c.frame.tangent1), 1.0, 1e-12);
    EXPECT_NEAR(dot(c.frame.normal, v3::sub(c.point_a, c.point_b)), c.gap, 1e-12);
  }
}

TEST(NarrowPhase, VerticesAgainstAMovingGround) {
  const test::Cloth cloth = test::make_cloth(5, 5, 1.0, 1.0, 0.05);
  const MeshInstance mesh{7, &cloth.x, &cloth.tri};
  const Motion motion{{{1, 0, 0}}, {{0, 0, 2}}};
  const std::vector<ShapeInstance> ground{{3, Shape{ShapeType::kHalfSpace, {0, 0, 0}}, identity_pose(), motion}};
  auto np = make_narrow_phase();
  ContactSet cs;
  np->point_shape_contacts(mesh, ground, 0.1, cs);
  ASSERT_EQ(cs.size(), 25);
  check_contacts_consistent(cs);
  for (Index i = 0; i < cs.size(); ++i) {
    EXPECT_EQ(cs.kind[i], int(ContactKind::kPointShape));
    EXPECT_EQ(cs.object_a[i], 7);
    EXPECT_EQ(cs.object_b[i], 3);
    EXPECT_EQ(cs.vertices[4 * i], i);
    EXPECT_NEAR(cs.gap[i], 0.05, 1e-15);
    EXPECT_EQ(cs.frame[9 * i + 2], 1.0);
    // u = v + w x (x - origin) at the ground point under vertex i.
    const Vec3 x = cloth.x[i];
    const Vec3 u = read3(cs.obstacle_velocity, i);
    EXPECT_NEAR(u[0], 1.0 - 2.0 * x[1], 1e-14);
    EXPECT_NEAR(u[1], 2.0 * x[0], 1e-14);
    EXPECT_NEAR(u[2], 0.0, 1e-14);
  }
  ContactSet none;
  np->point_shape_contacts(mesh, ground, 0.04, none);
  EXPECT_EQ(none.size(), 0);
}

// Reference gaps for the supported pairs, by independent means (see each case).
double sampled_capsule_capsule(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  double best = HUGE_VAL;
  const int n = 400;
  for (int i = 0; i <= n; ++i) {
    const Vec3 x = to_world(pa, v3::make(0, 0, -a.size[1] + 2 * a.size[1] * i / n));
    for (int j = 0; j <= n; ++j) {
      best = std::min(best, v3::sqdist(x, to_world(pb, v3::make(0, 0, -b.size[1] + 2 * b.size[1] * j / n))));
    }
  }
  return std::sqrt(best) - a.size[0] - b.size[0];
}

TEST(NarrowPhase, ShapePairsMatchReferenceGaps) {
  test::Rng rng(51);
  const Shape half{ShapeType::kHalfSpace, {0, 0, 0}};
  int with_contacts = 0;
  for (int i = 0; i < 2000; ++i) {
    const Shape sphere{ShapeType::kSphere, {rng.uniform(0.1, 0.5), 0, 0}};
    const Shape box{ShapeType::kBox, {rng.uniform(0.1, 0.5), rng.uniform(0.1, 0.5), rng.uniform(0.1, 0.5)}};
    const Shape capsule{ShapeType::kCapsule, {rng.uniform(0.1, 0.3), rng.uniform(0, 0.5), 0}};
    const Shape cylinder{ShapeType::kCylinder, {rng.uniform(0.1, 0.5), rng.uniform(0.1, 0.5), 0}};
    const Pose pa = rng.pose(0.6), pb = rng.pose(0.6);
    const Vec3 plane_n = to_world_direction(pb, v3::make(0, 0, 1));
    auto height = [&](const Vec3& x) { return dot(plane_n, v3::sub(x, pb.translation)); };
    const double big = 100.0;  // margin large enough that every candidate is reported
    ShapePairContact out[kMaxPairContacts];
    auto min_gap = [&](int n) {
      double g = HUGE_VAL;
      for (int k = 0; k < n; ++k) g = std::min(g, out[k].gap);
      return g;
    };
    // Sphere against each shape: the centre's signed distance minus the radius.
    for (const Shape& b : {sphere, box, capsule, cylinder, half}) {
      const int n = shape_pair_function(ShapeType::kSphere, b.type)(sphere, pa, b, pb, big, out);
      ASSERT_EQ(n, 1);
      EXPECT_NEAR(out[0].gap, point_shape(pa.translation, b, pb).distance - sphere.size[0], 1e-12);
      EXPECT_NEAR(point_shape(out[0].point_b, b, pb).distance, 0.0, 1e-9);
      EXPECT_NEAR(point_shape(out[0].point_a, sphere, pa).distance, 0.0, 1e-9);
    }
    // Box on a half space: lowest corner height.
    double lowest = HUGE_VAL;
    for (int c = 0; c < 8; ++c) {
      lowest = std::min(
          lowest, height(to_world(pa, v3::make(c & 1 ? box.size[0] : -box.size[0], c & 2 ? box.size[1] : -box.size[1],
                                               c & 4 ? box.size[2] : -box.size[2]))));
    }
    EXPECT_EQ(shape_pair_function(ShapeType::kBox, ShapeType::kHalfSpace)(box, pa, half, pb, big, out), 8);
    EXPECT_NEAR(min_gap(8), lowest, 1e-12);
    // Cylinder on a half space: centre height - hl |n.a| - r sqrt(1 - (n.a)^2).
    const double na = dot(plane_n, to_world_direction(pa, v3::make(0, 0, 1)));
    const int nc = shape_pair_function(ShapeType::kCylinder, ShapeType::kHalfSpace)(cylinder, pa, half, pb, big, out);
    EXPECT_NEAR(min_gap(nc),
                height(pa.translation) - cylinder.size[1] * std::fabs(na) -
                    cylinder.size[0] * std::sqrt(std::max(0.0, 1 - na * na)),
                1e-9);
    // Capsule on a half space: lowest end minus the radius.
    const int ncap = shape_pair_function(ShapeType::kCapsule, ShapeType::kHalfSpace)(capsule, pa, half, pb, big, out);
    EXPECT_EQ(ncap, 2);
    EXPECT_NEAR(min_gap(ncap),
                std::min(height(to_world(pa, v3::make(0, 0, capsule.size[1]))),
                         height(to_world(pa, v3::make(0, 0, -capsule.size[1])))) -
                    capsule.size[0],
                1e-12);
    // Capsule against capsule: sampled axes (every 50th case, the oracle is O(n^2)).
    if (i % 50 == 0) {
      const Shape cap2{ShapeType::kCapsule, {0.2, 0.4, 0}};
      ASSERT_EQ(shape_pair_function(ShapeType::kCapsule, ShapeType::kCapsule)(capsule, pa, cap2, pb, big, out), 1);
      EXPECT_NEAR(out[0].gap, sampled_capsule_capsule(capsule, pa, cap2, pb), 2e-3);
    }
    // Swapped table entries: same gaps, normal flipped, witness points swapped.
    ShapePairContact sw[kMaxPairContacts];
    const int n1 = shape_pair_function(ShapeType::kBox, ShapeType::kHalfSpace)(box, pa, half, pb, 0.05, out);
    const int n2 = shape_pair_function(ShapeType::kHalfSpace, ShapeType::kBox)(half, pb, box, pa, 0.05, sw);
    ASSERT_EQ(n1, n2);
    with_contacts += n1 > 0;
    for (int k = 0; k < n1; ++k) {
      EXPECT_EQ(sw[k].gap, out[k].gap);
      EXPECT_EQ(v3::sqdist(sw[k].normal, v3::neg(out[k].normal)), 0.0);
      EXPECT_EQ(v3::sqdist(sw[k].point_a, out[k].point_b), 0.0);
      EXPECT_LE(out[k].gap, 0.05);
    }
  }
  EXPECT_GT(with_contacts, 100);
  EXPECT_EQ(shape_pair_function(ShapeType::kHalfSpace, ShapeType::kHalfSpace), nullptr);
}

TEST(NarrowPhase, ShapeShapeContactsThroughTheTable) {
  const Pose up{identity3(), v3::make(0, 0, 0.45)};
  std::vector<ShapeInstance> shapes{
      {10, Shape{ShapeType::kHalfSpace, {0, 0, 0}}, identity_pose(), Motion{{{0, 1, 0}}, {{0, 0, 0}}}},
      {11, Shape{ShapeType::kSphere, {0.5, 0, 0}}, up, kStill},
      {12, Shape{ShapeType::kCapsule, {0.1, 1.0, 0}}, Pose{identity3(), v3::make(3, 0, 1.2)}, kStill}};
  auto np = make_narrow_phase();
  ContactSet cs;
  np->shape_shape_contacts(shapes, 0.01, cs);
  check_contacts_consistent(cs);
  // The half space (A) touches the sphere (B) with normal -z (from B to A), gap -0.05;
  // the capsule stands 0.1 above the ground: out of a 0.01 margin.
  ASSERT_EQ(cs.size(), 1);
  EXPECT_EQ(cs.object_a[0], 10);
  EXPECT_EQ(cs.object_b[0], 11);
  EXPECT_NEAR(cs.gap[0], -0.05, 1e-15);
  EXPECT_NEAR(cs.frame[2], -1.0, 1e-15);
  // Body-frame witness points map back to the world points.
  const Contact c0 = cs.at(0);
  EXPECT_NEAR(v3::sqdist(to_world(up, c0.local_b), c0.point_b), 0.0, 1e-28);
  EXPECT_NEAR(v3::sqdist(c0.local_a, c0.point_a), 0.0, 1e-28);  // the half space sits at the identity
  // Two half spaces have no pair function (a second ground plane is a modelling error).
  shapes.push_back({13, Shape{ShapeType::kCylinder, {1, 1, 1}}, identity_pose(), kStill});
  shapes.push_back({14, Shape{ShapeType::kHalfSpace, {0, 0, 0}}, identity_pose(), kStill});
  ContactSet untouched;
  EXPECT_SINEW_ERROR(np->shape_shape_contacts(shapes, 0.01, untouched),
                     "shape 0 (half-space) against shape 4 (half-space)");
  EXPECT_EQ(untouched.size(), 0);
}

test::Cloth folded_strip(int nx, int ny, double radius) {
  test::Cloth c = test::make_cloth(nx, ny, 1.0, 0.2, 0.0);
  const double pi = 3.14159265358979323846;
  for (Vec3& x : c.x) {
    const double s = x[0] - 0.5;
    if (s <= 0) continue;
    if (s <= pi * radius) {
      x = v3::make(0.5 + radius * std::sin(s / radius), x[1], radius - radius * std::cos(s / radius));
    } else {
      x = v3::make(0.5 - (s - pi * radius), x[1], 2 * radius);
    }
  }
  return c;
}

TEST(NarrowPhase, MeshProximityMatchesBruteForce) {
  test::Rng rng(52);
  for (int scene = 0; scene < 6; ++scene) {
    test::Cloth a = test::make_cloth(14, 11, 1.0, 0.8, 0.0);
    test::Cloth b = test::make_cloth(9, 12, 0.7, 0.9, 0.0);
    for (Vec3& x : a.x) x[2] += rng.uniform(-0.02, 0.02);
    for (Vec3& x : b.x) x = v3::add(x, v3::make(0.15, -0.05, 0.03 + rng.uniform(-0.03, 0.03)));
    const double margin = 0.03;
    const MeshInstance ma{0, &a.x, &a.tri}, mb{1, &b.x, &b.tri, Index(a.x.size())};
    ContactSet bvh_set, hash_set;
    make_narrow_phase("table", NarrowPhaseOptions{"bvh", {}})->mesh_mesh_contacts(ma, mb, margin, bvh_set);
    make_narrow_phase("table", NarrowPhaseOptions{"hash", {}})->mesh_mesh_contacts(ma, mb, margin, hash_set);
    const auto expected = brute_mesh(a, b, false, margin);
    EXPECT_GT(expected.size(), 50u);
    EXPECT_EQ(keys_of(bvh_set, a, b, false), expected) << "scene " << scene;
    expect_closest_features_covered(bvh_set, a, b, false, margin);
    EXPECT_EQ(bvh_set.vertices, hash_set.vertices);  // same contacts in the same order
    EXPECT_EQ(bvh_set.gap, hash_set.gap);
    check_contacts_consistent(bvh_set);
    for (double g : bvh_set.gap) {
      EXPECT_LE(g, margin);
    }
  }
}

TEST(NarrowPhase, SelfContactOfAFoldedStripSkipsAdjacentElements) {
  const test::Cloth c = folded_strip(41, 5, 0.02);
  const MeshInstance m{4, &c.x, &c.tri};
  ContactSet cs;
  make_narrow_phase()->mesh_mesh_contacts(m, m, 0.05, cs);
  const auto expected = brute_mesh(c, c, true, 0.05);
  EXPECT_GT(expected.size(), 100u);
  EXPECT_EQ(keys_of(cs, c, c, true), expected);
  expect_closest_features_covered(cs, c, c, true, 0.05);
  check_contacts_consistent(cs);
}

TEST(NarrowPhase, JacobianRowsReproduceGapAndTangentialOffsets) {
  const test::Cloth c = folded_strip(31, 4, 0.015);
  const MeshInstance m{0, &c.x, &c.tri};
  ContactSet cs;
  make_narrow_phase()->mesh_mesh_contacts(m, m, 0.04, cs);
  ASSERT_GT(cs.size(), 0);
  const auto h = contact_jacobian(cs, Index(c.x.size()));
  std::vector<double> hx(3 * cs.size(), 0.0);
  for (const JacobianEntry& e : h) hx[e.row] += e.value * c.x[e.col / 3][e.col % 3];
  for (Index i = 0; i < cs.size(); ++i) {
    EXPECT_NEAR(hx[3 * i], cs.gap[i], 1e-12);  // H_n x = n . (p_a - p_b) = gap
    EXPECT_NEAR(hx[3 * i + 1], 0.0, 1e-12);    // p_a - p_b is along n: no tangential part
    EXPECT_NEAR(hx[3 * i + 2], 0.0, 1e-12);
  }
  EXPECT_SINEW_ERROR(contact_jacobian(cs, 3), "names vertex", "[0, 3)");
}

TEST(NarrowPhase, SameContactsWithOneAndTwoThreads) {
  const test::Cloth c = folded_strip(81, 11, 0.01);
  const MeshInstance m{0, &c.x, &c.tri};
  ContactSet one, two;
  {
#ifdef SINEW_TEST_HAVE_TBB
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
#endif
    make_narrow_phase()->mesh_mesh_contacts(m, m, 0.025, one);
  }
  {
#ifdef SINEW_TEST_HAVE_TBB
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
#endif
    make_narrow_phase()->mesh_mesh_contacts(m, m, 0.025, two);
  }
  EXPECT_GT(one.size(), 1000);
  EXPECT_EQ(one.vertices, two.vertices);
  EXPECT_EQ(one.weights, two.weights);
  EXPECT_EQ(one.gap, two.gap);
  EXPECT_EQ(one.frame, two.frame);
}

TEST(NarrowPhase, BadInputIsAnError) {
  auto np = make_narrow_phase();
  const test::Cloth c = test::make_cloth(3, 3, 1, 1, 0);
  std::vector<std::array<Index, 3>> bad = c.tri;
  bad[3][1] = 9;
  const std::vector<std::array<Index, 3>> copy = c.tri;
  const MeshInstance good{0, &c.x, &c.tri}, broken{1, &c.x, &bad}, twin{0, &c.x, &copy};
  ContactSet cs;
  EXPECT_SINEW_ERROR(np->mesh_mesh_contacts(good, broken, 0.1, cs), "mesh 1", "triangle 3", "vertex index 9");
  EXPECT_SINEW_ERROR(np->mesh_mesh_contacts(good, good, -0.1, cs), "margin");
  EXPECT_SINEW_ERROR(np->mesh_mesh_contacts(good, twin, 0.1, cs), "share id 0");
  EXPECT_SINEW_ERROR(np->mesh_mesh_contacts(MeshInstance{2, nullptr, &c.tri}, good, 0.1, cs), "non-null");
  std::vector<ShapeInstance> shapes{{0, Shape{ShapeType::kSphere, {1, 0, 0}}, identity_pose(), kStill},
                                    {1, Shape{ShapeType::kSphere, {-1, 0, 0}}, identity_pose(), kStill}};
  EXPECT_SINEW_ERROR(np->point_shape_contacts(good, shapes, 0.1, cs), "shape 1 (sphere)", "radius must be > 0");
  shapes[1].shape.size[0] = 1;
  shapes[1].pose.rotation(0, 0) = 2;
  EXPECT_SINEW_ERROR(np->shape_shape_contacts(shapes, 0.1, cs), "shape 1", "orthonormal");
  EXPECT_EQ(cs.size(), 0);
  EXPECT_SINEW_ERROR(make_narrow_phase("gjk"), "unknown narrow phase 'gjk'");
  EXPECT_SINEW_ERROR(make_narrow_phase("table", NarrowPhaseOptions{"kdtree", {}}), "unknown broad phase 'kdtree'");
  EXPECT_SINEW_ERROR(cs.at(0), "contact 0 out of range");
}

}  // namespace
}  // namespace sinew::collision_narrow_phase_test
