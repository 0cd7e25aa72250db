// The Delassus operator W = H S'^T S' H^T of LocalGlobalIntegrator's constrained global step by
// its two assemblies of C = P S'^T S' P^T (local_global/delassus.cpp): the dense panel product
// and the sparse products give W with the same pattern and the same values to 1e-12 of max |W|
// (same state through save / restore), on one mesh (a cloth draped over a corner: C dense) and on
// two (the cable finger and its ball: C block-diagonal, cable rows and cross terms); the dense
// path gives the same bits on every host backend. W applied through its factors
// (DelassusForm::kOperator) moves the solid as the stored W does, to rounding, on the corner cloth
// and with a cable, and gives the same bits on every host backend.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

#include "host_backends.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/integrators/local_global.hpp"
#include "sinew/scene/cloth_scenes.hpp"
#include "sinew/scene/procedural_mesh.hpp"
#include "sinew/scene/solid_scenes.hpp"

namespace sinew::integrators::integrators_local_global_delassus_test {
namespace {

// Runs @p scene with the sparse assembly; at each step in @p compare_steps (with constraint
// rows), copies the state into an integrator with the dense assembly (save / restore), steps
// both once from it and compares their W. Returns the largest number of rows compared and sets
// @p sparsest to the smallest fill nnz(W) / rows^2 seen.
std::size_t expect_dense_matches_sparse(const scene::SolidScene& scene, int steps, int compare_from, double& sparsest) {
  sparsest = 1.0;
  auto backend = make_backend("serial");
  LocalGlobalOptions sparse_options = scene.options, dense_options = scene.options;
  sparse_options.contact.schur = SchurAssembly::kSparse;
  dense_options.contact.schur = SchurAssembly::kDense;
  sparse_options.contact.delassus = dense_options.contact.delassus = DelassusForm::kExplicit;  // W stored
  LocalGlobalIntegrator sparse(*backend, scene.description, sparse_options);
  LocalGlobalIntegrator dense(*backend, scene.description, dense_options);
  std::size_t most_rows = 0;
  for (int s = 0; s < steps; ++s) {
    if (s >= compare_from) {
      std::stringstream state;
      sparse.save(state);
      dense.restore(state);
      EXPECT_TRUE(scene::step_scene(scene, dense).ok());
    }
    EXPECT_TRUE(scene::step_scene(scene, sparse).ok());
    if (s < compare_from) continue;
    const CsrMatrix Ws = sparse.delassus(), Wd = dense.delassus();
    EXPECT_EQ(Ws.rows, Wd.rows) << "step " << s;
    EXPECT_EQ(Ws.row_ptr, Wd.row_ptr) << "step " << s;
    EXPECT_EQ(Ws.col_idx, Wd.col_idx) << "step " << s;
    if (Ws.col_idx != Wd.col_idx) return most_rows;
    double scale = 0.0, diff = 0.0;
    for (std::size_t p = 0; p < Ws.values.size(); ++p) {
      scale = std::max(scale, std::abs(Ws.values[p]));
      diff = std::max(diff, std::abs(Ws.values[p] - Wd.values[p]));
    }
    if (Ws.rows > 0) {
      EXPECT_GT(scale, 0.0);
      EXPECT_LE(diff, 1e-12 * scale) << "step " << s << ": " << Ws.rows << " rows";
    }
    most_rows = std::max(most_rows, static_cast<std::size_t>(Ws.rows));
    if (Ws.rows > 0)
      sparsest = std::min(sparsest, static_cast<double>(Ws.values.size()) / (static_cast<double>(Ws.rows) * Ws.rows));
    if (s == steps - 1)
      std::printf("%s: W of %d rows (%zu entries), dense vs sparse max |diff| / max |W| = %.2e\n", scene.name.c_str(),
                  Ws.rows, Ws.values.size(), scale > 0 ? diff / scale : 0.0);
  }
  return most_rows;
}

scene::SolidScene corner_cloth(int side) {
  const scene::ClothScene cloth = scene::cloth_sharp_corner_scene(side);
  scene::SolidScene s;
  s.name = cloth.name;
  s.description = cloth.description;
  s.options = cloth.options;
  return s;
}

// A 17 x 17 cloth falling on the cube's corner and top face: one mesh, so C is dense (every
// elimination-tree path meets the root), a hundred contacts and more.
TEST(LocalGlobalDelassus, DenseAndSparseSchurGiveTheSameWOnACloth) {
  double fill = 0.0;
  const std::size_t rows = expect_dense_matches_sparse(corner_cloth(17), 16, 6, fill);
  EXPECT_EQ(fill, 1.0) << "W is dense on one mesh";
  EXPECT_GT(rows, 3u * 64u) << "enough contacts for kAuto's dense path";
}

// Two blocks side by side on the slope: two meshes (two elimination trees, C block-diagonal),
// contacts on both, and a cable along the first block's top edge, pulled (its row and cross terms).
TEST(LocalGlobalDelassus, DenseAndSparseSchurGiveTheSameWOnTwoBodiesWithACable) {
  scene::SolidScene two = scene::slope_scene(2, 0.1);
  const Index second =
      scene::append_mesh(two.description, scene::box_tet_mesh(Vec3{{0.15, 0.0, 0.0}}, Vec3{{0.25, 0.1, 0.1}}, 2, 2, 2));
  Cable cable;
  for (Index v = 0; v < second; ++v) {  // the first block's top edge y = 0, z = 0.1, along x
    const double* x = &two.description.rest_positions[3 * static_cast<std::size_t>(v)];
    if (x[1] == 0.0 && x[2] > 0.099) cable.vertices.push_back(v);
  }
  ASSERT_GE(cable.vertices.size(), 2u);
  for (Index v = second; v < static_cast<Index>(two.description.rest_positions.size() / 3); ++v)
    two.description.contact_vertices.push_back(v);
  two.description.cables.push_back(cable);
  two.drive = [](LocalGlobalIntegrator& lg, long) { lg.set_cable_pull(0, 0.005); };
  two.name = "two_blocks_and_a_cable";
  double fill = 0.0;
  const std::size_t rows = expect_dense_matches_sparse(two, 6, 1, fill);
  EXPECT_GT(rows, 3u) << "contacts and the cable";
  EXPECT_LT(fill, 1.0) << "contacts on both bodies: no W entry between them";
}

// The dense path on every host backend: the same positions and W, bit for bit, as serial, with
// more than one 128-column tile of C (a 25 x 25 cloth: 195 contact vertices at step 14).
TEST(LocalGlobalDelassus, DenseSchurIsBitwiseEqualOnHostBackends) {
  scene::SolidScene scene = corner_cloth(25);
  scene.options.contact.schur = SchurAssembly::kDense;
  scene.options.contact.delassus = DelassusForm::kExplicit;  // CR on the stored W
  test::expect_host_backends_bitwise_equal(
      [&](Backend& backend) {
        LocalGlobalIntegrator lg(backend, scene.description, scene.options);
        std::size_t contacts = 0;
        for (int s = 0; s < 14; ++s) {
          const LocalGlobalReport r = lg.step();
          EXPECT_TRUE(r.ok()) << r.message;
          contacts = std::max(contacts, r.contacts);
        }
        EXPECT_GT(contacts, 128u) << "two tiles of C at least";
        std::vector<double> out = lg.positions();
        const CsrMatrix W = lg.delassus();
        out.insert(out.end(), W.values.begin(), W.values.end());
        return out;
      },
      "dense Schur, corner cloth 25");
}

// Steps @p scene with W stored and with W applied through its factors, from the same start, and
// compares the positions after every step: max |x_op - x_explicit| <= tol max |x - x_0| (the
// motion), and the contact counts agree. Returns the most contacts seen.
std::size_t expect_operator_matches_explicit(const scene::SolidScene& scene, int steps, double tol) {
  auto backend = make_backend("serial");
  LocalGlobalOptions explicit_options = scene.options, operator_options = scene.options;
  explicit_options.contact.delassus = DelassusForm::kExplicit;
  operator_options.contact.delassus = DelassusForm::kOperator;
  LocalGlobalIntegrator a(*backend, scene.description, explicit_options);
  LocalGlobalIntegrator b(*backend, scene.description, operator_options);
  const std::vector<double> x0 = a.positions();
  std::size_t most = 0;
  double worst = 0.0;
  for (int s = 0; s < steps; ++s) {
    const LocalGlobalReport ra = scene::step_scene(scene, a), rb = scene::step_scene(scene, b);
    EXPECT_TRUE(ra.ok() && rb.ok()) << "step " << s;
    EXPECT_EQ(ra.contacts, rb.contacts) << "step " << s;
    most = std::max(most, ra.contacts);
    const std::vector<double> xa = a.positions(), xb = b.positions();
    double motion = 0.0, diff = 0.0;
    for (std::size_t i = 0; i < xa.size(); ++i) {
      motion = std::max(motion, std::abs(xa[i] - x0[i]));
      diff = std::max(diff, std::abs(xa[i] - xb[i]));
    }
    EXPECT_GT(motion, 0.0);
    EXPECT_LE(diff, tol * motion) << "step " << s << ", " << ra.contacts << " contacts";
    worst = std::max(worst, diff / motion);
  }
  std::printf("%s: operator vs explicit W over %d steps (up to %zu contacts): max |dx| / max |x - x0| = %.2e\n",
              scene.name.c_str(), steps, most, worst);
  return most;
}

// A 17 x 17 cloth on the corner: W dense in up to 100 contacts, the operator form's regime.
TEST(LocalGlobalDelassus, OperatorAndExplicitWMoveTheClothAlike) {
  EXPECT_GT(expect_operator_matches_explicit(corner_cloth(17), 16, 1e-12), 64u);
}

// The two blocks and the pulled cable: cable rows (several vertices per row of H) and two trees.
// The blocks move by ~3 mm in 6 steps and the two forms drift apart by ~1e-13 m a step (measured
// 8e-11 of the motion after 6 steps with the CSR global step, 1.2e-9 with the run-compressed one,
// whose four-lane sums round differently): rounding through the stuck contacts' ill-conditioned
// W, hence the bound 1e-8; a wrong cable row or diagonal would differ at the motion's scale.
TEST(LocalGlobalDelassus, OperatorAndExplicitWMoveTwoBodiesWithACableAlike) {
  scene::SolidScene two = scene::slope_scene(2, 0.1);
  const Index second =
      scene::append_mesh(two.description, scene::box_tet_mesh(Vec3{{0.15, 0.0, 0.0}}, Vec3{{0.25, 0.1, 0.1}}, 2, 2, 2));
  Cable cable;
  for (Index v = 0; v < second; ++v) {
    const double* x = &two.description.rest_positions[3 * static_cast<std::size_t>(v)];
    if (x[1] == 0.0 && x[2] > 0.099) cable.vertices.push_back(v);
  }
  two.description.cables.push_back(cable);
  two.drive = [](LocalGlobalIntegrator& lg, long) { lg.set_cable_pull(0, 0.005); };
  two.name = "two_blocks_and_a_cable";
  EXPECT_GT(expect_operator_matches_explicit(two, 6, 1e-8), 0u);
}

// The operator path on every host backend: the same positions as serial, bit for bit, and its W
// (assembled on request by delassus()) equal to the explicit path's.
TEST(LocalGlobalDelassus, OperatorFormIsBitwiseEqualOnHostBackends) {
  scene::SolidScene scene = corner_cloth(17);
  scene.options.contact.delassus = DelassusForm::kOperator;
  test::expect_host_backends_bitwise_equal(
      [&](Backend& backend) {
        LocalGlobalIntegrator lg(backend, scene.description, scene.options);
        std::size_t contacts = 0;
        for (int s = 0; s < 12; ++s) {
          const LocalGlobalReport r = lg.step();
          EXPECT_TRUE(r.ok()) << r.message;
          contacts = std::max(contacts, r.contacts);
        }
        EXPECT_GT(contacts, 64u);
        std::vector<double> out = lg.positions();
        const CsrMatrix W = lg.delassus();
        EXPECT_GT(W.rows, 0);
        out.insert(out.end(), W.values.begin(), W.values.end());
        return out;
      },
      "operator W, corner cloth 17");
}

// W reuse (LocalGlobalContactOptions::reuse_delassus): a W kept while the contact set is
// unchanged gives the bits of one recomputed every step, with W stored or as its factors and
// with either local solve. The cube resting on the slope keeps its contacts (W kept on most
// steps); the cloth falling on the corner gains contacts step after step (W recomputed).
TEST(LocalGlobalDelassus, AKeptWGivesTheBitsOfARecomputedOne) {
  const scene::SolidScene cube = scene::slope_scene(2, 0.3), cloth = corner_cloth(9);
  auto backend = make_backend("serial");
  for (const scene::SolidScene* scene : {&cube, &cloth})
    for (DelassusForm form : {DelassusForm::kExplicit, DelassusForm::kOperator})
      for (ContactSolve solve : {ContactSolve::kConverged, ContactSolve::kSeedSteps}) {
        SCOPED_TRACE(scene->name + (form == DelassusForm::kOperator ? ", operator" : ", explicit") +
                     (solve == ContactSolve::kConverged ? ", converged" : ", seed steps"));
        LocalGlobalOptions kept_options = scene->options;
        kept_options.contact.delassus = form;
        kept_options.contact.solve = solve;
        LocalGlobalOptions fresh_options = kept_options;
        fresh_options.contact.reuse_delassus = false;
        LocalGlobalIntegrator kept(*backend, scene->description, kept_options);
        LocalGlobalIntegrator fresh(*backend, scene->description, fresh_options);
        int reused = 0, recomputed = 0;
        for (int s = 0; s < 12; ++s) {
          const LocalGlobalReport a = scene::step_scene(*scene, kept), b = scene::step_scene(*scene, fresh);
          ASSERT_TRUE(a.ok() && b.ok()) << a.message << b.message;
          EXPECT_FALSE(b.delassus_reused);
          if (a.contacts > 0) ++(a.delassus_reused ? reused : recomputed);
          ASSERT_TRUE(kept.positions() == fresh.positions()) << "step " << s;
          EXPECT_EQ(a.contact_error, b.contact_error) << "step " << s;
        }
        std::printf("%s, %s, %s: W kept on %d steps, recomputed on %d\n", scene->name.c_str(),
                    form == DelassusForm::kOperator ? "operator" : "explicit",
                    solve == ContactSolve::kConverged ? "converged" : "seed steps", reused, recomputed);
        const CsrMatrix Wk = kept.delassus(), Wf = fresh.delassus();
        EXPECT_EQ(Wk.col_idx, Wf.col_idx);
        EXPECT_TRUE(Wk.values == Wf.values);
        if (scene == &cube) {
          EXPECT_GE(reused, 8);
        } else {
          EXPECT_GE(recomputed, 6);
        }
      }
}

}  // namespace
}  // namespace sinew::integrators::integrators_local_global_delassus_test
