// FCLIB problem files: bitwise round trips of local and global problems and solutions, agreement
// with libfclib's own reader and writer in both directions, clear errors, and atomic writes.
#include "sinew/constraints/fclib_file.hpp"

#include <gtest/gtest.h>

#include "expect_error.hpp"

#ifdef SINEW_HAVE_FCLIB

extern "C" {  // fclib.h declares C functions without extern "C" guards
#include <fclib.h>
}
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <vector>

#include "random_sparse.hpp"

namespace sinew::constraints::constraints_fclib_file_test {
namespace {

namespace fs = std::filesystem;

// Bitwise equality of two doubles arrays (so -0.0 vs 0.0 or a last-bit change fails).
bool same_bits(const double* a, const double* b, std::size_t n) {
  return n == 0 || std::memcmp(a, b, n * sizeof(double)) == 0;
}
bool same_bits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() && same_bits(a.data(), b.data(), static_cast<std::size_t>(a.size()));
}
bool same_bits(const CsrMatrix& a, const CsrMatrix& b) {
  return a.rows == b.rows && a.cols == b.cols && a.row_ptr == b.row_ptr && a.col_idx == b.col_idx &&
         a.values.size() == b.values.size() && same_bits(a.values.data(), b.values.data(), a.values.size());
}

Eigen::VectorXd random_vector(Eigen::Index n, std::uint64_t seed, double lo = -1.0, double hi = 1.0) {
  const std::vector<double> v = test::random_vector(static_cast<std::size_t>(n), seed, lo, hi);
  return Eigen::Map<const Eigen::VectorXd>(v.data(), n);
}

FclibLocalProblem random_local(int contacts, std::uint64_t seed) {
  FclibLocalProblem p;
  p.W = test::random_csr(3 * contacts, 3 * contacts, 0.3, seed);
  if (!p.W.values.empty()) p.W.values[0] = -0.0;  // a signed zero must survive the round trip
  p.q = random_vector(3 * contacts, seed + 1);
  p.mu = random_vector(contacts, seed + 2, 0.0, 1.0);
  p.info = {"random local", "seed " + std::to_string(seed), "W not symmetric: a file-format test"};
  return p;
}

FclibGlobalProblem random_global(int n, int contacts, int equalities, std::uint64_t seed) {
  FclibGlobalProblem p;
  p.M = test::random_csr(n, n, 0.4, seed);
  p.H = test::random_csr(n, 3 * contacts, 0.3, seed + 1);
  p.f = random_vector(n, seed + 2);
  p.w = random_vector(3 * contacts, seed + 3);
  p.mu = random_vector(contacts, seed + 4, 0.0, 1.0);
  if (equalities > 0) {
    p.G = test::random_csr(n, equalities, 0.5, seed + 5);
    p.b = random_vector(equalities, seed + 6);
  }
  p.info.title = "random global";  // description and math_info left empty: not written
  return p;
}

// Each test works in its own fresh folder, removed afterwards.
class FclibFile : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("sinew_fclib_" + std::string(info->name()) + "_" + std::to_string(static_cast<long>(getpid())));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }
  std::vector<std::string> listing() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_)) names.push_back(entry.path().filename().string());
    return names;
  }

  fs::path dir_;
};

TEST_F(FclibFile, LocalRoundTripIsBitwise) {
  ASSERT_TRUE(fclib_supported());
  for (int contacts : {1, 4, 17}) {
    const FclibLocalProblem p = random_local(contacts, 100 + contacts);
    const std::string path = file("local.hdf5");
    write_fclib_local(path, p);
    const FclibLocalProblem back = read_fclib_local(path);
    EXPECT_TRUE(same_bits(p.W, back.W)) << contacts;
    EXPECT_TRUE(same_bits(p.q, back.q)) << contacts;
    EXPECT_TRUE(same_bits(p.mu, back.mu)) << contacts;
    EXPECT_EQ(back.info.title, p.info.title);
    EXPECT_EQ(back.info.description, p.info.description);
    EXPECT_EQ(back.info.math_info, p.info.math_info);
    EXPECT_FALSE(read_fclib_solution(path).has_value());
  }
  EXPECT_EQ(listing(), std::vector<std::string>{"local.hdf5"});  // replaced in place, no leftovers
}

