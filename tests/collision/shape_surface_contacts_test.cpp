// Contacts of spheres, capsules and boxes with the faces and edges of a triangle surface
// (shape_surface_contacts.hpp): closed-form placements (a sphere over a ridge, a capsule and a
// box flat on a plane, a box edge across a ridge) and, over random placements above a bumpy
// height field, the least distance between the shape and the surface against a brute-force
// oracle over every feature pair, the surface's vertices counted as their own contacts.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

#include "collision_test_util.hpp"
#include "sinew/collision/edge_edge.hpp"
#include "sinew/collision/point_shape.hpp"
#include "sinew/collision/point_triangle.hpp"
#include "sinew/collision/shape_surface_contacts.hpp"
#include "sinew/core/quaternion.hpp"
#include "sinew/core/small_matrix_ops.hpp"

namespace sinew::collision_shape_surface_contacts_test {
namespace {

constexpr double kPi = 3.14159265358979323846;

// A height field over [0, n h]^2: vertex (i, j) at (i h, j h, z(i, j)), two triangles per cell,
// counter-clockwise seen from above (outward normal up).
struct HeightField {
  std::vector<Vec3> x;
  std::vector<std::array<Index, 3>> triangles;
};
template <class Height>
HeightField height_field(int n, double h, Height z) {
  HeightField f;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) f.x.push_back(v3::make(i * h, j * h, z(i, j)));
  auto id = [n](int i, int j) { return static_cast<Index>(j * (n + 1) + i); };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      f.triangles.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
      f.triangles.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
    }
  return f;
}

Pose placed(const Mat3& R, const Vec3& t) { return Pose{R, t}; }

std::vector<ShapeSurfaceContact> contacts(const Shape& shape, const Pose& pose, const HeightField& f, double margin) {
  std::vector<ShapeSurfaceContact> out;
  shape_surface_contacts(shape, pose, f.x.data(), SurfaceEdges(f.triangles), margin, out);
  return out;
}

// The surface's witness point of a contact.
Vec3 witness(const HeightField& f, const ShapeSurfaceContact& c) {
  const auto& t = f.triangles[static_cast<std::size_t>(c.triangle)];
  return v3::add(v3::add(v3::scale(c.bary[0], f.x[t[0]]), v3::scale(c.bary[1], f.x[t[1]])),
                 v3::scale(c.bary[2], f.x[t[2]]));
}

// Every contact is consistent: weights of a point of its triangle, a unit normal, the gap the
// normal's separation of the witnesses, and no two contacts at one place.
void expect_consistent(const HeightField& f, const std::vector<ShapeSurfaceContact>& found) {
  for (std::size_t k = 0; k < found.size(); ++k) {
    const ShapeSurfaceContact& c = found[k];
    EXPECT_NEAR(c.bary[0] + c.bary[1] + c.bary[2], 1.0, 1e-14);
    for (double b : c.bary) EXPECT_GE(b, 0.0);
    EXPECT_NEAR(norm(c.normal), 1.0, 1e-14);
    const Vec3 d = v3::sub(witness(f, c), c.shape_point);
    EXPECT_NEAR(dot(c.normal, d), c.gap, 1e-14);
    EXPECT_LT(norm(cross(c.normal, d)), 1e-12) << "the witnesses are not along the normal";
    for (std::size_t j = 0; j < k; ++j)
      EXPECT_GT(v3::sqdist(witness(f, c), witness(f, found[j])) + v3::sqdist(c.shape_point, found[j].shape_point),
                1e-20)
          << "contacts " << j << " and " << k << " are one";
  }
}

// The least gap of the contacts of @p shape at @p pose with @p f (each checked consistent).
double least_contact_gap(const Shape& shape, const Pose& pose, const HeightField& f, double margin) {
  const auto found = contacts(shape, pose, f, margin);
  expect_consistent(f, found);
  double best = 1e300;
  for (const auto& c : found) best = std::min(best, c.gap);
  return best;
}

TEST(SurfaceEdges, EachEdgeOnceWithItsTriangles) {
  const SurfaceEdges e({{0, 1, 2}, {0, 2, 3}});
  ASSERT_EQ(e.size(), 5);
  const Index diagonal = e.edge(0, 2);  // 2-0
  EXPECT_EQ(diagonal, e.edge(1, 0));    // 0-2
  EXPECT_EQ(e.edge_vertices(diagonal), (std::array<Index, 2>{0, 2}));
  EXPECT_EQ(e.edge_triangles_end(diagonal) - e.edge_triangles_begin(diagonal), 2);
  EXPECT_EQ(e.edge_triangles_end(e.edge(0, 0)) - e.edge_triangles_begin(e.edge(0, 0)), 1);
}

