// sinew::render: a snapshot of a sphere resting on a half-space, drawn from the pieces a run's
// snapshots use (obstacle meshes, the ground patch, the framed camera), then checked: the sphere
// covers the image centre, and the background shows in the top corner.
#include <cstdio>
#include <utility>
#include <vector>

#include "sinew/collision/obstacle.hpp"
#include "sinew/render/mesh_render.hpp"
#include "sinew/render/snapshot.hpp"

int main() {
  using namespace sinew;
  // A unit sphere standing on the plane z = 0, as a body to draw (grey obstacle meshes go last).
  Obstacle ball;
  ball.shape = Shape{ShapeType::kSphere, {1.0, 0.0, 0.0}};
  ball.pose.translation = Vec3{{0.0, 0.0, 1.0}};
  render::RenderMesh body = render::shape_mesh(ball.shape);
  for (Vec3& p : body.vertices) p = to_world(ball.pose, p);
  body.color = render::body_color(0);

  render::RenderSpec spec;
  spec.width = 160;
  spec.height = 120;
  spec.meshes.push_back(body);
  const render::GroundPatch ground = render::ground_under(spec.meshes);  // 6 m square under the ball
  for (render::RenderMesh& m : render::obstacle_meshes({half_space_obstacle({{0, 0, 0}}, {{0, 0, 1}})}, ground))
    spec.meshes.push_back(std::move(m));
  spec.camera = render::frame_camera(spec.camera, spec.meshes, 1);
  const render::Image image = render::render_meshes(spec);

  const render::Rgb centre = image.at(spec.width / 2, spec.height / 2), corner = image.at(0, 0);
  std::printf("centre pixel (%d, %d, %d), top-left pixel (%d, %d, %d)\n", centre.r, centre.g, centre.b, corner.r,
              corner.g, corner.b);
  const bool ball_in_centre = centre.b > centre.r;                          // the palette's first colour is blue
  const auto near = [](int a, int b) { return a - b <= 4 && b - a <= 4; };  // the gradient's top row
  const bool background_in_corner = near(corner.r, spec.background_top.r) && near(corner.b, spec.background_top.b);
  return ball_in_centre && background_in_corner ? 0 : 1;
}
