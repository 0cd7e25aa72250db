#include "sinew/render/mesh_render.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "expect_error.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::render::render_mesh_render_test {
namespace {

const Rgb kBlack{0, 0, 0};

RenderMesh box(const Vec3& lo, const Vec3& hi, Rgb color) {
  const scene::TriangleMesh s = scene::boundary_triangles(scene::box_tet_mesh(lo, hi, 1, 1, 1));
  RenderMesh m;
  m.vertices = s.vertices;
  m.triangles = s.triangles;
  m.color = color;
  return m;
}

// A square [x0, x1] x [y0, y1] at height z.
RenderMesh square(double x0, double y0, double x1, double y1, double z, Rgb color) {
  RenderMesh m;
  m.vertices = {Vec3{{x0, y0, z}}, Vec3{{x1, y0, z}}, Vec3{{x1, y1, z}}, Vec3{{x0, y1, z}}};
  m.triangles = {{0, 1, 2}, {0, 2, 3}};
  m.color = color;
  return m;
}

// Looking straight down -z at (0.5, 0.5, 0.5) with a black background.
RenderSpec top_view(bool perspective) {
  RenderSpec spec;
  spec.width = spec.height = 200;
  spec.background_top = spec.background_bottom = kBlack;
  spec.camera.direction = Vec3{{0, 0, 1}};
  spec.camera.up = Vec3{{0, 1, 0}};
  spec.camera.target = Vec3{{0.5, 0.5, 0.5}};
  spec.camera.perspective = perspective;
  spec.camera.auto_frame = false;
  spec.camera.view_height = 2.0;  // orthographic: 100 pixels per unit
  spec.camera.distance = 10.0;
  spec.light_direction = Vec3{{0, 0, 1}};
  return spec;
}

int count_not(const Image& img, Rgb c) {
  int n = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) n += img.at(x, y) != c;
  return n;
}

int brightness(Rgb c) { return c.r + c.g + c.b; }

TEST(MeshRender, UnitCubeAlongAnAxisCoversItsProjectedArea) {
  RenderSpec spec = top_view(false);
  spec.meshes = {box(Vec3{{0, 0, 0}}, Vec3{{1, 1, 1}}, Rgb{200, 200, 200})};
  const Image img = render_meshes(spec);
  // 1 x 1 at 100 pixels per unit: 10000 of the 40000 pixels, silhouette pixels partly covered.
  EXPECT_NEAR(count_not(img, kBlack), 10000, 300);
  EXPECT_NE(img.at(100, 100), kBlack);
  EXPECT_EQ(img.at(45, 100), kBlack);
  EXPECT_EQ(img.at(155, 100), kBlack);
  // Seen face-on under a light along the view, the top face has the base colour.
  EXPECT_NEAR(img.at(100, 100).r, 200, 1);
}

TEST(MeshRender, FacesTowardsTheLightAreBrighter) {
  RenderSpec spec = top_view(false);
  spec.meshes = {box(Vec3{{0, 0, 0}}, Vec3{{1, 1, 1}}, Rgb{200, 200, 200})};
  const Rgb lit = render_meshes(spec).at(100, 100);
  spec.light_direction = Vec3{{0, 0, -1}};  // the light is below: the visible top face is turned away
  const Rgb unlit = render_meshes(spec).at(100, 100);
  spec.light_direction = Vec3{{1, 0, 1}};  // 45 degrees
  const Rgb grazing = render_meshes(spec).at(100, 100);
  EXPECT_GT(brightness(lit), brightness(grazing));
  EXPECT_GT(brightness(grazing), brightness(unlit));
  EXPECT_NEAR(unlit.r, 200 * spec.ambient, 1.0) << "ambient only";

  // In one picture: a cube seen from a corner, lit from +z: its top face is the brightest.
  RenderSpec corner;
  corner.width = corner.height = 300;
  corner.camera.direction = Vec3{{1, 1, 1}};
  corner.camera.perspective = false;
  corner.light_direction = Vec3{{0, 0, 1}};
  corner.meshes = {box(Vec3{{-1, -1, -1}}, Vec3{{1, 1, 1}}, Rgb{200, 200, 200})};
  const Image img = render_meshes(corner);
  // The top face's centre (0, 0, 1) is above the image centre; the +x and +y faces are below it.
  const Rgb top = img.at(150, 80), side_left = img.at(110, 190), side_right = img.at(190, 190);
  EXPECT_GT(brightness(top), brightness(side_left) + 30);
  EXPECT_GT(brightness(top), brightness(side_right) + 30);
}