TEST_F(FclibFile, GlobalRoundTripIsBitwise) {
  for (int equalities : {0, 5}) {
    const FclibGlobalProblem p = random_global(20, 4, equalities, 200 + equalities);
    const std::string path = file("global.hdf5");
    write_fclib_global(path, p);
    const FclibGlobalProblem back = read_fclib_global(path);
    EXPECT_TRUE(same_bits(p.M, back.M));
    EXPECT_TRUE(same_bits(p.H, back.H));
    EXPECT_TRUE(same_bits(p.G, back.G));
    EXPECT_TRUE(same_bits(p.f, back.f));
    EXPECT_TRUE(same_bits(p.w, back.w));
    EXPECT_TRUE(same_bits(p.b, back.b));
    EXPECT_TRUE(same_bits(p.mu, back.mu));
    EXPECT_EQ(back.has_equalities(), equalities > 0);
    EXPECT_EQ(back.info.title, "random global");
    EXPECT_EQ(back.info.description, "");
  }
}

TEST_F(FclibFile, SolutionsRoundTrip) {
  const FclibLocalProblem local = random_local(3, 300);
  FclibSolution s;
  s.u = random_vector(9, 301);
  s.r = random_vector(9, 302);
  write_fclib_local(file("local.hdf5"), local, &s);
  const auto back = read_fclib_solution(file("local.hdf5"));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->v.size(), 0);
  EXPECT_EQ(back->l.size(), 0);
  EXPECT_TRUE(same_bits(back->u, s.u));
  EXPECT_TRUE(same_bits(back->r, s.r));

  const FclibGlobalProblem global = random_global(12, 2, 3, 310);
  FclibSolution g;
  g.v = random_vector(12, 311);
  g.u = random_vector(6, 312);
  g.r = random_vector(6, 313);
  g.l = random_vector(3, 314);
  write_fclib_global(file("global.hdf5"), global, &g);
  const auto gback = read_fclib_solution(file("global.hdf5"));
  ASSERT_TRUE(gback.has_value());
  EXPECT_TRUE(same_bits(gback->v, g.v));
  EXPECT_TRUE(same_bits(gback->u, g.u));
  EXPECT_TRUE(same_bits(gback->r, g.r));
  EXPECT_TRUE(same_bits(gback->l, g.l));

  FclibSolution wrong = g;
  wrong.v.resize(11);
  EXPECT_SINEW_ERROR(write_fclib_global(file("bad.hdf5"), global, &wrong), "bad.hdf5", "solution v", "expected 12");
}

// Dense copy of an FCLIB matrix (CSC, CSR or CSparse triplets), to compare with libfclib.
Eigen::MatrixXd dense(const fclib_matrix& A) {
  Eigen::MatrixXd D = Eigen::MatrixXd::Zero(A.m, A.n);
  if (A.nz == -1 || A.nz == -2) {
    for (int k = 0; k < (A.nz == -1 ? A.n : A.m); ++k)
      for (int e = A.p[k]; e < A.p[k + 1]; ++e) (A.nz == -1 ? D(A.i[e], k) : D(k, A.i[e])) += A.x[e];
  } else {
    for (int e = 0; e < A.nz; ++e) D(A.i[e], A.p[e]) += A.x[e];
  }
  return D;
}
Eigen::MatrixXd dense(const CsrMatrix& A) { return Eigen::MatrixXd(to_eigen(A)); }

TEST_F(FclibFile, LibfclibReadsWhatSinewWrites) {
  const FclibLocalProblem p = random_local(5, 400);
  write_fclib_local(file("local.hdf5"), p);
  fclib_local* local = fclib_read_local(file("local.hdf5").c_str());
  ASSERT_NE(local, nullptr);
  EXPECT_EQ(local->spacedim, 3);
  EXPECT_EQ(dense(*local->W), dense(p.W));
  EXPECT_TRUE(same_bits(local->q, p.q.data(), 15));
  EXPECT_TRUE(same_bits(local->mu, p.mu.data(), 5));
  ASSERT_NE(local->info, nullptr);
  EXPECT_STREQ(local->info->title, "random local");
  fclib_delete_local(local);
  std::free(local);

  const FclibGlobalProblem g = random_global(10, 2, 2, 410);
  write_fclib_global(file("global.hdf5"), g);
  fclib_global* global = fclib_read_global(file("global.hdf5").c_str());
  ASSERT_NE(global, nullptr);
  EXPECT_EQ(global->H->m, 10);  // FCLIB's H is (n x m): velocities x contact rows
  EXPECT_EQ(global->H->n, 6);
  EXPECT_EQ(dense(*global->M), dense(g.M));
  EXPECT_EQ(dense(*global->H), dense(g.H));
  ASSERT_NE(global->G, nullptr);
  EXPECT_EQ(dense(*global->G), dense(g.G));
  EXPECT_TRUE(same_bits(global->f, g.f.data(), 10));
  EXPECT_TRUE(same_bits(global->w, g.w.data(), 6));
  EXPECT_TRUE(same_bits(global->b, g.b.data(), 2));
  fclib_delete_global(global);
  std::free(global);
}

