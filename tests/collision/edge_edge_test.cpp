#include "sinew/collision/edge_edge.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "collision_test_util.hpp"

namespace sinew::collision_edge_edge_test {
namespace {

double dist2_at(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, double s, double t) {
  return v3::sqdist(v3::madd(p0, s, v3::sub(p1, p0)), v3::madd(q0, t, v3::sub(q1, q0)));
}

// Oracle: the minimum of the convex quadratic f(s, t) over [0, 1]^2 by enumeration: the interior
// stationary point (when unique and inside) and the 1D minimiser on each of the four sides.
double oracle(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1) {
  const Vec3 d1 = v3::sub(p1, p0), d2 = v3::sub(q1, q0), r = v3::sub(p0, q0);
  double best = HUGE_VAL;
  auto side_s = [&](double t) {  // min over s with t fixed
    const Vec3 q = v3::madd(q0, t, d2);
    const double a = dot(d1, d1);
    const double s = a > 0 ? std::clamp(dot(v3::sub(q, p0), d1) / a, 0.0, 1.0) : 0.0;
    best = std::min(best, dist2_at(p0, p1, q0, q1, s, t));
  };
  auto side_t = [&](double s) {
    const Vec3 p = v3::madd(p0, s, d1);
    const double e = dot(d2, d2);
    const double t = e > 0 ? std::clamp(dot(v3::sub(p, q0), d2) / e, 0.0, 1.0) : 0.0;
    best = std::min(best, dist2_at(p0, p1, q0, q1, s, t));
  };
  side_s(0), side_s(1), side_t(0), side_t(1);
  const double a = dot(d1, d1), b = dot(d1, d2), e = dot(d2, d2), c = dot(d1, r), f = dot(d2, r);
  const double det = a * e - b * b;
  if (det > 1e-12 * a * e) {
    const double s = (b * f - c * e) / det, t = (a * f - b * c) / det;
    if (s >= 0 && s <= 1 && t >= 0 && t <= 1) best = std::min(best, dist2_at(p0, p1, q0, q1, s, t));
  }
  return best;
}

void check(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1) {
  const EdgeEdgeResult r = closest_points_segments(p0, p1, q0, q1);
  EXPECT_GE(r.s, 0.0);
  EXPECT_LE(r.s, 1.0);
  EXPECT_GE(r.t, 0.0);
  EXPECT_LE(r.t, 1.0);
  EXPECT_NEAR(r.distance_squared, dist2_at(p0, p1, q0, q1, r.s, r.t), 1e-12);
  EXPECT_NEAR(r.distance_squared, oracle(p0, p1, q0, q1), 1e-10);
}

TEST(EdgeEdge, MatchesEnumerationOracleForGeneralSegments) {
  test::Rng rng(21);
  int interior = 0, clamped = 0;
  for (int i = 0; i < 20000; ++i) {
    const Vec3 p0 = rng.vec(-1, 1), p1 = rng.vec(-1, 1), q0 = rng.vec(-1, 1), q1 = rng.vec(-1, 1);
    check(p0, p1, q0, q1);
    const EdgeEdgeResult r = closest_points_segments(p0, p1, q0, q1);
    EXPECT_FALSE(r.parallel);
    if (r.s > 0 && r.s < 1 && r.t > 0 && r.t < 1) {
      ++interior;
    } else {
      ++clamped;
    }
  }
  EXPECT_GT(interior, 1000);
  EXPECT_GT(clamped, 1000);
}

TEST(EdgeEdge, ParallelAndCollinearSegments) {
  test::Rng rng(22);
  for (int i = 0; i < 5000; ++i) {
    const Vec3 p0 = rng.vec(-1, 1), d = rng.vec(-1, 1);
    const Vec3 offset = (i % 2 == 0) ? rng.vec(-0.5, 0.5) : v3::make(0, 0, 0);  // odd: collinear
    const Vec3 q0 = v3::add(v3::madd(p0, rng.uniform(-2, 2), d), offset);
    const Vec3 q1 = v3::madd(q0, rng.uniform(-2, 2), d);
    const Vec3 p1 = v3::add(p0, d);
    check(p0, p1, q0, q1);
    EXPECT_TRUE(closest_points_segments(p0, p1, q0, q1).parallel);
  }
  // Overlapping collinear segments touch: distance 0.
  const EdgeEdgeResult r =
      closest_points_segments(v3::make(0, 0, 0), v3::make(2, 0, 0), v3::make(1, 0, 0), v3::make(3, 0, 0));
  EXPECT_NEAR(r.distance_squared, 0.0, 1e-30);
  // Parallel at distance 1 with overlapping projections.
  const EdgeEdgeResult r2 =
      closest_points_segments(v3::make(0, 0, 0), v3::make(2, 0, 0), v3::make(1, 1, 0), v3::make(-3, 1, 0));
  EXPECT_NEAR(r2.distance_squared, 1.0, 1e-14);
}

TEST(EdgeEdge, DegenerateSegmentsArePoints) {
  test::Rng rng(23);
  for (int i = 0; i < 5000; ++i) {
    const Vec3 p0 = rng.vec(-1, 1), q0 = rng.vec(-1, 1), q1 = rng.vec(-1, 1);
    switch (i % 3) {
      case 0:
        check(p0, p0, q0, q1);
        break;
      case 1:
        check(q0, q1, p0, p0);
        break;
      default:
        check(p0, p0, q0, q0);
        EXPECT_NEAR(closest_points_segments(p0, p0, q0, q0).distance_squared, v3::sqdist(p0, q0), 1e-14);
    }
  }
}

TEST(EdgeEdge, KnownCrossingAndSkewSegments) {
  // Skew lines x-axis and (y-axis at z = 2): closest points at the origin and (0, 0, 2).
  const EdgeEdgeResult r =
      closest_points_segments(v3::make(-1, 0, 0), v3::make(1, 0, 0), v3::make(0, -1, 2), v3::make(0, 3, 2));
  EXPECT_NEAR(r.s, 0.5, 1e-15);
  EXPECT_NEAR(r.t, 0.25, 1e-15);
  EXPECT_NEAR(r.distance_squared, 4.0, 1e-14);
  // Closest point clamped to an end of one segment.
  const EdgeEdgeResult e =
      closest_points_segments(v3::make(0, 0, 0), v3::make(1, 0, 0), v3::make(3, -1, 1), v3::make(3, 1, 1));
  EXPECT_NEAR(e.s, 1.0, 1e-15);
  EXPECT_NEAR(e.t, 0.5, 1e-15);
  EXPECT_NEAR(e.distance_squared, 5.0, 1e-14);
}

}  // namespace
}  // namespace sinew::collision_edge_edge_test