TEST(ShapeSurfaceContacts, ASphereOverARidgeTouchesItsEdgeOnce) {
  // A roof along y (its ridge x = 0.1 at z = 0.05, slopes down to z = 0 at x = 0 and 0.2): a
  // sphere of radius 0.02 centred 0.021 above the ridge touches the ridge edge, gap 1 mm,
  // normal -z, and no face (its centre projects outside both).
  const HeightField f = height_field(2, 0.1, [](int i, int) { return i == 1 ? 0.05 : 0.0; });
  const Shape sphere{ShapeType::kSphere, {0.02, 0, 0}};
  const auto found = contacts(sphere, placed(identity3(), v3::make(0.1, 0.13, 0.05 + 0.021)), f, 0.005);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NEAR(found[0].gap, 0.001, 1e-15);
  EXPECT_LT(norm(v3::sub(found[0].normal, v3::make(0, 0, -1))), 1e-15);
  EXPECT_LT(norm(v3::sub(witness(f, found[0]), v3::make(0.1, 0.13, 0.05))), 1e-15);
  expect_consistent(f, found);
}

TEST(ShapeSurfaceContacts, ASphereOverAFlatDiagonalTouchesOneFaceAndAVertexNothing) {
  const HeightField flat = height_field(2, 0.1, [](int, int) { return 0.0; });
  const Shape sphere{ShapeType::kSphere, {0.02, 0, 0}};
  // Over a cell's diagonal: one contact (face or edge), gap -1 mm.
  auto found = contacts(sphere, placed(identity3(), v3::make(0.03, 0.03, 0.019)), flat, 0.005);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NEAR(found[0].gap, -0.001, 1e-15);
  // Inside a triangle: one face contact; over a vertex: none (the vertex's own).
  found = contacts(sphere, placed(identity3(), v3::make(0.07, 0.02, 0.021)), flat, 0.005);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NEAR(found[0].gap, 0.001, 1e-15);
  EXPECT_TRUE(contacts(sphere, placed(identity3(), v3::make(0.1, 0.1, 0.021)), flat, 0.005).empty());
  // Out of the margin: none.
  EXPECT_TRUE(contacts(sphere, placed(identity3(), v3::make(0.07, 0.02, 0.026)), flat, 0.005).empty());
}

TEST(ShapeSurfaceContacts, ACapsuleAndABoxFlatOnAPlaneRestOnTheirEndsAndCorners) {
  const HeightField flat = height_field(4, 0.1, [](int, int) { return 0.0; });
  // A capsule lying along x (axis turned from z), radius 0.01, 1 mm above: its two ends.
  const Mat3 along_x = rotation_matrix(quat_from_axis_angle(v3::make(0, 1, 0), kPi / 2));
  const Shape capsule{ShapeType::kCapsule, {0.01, 0.07, 0}};
  auto found = contacts(capsule, placed(along_x, v3::make(0.2, 0.17, 0.011)), flat, 0.005);
  ASSERT_EQ(found.size(), 2u);
  for (const auto& c : found) {
    EXPECT_NEAR(c.gap, 0.001, 1e-15);
    EXPECT_NEAR(c.normal[2], -1.0, 1e-15);
  }
  expect_consistent(flat, found);
  // A box of half extents (0.03, 0.02, 0.01), turned about z, 1 mm above: its four bottom corners.
  const Shape box{ShapeType::kBox, {0.03, 0.02, 0.01}};
  const Mat3 turned = rotation_matrix(quat_from_axis_angle(v3::make(0, 0, 1), 0.3));
  found = contacts(box, placed(turned, v3::make(0.17, 0.22, 0.011)), flat, 0.005);
  ASSERT_EQ(found.size(), 4u);
  for (const auto& c : found) {
    EXPECT_NEAR(c.gap, 0.001, 1e-15);
    EXPECT_NEAR(c.shape_point[2], 0.001, 1e-15);
  }
  expect_consistent(flat, found);
}