TEST_F(FclibFile, SinewReadsWhatLibfclibWrites) {
  // W = [[2, 1, 0], [1, 2, 0], [0, 0, 3]] as CSparse triplets (i = rows, p = columns), with the
  // (0, 0) entry split in two duplicates that the reader sums, and a solution.
  int rows[] = {0, 0, 1, 0, 1, 2}, cols[] = {0, 0, 0, 1, 1, 2};
  double x[] = {1.5, 0.5, 1.0, 1.0, 2.0, 3.0}, q[] = {-1.0, 0.25, 0.5}, mu[] = {0.3};
  fclib_matrix W{6, 3, 3, cols, rows, x, 6, nullptr};
  char title[] = "from libfclib";
  fclib_info info{title, nullptr, nullptr};
  fclib_local local{&W, nullptr, nullptr, mu, q, nullptr, 3, &info};
  ASSERT_EQ(fclib_write_local(&local, file("ext.hdf5").c_str()), 1);
  double u[] = {0.0, 0.1, 0.2}, r[] = {1.0, 0.0, 0.0};
  fclib_solution sol{nullptr, u, r, nullptr};
  ASSERT_EQ(fclib_write_solution(&sol, file("ext.hdf5").c_str()), 1);

  const FclibLocalProblem p = read_fclib_local(file("ext.hdf5"));
  Eigen::Matrix3d expected;
  expected << 2, 1, 0, 1, 2, 0, 0, 0, 3;
  EXPECT_EQ(dense(p.W), Eigen::MatrixXd(expected));
  EXPECT_EQ(p.W.nnz(), 5);
  EXPECT_EQ(p.q, Eigen::Vector3d(-1.0, 0.25, 0.5));
  EXPECT_EQ(p.contacts(), 1);
  EXPECT_EQ(p.mu[0], 0.3);
  EXPECT_EQ(p.info.title, "from libfclib");
  const auto s = read_fclib_solution(file("ext.hdf5"));
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->u, Eigen::Vector3d(0.0, 0.1, 0.2));
  EXPECT_EQ(s->r, Eigen::Vector3d(1.0, 0.0, 0.0));
}

TEST_F(FclibFile, ReadErrorsNameTheFileAndTheProblem) {
  EXPECT_SINEW_ERROR(read_fclib_local(file("missing.hdf5")), "missing.hdf5", "no such file");
  EXPECT_SINEW_ERROR(read_fclib_local(dir_.string()), "is a directory");
  std::ofstream(file("text.hdf5")) << "not hdf5\n";
  EXPECT_SINEW_ERROR(read_fclib_local(file("text.hdf5")), "text.hdf5", "not an HDF5 file");
  EXPECT_SINEW_ERROR(read_fclib_solution(file("text.hdf5")), "text.hdf5", "not an HDF5 file");

  write_fclib_global(file("global.hdf5"), random_global(6, 1, 0, 500));
  EXPECT_SINEW_ERROR(read_fclib_local(file("global.hdf5")), "global.hdf5", "/fclib_global problem, not /fclib_local");
  write_fclib_local(file("local.hdf5"), random_local(2, 501));
  EXPECT_SINEW_ERROR(read_fclib_global(file("local.hdf5")), "local.hdf5", "/fclib_local problem, not /fclib_global");

  // Written by libfclib: a 2-D problem (spacedim 2) and a non-square W.
  int p2[] = {0, 1, 2}, i2[] = {0, 1};
  double x2[] = {1.0, 1.0}, q2[] = {-1.0, 0.0}, mu2[] = {0.5};
  fclib_matrix W2{2, 2, 2, p2, i2, x2, -1, nullptr};
  fclib_local two_d{&W2, nullptr, nullptr, mu2, q2, nullptr, 2, nullptr};
  ASSERT_EQ(fclib_write_local(&two_d, file("2d.hdf5").c_str()), 1);
  EXPECT_SINEW_ERROR(read_fclib_local(file("2d.hdf5")), "2d.hdf5", "spacedim", "is 2", "3-D");

  int p3[] = {0, 1, 2, 3}, i3[] = {0, 1, 2};
  double x3[] = {1.0, 1.0, 1.0}, q6[] = {-1, 0, 0, -1, 0, 0}, mu3[] = {0.5, 0.5};
  fclib_matrix W63{3, 6, 3, p3, i3, x3, -1, nullptr};
  fclib_local tall{&W63, nullptr, nullptr, mu3, q6, nullptr, 3, nullptr};
  ASSERT_EQ(fclib_write_local(&tall, file("tall.hdf5").c_str()), 1);
  EXPECT_SINEW_ERROR(read_fclib_local(file("tall.hdf5")), "tall.hdf5", "/fclib_local/W", "not square");

  // Column pointers beyond nzmax: a corrupt matrix is an error, not a crash.
  int pbad[] = {0, 1, 2, 5};
  fclib_matrix Wbad{3, 3, 3, pbad, i3, x3, -1, nullptr};
  double q3[] = {-1, 0, 0}, mu1[] = {0.5};
  fclib_local corrupt{&Wbad, nullptr, nullptr, mu1, q3, nullptr, 3, nullptr};
  ASSERT_EQ(fclib_write_local(&corrupt, file("corrupt.hdf5").c_str()), 1);
  EXPECT_SINEW_ERROR(read_fclib_local(file("corrupt.hdf5")), "corrupt.hdf5", "/fclib_local/W", "pointers");
}