TEST(MeshRender, NearerTrianglesHideFartherOnes) {
  for (bool perspective : {false, true}) {
    RenderSpec spec = top_view(perspective);
    spec.camera.distance = 2.0;  // perspective, 30 degrees: the low square spans +-75 px, the high one +-55 px
    const RenderMesh low = square(0, 0, 1, 1, 0.0, Rgb{200, 0, 0}),
                     high = square(0.25, 0.25, 0.75, 0.75, 0.8, Rgb{0, 200, 0});
    for (int order = 0; order < 2; ++order) {
      spec.meshes = order == 0 ? std::vector<RenderMesh>{low, high} : std::vector<RenderMesh>{high, low};
      const Image img = render_meshes(spec);
      const Rgb centre = img.at(100, 100);
      EXPECT_GT(centre.g, 150) << "the high square is in front, perspective " << perspective << ", order " << order;
      EXPECT_EQ(centre.r, 0);
      // Outside the high square the low one shows (orthographic: +-25 px and +-50 px).
      const Rgb rim = img.at(100, perspective ? 100 + 65 : 100 + 40);
      EXPECT_GT(rim.r, 150);
    }
  }
}

TEST(MeshRender, ABodyCastsItsShadowAlongTheLight) {
  RenderSpec spec = top_view(false);
  spec.light_direction = Vec3{{1, 0, 1}};  // 45 degrees from +x: a shadow 0.2 below is shifted by -0.2 in x
  spec.meshes = {square(0, 0, 1, 1, 0.0, Rgb{200, 200, 200}), square(0.4, 0.4, 0.6, 0.6, 0.2, Rgb{200, 0, 0})};
  const Image with = render_meshes(spec);
  // Pixel column 100 + 100 (x - 0.5): the shadow covers x in (0.2, 0.4), row 100 is y = 0.5.
  const int shadowed = brightness(with.at(70, 100)), lit = brightness(with.at(135, 100));
  EXPECT_LT(shadowed, lit - 100);
  EXPECT_EQ(brightness(with.at(55, 100)), lit) << "x = 0.05 .. 0.15: outside the shadow";
  spec.shadows = false;
  EXPECT_EQ(brightness(render_meshes(spec).at(70, 100)), lit);
}

// A bent bar with its edges drawn over a checkered ground, auto-framed in @p width x @p height.
RenderSpec bent_bar_scene(int width, int height) {
  scene::TetMesh bar = scene::box_tet_mesh(Vec3{{0, -0.05, -0.05}}, Vec3{{1, 0.05, 0.05}}, 10, 2, 2);
  for (Vec3& v : bar.vertices) v[2] -= 0.1 * v[0] * v[0];
  const scene::TriangleMesh s = scene::boundary_triangles(bar);
  RenderSpec spec;
  spec.width = width;
  spec.height = height;
  RenderMesh m;
  m.vertices = s.vertices;
  m.triangles = s.triangles;
  m.edges = true;
  spec.meshes = {m};
  for (const RenderMesh& g : checker_ground(Vec3{{0.5, 0, 0}}, -0.3, 1.5, 6)) spec.meshes.push_back(g);
  return spec;
}

