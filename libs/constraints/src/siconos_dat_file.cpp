// Siconos' .dat problem files (siconos_dat_file.hpp): a whitespace tokenizer that remembers the
// line of every number, and the two NumericsMatrix storages Siconos' test problems use.
#include "sinew/constraints/siconos_dat_file.hpp"

#include <Eigen/SparseCore>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>
#include <vector>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew::constraints {
namespace {

// What a number is, for a message: "<matrix> <what> <index>[, <index2>]". Built into text only
// when something is wrong, so that reading a file builds no string per number.
struct Label {
  const std::string* matrix = nullptr;  // the matrix's name, or none
  const char* what = "";
  long index = -1, index2 = -1;

  std::string text() const {
    std::string t = matrix ? *matrix + " " + what : std::string(what);
    if (index >= 0) t += " " + std::to_string(index);
    if (index2 >= 0) t += ", " + std::to_string(index2);
    return t;
  }
};

Label label(const char* what) { return Label{nullptr, what}; }
Label label(const std::string& matrix, const char* what, long index = -1, long index2 = -1) {
  return Label{&matrix, what, index, index2};
}

// The numbers of one file in order, each with its line, read one at a time.
class Tokens {
 public:
  Tokens(std::string_view text, const std::string& path) : path_(path) {
    int line = 1;
    std::size_t k = 0;
    while (k < text.size()) {
      const char c = text[k];
      if (c == '\n') ++line;
      if (std::isspace(static_cast<unsigned char>(c)) || c == '\0') {
        ++k;
        continue;
      }
      const std::size_t start = k;
      while (k < text.size() && !std::isspace(static_cast<unsigned char>(text[k])) && text[k] != '\0') ++k;
      words_.push_back({std::string(text.substr(start, k - start)), line});
    }
  }

  std::size_t remaining() const { return words_.size() - next_; }
  // The largest count the rest of the file can hold (one number per counted item).
  long bound() const { return static_cast<long>(remaining()); }

  // The number @p ahead places on, when it is written as an integer (no '.', no exponent).
  std::optional<long> peek_integer(std::size_t ahead) const {
    if (next_ + ahead >= words_.size()) return std::nullopt;
    const std::string& text = words_[next_ + ahead].text;
    char* end = nullptr;
    errno = 0;
    const long v = std::strtol(text.c_str(), &end, 10);
    if (end == text.c_str() || *end != '\0' || errno == ERANGE) return std::nullopt;
    return v;
  }

  // The next number as a count in [low, high]; @p what names it in a message.
  long integer(const Label& what, long low, long high) {
    const Word& w = take(what);
    char* end = nullptr;
    errno = 0;
    const long v = std::strtol(w.text.c_str(), &end, 10);
    if (end == w.text.c_str() || *end != '\0' || errno == ERANGE)
      fail(w, what.text() + ": expected an integer, got '" + w.text + "'");
    if (v < low || v > high)
      fail(w, what.text() + " = " + std::to_string(v) + ", expected " + std::to_string(low) + " to " +
                  std::to_string(high));
    return v;
  }

  // The next number as a finite double.
  double real(const Label& what) {
    const Word& w = take(what);
    char* end = nullptr;
    const double v = std::strtod(w.text.c_str(), &end);
    if (end == w.text.c_str() || *end != '\0') fail(w, what.text() + ": expected a number, got '" + w.text + "'");
    if (!std::isfinite(v)) fail(w, what.text() + " is not finite ('" + w.text + "')");
    return v;
  }

  Eigen::VectorXd vector(const std::string& name, Index size) {
    Eigen::VectorXd v(size);
    for (Index k = 0; k < size; ++k) v[k] = real(label(name, "entry", k));
    return v;
  }

  [[noreturn]] void fail_here(const std::string& what) const {
    if (next_ < words_.size()) fail(words_[next_], what);
    throw Error(where() + what);
  }

  std::string where() const { return "Siconos problem file '" + path_ + "': "; }

 private:
  struct Word {
    std::string text;
    int line;
  };

  const Word& take(const Label& what) {
    if (next_ >= words_.size()) throw Error(where() + "ends where " + what.text() + " was expected");
    return words_[next_++];
  }

