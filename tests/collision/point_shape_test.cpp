#include "sinew/collision/point_shape.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "collision_test_util.hpp"

namespace sinew::collision_point_shape_test {
namespace {

// Oracle distance from p to the rectangle {x : |x_i| <= h_i, x_k = c} (a face of a box).
double to_rectangle(const Vec3& p, const Vec3& h, int k, double c) {
  Vec3 q = p;
  for (int i = 0; i < 3; ++i) q[i] = i == k ? c : std::clamp(p[i], -h[i], h[i]);
  return std::sqrt(v3::sqdist(p, q));
}

// Oracle signed distance to a box: distance to the nearest of the six faces, signed by inside.
double box_oracle(const Vec3& p, const Vec3& h) {
  double d = HUGE_VAL;
  for (int k = 0; k < 3; ++k) d = std::min({d, to_rectangle(p, h, k, h[k]), to_rectangle(p, h, k, -h[k])});
  const bool inside = std::fabs(p[0]) < h[0] && std::fabs(p[1]) < h[1] && std::fabs(p[2]) < h[2];
  return inside ? -d : d;
}

// Oracle signed distance to a cylinder: nearest of the side surface and the two cap discs.
double cylinder_oracle(const Vec3& p, double r, double hl) {
  const double rho = std::hypot(p[0], p[1]);
  const double side = std::hypot(rho - r, std::max(std::fabs(p[2]) - hl, 0.0));
  double d = side;
  for (double z : {-hl, hl}) d = std::min(d, std::hypot(std::max(rho - r, 0.0), p[2] - z));
  const bool inside = rho < r && std::fabs(p[2]) < hl;
  return inside ? -d : d;
}

// Oracle signed distance to a capsule by dense sampling of the axis (exact up to the sampling).
double capsule_oracle(const Vec3& p, double r, double hl) {
  double d = HUGE_VAL;
  const int n = 20000;
  for (int i = 0; i <= n; ++i) d = std::min(d, std::sqrt(v3::sqdist(p, v3::make(0, 0, -hl + 2 * hl * i / n))));
  return d - r;
}

// Common checks: unit normal, closest point on the surface, |p - closest| = |distance|.
void check_consistent(const SignedDistance& sd, const Vec3& p, const Shape& s, const Pose& pose) {
  EXPECT_NEAR(norm(sd.normal), 1.0, 1e-12);
  EXPECT_NEAR(point_shape(sd.closest, s, pose).distance, 0.0, 1e-9);
  EXPECT_NEAR(std::sqrt(v3::sqdist(p, sd.closest)), std::fabs(sd.distance), 1e-9);
}

// Every point of a shape lies in its bounding ball, and the ball is tight for the box (its
// corners), the sphere and the cylinder (its rims); the half-space has none.
TEST(PointShape, TheBoundingRadiusHoldsTheShape) {
  test::Rng rng(31);
  const Shape shapes[] = {{ShapeType::kSphere, {0.3, 0, 0}},
                          {ShapeType::kBox, {0.1, 0.4, 0.25}},
                          {ShapeType::kCapsule, {0.1, 0.5, 0}},
                          {ShapeType::kCylinder, {0.2, 0.3, 0}}};
  for (const Shape& shape : shapes) {
    const double r = bounding_radius(shape);
    double farthest = 0.0;
    for (int i = 0; i < 20000; ++i) {
      const Vec3 x = rng.vec(-1.0, 1.0);
      if (point_shape(x, shape, identity_pose()).distance > 0.0) continue;
      farthest = std::max(farthest, norm(x));
      EXPECT_LE(norm(x), r) << "shape type " << static_cast<int>(shape.type);
    }
    if (shape.type != ShapeType::kCapsule) {
      EXPECT_NEAR(norm(point_shape(v3::scale(2.0, v3::make(shape.size[0], shape.size[1], shape.size[2])), shape,
                                   identity_pose())
                           .closest),
                  r, shape.type == ShapeType::kBox ? 1e-12 : 0.5 * r)
          << "shape type " << static_cast<int>(shape.type);
    }
    EXPECT_GT(farthest, 0.8 * r);
  }
  EXPECT_EQ(bounding_radius(Shape{ShapeType::kHalfSpace, {0, 0, 0}}), INFINITY);
}

TEST(PointShape, BoxMatchesFaceOracle) {
  test::Rng rng(31);
  int inside = 0;
  for (int i = 0; i < 20000; ++i) {
    const Shape s{ShapeType::kBox, {rng.uniform(0.1, 1), rng.uniform(0.1, 1), rng.uniform(0.1, 1)}};
    const Pose pose = rng.pose(1.0);
    const Vec3 p = rng.vec(-2, 2);
    const SignedDistance sd = point_shape(p, s, pose);
    EXPECT_NEAR(sd.distance, box_oracle(to_local(pose, p), v3::make(s.size[0], s.size[1], s.size[2])), 1e-12);
    check_consistent(sd, p, s, pose);
    inside += sd.distance < 0;
  }
  EXPECT_GT(inside, 200);
}

TEST(PointShape, CylinderMatchesOracle) {
  test::Rng rng(32);
  int inside = 0;
  for (int i = 0; i < 20000; ++i) {
    const Shape s{ShapeType::kCylinder, {rng.uniform(0.1, 1), rng.uniform(0.1, 1), 0}};
    const Pose pose = rng.pose(1.0);
    const Vec3 p = rng.vec(-2, 2);
    const SignedDistance sd = point_shape(p, s, pose);
    EXPECT_NEAR(sd.distance, cylinder_oracle(to_local(pose, p), s.size[0], s.size[1]), 1e-12);
    check_consistent(sd, p, s, pose);
    inside += sd.distance < 0;
  }
  EXPECT_GT(inside, 200);
}

TEST(PointShape, CapsuleMatchesSampledAxis) {
  test::Rng rng(33);
  for (int i = 0; i < 1000; ++i) {
    const Shape s{ShapeType::kCapsule, {rng.uniform(0.1, 1), rng.uniform(0.0, 1), 0}};
    const Pose pose = rng.pose(1.0);
    const Vec3 p = rng.vec(-2, 2);
    const SignedDistance sd = point_shape(p, s, pose);
    EXPECT_NEAR(sd.distance, capsule_oracle(to_local(pose, p), s.size[0], s.size[1]), 1e-4);
    check_consistent(sd, p, s, pose);
  }
}

TEST(PointShape, SphereAndHalfSpaceAreAnalytic) {
  test::Rng rng(34);
  for (int i = 0; i < 5000; ++i) {
    const Pose pose = rng.pose(1.0);
    const Vec3 p = rng.vec(-2, 2);
    const double r = rng.uniform(0.1, 1);
    const Shape sphere{ShapeType::kSphere, {r, 0, 0}};
    const SignedDistance ds = point_shape(p, sphere, pose);
    EXPECT_NEAR(ds.distance, std::sqrt(v3::sqdist(p, pose.translation)) - r, 1e-12);
    check_consistent(ds, p, sphere, pose);
    const Shape half{ShapeType::kHalfSpace, {0, 0, 0}};
    const SignedDistance dh = point_shape(p, half, pose);
    const Vec3 n = to_world_direction(pose, v3::make(0, 0, 1));
    EXPECT_NEAR(dh.distance, dot(n, v3::sub(p, pose.translation)), 1e-12);
    EXPECT_NEAR(v3::sqdist(dh.normal, n), 0.0, 1e-24);
    check_consistent(dh, p, half, pose);
  }
  // Centre of a sphere and axis of a capsule still give unit normals.
  EXPECT_NEAR(norm(point_sphere(v3::make(1, 2, 3), v3::make(1, 2, 3), 0.5).normal), 1.0, 1e-15);
  EXPECT_NEAR(point_capsule_local(v3::make(0, 0, 0.2), 0.5, 1.0).distance, -0.5, 1e-15);
}

TEST(PointShape, NormalIsTheGradientOfTheDistance) {
  // Central differences of the signed distance reproduce the normal away from the medial axis.
  test::Rng rng(35);
  const double h = 1e-6;
  int checked = 0;
  for (int i = 0; i < 4000; ++i) {
    const ShapeType t = static_cast<ShapeType>(i % 5);
    const Shape s{t, {rng.uniform(0.3, 1), rng.uniform(0.3, 1), rng.uniform(0.3, 1)}};
    const Pose pose = rng.pose(0.5);
    const Vec3 p = rng.vec(-2, 2);
    const SignedDistance sd = point_shape(p, s, pose);
    Vec3 g;
    bool smooth = true;
    for (int k = 0; k < 3; ++k) {
      Vec3 a = p, b = p;
      a[k] += h;
      b[k] -= h;
      const SignedDistance da = point_shape(a, s, pose), db = point_shape(b, s, pose);
      g[k] = (da.distance - db.distance) / (2 * h);
      // Skip points where the nearest feature changes within the stencil (medial axis).
      smooth = smooth && v3::sqdist(da.normal, sd.normal) < 1e-6 && v3::sqdist(db.normal, sd.normal) < 1e-6;
    }
    if (!smooth) continue;
    ++checked;
    EXPECT_NEAR(v3::sqdist(g, sd.normal), 0.0, 1e-10) << "shape type " << i % 5;
  }
  EXPECT_GT(checked, 3500);
}

}  // namespace
}  // namespace sinew::collision_point_shape_test
