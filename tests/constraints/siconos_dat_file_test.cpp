// Siconos .dat problem files: hand-written files in both storages and both forms read entry by
// entry (dense matrices column by column, sparse blocks column-major within each block), and
// damaged files refused with the file, the line and what was expected.
#include "sinew/constraints/siconos_dat_file.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <filesystem>
#include <fstream>
#include <string>

#include "expect_error.hpp"

namespace sinew::constraints::constraints_siconos_dat_file_test {
namespace {

namespace fs = std::filesystem;

// Writes @p text to a fresh file in the test's temporary folder and returns its path.
std::string write(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "sinew_siconos_dat_test";
  fs::create_directories(dir);
  const fs::path path = dir / name;
  std::ofstream(path) << text;
  return path.string();
}

// One contact, W dense and non-symmetric, stored column by column as Siconos does.
const std::string kLocalDense =
    "3\n1\n0\n3\n3\n3\t3\n"
    "1.0 0.1 0.2\n"    // column 0: W(0,0), W(1,0), W(2,0)
    "0.3 2.0 0.4\n"    // column 1
    "0.5 0.6 3.0\n"    // column 2
    "-1.0 0.5 0.25\n"  // q
    "0.3\n"            // mu
    "0\n";             // the flag Siconos' test files end with

TEST(SiconosDat, ADenseLocalProblemIsReadColumnByColumn) {
  const SiconosDatProblem p = read_siconos_dat(write("local_dense.dat", kLocalDense));
  ASSERT_TRUE(p.local);
  EXPECT_FALSE(p.global);
  Eigen::Matrix3d expected;
  expected << 1.0, 0.3, 0.5, 0.1, 2.0, 0.6, 0.2, 0.4, 3.0;
  EXPECT_EQ(Eigen::MatrixXd(to_eigen(p.local->W)), Eigen::MatrixXd(expected));
  EXPECT_EQ(p.local->q, Eigen::Vector3d(-1.0, 0.5, 0.25));
  EXPECT_EQ(p.local->mu, Eigen::VectorXd::Constant(1, 0.3));
}

// Two contacts, M (6 x 6) block diagonal in two 3x3 blocks, H (6 x 6) one block per contact,
// all in the sparse-block storage; blocks are column-major.
const std::string kGlobalBlocks =
    "3\n2\n"
    "1\n6\n6\n"               // M: sparse block, 6 x 6
    "2\n2\n2\n3 6\n3 6\n"     // 2 blocks, 2 x 2 block grid, cumulative sizes
    "3\n2\n0 1 2\n0 1\n"      // filled1, filled2, block-row pointers, block columns
    "0\n2 0 0 0 2 0 0 0 2\n"  // block 0: 2 I
    "1\n4 1 0 1 4 0 0 0 4\n"  // block 1: symmetric
    "1\n6\n6\n"               // H: sparse block, 6 x 6
    "2\n2\n2\n3 6\n3 6\n3\n2\n0 1 2\n0 1\n"
    "0\n1 0 0 0 1 0 0 0 1\n"
    "1\n1 2 3 4 5 6 7 8 9\n"  // block 1 column-major: H(3,3) = 1, H(4,3) = 2, H(3,4) = 4
    "1 2 3 4 5 6\n"           // q (M v = H r + q)
    "-1 0 0 -2 0 0\n"         // b (u = H^T v + b)
    "0.5 0.7\n";

TEST(SiconosDat, ASparseBlockGlobalProblemIsReadBlockByBlock) {
  const SiconosDatProblem p = read_siconos_dat(write("global_blocks.dat", kGlobalBlocks));
  ASSERT_TRUE(p.global);
  EXPECT_FALSE(p.local);
  const Eigen::MatrixXd M = Eigen::MatrixXd(to_eigen(p.global->M));
  EXPECT_EQ(M(0, 0), 2.0);
  EXPECT_EQ(M(3, 4), 1.0);
  EXPECT_EQ(M(4, 3), 1.0);
  EXPECT_EQ(M(0, 3), 0.0);
  const Eigen::MatrixXd H = Eigen::MatrixXd(to_eigen(p.global->H));
  EXPECT_EQ(H(3, 3), 1.0);
  EXPECT_EQ(H(4, 3), 2.0);
  EXPECT_EQ(H(3, 4), 4.0);
  EXPECT_EQ(H(5, 5), 9.0);
  EXPECT_EQ(H(0, 3), 0.0);
  EXPECT_EQ(p.global->f[5], 6.0);
  EXPECT_EQ(p.global->w[3], -2.0);
  EXPECT_EQ(p.global->mu[1], 0.7);
}

TEST(SiconosDat, DamagedFilesAreRefusedWithTheLineAndWhatWasExpected) {
  EXPECT_SINEW_ERROR(read_siconos_dat("/no/such/problem.dat"), "'/no/such/problem.dat'", "no such file");
  EXPECT_SINEW_ERROR(read_siconos_dat(write("short.dat", kLocalDense.substr(0, kLocalDense.find("0.3\n0\n")))),
                     "short.dat", "ends where mu entry 0 was expected");
  EXPECT_SINEW_ERROR(read_siconos_dat(write("dense.dat", kLocalDense.substr(0, 30))), "dense.dat",
                     "dense 3 x 3 but only 4 numbers follow");
  std::string word = kLocalDense;
  word.replace(word.find("0.1"), 3, "x");
  EXPECT_SINEW_ERROR(read_siconos_dat(write("word.dat", word)), "word.dat", "line 7", "expected a number, got 'x'");
  EXPECT_SINEW_ERROR(read_siconos_dat(write("huge.dat", "3\n2000000000\n0\n3\n3\n3 3\n")), "huge.dat",
                     "number of contacts = 2000000000");
  EXPECT_SINEW_ERROR(read_siconos_dat(write("twod.dat", "2\n1\n0\n2\n2\n2 2\n1 0 0 1\n-1 0\n0.3\n")), "line 2",
                     "dimension is 2", "3-D");
  EXPECT_SINEW_ERROR(read_siconos_dat(write("csparse.dat", "3\n1\n2\n3\n3\n0\n")), "type 2", "general sparse storage");
  std::string negative = kLocalDense;
  negative.replace(negative.find("0.3\n0\n"), 3, "-0.3");
  EXPECT_SINEW_ERROR(read_siconos_dat(write("negative_mu.dat", negative)), "mu[0] = -0.3", "expected >= 0");
  std::string nan = kLocalDense;
  nan.replace(nan.find("2.0"), 3, "nan");
  EXPECT_SINEW_ERROR(read_siconos_dat(write("nan.dat", nan)), "line 8", "is not finite");
  std::string renumbered = kGlobalBlocks;
  renumbered.replace(renumbered.find("1\n4 1 0"), 1, "7");
  EXPECT_SINEW_ERROR(read_siconos_dat(write("renumbered.dat", renumbered)), "block number = 7", "expected 1");
  std::string misfit = kGlobalBlocks;  // H with 5 columns does not fit 2 contacts
  misfit.replace(misfit.find("1\n6\n6\n2\n2\n2\n3 6\n3 6\n3\n2\n0 1 2\n0 1\n0\n1 0"), 9, "1\n6\n5\n2\n2");
  EXPECT_SINEW_ERROR(read_siconos_dat(write("misfit.dat", misfit)), "misfit.dat", "H cumulative block column size");
}

}  // namespace
}  // namespace sinew::constraints::constraints_siconos_dat_file_test