TEST(MeshRender, SameInputSamePixels) {
  RenderSpec spec = bent_bar_scene(320, 200);
  const Image a = render_meshes(spec), b = render_meshes(spec);
  EXPECT_EQ(a, b);
  // Auto-framing keeps the scene off the border: the outer rows and columns are background.
  RenderSpec nothing = spec;
  nothing.meshes.clear();
  const Image bg = render_meshes(nothing);
  for (int x = 0; x < spec.width; ++x)
    for (int y : {0, 1, spec.height - 2, spec.height - 1}) ASSERT_EQ(a.at(x, y), bg.at(x, y)) << x << ", " << y;
  for (int y = 0; y < spec.height; ++y)
    for (int x : {0, 1, spec.width - 2, spec.width - 1}) ASSERT_EQ(a.at(x, y), bg.at(x, y)) << x << ", " << y;
  EXPECT_GT(count_not(a, Rgb{}), 0);
  int scene_pixels = 0;
  for (int y = 0; y < spec.height; ++y)
    for (int x = 0; x < spec.width; ++x) scene_pixels += a.at(x, y) != bg.at(x, y);
  EXPECT_GT(scene_pixels, spec.width * spec.height / 5) << "framed to fill the picture";
  // Edges darken some pixels of the bar.
  spec.meshes[0].edges = false;
  const Image plain = render_meshes(spec);
  int darker = 0;
  for (int y = 0; y < spec.height; ++y)
    for (int x = 0; x < spec.width; ++x) darker += brightness(a.at(x, y)) + 60 < brightness(plain.at(x, y));
  EXPECT_GT(darker, 100);
}

TEST(MeshRender, DrawingInBandsOfRowsGivesTheSameBitsAsWhole) {
  for (bool perspective : {true, false}) {
    RenderSpec spec = bent_bar_scene(240, 150);
    spec.camera.perspective = perspective;
    const Image whole = render_meshes(spec);                           // the default bands hold the whole image
    for (std::size_t bytes : {std::size_t{1}, std::size_t{100000}}) {  // one pixel row a band; 2..3 rows
      spec.band_bytes = bytes;
      EXPECT_EQ(render_meshes(spec), whole) << "band_bytes " << bytes << (perspective ? " perspective" : "");
    }
  }
  // The memory a render takes: the image and bounded buffers, not 20 bytes a sample.
  EXPECT_LT(render_memory_bytes(16384, 16384), std::size_t{1000} << 20);
  EXPECT_GT(render_memory_bytes(16384, 16384), 3 * std::size_t{16384} * 16384);
}

TEST(MeshRender, EmptySceneAndDegenerateTrianglesGiveTheBackground) {
  RenderSpec spec;
  spec.width = 64;
  spec.height = 48;
  const Image empty = render_meshes(spec);
  for (int y = 0; y < spec.height; ++y) {
    const Rgb row = empty.at(0, y);
    for (int x = 1; x < spec.width; ++x) ASSERT_EQ(empty.at(x, y), row) << "a vertical gradient";
  }
  EXPECT_LE(std::abs(empty.at(0, 0).r - spec.background_top.r), 2);
  EXPECT_LE(std::abs(empty.at(0, spec.height - 1).b - spec.background_bottom.b), 2);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  RenderMesh junk;
  junk.vertices = {Vec3{{0, 0, 0}}, Vec3{{1, 0, 0}}, Vec3{{2, 0, 0}}, Vec3{{nan, 0, 1}}, Vec3{{0, 1, 0}}};
  junk.triangles = {{0, 0, 1}, {0, 1, 2}, {3, 1, 4}};  // repeated, collinear, non-finite
  spec.meshes = {junk};
  EXPECT_EQ(render_meshes(spec), empty);
  spec.camera.perspective = false;
  EXPECT_EQ(render_meshes(spec), empty);
}

TEST(MeshRender, CheckedInputs) {
  RenderSpec spec;
  spec.meshes = {square(0, 0, 1, 1, 0, Rgb{})};
  spec.meshes[0].triangles.push_back({0, 1, 4});
  EXPECT_SINEW_ERROR(render_meshes(spec), "mesh 0 triangle 2", "vertex index 4");
  spec.meshes[0].triangles.pop_back();
  spec.camera.direction = Vec3{{0, 0, 0}};
  EXPECT_SINEW_ERROR(render_meshes(spec), "camera.direction");
  spec.camera.direction = Vec3{{0, 0, 1}};  // along up: still a valid view
  EXPECT_NO_THROW(render_meshes(spec));
  spec.supersample = 9;
  EXPECT_SINEW_ERROR(render_meshes(spec), "supersample");
  spec.supersample = 1;
  spec.ambient = 1.5;
  EXPECT_SINEW_ERROR(render_meshes(spec), "ambient");
  EXPECT_SINEW_ERROR(checker_ground(Vec3{{0, 0, 0}}, 0.0, 1.0, 0), "n must be");
}

}  // namespace
}  // namespace sinew::render::render_mesh_render_test
