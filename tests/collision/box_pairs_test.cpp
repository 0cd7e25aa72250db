#include "sinew/collision/box_pairs.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "collision_test_util.hpp"
#include "sinew/collision/narrow_phase.hpp"

namespace sinew::collision_box_pairs_test {
namespace {

// Every contact: unit normal, gap = n . (point_a - point_b), witness points on the surfaces.
// A capsule's end-ball witness may sit inside the capsule, shifted along the normal only (see
// ShapePairContact::point_a), so for capsules it is only required to be within A.
void check_pair_contacts(const ShapePairContact* out, int n, const Shape& a, const Pose& pa, const Shape& b,
                         const Pose& pb, double margin) {
  const bool a_on_surface = a.type != ShapeType::kCapsule;
  for (int k = 0; k < n; ++k) {
    EXPECT_NEAR(norm(out[k].normal), 1.0, 1e-12);
    EXPECT_NEAR(dot(out[k].normal, v3::sub(out[k].point_a, out[k].point_b)), out[k].gap, 1e-9);
    if (a_on_surface) {
      EXPECT_NEAR(point_shape(out[k].point_a, a, pa).distance, 0.0, 1e-9);
    } else {
      EXPECT_LE(point_shape(out[k].point_a, a, pa).distance, 1e-9);
    }
    EXPECT_NEAR(point_shape(out[k].point_b, b, pb).distance, 0.0, 1e-9);
    EXPECT_LE(out[k].gap, margin);
  }
}

double min_gap(const ShapePairContact* out, int n) {
  double g = HUGE_VAL;
  for (int k = 0; k < n; ++k) g = std::min(g, out[k].gap);
  return g;
}

TEST(BoxPairs, SegmentMinimumMatchesDenseSampling) {
  test::Rng rng(71);
  for (int i = 0; i < 500; ++i) {
    const Shape box{ShapeType::kBox, {rng.uniform(0.1, 0.6), rng.uniform(0.1, 0.6), rng.uniform(0.1, 0.6)}};
    const Pose pb = rng.pose(0.5);
    const Vec3 p0 = rng.vec(-1, 1), p1 = rng.vec(-1, 1);
    const SegmentShapeMin m = segment_shape_min(p0, p1, box, pb);
    double sampled = HUGE_VAL;
    for (int k = 0; k <= 20000; ++k)
      sampled = std::min(sampled, point_shape(v3::madd(p0, k / 20000.0, v3::sub(p1, p0)), box, pb).distance);
    EXPECT_LE(m.sd.distance, sampled + 1e-12);
    EXPECT_GE(m.sd.distance, sampled - 2e-4);  // the sampling step times the slope (<= 1)
  }
}

// Golden-section search of a convex function of s in [0, 1] to round-off, ends included.
template <class F>
double golden_minimum(F f) {
  const double inv_phi = 0.6180339887498949;
  double lo = 0.0, hi = 1.0;
  for (int it = 0; it < 100; ++it) {
    const double x1 = hi - inv_phi * (hi - lo), x2 = lo + inv_phi * (hi - lo);
    if (f(x1) <= f(x2)) {
      hi = x2;
    } else {
      lo = x1;
    }
  }
  return std::min({f(0.0), f(1.0), f(0.5 * (lo + hi))});
}

// A box with half extents drawn in [0.05, 0.6].
Shape random_box(test::Rng& rng) {
  return Shape{ShapeType::kBox, {rng.uniform(0.05, 0.6), rng.uniform(0.05, 0.6), rng.uniform(0.05, 0.6)}};
}

TEST(BoxPairs, SegmentBoxMinimumIsExactInsideAndOutside) {
  test::Rng rng(73);
  int through = 0, outside = 0;
  for (int i = 0; i < 3000; ++i) {
    const Shape box = random_box(rng);
    const Pose pb = rng.pose(0.5);
    // Segments of every length, many through the box and many beside it.
    const double reach = rng.uniform(0.2, 2.0);
    const Vec3 p0 = rng.vec(-reach, reach), p1 = rng.vec(-reach, reach);
    const SegmentShapeMin m = segment_shape_min(p0, p1, box, pb);
    const double golden =
        golden_minimum([&](double s) { return point_shape(v3::madd(p0, s, v3::sub(p1, p0)), box, pb).distance; });
    EXPECT_NEAR(m.sd.distance, golden, 1e-12) << "segment " << i;
    EXPECT_NEAR(v3::sqdist(m.point, v3::madd(p0, m.s, v3::sub(p1, p0))), 0.0, 1e-24);
    through += golden < 0.0;
    outside += golden > 0.0;
  }
  EXPECT_GT(through, 300);
  EXPECT_GT(outside, 300);
}

// The early-out of box-box edges: a segment judged wholly beyond a face plane by more than the
// margin is farther than the margin from the box everywhere (its exact minimum says so), and
// segments near the box are not skipped.
TEST(BoxPairs, AnEdgeSkippedBeyondAFaceIsFartherThanTheMargin) {
  test::Rng rng(75);
  int skipped = 0, kept_near = 0;
  for (int i = 0; i < 4000; ++i) {
    const Shape box = random_box(rng);
    const Pose pb = rng.pose(0.5);
    const double reach = rng.uniform(0.2, 2.0), margin = rng.uniform(-0.05, 0.2);
    const Vec3 p0 = rng.vec(-reach, reach), p1 = rng.vec(-reach, reach);
    const double least = segment_shape_min(p0, p1, box, pb).sd.distance;
    if (detail::beyond_a_face(to_local(pb, p0), to_local(pb, p1), box.size, margin)) {
      ++skipped;
      EXPECT_GT(least, margin) << "segment " << i;
    } else {
      kept_near += least <= margin;
    }
  }
  EXPECT_GT(skipped, 500);
  EXPECT_GT(kept_near, 500);
}

// The end-slope skip of box-box edges is exact: whenever the normals at the ends say the
// minimum is at an end, the exact minimum over the segment is no lower than that end.
TEST(BoxPairs, AnEdgeSkippedByItsEndSlopesHasItsMinimumAtAnEnd) {
  test::Rng rng(76);
  int skipped = 0, searched = 0;
  for (int i = 0; i < 4000; ++i) {
    const Shape box = random_box(rng);
    const Pose pb = rng.pose(0.5);
    const Vec3 p0 = rng.vec(-1.0, 1.0), p1 = rng.vec(-1.0, 1.0);
    const SignedDistance s0 = point_shape(p0, box, pb), s1 = point_shape(p1, box, pb);
    if (!detail::minimum_at_an_end(s0.normal, s1.normal, v3::sub(p1, p0))) {
      ++searched;
      continue;
    }
    ++skipped;
    const double least = segment_shape_min(p0, p1, box, pb).sd.distance;
    EXPECT_GE(least, std::min(s0.distance, s1.distance) - 1e-12) << "segment " << i;
  }
  EXPECT_GT(skipped, 500);
  EXPECT_GT(searched, 500);
}

TEST(BoxPairs, ASegmentParallelToAFaceKeepsAnEnd) {
  test::Rng rng(74);
  const Shape box{ShapeType::kBox, {0.3, 0.2, 0.1}};
  for (double z : {0.05, -0.08, 0.1, 0.15, 0.4}) {  // inside, on the face, outside
    for (int i = 0; i < 50; ++i) {
      const Pose pb = rng.pose(0.5);
      const double x = rng.uniform(0.0, 0.25), y = rng.uniform(-0.15, 0.15);
      const Vec3 p0 = to_world(pb, v3::make(-x, y, z)), p1 = to_world(pb, v3::make(x, -y, z));
      const SegmentShapeMin m = segment_shape_min(p0, p1, box, pb);
      EXPECT_TRUE(m.s == 0.0 || m.s == 1.0) << "z " << z << ": s = " << m.s;
      EXPECT_NEAR(m.sd.distance, std::abs(z) - 0.1, 1e-12);
    }
  }
}

TEST(BoxPairs, CapsuleBoxGapIsTheAxisMinimumMinusRadius) {
  test::Rng rng(72);
  const auto f = shape_pair_function(ShapeType::kCapsule, ShapeType::kBox);
  ASSERT_NE(f, nullptr);
  int interior = 0;
  for (int i = 0; i < 2000; ++i) {
    const Shape cap{ShapeType::kCapsule, {rng.uniform(0.05, 0.2), rng.uniform(0.1, 0.6), 0}};
    const Shape box{ShapeType::kBox, {rng.uniform(0.1, 0.6), rng.uniform(0.1, 0.6), rng.uniform(0.1, 0.6)}};
    const Pose pa = rng.pose(0.8), pb = rng.pose(0.3);
    ShapePairContact out[kMaxPairContacts];
    const int n = f(cap, pa, box, pb, 100.0, out);
    ASSERT_GE(n, 2);
    interior += n == 3;
    check_pair_contacts(out, n, cap, pa, box, pb, 100.0);
    const Vec3 a0 = to_world(pa, v3::make(0, 0, -cap.size[1])), a1 = to_world(pa, v3::make(0, 0, cap.size[1]));
    double sampled = HUGE_VAL;
    for (int k = 0; k <= 2000; ++k)
      sampled = std::min(sampled, point_shape(v3::madd(a0, k / 2000.0, v3::sub(a1, a0)), box, pb).distance);
    EXPECT_LE(min_gap(out, n), sampled - cap.size[0] + 1e-12);
    EXPECT_GE(min_gap(out, n), sampled - cap.size[0] - 2e-3);
    // The swapped table entry flips the normal.
    ShapePairContact sw[kMaxPairContacts];
    ASSERT_EQ(shape_pair_function(ShapeType::kBox, ShapeType::kCapsule)(box, pb, cap, pa, 100.0, sw), n);
    EXPECT_NEAR(v3::sqdist(sw[0].normal, v3::neg(out[0].normal)), 0.0, 1e-30);
  }
  EXPECT_GT(interior, 100);
}

// Oracle: min over a dense sampling of A's surface of B's exact signed distance.
double sampled_box_distance(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  double best = HUGE_VAL;
  const int n = 40;
  for (int axis = 0; axis < 3; ++axis)
    for (int side = -1; side <= 1; side += 2)
      for (int i = 0; i <= n; ++i)
        for (int j = 0; j <= n; ++j) {
          Vec3 x;
          const int u = (axis + 1) % 3, w = (axis + 2) % 3;
          x[axis] = side * a.size[axis];
          x[u] = a.size[u] * (-1 + 2.0 * i / n);
          x[w] = a.size[w] * (-1 + 2.0 * j / n);
          best = std::min(best, point_shape(to_world(pa, x), b, pb).distance);
        }
  return best;
}

TEST(BoxPairs, SeparatedBoxesGiveTheExactDistance) {
  test::Rng rng(73);
  const auto f = shape_pair_function(ShapeType::kBox, ShapeType::kBox);
  ASSERT_NE(f, nullptr);
  int separated = 0, touching = 0;
  for (int i = 0; i < 400; ++i) {
    const Shape a{ShapeType::kBox, {rng.uniform(0.1, 0.5), rng.uniform(0.1, 0.5), rng.uniform(0.1, 0.5)}};
    const Shape b{ShapeType::kBox, {rng.uniform(0.1, 0.5), rng.uniform(0.1, 0.5), rng.uniform(0.1, 0.5)}};
    const Pose pa = rng.pose(0.9), pb = rng.pose(0.2);
    ShapePairContact out[kMaxPairContacts];
    const int n = f(a, pa, b, pb, 100.0, out);
    check_pair_contacts(out, n, a, pa, b, pb, 100.0);
    const double g = min_gap(out, n);
    const double sampled = sampled_box_distance(a, pa, b, pb);
    if (sampled > 0.05) {
      ++separated;
      EXPECT_LE(g, sampled + 1e-9);
      EXPECT_GE(g, sampled - 0.03);  // the sampling is within half a step of the surface
    } else {
      ++touching;
      EXPECT_LT(g, 0.06);
    }
  }
  EXPECT_GT(separated, 100);
  EXPECT_GT(touching, 20);
}

TEST(BoxPairs, BoxRestingOnABoxGetsFourCornerContacts) {
  const Shape ground{ShapeType::kBox, {2, 2, 0.5}}, cube{ShapeType::kBox, {0.5, 0.5, 0.5}};
  const Pose pg{identity3(), v3::make(0, 0, -0.5)}, pc{identity3(), v3::make(0.3, -0.2, 0.49)};
  ShapePairContact out[kMaxPairContacts];
  const int n = shape_pair_function(ShapeType::kBox, ShapeType::kBox)(cube, pc, ground, pg, 0.005, out);
  ASSERT_EQ(n, 4);
  for (int k = 0; k < n; ++k) {
    EXPECT_NEAR(out[k].gap, -0.01, 1e-12);
    EXPECT_NEAR(out[k].normal[2], 1.0, 1e-12);
  }
}

}  // namespace
}  // namespace sinew::collision_box_pairs_test