TEST(ShapeSurfaceContacts, ABoxEdgeAcrossARidgeTouchesIt) {
  // The roof of the first test (ridge along y) and a cube turned 45 degrees about x: its lowest
  // edge runs along x, across the ridge at right angles, 2 mm above it. One edge-edge contact.
  const HeightField f = height_field(2, 0.1, [](int i, int) { return i == 1 ? 0.05 : 0.0; });
  const Shape box{ShapeType::kBox, {0.02, 0.02, 0.02}};
  const Mat3 R = rotation_matrix(quat_from_axis_angle(v3::make(1, 0, 0), kPi / 4));
  const double low = 0.02 * std::sqrt(2.0);
  const auto found = contacts(box, placed(R, v3::make(0.1, 0.12, 0.05 + low + 0.002)), f, 0.005);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NEAR(found[0].gap, 0.002, 1e-15);
  EXPECT_LT(norm(v3::sub(found[0].normal, v3::make(0, 0, -1))), 1e-14);
  EXPECT_LT(norm(v3::sub(witness(f, found[0]), v3::make(0.1, 0.12, 0.05))), 1e-14);
  expect_consistent(f, found);
}

// Random heights in [0, 0.02] over a 6 x 6 grid of 5 cm cells.
HeightField bumpy(test::Rng& rng) {
  std::vector<double> z(49);
  for (double& v : z) v = rng.uniform(0.0, 0.02);
  return height_field(6, 0.05, [&](int i, int j) { return z[static_cast<std::size_t>(j * 7 + i)]; });
}

// Least distance from point p to segment [a, b].
double point_segment(const Vec3& p, const Vec3& a, const Vec3& b) {
  return std::sqrt(closest_points_segments(p, p, a, b).distance_squared);
}

// Least distance from segment [a, b] to triangle t: the distance to a convex set is convex along
// the segment, so a ternary search finds it.
double segment_triangle(const Vec3& a, const Vec3& b, const Vec3& t0, const Vec3& t1, const Vec3& t2) {
  auto d = [&](double s) {
    return std::sqrt(closest_point_triangle(v3::madd(a, s, v3::sub(b, a)), t0, t1, t2).distance_squared);
  };
  double lo = 0.0, hi = 1.0;
  for (int it = 0; it < 200 && hi - lo > 1e-15; ++it) {
    const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    (d(m1) < d(m2) ? hi : lo) = d(m1) < d(m2) ? m2 : m1;
  }
  return std::min({d(0.0), d(1.0), d(0.5 * (lo + hi))});
}

TEST(ShapeSurfaceContacts, SpheresAndCapsulesOverABumpySurfaceFindTheLeastDistance) {
  // The least distance between the shape's core (sphere centre, capsule axis) and the surface is
  // either a reported contact's (gap + r) or a vertex's: both against brute force over every
  // triangle.
  test::Rng rng(11);
  const double margin = 0.01;
  int checked = 0, by_contact = 0, by_edge = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const HeightField f = bumpy(rng);
    const bool is_capsule = trial % 2 == 1;
    const double r = rng.uniform(0.01, 0.03), half = 0.04;
    const Shape shape = is_capsule ? Shape{ShapeType::kCapsule, {r, half, 0}} : Shape{ShapeType::kSphere, {r, 0, 0}};
    // Axis within 30 degrees of horizontal, the centre over the middle, 0-12 mm above the top.
    const Mat3 R = rotation_matrix(quat_from_axis_angle(v3::make(0, 0, 1), rng.uniform(0, kPi))) *
                   rotation_matrix(quat_from_axis_angle(v3::make(1, 0, 0), kPi / 2 + rng.uniform(-0.5, 0.5)));
    const Vec3 centre = v3::make(rng.uniform(0.1, 0.2), rng.uniform(0.1, 0.2), 0.02 + r + rng.uniform(-0.015, 0.01));
    const Pose pose = placed(R, centre);
    const Vec3 a = to_world(pose, v3::make(0, 0, is_capsule ? -half : 0.0));
    const Vec3 b = to_world(pose, v3::make(0, 0, is_capsule ? half : 0.0));
    double least = 1e300, at_vertex = 1e300;
    for (const auto& t : f.triangles) least = std::min(least, segment_triangle(a, b, f.x[t[0]], f.x[t[1]], f.x[t[2]]));
    for (const Vec3& v : f.x) at_vertex = std::min(at_vertex, point_segment(v, a, b));
    if (!(least - r <= margin) || least < 0.5 * r) continue;  // out of reach, or the core nearly through
    ++checked;
    const auto found = contacts(shape, pose, f, margin);
    expect_consistent(f, found);
    double best = 1e300;
    const ShapeSurfaceContact* nearest = nullptr;
    for (const auto& c : found)
      if (c.gap + r < best) {
        best = c.gap + r;
        nearest = &c;
      }
    EXPECT_NEAR(std::min(best, at_vertex), least, 1e-9) << "trial " << trial;
    if (best < at_vertex - 1e-9) {
      ++by_contact;
      by_edge += std::count(nearest->bary, nearest->bary + 3, 0.0) == 1 ? 1 : 0;
    }
  }
  std::printf("spheres and capsules: %d placements in reach, the least distance at a face or edge %d, at an edge %d\n",
              checked, by_contact, by_edge);
  EXPECT_GT(checked, 150);
  EXPECT_GT(by_contact, 100) << "faces and edges must hold the least distance in most placements";
  EXPECT_GT(by_edge, 10) << "edges must hold it in some";
}

