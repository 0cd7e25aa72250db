#include "sinew/collision/cylinder_pairs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "collision_test_util.hpp"
#include "sinew/collision/narrow_phase.hpp"

namespace sinew::collision_cylinder_pairs_test {
namespace {

// Dense samples of a shape's surface (cylinder, box or capsule) in world coordinates.
std::vector<Vec3> surface_samples(const Shape& s, const Pose& p, int n) {
  std::vector<Vec3> x;
  const double pi = 3.14159265358979323846;
  if (s.type == ShapeType::kBox) {
    for (int face = 0; face < 6; ++face) {
      const int axis = face / 2;
      const double sign = face % 2 ? 1.0 : -1.0;
      for (int i = 0; i <= n; ++i)
        for (int j = 0; j <= n; ++j) {
          Vec3 l;
          l[axis] = sign * s.size[axis];
          l[(axis + 1) % 3] = s.size[(axis + 1) % 3] * (2.0 * i / n - 1);
          l[(axis + 2) % 3] = s.size[(axis + 2) % 3] * (2.0 * j / n - 1);
          x.push_back(to_world(p, l));
        }
    }
    return x;
  }
  const double r = s.size[0], h = s.size[1];
  for (int i = 0; i < 4 * n; ++i) {
    const double t = 2 * pi * i / (4 * n);
    for (int j = 0; j <= n; ++j) {
      const double z = h * (2.0 * j / n - 1);
      if (s.type == ShapeType::kCylinder) {
        x.push_back(to_world(p, v3::make(r * std::cos(t), r * std::sin(t), z)));
        const double rho = r * j / n;  // the caps
        x.push_back(to_world(p, v3::make(rho * std::cos(t), rho * std::sin(t), h)));
        x.push_back(to_world(p, v3::make(rho * std::cos(t), rho * std::sin(t), -h)));
      } else {  // capsule: side and the two hemispheres
        x.push_back(to_world(p, v3::make(r * std::cos(t), r * std::sin(t), z)));
        const double phi = 0.5 * pi * j / n;
        const double c = r * std::cos(phi), zz = r * std::sin(phi);
        x.push_back(to_world(p, v3::make(c * std::cos(t), c * std::sin(t), h + zz)));
        x.push_back(to_world(p, v3::make(c * std::cos(t), c * std::sin(t), -h - zz)));
      }
    }
  }
  return x;
}

Shape random_shape(test::Rng& rng, ShapeType type) {
  if (type == ShapeType::kBox)
    return Shape{type, {rng.uniform(0.1, 0.5), rng.uniform(0.1, 0.5), rng.uniform(0.1, 0.5)}};
  return Shape{type, {rng.uniform(0.1, 0.4), rng.uniform(0.05, 0.5), 0}};
}

// Each pair with a cylinder, both orders: for separated shapes the smallest contact gap is the
// distance between them, compared with dense sampling of both surfaces; every contact has a
// unit normal, gap = n . (point_a - point_b) and witness points on the surfaces.
TEST(CylinderPairs, SmallestGapMatchesDenseSampling) {
  test::Rng rng(81);
  const ShapeType others[] = {ShapeType::kCapsule, ShapeType::kBox, ShapeType::kCylinder};
  int tested = 0;
  for (int i = 0; i < 120; ++i) {
    const ShapeType other = others[i % 3];
    const bool cylinder_first = (i / 3) % 2 == 0;
    const Shape a = random_shape(rng, cylinder_first ? ShapeType::kCylinder : other);
    const Shape b = random_shape(rng, cylinder_first ? other : ShapeType::kCylinder);
    const Pose pa = rng.pose(0.0), pb = Pose{rng.rotation(), rng.vec(-0.9, 0.9)};
    const auto f = shape_pair_function(a.type, b.type);
    ASSERT_NE(f, nullptr);
    // Distance by sampling: min over A's surface of B's signed distance, and the reverse.
    double sampled = HUGE_VAL;
    for (const Vec3& x : surface_samples(a, pa, 60)) sampled = std::min(sampled, point_shape(x, b, pb).distance);
    for (const Vec3& x : surface_samples(b, pb, 60)) sampled = std::min(sampled, point_shape(x, a, pa).distance);
    if (!(sampled > 0.01)) continue;  // separated shapes only: the gap is then the distance
    ShapePairContact out[kMaxPairContacts];
    const double margin = sampled + 0.1;
    const int n = f(a, pa, b, pb, margin, out);
    ASSERT_GT(n, 0) << "pair " << i;
    double g = HUGE_VAL;
    for (int k = 0; k < n; ++k) {
      g = std::min(g, out[k].gap);
      EXPECT_NEAR(norm(out[k].normal), 1.0, 1e-12);
      EXPECT_NEAR(dot(out[k].normal, v3::sub(out[k].point_a, out[k].point_b)), out[k].gap, 1e-9);
      EXPECT_LE(out[k].gap, margin);
      if (a.type != ShapeType::kCapsule) {
        EXPECT_NEAR(point_shape(out[k].point_a, a, pa).distance, 0.0, 1e-9);
      }
      if (b.type != ShapeType::kCapsule) {
        EXPECT_NEAR(point_shape(out[k].point_b, b, pb).distance, 0.0, 1e-9);
      }
    }
    // The sampling spacing is at most ~2 pi 0.5 / 240 and 1 / 60 of a side: within 0.01.
    EXPECT_LE(g, sampled + 1e-9) << "pair " << i;
    EXPECT_GE(g, sampled - 0.01) << "pair " << i;
    // Out of reach with a margin below the distance: no contact.
    EXPECT_EQ(f(a, pa, b, pb, 0.5 * g, out), 0);
    ++tested;
  }
  EXPECT_GT(tested, 40);
}

TEST(CylinderPairs, StandingAndLyingCylindersGetStableContactSets) {
  const Shape cyl{ShapeType::kCylinder, {0.2, 0.3, 0}}, box{ShapeType::kBox, {1, 1, 0.1}};
  const Pose on_box{identity3(), v3::make(0, 0, 0.1 + 0.3 + 0.01)};
  ShapePairContact out[kMaxPairContacts];
  // Standing on its cap 0.01 above the box top: at least 4 rim contacts at gap 0.01.
  int n = collide_cylinder_box(cyl, on_box, box, identity_pose(), 0.02, out);
  int at_gap = 0;
  for (int k = 0; k < n; ++k) {
    EXPECT_NEAR(out[k].normal[2], 1.0, 1e-9);
    at_gap += std::fabs(out[k].gap - 0.01) < 1e-9;
  }
  EXPECT_GE(at_gap, 4);
  // Two equal cylinders lying side by side (axes along x), 0.01 apart.
  const Mat3 lie{{0, 0, 1, 0, 1, 0, -1, 0, 0}};
  const Pose p1{lie, v3::make(0, 0, 0)}, p2{lie, v3::make(0, 0.41, 0)};
  n = collide_cylinder_cylinder(cyl, p2, cyl, p1, 0.02, out);
  ASSERT_GE(n, 2);
  for (int k = 0; k < n; ++k) {
    EXPECT_NEAR(out[k].gap, 0.01, 1e-9);
    EXPECT_NEAR(out[k].normal[1], 1.0, 1e-9);
  }
}

}  // namespace
}  // namespace sinew::collision_cylinder_pairs_test