  [[noreturn]] void fail(const Word& w, const std::string& what) const {
    throw Error(where() + "line " + std::to_string(w.line) + ": " + what);
  }

  std::string path_;
  std::vector<Word> words_;
  std::size_t next_ = 0;
};

using Triplets = std::vector<Eigen::Triplet<double, Index>>;

CsrMatrix from_triplets(Index rows, Index cols, const Triplets& entries) {
  EigenCsr A(rows, cols);
  A.setFromTriplets(entries.begin(), entries.end());
  return from_eigen(A);
}

// Siconos' sparse-block storage (SBM_new_from_file): cumulative block sizes, block-row pointers,
// block columns, then every block's number and values (column-major).
CsrMatrix read_sparse_block(Tokens& in, const std::string& name, Index rows, Index cols) {
  const long blocks = in.integer(label(name, "number of blocks"), 0, in.bound());
  if (blocks == 0) return from_triplets(rows, cols, {});
  const long block_rows = in.integer(label(name, "block rows"), 1, rows),
             block_cols = in.integer(label(name, "block columns"), 1, cols);
  const auto cumulative = [&](long count, Index total, const char* what) {
    std::vector<long> ends(static_cast<std::size_t>(count));
    for (long k = 0; k < count; ++k) ends[k] = in.integer(label(name, what, k), k == 0 ? 1 : ends[k - 1] + 1, total);
    if (ends.back() != total)
      in.fail_here(name + " " + what + " end at " + std::to_string(ends.back()) + ", expected " +
                   std::to_string(total));
    return ends;
  };
  const std::vector<long> row_ends = cumulative(block_rows, rows, "cumulative block row size");
  const std::vector<long> col_ends = cumulative(block_cols, cols, "cumulative block column size");
  const long filled1 = in.integer(label(name, "filled1"), block_rows + 1, block_rows + 1);
  const long filled2 = in.integer(label(name, "filled2"), blocks, blocks);
  std::vector<long> row_ptr(static_cast<std::size_t>(filled1)), block_col(static_cast<std::size_t>(filled2));
  for (long k = 0; k < filled1; ++k)
    row_ptr[k] = in.integer(label(name, "block-row pointer", k), k == 0 ? 0 : row_ptr[k - 1], blocks);
  if (row_ptr[0] != 0 || row_ptr.back() != blocks)
    in.fail_here(name + " block-row pointers must run from 0 to the number of blocks " + std::to_string(blocks));
  for (long k = 0; k < filled2; ++k) block_col[k] = in.integer(label(name, "block column", k), 0, block_cols - 1);
  Triplets entries;
  for (long br = 0; br < block_rows; ++br) {
    const long r0 = br == 0 ? 0 : row_ends[br - 1], nr = row_ends[br] - r0;
    for (long b = row_ptr[br]; b < row_ptr[br + 1]; ++b) {
      in.integer(label(name, "block number"), b, b);
      const long bc = block_col[b], c0 = bc == 0 ? 0 : col_ends[bc - 1], nc = col_ends[bc] - c0;
      for (long j = 0; j < nc; ++j)
        for (long i = 0; i < nr; ++i) {
          const double x = in.real(label(name, "value of block", b));
          if (x != 0.0) entries.emplace_back(static_cast<Index>(r0 + i), static_cast<Index>(c0 + j), x);
        }
    }
  }
  return from_triplets(rows, cols, entries);
}

// One NumericsMatrix (NM_new_from_file): storage type, sizes, then the storage's own layout.
CsrMatrix read_matrix(Tokens& in, const std::string& name) {
  // Sizes are bounded by the numbers left in the file (each row of M, each contact row of H, has
  // its entries of q or b to come), so a damaged size is refused before anything is allocated.
  const long storage = in.integer(label(name, "storage type"), 0, 2);
  if (storage == 2)
    in.fail_here(name + " is in Siconos' general sparse storage (type 2); sinew reads dense (0) and sparse-block (1)");
  const auto rows = static_cast<Index>(in.integer(label(name, "rows"), 0, in.bound()));
  const auto cols = static_cast<Index>(in.integer(label(name, "columns"), 0, in.bound()));
  if (storage == 1) return read_sparse_block(in, name, rows, cols);
  in.integer(label(name, "rows (repeated)"), rows, rows);
  in.integer(label(name, "columns (repeated)"), cols, cols);
  if (static_cast<double>(rows) * static_cast<double>(cols) > static_cast<double>(in.remaining()))
    in.fail_here(name + " is dense " + std::to_string(rows) + " x " + std::to_string(cols) + " but only " +
                 std::to_string(in.remaining()) + " numbers follow");
  Triplets entries;
  for (Index j = 0; j < cols; ++j)  // Siconos stores dense matrices column by column
    for (Index i = 0; i < rows; ++i) {
      const double x = in.real(label(name, "entry", i, j));
      if (x != 0.0) entries.emplace_back(i, j, x);
    }
  return from_triplets(rows, cols, entries);
}

void check_mu(const Eigen::VectorXd& mu, const Tokens& in) {
  for (Eigen::Index c = 0; c < mu.size(); ++c)
    if (mu[c] < 0.0)
      throw Error(in.where() + "mu[" + std::to_string(c) + "] = " + number_text(mu[c]) + ", expected >= 0");
}

}  // namespace

