#include "sinew/collision/contact_set.hpp"

#include <gtest/gtest.h>

#include "expect_error.hpp"

namespace sinew::collision_contact_set_test {
namespace {

Contact sample_contact(int k) {
  Contact c;
  c.kind = ContactKind::kEdgeEdge;
  c.object_a = 1 + k;
  c.object_b = 2 + k;
  for (int i = 0; i < 4; ++i) {
    c.vertices[i] = 10 * k + i;
    c.weights[i] = 0.1 * i - 0.2 * k;
  }
  c.point_a = v3::make(k, 1, 2);
  c.point_b = v3::make(k, 1, 1.5);
  c.local_a = v3::make(3, k, 4);
  c.local_b = v3::make(5, 6, k);
  c.gap = 0.5;
  c.frame = contact_frame(v3::make(0, 0, 1));
  c.obstacle_velocity = v3::make(7, 8, k);
  return c;
}

void expect_same(const Contact& a, const Contact& b) {
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.object_a, b.object_a);
  EXPECT_EQ(a.object_b, b.object_b);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(a.vertices[i], b.vertices[i]);
    EXPECT_EQ(a.weights[i], b.weights[i]);
  }
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(a.point_a[i], b.point_a[i]);
    EXPECT_EQ(a.point_b[i], b.point_b[i]);
    EXPECT_EQ(a.local_a[i], b.local_a[i]);
    EXPECT_EQ(a.local_b[i], b.local_b[i]);
    EXPECT_EQ(a.frame.normal[i], b.frame.normal[i]);
    EXPECT_EQ(a.frame.tangent1[i], b.frame.tangent1[i]);
    EXPECT_EQ(a.frame.tangent2[i], b.frame.tangent2[i]);
    EXPECT_EQ(a.obstacle_velocity[i], b.obstacle_velocity[i]);
  }
  EXPECT_EQ(a.gap, b.gap);
}

TEST(ContactSet, StructOfArraysRoundTripsInOrder) {
  ContactSet cs;
  cs.reserve(3);
  for (int k = 0; k < 3; ++k) cs.push_back(sample_contact(k));
  ASSERT_EQ(cs.size(), 3);
  EXPECT_EQ(cs.vertices.size(), 12u);
  EXPECT_EQ(cs.frame.size(), 27u);
  EXPECT_EQ(cs.obstacle_velocity.size(), 9u);
  for (int k = 0; k < 3; ++k) expect_same(cs.at(k), sample_contact(k));
  // Layout: frame row i holds normal, tangent1, tangent2.
  EXPECT_EQ(cs.frame[9 * 2 + 2], 1.0);
  EXPECT_EQ(cs.vertices[4 * 1 + 3], 13);
  cs.clear();
  EXPECT_EQ(cs.size(), 0);
  EXPECT_TRUE(cs.frame.empty());
  EXPECT_TRUE(cs.local_b.empty());
  EXPECT_SINEW_ERROR(cs.at(-1), "contact -1 out of range");
}

TEST(ContactSet, JacobianRowsUseWeightsAndFrame) {
  ContactSet cs;
  Contact c = sample_contact(0);  // vertices 0..3, weights 0, 0.1, 0.2, 0.3
  c.frame = contact_frame(v3::make(0, 1, 0), v3::make(1, 0, 0));
  cs.push_back(c);
  const auto h = contact_jacobian(cs, 4);
  // 3 rows x 4 vertices x 3 axes, zero weights included.
  ASSERT_EQ(h.size(), 36u);
  for (const JacobianEntry& e : h) {
    const Vec3 dir = e.row == 0 ? c.frame.normal : (e.row == 1 ? c.frame.tangent1 : c.frame.tangent2);
    EXPECT_EQ(e.value, c.weights[e.col / 3] * dir[e.col % 3]);
  }
}

}  // namespace
}  // namespace sinew::collision_contact_set_test
