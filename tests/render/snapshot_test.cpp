// The snapshot pieces of render/snapshot.hpp: the ground patch follows the bodies, obstacles are
// drawn where they are, and the run's camera frames the bodies, not the ground's far edges.
#include "sinew/render/snapshot.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sinew/core/small_matrix_ops.hpp"

namespace sinew::render::render_snapshot_test {
namespace {

RenderMesh cube(const Vec3& lo, double side) {
  RenderMesh m = shape_mesh(Shape{ShapeType::kBox, {0.5 * side, 0.5 * side, 0.5 * side}});
  for (Vec3& p : m.vertices) p = p + lo + Vec3{{0.5 * side, 0.5 * side, 0.5 * side}};
  return m;
}

Vec3 centroid(const RenderMesh& m) {
  Vec3 c{{0, 0, 0}};
  for (const Vec3& v : m.vertices) c = c + (1.0 / static_cast<double>(m.vertices.size())) * v;
  return c;
}

TEST(Snapshot, GroundPatchIsCentredUnderTheBodiesAtThreeTimesTheirSizeOrTwoMetres) {
  const GroundPatch g = ground_under({cube(Vec3{{0, 0, 1}}, 0.5), cube(Vec3{{1.5, 0, 1}}, 0.5)});
  EXPECT_NEAR(g.centre[0], 1.0, 1e-15);
  EXPECT_NEAR(g.centre[1], 0.25, 1e-15);
  EXPECT_NEAR(g.centre[2], 1.25, 1e-15);
  EXPECT_NEAR(g.side, 6.0, 1e-15);  // 3 x the 2 m extent along x
  EXPECT_EQ(g.checks, 12);
  EXPECT_EQ(ground_under({cube(Vec3{{0, 0, 0}}, 0.1)}).side, 2.0);  // small bodies: at least 2 m
  EXPECT_EQ(ground_under({}).side, 2.0);                            // nothing to stand under
}

TEST(Snapshot, HalfSpacesLieInTheirPlaneUnderTheBodiesAndShapesAtTheirPose) {
  const Vec3 normal{{0.0, -std::sin(0.3), std::cos(0.3)}};  // a slope of 0.3 rad
  Obstacle ball;
  ball.shape = Shape{ShapeType::kSphere, {0.2, 0.0, 0.0}};
  ball.pose.translation = Vec3{{1.0, 2.0, 3.0}};
  GroundPatch patch;
  patch.centre = Vec3{{0.5, 0.5, 2.0}};
  patch.side = 2.0;
  patch.checks = 4;
  const std::vector<RenderMesh> meshes = obstacle_meshes({half_space_obstacle(Vec3{{0, 0, 0}}, normal), ball}, patch);
  ASSERT_EQ(meshes.size(), 3u);  // the checks' two colours, the ball
  Vec3 c{{0, 0, 0}};
  std::size_t n = 0;
  for (int k = 0; k < 2; ++k)
    for (const Vec3& p : meshes[k].vertices) {
      EXPECT_NEAR(dot(p, normal), 0.0, 1e-14);  // in the plane
      c = c + p;
      ++n;
    }
  c = (1.0 / static_cast<double>(n)) * c;
  const Vec3 foot = patch.centre - dot(patch.centre, normal) * normal;  // the centre's projection
  EXPECT_LT(norm(c - foot), 1e-12);
  EXPECT_LT(norm(centroid(meshes[2]) - ball.pose.translation), 1e-12);
  EXPECT_EQ(meshes[2].vertices.size(), 32u * 17u);  // the 32 x 16 grid
}

TEST(Snapshot, BodyColoursCycleThroughTheirPalette) {
  EXPECT_EQ(body_color(0), body_color(5));
  EXPECT_NE(body_color(0), body_color(1));
}

TEST(Snapshot, TheRunCameraFramesTheBodiesWhateverTheGroundsSize) {
  const std::vector<RenderMesh> bodies{cube(Vec3{{0, 0, 0}}, 1.0)};
  auto framed = [&](double ground) {
    std::vector<RenderMesh> meshes = bodies;
    GroundPatch g = ground_under(bodies);
    g.side = ground;
    for (RenderMesh& m : obstacle_meshes({half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}})}, g))
      meshes.push_back(m);
    return frame_camera(RenderCamera{}, meshes, bodies.size());
  };
  const RenderCamera small = framed(3.0), huge = framed(1000.0);
  ASSERT_TRUE(small.target && small.distance && huge.target && huge.distance);
  EXPECT_FALSE(small.auto_frame);
  EXPECT_NEAR(norm(*small.target - *huge.target), 0.0, 1e-12);  // the ground counts within one extent
  EXPECT_NEAR(*small.distance, *huge.distance, 1e-12);
  EXPECT_NEAR((*small.target)[0], 0.5, 1e-12);  // over the cube, not beside it
  RenderCamera fixed;
  fixed.auto_frame = false;
  fixed.fov_degrees = 45.0;
  const RenderCamera kept = frame_camera(fixed, bodies, 1);
  EXPECT_FALSE(kept.target.has_value());  // not auto-framed: left as given
  EXPECT_EQ(kept.fov_degrees, 45.0);
}

}  // namespace
}  // namespace sinew::render::render_snapshot_test
