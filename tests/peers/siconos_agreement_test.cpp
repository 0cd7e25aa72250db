// sinew's reader of Siconos .dat files against Siconos' own readers (frictionContact_newFromFile,
// globalFrictionContact_newFromFile) on every 3-D file of the development set: every matrix entry
// and every vector entry bitwise equal. Built only where Siconos numerics is installed.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cstdio>
#include <string>

#include "FrictionContactProblem.h"
#include "GlobalFrictionContactProblem.h"
#include "NumericsMatrix.h"
#include "sinew/constraints/siconos_dat_file.hpp"

namespace sinew::peers_siconos_agreement_test {
namespace {

const std::string kData = std::string(SINEW_CONSTRAINTS_DATA) + "/fclib-siconos/";

// Every entry of Siconos' matrix equals sinew's (explicit zeros and absent entries alike).
void expect_same_matrix(NumericsMatrix* siconos, const CsrMatrix& ours, const char* name) {
  SCOPED_TRACE(name);
  ASSERT_EQ(siconos->size0, ours.rows);
  ASSERT_EQ(siconos->size1, ours.cols);
  const Eigen::MatrixXd dense = Eigen::MatrixXd(to_eigen(ours));
  int differences = 0;
  for (int i = 0; i < siconos->size0; ++i)
    for (int j = 0; j < siconos->size1; ++j) differences += NM_get_value(siconos, i, j) != dense(i, j);
  EXPECT_EQ(differences, 0);
}

void expect_same_vector(const double* siconos, const Eigen::VectorXd& ours, const char* name) {
  SCOPED_TRACE(name);
  for (Eigen::Index k = 0; k < ours.size(); ++k) ASSERT_EQ(siconos[k], ours[k]) << "entry " << k;
}

TEST(SiconosAgreement, LocalDatFilesReadAsSiconosReadsThem) {
  for (const char* name : {"Capsules-i100-889.dat", "Confeti-ex13-4contact-Fc3D-SBM.dat", "FC3D_Example1.dat",
                           "OneObject-i1028-138.hdf5.dat", "Rover4144.dat"}) {
    SCOPED_TRACE(name);
    const std::string path = kData + name;
    const constraints::SiconosDatProblem ours = constraints::read_siconos_dat(path);
    ASSERT_TRUE(ours.local);
    FILE* file = std::fopen(path.c_str(), "r");
    ASSERT_NE(file, nullptr);
    FrictionContactProblem* theirs = frictionContact_newFromFile(file);
    std::fclose(file);
    ASSERT_NE(theirs, nullptr);
    ASSERT_EQ(theirs->numberOfContacts, ours.local->contacts());
    expect_same_matrix(theirs->M, ours.local->W, "W");
    expect_same_vector(theirs->q, ours.local->q, "q");
    expect_same_vector(theirs->mu, ours.local->mu, "mu");
    frictionContactProblem_free(theirs);
  }
}

TEST(SiconosAgreement, GlobalDatFilesReadAsSiconosReadsThem) {
  const std::string path = kData + "GFC3D_TwoRods1.dat";
  const constraints::SiconosDatProblem ours = constraints::read_siconos_dat(path);
  ASSERT_TRUE(ours.global);
  FILE* file = std::fopen(path.c_str(), "r");
  ASSERT_NE(file, nullptr);
  GlobalFrictionContactProblem* theirs = globalFrictionContact_newFromFile(file);
  std::fclose(file);
  ASSERT_NE(theirs, nullptr);
  ASSERT_EQ(theirs->numberOfContacts, ours.global->contacts());
  expect_same_matrix(theirs->M, ours.global->M, "M");
  expect_same_matrix(theirs->H, ours.global->H, "H");
  expect_same_vector(theirs->q, ours.global->f, "q = f");
  expect_same_vector(theirs->b, ours.global->w, "b = w");
  expect_same_vector(theirs->mu, ours.global->mu, "mu");
  globalFrictionContact_free(theirs);
}

}  // namespace
}  // namespace sinew::peers_siconos_agreement_test