TEST(ShapeSurfaceContacts, BoxesAboveABumpySurfaceFindTheLeastDistance) {
  // A box in any orientation above the surface's highest point (so they do not overlap): the
  // least distance of two polyhedra is at a corner against a face, a vertex against a face or
  // an edge against an edge; the vertices' own share is point_shape's.
  test::Rng rng(5);
  const double margin = 0.01;
  const Shape box{ShapeType::kBox, {0.03, 0.02, 0.015}};
  int checked = 0, by_corner = 0, by_edge = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const HeightField f = bumpy(rng);
    const Mat3 R = rng.rotation();
    double lowest = 1e300;
    for (int i = 0; i < 8; ++i) {
      const Vec3 c = v3::mul(R, v3::make(i & 1 ? 0.03 : -0.03, i & 2 ? 0.02 : -0.02, i & 4 ? 0.015 : -0.015));
      lowest = std::min(lowest, c[2]);
    }
    const Pose pose =
        placed(R, v3::make(rng.uniform(0.1, 0.2), rng.uniform(0.1, 0.2), 0.02 - lowest + rng.uniform(0, 0.004)));
    std::vector<Vec3> corner;
    for (int i = 0; i < 8; ++i)
      corner.push_back(to_world(pose, v3::make(i & 1 ? 0.03 : -0.03, i & 2 ? 0.02 : -0.02, i & 4 ? 0.015 : -0.015)));
    double corner_face = 1e300, edge_edge = 1e300, at_vertex = 1e300;
    for (const auto& t : f.triangles) {
      for (const Vec3& c : corner)
        corner_face = std::min(corner_face,
                               std::sqrt(closest_point_triangle(c, f.x[t[0]], f.x[t[1]], f.x[t[2]]).distance_squared));
      for (int axis = 0; axis < 3; ++axis)
        for (int i = 0; i < 8; ++i) {
          if ((i >> axis) & 1) continue;
          for (int k = 0; k < 3; ++k)
            edge_edge = std::min(edge_edge, std::sqrt(closest_points_segments(corner[i], corner[i | (1 << axis)],
                                                                              f.x[t[k]], f.x[t[(k + 1) % 3]])
                                                          .distance_squared));
        }
    }
    for (const Vec3& v : f.x) at_vertex = std::min(at_vertex, point_shape(v, box, pose).distance);
    const double least = std::min({corner_face, edge_edge, at_vertex});
    if (!(least <= margin)) continue;
    ++checked;
    const double best = least_contact_gap(box, pose, f, margin);
    EXPECT_NEAR(std::min(best, at_vertex), least, 1e-12) << "trial " << trial;
    if (best < at_vertex - 1e-12) (corner_face <= edge_edge ? by_corner : by_edge) += 1;
  }
  std::printf("boxes: %d placements in reach, the least distance at a corner %d, at an edge %d\n", checked, by_corner,
              by_edge);
  EXPECT_GT(checked, 200);
  EXPECT_GT(by_corner, 20);
  EXPECT_GT(by_edge, 20);
}

TEST(ShapeSurfaceContacts, CylindersStandingAndLyingOnAPlaneRestOnTheirRims) {
  const HeightField flat = height_field(4, 0.1, [](int, int) { return 0.0; });
  const Shape cylinder{ShapeType::kCylinder, {0.02, 0.03, 0}};
  // Standing on a cap, 1 mm above, turned about z: its bottom rim's four fixed points.
  auto found = contacts(
      cylinder, placed(rotation_matrix(quat_from_axis_angle(v3::make(0, 0, 1), 0.3)), v3::make(0.17, 0.22, 0.031)),
      flat, 0.005);
  ASSERT_EQ(found.size(), 4u);
  for (const auto& c : found) EXPECT_NEAR(c.gap, 0.001, 1e-15);
  expect_consistent(flat, found);
  // Lying along x (turned about y), 1 mm above: each rim's lowest point.
  const Mat3 lying = rotation_matrix(quat_from_axis_angle(v3::make(0, 1, 0), kPi / 2)) *
                     rotation_matrix(quat_from_axis_angle(v3::make(0, 0, 1), 0.3));
  found = contacts(cylinder, placed(lying, v3::make(0.17, 0.22, 0.021)), flat, 0.005);
  ASSERT_EQ(found.size(), 2u);
  for (const auto& c : found) {
    EXPECT_NEAR(c.gap, 0.001, 1e-12);
    EXPECT_NEAR(c.normal[2], -1.0, 1e-12);
  }
  expect_consistent(flat, found);
  EXPECT_FALSE(has_shape_surface_contacts(ShapeType::kHalfSpace));
  EXPECT_TRUE(contacts(Shape{ShapeType::kHalfSpace, {0, 0, 0}}, placed(identity3(), v3::make(0, 0, 0.001)), flat, 0.005)
                  .empty());
}

