// The realtime paper's cloth scenes (cloth_scenes.hpp) at small sizes: each runs with the seed's
// step and iteration counts, stays finite, finds its contacts where the obstacles are, and no
// vertex goes into an obstacle by more than the contact margin; the extension stretches the
// cloth by what the targets impose; the default sizes are Table 3's; the fold lays one half of the
// cloth on the other without passing through it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "expect_error.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/collision/point_shape.hpp"
#include "sinew/scene/cloth_scenes.hpp"

namespace sinew::scene::scene_cloth_scenes_test {
namespace {

using integrators::LocalGlobalIntegrator;
using integrators::LocalGlobalReport;

// Smallest (signed distance - contact thickness) of any vertex to obstacle @p k (m).
double lowest_gap(const LocalGlobalIntegrator& lg, const ClothScene& s, std::size_t k) {
  const std::vector<double> x = lg.positions();
  double lowest = 1e300;
  const Obstacle& o = lg.obstacles()[k];
  for (std::size_t v = 0; v < x.size() / 3; ++v) {
    const Vec3 p{{x[3 * v], x[3 * v + 1], x[3 * v + 2]}};
    lowest = std::min(lowest, point_shape(p, o.shape, o.pose).distance - s.description.contact_thickness);
  }
  return lowest;
}

bool all_finite(const std::vector<double>& x) {
  return std::all_of(x.begin(), x.end(), [](double v) { return std::isfinite(v); });
}

TEST(ClothScenes, DefaultSizesAreThoseOfTable3) {
  const ClothScene extension = cloth_extension_scene();
  EXPECT_EQ(extension.description.rest_positions.size() / 3, 10201u) << "10.2k vertices";
  EXPECT_EQ(extension.description.triangles.size() / 3, 20000u) << "~20.2k triangles";
  EXPECT_EQ(cloth_on_knives_scene().description.rest_positions.size() / 3, 5041u) << "5.1k vertices";
  EXPECT_EQ(cloth_sharp_corner_scene().description.rest_positions.size() / 3, 5041u);
  EXPECT_EQ(extension.options.iterations, 5);
  EXPECT_EQ(extension.options.contact.cr_iterations, 10);
  EXPECT_EQ(extension.description.time_step, 0.01);
  EXPECT_EQ(extension.description.elastic.youngs_modulus, 1e5);
  EXPECT_EQ(extension.description.elastic.poisson_ratio, 0.45);
  EXPECT_EQ(cloth_on_knives_scene(5).description.elastic.poisson_ratio, 0.4);
}

// Each model pulled apart by 2 x 0.2 m/s for 1 s: the held edges end 1.4 m apart, the middle row
// stretches with them (the membrane carries the load, no gravity), and it stays finite.
TEST(ClothScenes, ExtensionStretchesTheClothAsTheTargetsImpose) {
  for (MaterialModel model : {MaterialModel::kArap, MaterialModel::kCorotational, MaterialModel::kStableNeoHookean}) {
    SCOPED_TRACE(material_model_name(model));
    const ClothScene s = cloth_extension_scene(model, 11);
    auto backend = make_backend("serial");
    LocalGlobalIntegrator lg(*backend, s.description, s.options);
    for (int step = 0; step < s.steps + 20; ++step) {
      drive_targets(s, lg);
      const LocalGlobalReport r = lg.step();
      ASSERT_TRUE(r.ok()) << r.message;
    }
    const std::vector<double> x = lg.positions();
    ASSERT_TRUE(all_finite(x));
    const int mid = s.side / 2;
    const double width_edge = x[3 * (s.side - 1)] - x[0];
    const double width_mid = x[3 * (s.side - 1 + s.side * mid)] - x[3 * (s.side * mid)];
    // Interior column spacing along the middle row: uniform stretch away from the held edges.
    const double inner = x[3 * (mid + 1 + s.side * mid)] - x[3 * (mid + s.side * mid)];
    std::printf("extension %s: edge width %.6f m, middle row %.6f m, middle cell %.5f m (rest %.5f)\n",
                material_model_name(model), width_edge, width_mid, inner, s.spacing);
    EXPECT_NEAR(width_edge, 1.4, 1e-3) << "the held edges follow their targets";
    EXPECT_NEAR(width_mid, 1.4, 2e-2);
    EXPECT_GT(inner, 1.2 * s.spacing) << "the interior is stretched";
    EXPECT_LT(inner, 1.6 * s.spacing);
  }
}

TEST(ClothScenes, ClothFallsOnTheKnivesAndStaysOutOfThem) {
  const ClothScene s = cloth_on_knives_scene(21, 3);
  auto backend = make_backend("tbb");
  LocalGlobalIntegrator lg(*backend, s.description, s.options);
  const double margin = 0.5 * s.spacing;  // the automatic contact margin is half the mean edge (>= spacing / 2)
  std::size_t first_contact_step = 0, knife_contacts = 0;
  double worst = 1e300;
  for (int step = 1; step <= s.steps; ++step) {
    const LocalGlobalReport r = lg.step();
    ASSERT_TRUE(r.ok()) << r.message;
    if (r.contacts > 0 && first_contact_step == 0) first_contact_step = static_cast<std::size_t>(step);
    for (std::size_t k = 0; k < lg.obstacles().size(); ++k) worst = std::min(worst, lowest_gap(lg, s, k));
    if (step == 25) {
      knife_contacts = r.contacts;
      const std::vector<double> x = lg.positions();
      for (std::size_t j = 0; j < r.contacts; ++j) {  // within reach of a blade, not of the floor
        const Index v = r.contact_vertex[j];
        const Vec3 p{{x[3 * v], x[3 * v + 1], x[3 * v + 2]}};
        double blade = 1e300;
        for (std::size_t k = 1; k < lg.obstacles().size(); ++k)
          blade = std::min(blade, point_shape(p, lg.obstacles()[k].shape, lg.obstacles()[k].pose).distance);
        EXPECT_LT(blade - s.description.contact_thickness, 2.0 * s.spacing) << "contact vertex " << v;
        EXPECT_GT(p[2], 0.05) << "nothing on the floor yet";
      }
    }
  }
  ASSERT_TRUE(all_finite(lg.positions()));
  // At step 25 (t = 0.25 s) the cloth hangs over the blades' edges and down their sides (measured:
  // lowest contact vertex 6 cm above the floor): every contact vertex is at a blade.
  std::printf("knives: first contact at step %zu, %zu contacts at step 25, worst gap %.3e m (margin %.3e)\n",
              first_contact_step, knife_contacts, worst, margin);
  EXPECT_GE(first_contact_step, 10u) << "falls 0.1 m: t = sqrt(2 0.1 / 9.81) = 0.14 s";
  EXPECT_LE(first_contact_step, 16u);
  EXPECT_GE(knife_contacts, 3u) << "at least one vertex on each blade";
  EXPECT_GT(worst, -margin) << "no vertex inside an obstacle by more than the margin";
  const std::vector<double> x = lg.positions();
  double lowest = 1e300;
  for (std::size_t v = 0; v < x.size() / 3; ++v) lowest = std::min(lowest, x[3 * v + 2]);
  EXPECT_LT(lowest, 0.2) << "the free parts drape below the blades' edges";
}

TEST(ClothScenes, ClothDrapesOverTheSharpCorner) {
  const ClothScene s = cloth_sharp_corner_scene(21);
  auto backend = make_backend("tbb");
  LocalGlobalIntegrator lg(*backend, s.description, s.options);
  const double margin = 0.5 * s.spacing;
  double worst = 1e300;
  LocalGlobalReport r;
  int tilted = 0;
  for (int step = 1; step <= s.steps; ++step) {
    r = lg.step();
    ASSERT_TRUE(r.ok()) << r.message;
    for (std::size_t k = 0; k < lg.obstacles().size(); ++k) worst = std::min(worst, lowest_gap(lg, s, k));
  }
  ASSERT_TRUE(all_finite(lg.positions()));
  for (std::size_t j = 0; j < r.contacts; ++j) tilted += r.normals[3 * j + 2] < 0.99;  // on an edge, corner or side
  std::printf(
      "sharp corner: %zu contacts after %d steps (%d with a non-vertical normal), worst gap %.3e m (margin %.3e)\n",
      r.contacts, s.steps, tilted, worst, margin);
  EXPECT_GT(r.contacts, 20u) << "the quarter of the cloth on the cube's top";
  EXPECT_GT(tilted, 0) << "contacts on the cube's edges or corner";
  EXPECT_GT(worst, -margin) << "no vertex inside an obstacle by more than the margin";
}

// The fold: the right half, turned over by its edge's targets (drive_targets()), lies on the left
// half a contact thickness above it; without self-contact it lies on the table through the bottom
// layer (so the test can fail).
struct Fold {
  double top_min_z = 1e300;      // lowest vertex of the folded half over the left half
  double bottom_max_z = -1e300;  // highest vertex of the left half under it
  int over = 0;                  // vertices of the folded half over the left half
};

Fold run_fold(bool self_contact, int side, int steps) {
  ClothScene s = cloth_fold_scene(side);
  s.description.self_contact = self_contact;
  auto backend = make_backend("serial");
  LocalGlobalIntegrator lg(*backend, s.description, s.options);
  for (int step = 0; step < steps; ++step) {
    drive_targets(s, lg);
    const LocalGlobalReport r = lg.step();
    EXPECT_TRUE(r.ok()) << "step " << step << ": " << r.message;
    if (!r.ok()) break;
  }
  const std::vector<double> x = lg.positions();
  EXPECT_TRUE(all_finite(x));
  Fold f;
  const double L = s.spacing * (side - 1);
  for (int j = 2; j < side - 2; ++j)  // away from the free edges y = 0 and y = L
    for (int i = 0; i < side; ++i) {
      const double* p = &x[3 * static_cast<std::size_t>(i + side * j)];
      const double rest_x = s.description.rest_positions[3 * static_cast<std::size_t>(i + side * j)];
      if (p[0] < 0.1 * L || p[0] > 0.35 * L) continue;  // between the folded edge and the fold line
      if (rest_x > 0.6 * L) {
        f.top_min_z = std::min(f.top_min_z, p[2]);
        ++f.over;
      } else if (rest_x < 0.4 * L) {
        f.bottom_max_z = std::max(f.bottom_max_z, p[2]);
      }
    }
  return f;
}

TEST(ClothScenes, ClothFoldsOntoItselfWithoutPassingThrough) {
  constexpr int kSide = 17, kSteps = 150;  // the default 2 cm cells; turned over by step 100, then lying
  const Fold with = run_fold(true, kSide, kSteps), without = run_fold(false, kSide, kSteps);
  const double gap = cloth_fold_scene(kSide).description.contact_thickness;
  std::printf(
      "cloth fold: %d vertices of the folded half over the left half, lowest %.4f m over a bottom layer "
      "at most %.4f m; without self-contact lowest %.4f m\n",
      with.over, with.top_min_z, with.bottom_max_z, without.top_min_z);
  EXPECT_GT(with.over, 10) << "the right half is turned over onto the left half";
  EXPECT_NEAR(with.bottom_max_z, gap, 5e-4) << "the bottom layer lies on the table";
  EXPECT_GT(with.top_min_z, with.bottom_max_z + 0.5 * gap) << "the folded half lies on the bottom layer";
  EXPECT_LT(with.top_min_z, with.bottom_max_z + 5.0 * gap) << "and does touch it";
  EXPECT_GT(without.over, 10);
  EXPECT_LT(without.top_min_z, 1.25 * gap) << "without self-contact it goes through the bottom layer to the table";
}

TEST(ClothScenes, BadParametersAreNamed) {
  EXPECT_SINEW_ERROR(cloth_extension_scene(MaterialModel::kArap, 1), "side");
  EXPECT_SINEW_ERROR(cloth_extension_scene(MaterialModel::kLinear, 5), "model");
  EXPECT_SINEW_ERROR(cloth_extension_scene(MaterialModel::kArap, 5, -1.0), "speed");
  EXPECT_SINEW_ERROR(cloth_on_knives_scene(5, 0), "knives");
  EXPECT_SINEW_ERROR(cloth_sharp_corner_scene(0), "side");
  EXPECT_SINEW_ERROR(cloth_fold_scene(1), "side");
  EXPECT_SINEW_ERROR(cloth_fold_scene(34), "side");
}

}  // namespace
}  // namespace sinew::scene::scene_cloth_scenes_test
