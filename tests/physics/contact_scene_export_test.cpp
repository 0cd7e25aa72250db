// The contact problems of the scene library's benchmark scenes (issue 6): a chain draped over a
// box has joints, which FCLIB's local form cannot hold, so export_contact_problem() condenses
// them out; the condensed problem must be solved by the contact impulses of the full one. The
// cloth on a corner must be in contact at many particles.
#include <gtest/gtest.h>

#include <cstdio>

#include "contact_scenes.hpp"
#include "sinew/constraints/natural_map.hpp"

namespace sinew::physics_contact_scene_export_test {
namespace {

bool symmetric(const CsrMatrix& W) {
  const Eigen::MatrixXd D = Eigen::MatrixXd(to_eigen(W));
  return (D - D.transpose()).cwiseAbs().maxCoeff() <= 1e-12 * D.cwiseAbs().maxCoeff();
}

TEST(ContactSceneExport, ChainJointsAreCondensedExactly) {
  auto backend = make_backend("serial");
  scene::ContactScene s = scene::chain_over_box_scene(20);
  constraints::DelassusProblem full;
  const constraints::DelassusProblem local = scene::export_contact_problem(s, *backend, &full);
  Index contacts = 0, joint_rows = 0;
  for (const auto& b : full.blocks) (b.kind == constraints::BlockKind::kContact ? contacts : joint_rows) += 1;
  EXPECT_EQ(joint_rows, 3 * 19);  // 19 ball joints
  ASSERT_GT(contacts, 0);
  ASSERT_EQ(static_cast<Index>(local.blocks.size()), contacts);
  for (const auto& b : local.blocks) EXPECT_EQ(b.kind, constraints::BlockKind::kContact);
  ASSERT_EQ(local.rows(), 3 * contacts);
  EXPECT_TRUE(symmetric(local.W));

  // Solve the full problem (joints and contacts), keep the contact impulses: they solve the
  // condensed problem.
  const auto solver = contact_test::make_contact_solver("newton_minmap", *backend, 1e-9);
  Eigen::VectorXd r;
  const constraints::SolverReport report = solver->solve(full, r);
  ASSERT_LT(report.error, 1e-8);  // Newton may stall just short of 1e-9 on these rows
  const std::vector<Index> offsets = constraints::block_offsets(full.blocks);
  Eigen::VectorXd rc(local.rows());
  Index k = 0;
  for (std::size_t b = 0; b < full.blocks.size(); ++b)
    if (full.blocks[b].kind == constraints::BlockKind::kContact)
      for (Index i = offsets[b]; i < offsets[b + 1]; ++i) rc[k++] = r[i];
  const double error = constraints::natural_map_error(local, rc).relative;
  std::printf(
      "chain over a box (20 links): %ld contacts, %ld joint rows; condensed problem's error at the full "
      "solution %.2e (full problem %.2e)\n",
      static_cast<long>(contacts), static_cast<long>(joint_rows), error, report.error);
  EXPECT_LT(error, 1e-8);
}

TEST(ContactSceneExport, ClothOnACornerTouchesItAtManyParticles) {
  auto backend = make_backend("serial");
  scene::ContactScene s = scene::cloth_on_corner_scene(10);
  const constraints::DelassusProblem local = scene::export_contact_problem(s, *backend);
  std::printf("cloth on a corner (10 x 10): %zu contacts\n", local.blocks.size());
  EXPECT_GE(local.blocks.size(), 20u);  // about a quarter of the 100 particles lie on the top face
  EXPECT_TRUE(symmetric(local.W));
}

}  // namespace
}  // namespace sinew::physics_contact_scene_export_test