TEST_F(FclibFile, WrongSizesAreRejectedBeforeWriting) {
  const FclibLocalProblem good = random_local(2, 600);
  FclibLocalProblem short_q = good;
  short_q.q.resize(5);
  EXPECT_SINEW_ERROR(write_fclib_local(file("a.hdf5"), short_q), "a.hdf5", "q has 5 entries, expected 6");
  FclibLocalProblem short_mu = good;
  short_mu.mu.resize(1);
  EXPECT_SINEW_ERROR(write_fclib_local(file("a.hdf5"), short_mu), "mu has 1 entries, expected 2");
  FclibLocalProblem negative_mu = good;
  negative_mu.mu[1] = -0.1;
  EXPECT_SINEW_ERROR(write_fclib_local(file("a.hdf5"), negative_mu), "mu[1]", ">= 0");
  FclibLocalProblem not_multiple = random_local(2, 601);
  not_multiple.W = test::random_csr(5, 5, 0.5, 602);
  EXPECT_SINEW_ERROR(write_fclib_local(file("a.hdf5"), not_multiple), "rows of W = 5", "multiple of 3");
  FclibGlobalProblem global = random_global(8, 2, 0, 603);
  global.f.resize(7);
  EXPECT_SINEW_ERROR(write_fclib_global(file("a.hdf5"), global), "f has 7 entries, expected 8");
  FclibGlobalProblem b_without_g = random_global(8, 2, 0, 604);
  b_without_g.b = Eigen::VectorXd::Ones(2);
  EXPECT_SINEW_ERROR(write_fclib_global(file("a.hdf5"), b_without_g), "G has no columns");
  EXPECT_TRUE(listing().empty());
}

TEST_F(FclibFile, FailedWriteLeavesNoFileAndKeepsTheOldOne) {
  const FclibLocalProblem old = random_local(2, 700);
  write_fclib_local(file("p.hdf5"), old);
  FclibLocalProblem bad = random_local(2, 701);
  bad.q[3] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_SINEW_ERROR(write_fclib_local(file("p.hdf5"), bad), "p.hdf5", "q holds a non-finite entry");
  EXPECT_TRUE(same_bits(read_fclib_local(file("p.hdf5")).q, old.q));  // untouched

  // A failure after the temporary file exists (the rename onto a folder fails): it is removed.
  fs::create_directory(dir_ / "taken.hdf5");
  EXPECT_SINEW_ERROR(write_fclib_local(file("taken.hdf5"), old), "taken.hdf5", "cannot rename");
  std::vector<std::string> names = listing();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"p.hdf5", "taken.hdf5"}));
  EXPECT_SINEW_ERROR(write_fclib_local(file("no/such/folder/p.hdf5"), old), "no/such/folder", "temporary file");
}

}  // namespace
}  // namespace sinew::constraints::constraints_fclib_file_test

#else  // built without FCLIB: the functions say so

namespace sinew::constraints::constraints_fclib_file_test {
namespace {

TEST(FclibFile, BuiltWithoutFclib) {
  EXPECT_FALSE(fclib_supported());
  EXPECT_SINEW_ERROR(read_fclib_local("any.hdf5"), "any.hdf5", "built without FCLIB");
  GTEST_SKIP() << "sinew was built without FCLIB (libfclib-dev)";
}

}  // namespace
}  // namespace sinew::constraints::constraints_fclib_file_test

#endif
