#include "sinew/materials/multi_point_spring.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>

#include "finite_difference.hpp"
#include "sinew/materials/axial_spring.hpp"

namespace sinew::materials_multi_point_spring_test {
namespace {

// A nonlinear, rate-dependent tension to exercise every term of section 0.14.
struct CubicLaw {
  double k = 50.0, r = 2.0, d = 3.0;
  AxialTension operator()(double L, double Ldot) const {
    const double e = L - r;
    return AxialTension{k * e * e * e + k * e + d * Ldot * Ldot, 3 * k * e * e + k, 2 * d * Ldot};
  }
};

// Two end points and two via points (n = 3 segments), not collinear.
const Eigen::VectorXd kX = (Eigen::VectorXd(12) << 0, 0, 0, 1, 0.5, 0, 1.8, 0.2, 0.4, 2.5, 1.0, 0.1).finished();
const Eigen::VectorXd kV =
    (Eigen::VectorXd(12) << 0.3, -0.2, 0.1, -0.5, 0.4, 0.2, 0.1, 0.9, -0.3, 0.6, 0.0, 0.5).finished();

template <class Law>
Eigen::VectorXd forces(const Law& law, const bool* active, const Eigen::VectorXd& x, const Eigen::VectorXd& v) {
  Eigen::VectorXd f(12);
  multi_point_spring_forces(law, 3, x.data(), v.data(), active, f.data());
  return f;
}

template <class Law>
void check(const Law& law, const bool* active) {
  const auto jac = [&](const Eigen::VectorXd& x, const Eigen::VectorXd& v, bool wrt_x) {
    Eigen::Matrix<double, 12, 12, Eigen::RowMajor> dfdx, dfdv;
    multi_point_spring_jacobian(law, 3, x.data(), v.data(), active, dfdx.data(), dfdv.data());
    return Eigen::MatrixXd(wrt_x ? dfdx : dfdv);
  };
  EXPECT_TRUE(test::check_jacobian([&](const Eigen::VectorXd& x) { return forces(law, active, x, kV); },
                                   [&](const Eigen::VectorXd& x) { return jac(x, kV, true); }, kX));
  EXPECT_TRUE(test::check_jacobian([&](const Eigen::VectorXd& v) { return forces(law, active, kX, v); },
                                   [&](const Eigen::VectorXd& v) { return jac(kX, v, false); }, kV));
}

TEST(MultiPointSpring, JacobiansMatchFiniteDifferences) {
  check(LinearAxialSpring{200.0, 4.0, 1.5}, nullptr);
  check(CubicLaw{}, nullptr);
  const bool active[3] = {true, false, true};  // passive middle segment
  check(CubicLaw{}, active);
}

TEST(MultiPointSpring, ForcesAreTheTensionAlongEachSegment) {
  const LinearAxialSpring spring{200.0, 0.0, 1.5};
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(12);
  const Eigen::VectorXd f = forces(spring, nullptr, kX, zero);
  double L = 0.0;
  Eigen::Vector3d u[3];
  for (int i = 0; i < 3; ++i) {
    const Eigen::Vector3d d = kX.segment<3>(3 * i + 3) - kX.segment<3>(3 * i);
    L += d.norm();
    u[i] = d.normalized();
  }
  const double F = 200.0 * (L - 1.5);
  EXPECT_LE((f.segment<3>(0) - F * u[0]).norm(), 1e-12 * F);
  EXPECT_LE((f.segment<3>(3) - F * (u[1] - u[0])).norm(), 1e-12 * F);  // a via point: pulley force
  EXPECT_LE((f.segment<3>(9) + F * u[2]).norm(), 1e-12 * F);
  EXPECT_LE((f.segment<3>(0) + f.segment<3>(3) + f.segment<3>(6) + f.segment<3>(9)).norm(), 1e-12 * F);
  // A single segment is the two-point spring.
  double f2[6], x2[6], v2[6] = {0, 0, 0, 0, 0, 0};
  for (int i = 0; i < 6; ++i) x2[i] = kX[i];
  double fm[6];
  multi_point_spring_forces(spring, 1, x2, v2, nullptr, fm);
  axial_spring_forces(spring, x2, v2, f2);
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(fm[i], f2[i], 1e-12 * std::fabs(f2[0]) + 1e-12);
}

TEST(MultiPointSpring, PassiveSegmentsDoNotCountInTheLength) {
  const bool active[3] = {true, false, true};
  double L_all, Ldot_all, L_act, Ldot_act;
  multi_point_spring_length(3, kX.data(), kV.data(), nullptr, L_all, Ldot_all);
  multi_point_spring_length(3, kX.data(), kV.data(), active, L_act, Ldot_act);
  const double l1 = (kX.segment<3>(6) - kX.segment<3>(3)).norm();
  EXPECT_NEAR(L_all - L_act, l1, 1e-12);
  EXPECT_GT(std::fabs(Ldot_all - Ldot_act), 1e-3);
}

}  // namespace
}  // namespace sinew::materials_multi_point_spring_test
