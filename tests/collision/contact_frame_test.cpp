#include "sinew/collision/contact_frame.hpp"

#include <gtest/gtest.h>

#include "collision_test_util.hpp"

namespace sinew::collision_contact_frame_test {
namespace {

void expect_orthonormal(const ContactFrame& f, const Vec3& n_expected) {
  const double eps = 1e-12;
  EXPECT_NEAR(norm(f.normal), 1.0, eps);
  EXPECT_NEAR(norm(f.tangent1), 1.0, eps);
  EXPECT_NEAR(norm(f.tangent2), 1.0, eps);
  EXPECT_NEAR(dot(f.normal, f.tangent1), 0.0, eps);
  EXPECT_NEAR(dot(f.normal, f.tangent2), 0.0, eps);
  EXPECT_NEAR(dot(f.tangent1, f.tangent2), 0.0, eps);
  // Right-handed: det [n t1 t2] = +1.
  EXPECT_NEAR(dot(cross(f.normal, f.tangent1), f.tangent2), 1.0, eps);
  EXPECT_NEAR(v3::sqdist(f.normal, n_expected), 0.0, eps);
}

TEST(ContactFrame, OrthonormalForRandomAndAxisNormals) {
  test::Rng rng(1);
  for (int i = 0; i < 5000; ++i) {
    const Vec3 n = rng.unit();
    const ContactFrame f = contact_frame(v3::scale(rng.uniform(0.01, 100), n));
    expect_orthonormal(f, n);
  }
  for (int k = 0; k < 3; ++k) {
    for (double s : {-1.0, 1.0}) {
      Vec3 n = v3::make(0, 0, 0);
      n[k] = s;
      expect_orthonormal(contact_frame(n), n);
      // Nearly axis-aligned normals too.
      Vec3 m = n;
      m[(k + 1) % 3] = 1e-13;
      expect_orthonormal(contact_frame(m), v3::normalized_or(m, n));
    }
  }
}

TEST(ContactFrame, SeedGivesFirstTangentByGramSchmidt) {
  test::Rng rng(2);
  for (int i = 0; i < 5000; ++i) {
    const Vec3 n = rng.unit(), seed = rng.vec(-1, 1);
    const ContactFrame f = contact_frame(n, seed);
    expect_orthonormal(f, n);
    const Vec3 t = v3::madd(seed, -dot(seed, n), n);  // Gram-Schmidt by hand
    if (norm(t) > 1e-3) {
      EXPECT_NEAR(v3::sqdist(f.tangent1, v3::scale(1.0 / norm(t), t)), 0.0, 1e-20);
    }
  }
  // A seed parallel to the normal falls back to an axis, still orthonormal.
  const Vec3 n = v3::make(0, 0.6, 0.8);
  expect_orthonormal(contact_frame(n, v3::scale(3.0, n)), n);
  expect_orthonormal(contact_frame(n, v3::make(0, 0, 0)), n);
}

TEST(ContactFrame, ZeroNormalGivesZAxis) {
  const ContactFrame f = contact_frame(v3::make(0, 0, 0));
  expect_orthonormal(f, v3::make(0, 0, 1));
}

}  // namespace
}  // namespace sinew::collision_contact_frame_test