TEST(ShapeSurfaceContacts, CylindersAboveABumpySurfaceFindTheLeastDistance) {
  // A cylinder in any orientation above the surface's highest point: the least distance is a
  // surface vertex's (point_shape), a rim point's against a triangle (either's face or edge), or
  // the side's against an edge (the axis' distance less the radius, closest inside the axis).
  // The oracle minimises over the rim by 512 angles refined by ternary search, per triangle.
  test::Rng rng(17);
  const double margin = 0.01, r = 0.02, h = 0.03;
  const Shape cylinder{ShapeType::kCylinder, {r, h, 0}};
  int checked = 0, by_rim = 0, by_side = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const HeightField f = bumpy(rng);
    const Mat3 R = rng.rotation();
    const Vec3 axis = v3::mul(R, v3::make(0, 0, 1));
    // Lowest point of the cylinder along z: a rim's, h |a_z| + r sqrt(1 - a_z^2) below the centre.
    const double drop = h * std::abs(axis[2]) + r * std::sqrt(std::max(0.0, 1.0 - axis[2] * axis[2]));
    const Pose pose =
        placed(R, v3::make(rng.uniform(0.1, 0.2), rng.uniform(0.1, 0.2), 0.02 + drop + rng.uniform(0, 0.004)));
    const Vec3 a = to_world(pose, v3::make(0, 0, -h)), b = to_world(pose, v3::make(0, 0, h));
    double rim = 1e300, side = 1e300, at_vertex = 1e300;
    for (const auto& t : f.triangles) {
      const Vec3 &t0 = f.x[t[0]], &t1 = f.x[t[1]], &t2 = f.x[t[2]];
      bool near = false;
      for (const Vec3* v : {&t0, &t1, &t2}) near = near || std::abs((*v)[0] - pose.translation[0]) < 0.1;
      if (!near) continue;
      for (int cap = -1; cap <= 1; cap += 2) {
        auto d = [&](double theta) {
          const Vec3 q = to_world(pose, v3::make(r * std::cos(theta), r * std::sin(theta), cap * h));
          return std::sqrt(closest_point_triangle(q, t0, t1, t2).distance_squared);
        };
        int best = 0;
        for (int k = 1; k < 512; ++k)
          if (d(k * 2 * kPi / 512) < d(best * 2 * kPi / 512)) best = k;
        double lo = (best - 1) * 2 * kPi / 512, hi = (best + 1) * 2 * kPi / 512;
        for (int it = 0; it < 100; ++it) {
          const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
          (d(m1) < d(m2) ? hi : lo) = d(m1) < d(m2) ? m2 : m1;
        }
        rim = std::min({rim, d(lo), d(best * 2 * kPi / 512)});
      }
      for (int k = 0; k < 3; ++k) {
        const EdgeEdgeResult e = closest_points_segments(a, b, f.x[t[k]], f.x[t[(k + 1) % 3]]);
        if (e.s > 0.0 && e.s < 1.0) side = std::min(side, std::sqrt(e.distance_squared) - r);
      }
    }
    for (const Vec3& v : f.x) at_vertex = std::min(at_vertex, point_shape(v, cylinder, pose).distance);
    const double least = std::min({rim, side, at_vertex});
    if (!(least <= margin)) continue;
    ++checked;
    const double best = least_contact_gap(cylinder, pose, f, margin);
    EXPECT_NEAR(std::min(best, at_vertex), least, 1e-9) << "trial " << trial;
    if (best < at_vertex - 1e-9) (rim <= side ? by_rim : by_side) += 1;
  }
  std::printf("cylinders: %d placements in reach, the least distance at a rim %d, at the side %d\n", checked, by_rim,
              by_side);
  EXPECT_GT(checked, 120);
  EXPECT_GT(by_rim, 50);
  EXPECT_GT(by_side, 5);
}

}  // namespace
}  // namespace sinew::collision_shape_surface_contacts_test
