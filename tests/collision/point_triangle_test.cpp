#include "sinew/collision/point_triangle.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>

#include "collision_test_util.hpp"

namespace sinew::collision_point_triangle_test {
namespace {

// Oracle: the minimum of |p - x|^2 over the triangle, by enumerating the candidates of the tiny
// QP: the projection onto the plane when it lies inside, and each edge's clamped minimiser.
double oracle_distance_squared(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  double best = HUGE_VAL;
  const Vec3 v[3] = {a, b, c};
  for (int k = 0; k < 3; ++k) {
    const Vec3& s = v[k];
    const Vec3& e = v[(k + 1) % 3];
    const Vec3 d = v3::sub(e, s);
    const double len2 = dot(d, d);
    const double t = len2 > 0 ? std::clamp(dot(v3::sub(p, s), d) / len2, 0.0, 1.0) : 0.0;
    best = std::min(best, v3::sqdist(p, v3::madd(s, t, d)));
  }
  // Interior stationary point: solve the 2x2 normal equations for (u, w) in a + u ab + w ac.
  const Vec3 ab = v3::sub(b, a), ac = v3::sub(c, a), ap = v3::sub(p, a);
  const double m00 = dot(ab, ab), m01 = dot(ab, ac), m11 = dot(ac, ac);
  const double det = m00 * m11 - m01 * m01;
  if (det > 1e-12 * m00 * m11) {
    const double r0 = dot(ab, ap), r1 = dot(ac, ap);
    const double u = (m11 * r0 - m01 * r1) / det, w = (m00 * r1 - m01 * r0) / det;
    if (u >= 0 && w >= 0 && u + w <= 1)
      best = std::min(best, v3::sqdist(p, v3::add(a, v3::add(v3::scale(u, ab), v3::scale(w, ac)))));
  }
  return best;
}

void check_result(const PointTriangleResult& r, const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c,
                  double scale) {
  const double tol = 1e-10 * scale * scale;
  EXPECT_NEAR(r.distance_squared, oracle_distance_squared(p, a, b, c), tol);
  EXPECT_NEAR(r.bary[0] + r.bary[1] + r.bary[2], 1.0, 1e-12);
  for (double w : r.bary) {
    EXPECT_GE(w, -1e-12);
    EXPECT_LE(w, 1.0 + 1e-12);
  }
  const Vec3 x = v3::add(v3::add(v3::scale(r.bary[0], a), v3::scale(r.bary[1], b)), v3::scale(r.bary[2], c));
  EXPECT_NEAR(v3::sqdist(x, r.closest), 0.0, 1e-20 * scale * scale + 1e-28);
  EXPECT_NEAR(r.distance_squared, v3::sqdist(p, r.closest), tol);
  // Region and barycentric weights agree.
  const int reg = static_cast<int>(r.region);
  if (reg <= 2) {
    EXPECT_EQ(r.bary[reg], 1.0) << "vertex region " << reg;
  } else if (reg <= 5) {
    const int opposite = (reg - 3 + 2) % 3;  // AB -> c, BC -> a, CA -> b
    EXPECT_EQ(r.bary[opposite], 0.0) << "edge region " << reg;
  } else {
    for (double w : r.bary) {
      EXPECT_GE(w, 0.0);
    }
  }
}

TEST(PointTriangle, MatchesEnumerationOracleInEveryRegion) {
  test::Rng rng(11);
  std::array<int, 7> hits{};
  for (int i = 0; i < 20000; ++i) {
    const Vec3 a = rng.vec(-1, 1), b = rng.vec(-1, 1), c = rng.vec(-1, 1);
    const Vec3 p = rng.vec(-2, 2);
    const PointTriangleResult r = closest_point_triangle(p, a, b, c);
    check_result(r, p, a, b, c, 4.0);
    ++hits[static_cast<int>(r.region)];
  }
  for (int k = 0; k < 7; ++k) {
    EXPECT_GT(hits[k], 200) << "region " << k << " barely exercised";
  }
}

TEST(PointTriangle, RegionsOfAKnownTriangle) {
  const Vec3 a = v3::make(0, 0, 0), b = v3::make(1, 0, 0), c = v3::make(0, 1, 0);
  struct Case {
    Vec3 p;
    TriangleRegion region;
    double d2;
  };
  const Case cases[] = {
      {v3::make(-1, -1, 0.5), TriangleRegion::kVertexA, 2.25}, {v3::make(2, -1, 0), TriangleRegion::kVertexB, 2.0},
      {v3::make(-0.5, 2, 1), TriangleRegion::kVertexC, 2.25},  {v3::make(0.5, -1, 0), TriangleRegion::kEdgeAB, 1.0},
      {v3::make(1, 1, 0), TriangleRegion::kEdgeBC, 0.5},       {v3::make(-2, 0.5, 0), TriangleRegion::kEdgeCA, 4.0},
      {v3::make(0.25, 0.25, -3), TriangleRegion::kFace, 9.0}};
  for (const Case& k : cases) {
    const PointTriangleResult r = closest_point_triangle(k.p, a, b, c);
    EXPECT_EQ(r.region, k.region);
    EXPECT_NEAR(r.distance_squared, k.d2, 1e-14);
  }
  const PointTriangleResult f = closest_point_triangle(v3::make(0.25, 0.5, 2), a, b, c);
  EXPECT_NEAR(f.bary[0], 0.25, 1e-15);
  EXPECT_NEAR(f.bary[1], 0.25, 1e-15);
  EXPECT_NEAR(f.bary[2], 0.5, 1e-15);
}

TEST(PointTriangle, DegenerateTrianglesGiveClosestPointOfTheSegment) {
  test::Rng rng(12);
  for (int i = 0; i < 5000; ++i) {
    const Vec3 a = rng.vec(-1, 1), d = rng.vec(-1, 1);
    Vec3 b, c;
    switch (i % 3) {
      case 0:  // collinear
        b = v3::madd(a, rng.uniform(-1, 1), d);
        c = v3::madd(a, rng.uniform(-1, 1), d);
        break;
      case 1:  // two coincident vertices
        b = a;
        c = v3::add(a, d);
        break;
      default:  // a point
        b = a;
        c = a;
    }
    const Vec3 p = rng.vec(-2, 2);
    check_result(closest_point_triangle(p, a, b, c), p, a, b, c, 4.0);
  }
}

TEST(PointTriangle, NoSampledPointIsCloser) {
  test::Rng rng(13);
  for (int i = 0; i < 300; ++i) {
    const Vec3 a = rng.vec(-1, 1), b = rng.vec(-1, 1), c = rng.vec(-1, 1), p = rng.vec(-2, 2);
    const PointTriangleResult r = closest_point_triangle(p, a, b, c);
    const int n = 40;
    double best = HUGE_VAL;
    for (int u = 0; u <= n; ++u)
      for (int w = 0; u + w <= n; ++w) {
        const double bu = double(u) / n, bw = double(w) / n;
        const Vec3 x = v3::add(v3::add(v3::scale(1 - bu - bw, a), v3::scale(bu, b)), v3::scale(bw, c));
        best = std::min(best, v3::sqdist(p, x));
      }
    EXPECT_LE(r.distance_squared, best + 1e-12);
    EXPECT_GE(std::sqrt(r.distance_squared), std::sqrt(best) - 0.1);  // the sampling is within ~1/n
  }
}

}  // namespace
}  // namespace sinew::collision_point_triangle_test
