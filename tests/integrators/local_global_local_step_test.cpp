// The local steps of the local-global integrator (materials/projective_local_steps.hpp): the
// Neo-Hookean ADMM-PD local objective's gradient by finite differences, its solve a stationary
// point (and a minimum), and the co-rotational volume projection's closed-form properties.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "sinew/core/svd3.hpp"
#include "sinew/materials/arap.hpp"
#include "sinew/materials/corotational.hpp"
#include "sinew/materials/projective_local_steps.hpp"

namespace sinew::integrators_local_global_local_step_test {
namespace {

const LameParameters kLame = lame_parameters(ElasticParameters{1e6, 0.4});

Mat3 random_F(std::mt19937_64& rng, double spread) {
  std::uniform_real_distribution<double> d(-spread, spread);
  Mat3 F = identity3();
  for (double& v : F.m) v += d(rng);
  return F;
}

// Targets from mild stretch to inversion: (F_hat, weight per volume in units of 2 mu + lambda).
struct Case {
  Mat3 F_hat;
  double weight_scale;
};

std::vector<Case> cases() {
  std::mt19937_64 rng(7);
  std::vector<Case> out;
  for (int k = 0; k < 20; ++k) out.push_back({random_F(rng, 0.3), 1.0});
  for (int k = 0; k < 5; ++k) out.push_back({random_F(rng, 0.8), 0.1});  // soft penalty, large strain
  Mat3 inverted = identity3();
  inverted(2, 2) = -0.3;  // an inverted target
  out.push_back({inverted, 1.0});
  out.push_back({diagonal3(1.5, 0.6, 0.9), 3.0});
  return out;
}

TEST(LocalGlobalLocalStep, NeoHookeanObjectiveGradientMatchesFiniteDifferences) {
  const double V = 2e-3;
  std::mt19937_64 rng(11);
  for (const Case& c : cases()) {
    const double w = c.weight_scale * (2 * kLame.mu + kLame.lambda) * V;
    const Mat3 Z = mat3_add(c.F_hat, mat3_scale(0.1, random_F(rng, 0.5)));
    const Mat3 g = neo_hookean_local_objective_gradient(Z, c.F_hat, kLame, V, w);
    double gnorm = 0.0, err = 0.0;
    for (int k = 0; k < 9; ++k) {
      const double eps = 1e-6;
      Mat3 Zp = Z, Zm = Z;
      Zp.m[k] += eps;
      Zm.m[k] -= eps;
      const double fd = (neo_hookean_local_objective(Zp, c.F_hat, kLame, V, w) -
                         neo_hookean_local_objective(Zm, c.F_hat, kLame, V, w)) /
                        (2 * eps);
      err = std::max(err, std::abs(fd - g.m[k]));
      gnorm = std::max(gnorm, std::abs(g.m[k]));
    }
    ASSERT_GT(gnorm, 1.0) << "the gradient is not trivially zero";
    EXPECT_LT(err, 1e-6 * gnorm);
  }
}

TEST(LocalGlobalLocalStep, NeoHookeanSingularValueGradientAndHessianMatchFiniteDifferences) {
  const double V = 1e-3;
  for (const Case& c : cases()) {
    const Svd3 s = svd3(c.F_hat);
    const NeoHookeanLocalProblem p{StableNeoHookean::internal_parameters(kLame), V,
                                   c.weight_scale * (2 * kLame.mu + kLame.lambda) * V, s.sigma};
    const Vec3 x{{s.sigma[0] * 1.05, s.sigma[1] * 0.97, s.sigma[2] + 0.02}};
    const Vec3 g = p.gradient(x);
    const Mat3 H = p.hessian(x);
    const double eps = 1e-6;
    for (int i = 0; i < 3; ++i) {
      Vec3 xp = x, xm = x;
      xp[i] += eps;
      xm[i] -= eps;
      const double fd = (p.objective(xp) - p.objective(xm)) / (2 * eps);
      EXPECT_NEAR(fd, g[i], 1e-6 * (1.0 + std::abs(g[i])) + 1e-7 * p.weight);
      const Vec3 gp = p.gradient(xp), gm = p.gradient(xm);
      for (int j = 0; j < 3; ++j) EXPECT_NEAR((gp[j] - gm[j]) / (2 * eps), H(j, i), 1e-6 * p.weight);
    }
  }
}

TEST(LocalGlobalLocalStep, NeoHookeanLocalSolveIsAStationaryMinimum) {
  const double V = 1e-3;
  std::mt19937_64 rng(5);
  int max_iterations = 0;
  for (const Case& c : cases()) {
    const double w = c.weight_scale * (2 * kLame.mu + kLame.lambda) * V;
    int iterations = 0;
    const Mat3 z = neo_hookean_local_projection(c.F_hat, kLame, V, w, &iterations);
    max_iterations = std::max(max_iterations, iterations);
    EXPECT_LT(iterations, kNeoHookeanLocalMaxIterations) << "converged before the cap";
    // Stationary over all 3x3 matrices, not only over the singular values.
    const Mat3 g = neo_hookean_local_objective_gradient(z, c.F_hat, kLame, V, w);
    EXPECT_LT(std::sqrt(frobenius_norm2(g)), 1e-9 * w * (1.0 + std::sqrt(frobenius_norm2(c.F_hat))));
    // A minimum: no random nearby matrix does better.
    const double f = neo_hookean_local_objective(z, c.F_hat, kLame, V, w);
    for (int k = 0; k < 20; ++k) {
      const Mat3 trial = mat3_add(z, mat3_scale(1e-3, random_F(rng, 1.0)));
      EXPECT_GE(neo_hookean_local_objective(trial, c.F_hat, kLame, V, w), f - 1e-12 * std::abs(f));
    }
  }
  std::printf("Neo-Hookean local solve: at most %d Newton iterations over %zu targets\n", max_iterations,
              cases().size());
}

TEST(LocalGlobalLocalStep, RestStateIsAFixedPointOfTheNeoHookeanLocalSolve) {
  const double V = 1e-3, w = (2 * kLame.mu + kLame.lambda) * V;
  const Mat3 z = neo_hookean_local_projection(identity3(), kLame, V, w);
  for (int k = 0; k < 9; ++k) EXPECT_NEAR(z.m[k], identity3().m[k], 1e-14);
}

TEST(LocalGlobalLocalStep, VolumeProjectionGivesTheCorotationalVolumeTerm) {
  std::mt19937_64 rng(3);
  for (const Case& c : cases()) {
    const Svd3 s = svd3(c.F_hat);
    const Mat3 p = projective_volume_projection(s);
    const double tr = s.sigma[0] + s.sigma[1] + s.sigma[2] - 3.0;
    // p lies on the set (tr(R^T p) = 3) and ||F - p||^2 = tr^2 / 3.
    const Mat3 R = polar_rotation(c.F_hat);
    EXPECT_NEAR(ddot(R, p), 3.0, 1e-12);
    EXPECT_NEAR(frobenius_norm2(mat3_sub(c.F_hat, p)), tr * tr / 3.0, 1e-12);
    // 2 mu (F - R) + 3 lambda (F - p) is Corotational's stress: the fixed point is its step.
    const Mat3 P =
        mat3_add(mat3_scale(2 * kLame.mu, mat3_sub(c.F_hat, R)), mat3_scale(3 * kLame.lambda, mat3_sub(c.F_hat, p)));
    const Mat3 want = Corotational::stress(c.F_hat, kLame);
    for (int k = 0; k < 9; ++k) EXPECT_NEAR(P.m[k], want.m[k], 1e-9 * kLame.lambda);
  }
}

TEST(LocalGlobalLocalStep, RotationProjectionOfAnInvertedElementIsAProperRotation) {
  Mat3 F = diagonal3(1.2, 0.9, -0.2);  // inverted: the smallest singular value's sign flips
  const Mat3 R = rotation_local_projection(F);
  EXPECT_NEAR(determinant(R), 1.0, 1e-12);
  EXPECT_NEAR(R(2, 2), 1.0, 1e-12) << "the closest rotation to diag(1.2, 0.9, -0.2) is I";
}

}  // namespace
}  // namespace sinew::integrators_local_global_local_step_test