SiconosDatProblem read_siconos_dat(const std::string& path) {
  const std::string where = "Siconos problem file '" + path + "': ";
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw Error(where + "no such file");
  if (std::filesystem::is_directory(path, ec)) throw Error(where + "is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(where + "cannot be opened");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw Error(where + "cannot be read");
  return parse_siconos_dat(text.str(), path);
}

SiconosDatProblem parse_siconos_dat(std::string_view text, const std::string& path) {
  Tokens in(text, path);
  const long d = in.integer(label("the dimension d"), 1, 3);
  if (d != 3)
    in.fail_here("the dimension is " + std::to_string(d) + "; sinew solves 3-D contact problems only (d = 3)");
  const long contacts = in.integer(label("the number of contacts"), 1, in.bound() / 4);  // q and mu: 4 numbers each
  const auto m = static_cast<Index>(3 * contacts);
  CsrMatrix first = read_matrix(in, "the first matrix (W or M)");
  SiconosDatProblem result;
  // A global file's M is followed by H's header: its storage type and its rows (M's size). A
  // local file's W is followed by q, written as reals ("%32.24e"), never as integers.
  const std::optional<long> storage = in.peek_integer(0), rows = in.peek_integer(1);
  const bool h_follows = storage && *storage >= 0 && *storage <= 2 && rows && *rows == first.rows;
  if (first.rows == m && first.cols == m && !h_follows) {
    FclibLocalProblem p;
    p.W = std::move(first);
    p.q = in.vector("q", m);
    p.mu = in.vector("mu", contacts);
    check_mu(p.mu, in);
    p.info.title = std::filesystem::path(path).filename().string();
    p.info.description = "read from a Siconos .dat file (local form)";
    p.validate(in.where());
    result.local = std::move(p);
    return result;
  }
  FclibGlobalProblem p;
  p.M = std::move(first);
  if (p.M.rows != p.M.cols)
    in.fail_here("M is " + std::to_string(p.M.rows) + " x " + std::to_string(p.M.cols) +
                 ", expected square (a local problem's W would be " + std::to_string(m) + " x " + std::to_string(m) +
                 " followed by the " + std::to_string(m + contacts) + " numbers of q and mu)");
  expand_symmetric_triangle(p.M);
  p.H = read_matrix(in, "H");
  if (p.H.rows != p.M.rows || p.H.cols != m)
    in.fail_here("H is " + std::to_string(p.H.rows) + " x " + std::to_string(p.H.cols) + ", expected " +
                 std::to_string(p.M.rows) + " x " + std::to_string(m) + " (velocities x 3 contacts)");
  p.f = in.vector("q (M v = H r + q)", p.M.rows);
  p.w = in.vector("b (u = H^T v + b)", m);
  p.mu = in.vector("mu", contacts);
  check_mu(p.mu, in);
  p.info.title = std::filesystem::path(path).filename().string();
  p.info.description = "read from a Siconos .dat file (global form)";
  p.validate(in.where());
  result.global = std::move(p);
  return result;
}

}  // namespace sinew::constraints
