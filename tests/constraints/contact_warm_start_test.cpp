// carry_contact_impulses (contact_warm_start.hpp): a contact found again keeps its world impulse
// whatever its new frame; a new one starts at 0; a contact gone is dropped.
#include "sinew/constraints/contact_warm_start.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "expect_error.hpp"
#include "sinew/core/eigen_interop.hpp"

namespace sinew::constraints::constraints_contact_warm_start_test {
namespace {

// A right-handed frame whose normal is @p n (unit), turned by @p angle about it.
KeyedContactFrame frame(std::array<Index, 3> key, const Eigen::Vector3d& n, double angle) {
  const Eigen::Vector3d seed = std::abs(n.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  const Eigen::Vector3d t0 = (seed - seed.dot(n) * n).normalized();
  const Eigen::Vector3d t1 = std::cos(angle) * t0 + std::sin(angle) * n.cross(t0);
  const Eigen::Vector3d t2 = n.cross(t1);
  return KeyedContactFrame{key, {to_vec3(n), to_vec3(t1), to_vec3(t2)}};
}

Eigen::Vector3d world(const KeyedContactFrame& c, const double* r) {
  return r[0] * to_eigen(c.frame[0]) + r[1] * to_eigen(c.frame[1]) + r[2] * to_eigen(c.frame[2]);
}

TEST(ContactWarmStart, ImpulsesFollowTheirContactsIntoNewFrames) {
  const Eigen::Vector3d up(0, 0, 1), tilted = Eigen::Vector3d(0.3, -0.2, 1.0).normalized();
  // Previous step: keys (1, 0, -1), (2, 0, -1), (4, 7, 3); next: (0, 0, -1) new, (2, 0, -1) and
  // (4, 7, 3) again with turned frames, (4, 7, 5) new (same vertex and edge, other second vertex).
  const std::vector<KeyedContactFrame> prev{frame({1, 0, -1}, up, 0.0), frame({2, 0, -1}, up, 0.4),
                                            frame({4, 7, 3}, tilted, 1.0)};
  const std::vector<double> r_prev{1.0, 0.1, -0.2, 2.0, -0.3, 0.5, 0.7, 0.05, 0.02};
  const std::vector<KeyedContactFrame> next{frame({0, 0, -1}, up, 0.0), frame({2, 0, -1}, tilted, -0.7),
                                            frame({4, 7, 3}, up, 2.0), frame({4, 7, 5}, up, 0.0)};
  std::vector<double> r0(12, 99.0);
  carry_contact_impulses(prev, r_prev, next, r0.data());
  for (int i : {0, 1, 2, 9, 10, 11}) EXPECT_EQ(r0[i], 0.0) << "entry " << i << " of a new contact";
  EXPECT_LT((world(next[1], &r0[3]) - world(prev[1], &r_prev[3])).norm(), 1e-15);
  EXPECT_LT((world(next[2], &r0[6]) - world(prev[2], &r_prev[6])).norm(), 1e-15);
  // In a frame other than the old one the components differ: they were re-expressed, not copied.
  EXPECT_GT(std::abs(r0[4] - r_prev[4]), 1e-3);
}

TEST(ContactWarmStart, NothingCarriesIntoAnEmptyOrFromAnEmptyStep) {
  const std::vector<KeyedContactFrame> some{frame({1, 0, -1}, Eigen::Vector3d::UnitZ(), 0.0)};
  std::vector<double> r0(3, 5.0);
  carry_contact_impulses({}, {}, some, r0.data());
  EXPECT_EQ(r0, (std::vector<double>{0.0, 0.0, 0.0}));
  carry_contact_impulses(some, {1.0, 2.0, 3.0}, {}, nullptr);  // nothing written
}

TEST(ContactWarmStart, ImpulsesOfTheWrongSizeAreRefused) {
  const std::vector<KeyedContactFrame> some{frame({1, 0, -1}, Eigen::Vector3d::UnitZ(), 0.0)};
  std::vector<double> r0(3);
  EXPECT_SINEW_ERROR(carry_contact_impulses(some, {1.0, 2.0}, some, r0.data()), "r_prev", "3 entries");
}

}  // namespace
}  // namespace sinew::constraints::constraints_contact_warm_start_test
