// FCLIB problem files: the HDF5 layout of libfclib 3 (groups /fclib_local, /fclib_global,
// /solution; matrices as CSparse-like {nzmax, m, n, nz, p, i, x}) read and written with the
// HDF5 API, every failure turned into a sinew::Error naming the file.
#include "sinew/constraints/fclib_file.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

#ifdef SINEW_HAVE_FCLIB
#include <fcntl.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#endif

namespace sinew::constraints {
namespace {

std::string in_file(const std::string& path) { return "FCLIB file '" + path + "': "; }

void check_matrix(const CsrMatrix& A, const char* name, Index rows, Index cols, const std::string& where) {
  if (A.rows != rows || A.cols != cols)
    throw Error(where + name + " is " + std::to_string(A.rows) + " x " + std::to_string(A.cols) + ", expected " +
                std::to_string(rows) + " x " + std::to_string(cols));
  try {
    A.validate();
  } catch (const Error& e) {
    throw Error(where + name + ": " + e.what());
  }
  for (double x : A.values)
    if (!std::isfinite(x)) throw Error(where + name + " holds a non-finite entry");
}

void check_vector(const Eigen::VectorXd& v, const char* name, Eigen::Index size, const std::string& where) {
  if (v.size() != size)
    throw Error(where + name + " has " + std::to_string(v.size()) + " entries, expected " + std::to_string(size));
  if (!v.allFinite()) throw Error(where + name + " holds a non-finite entry");
}

void check_mu(const Eigen::VectorXd& mu, Eigen::Index contacts, const std::string& where) {
  check_vector(mu, "mu", contacts, where);
  for (Eigen::Index c = 0; c < mu.size(); ++c)
    if (mu[c] < 0.0) throw Error(where + "mu[" + std::to_string(c) + "] = " + number_text(mu[c]) + ", expected >= 0");
}

// The contact count m / 3 of a problem with m contact rows, or an error when m is not a
// positive multiple of 3 (FCLIB's spacedim 3).
Index contacts_of(Index m, const char* what, const std::string& where) {
  if (m <= 0 || m % 3 != 0)
    throw Error(where + what + " = " + std::to_string(m) + ", expected a positive multiple of 3 (3 rows per contact)");
  return m / 3;
}

}  // namespace

void FclibLocalProblem::validate(const std::string& where) const {
  const Index m = W.rows;
  const Index nc = contacts_of(m, "rows of W", where);
  check_matrix(W, "W", m, m, where);
  check_vector(q, "q", m, where);
  check_mu(mu, nc, where);
}

void FclibGlobalProblem::validate(const std::string& where) const {
  const Index n = M.rows;
  const Index m = H.cols;
  const Index nc = contacts_of(m, "columns of H", where);
  check_matrix(M, "M", n, n, where);
  check_matrix(H, "H", n, m, where);
  check_vector(f, "f", n, where);
  check_vector(w, "w", m, where);
  check_mu(mu, nc, where);
  if (G.cols > 0) {
    check_matrix(G, "G", n, G.cols, where);
    check_vector(b, "b", G.cols, where);
  } else if (G.nnz() != 0 || b.size() != 0) {
    throw Error(where + "G has no columns but G or b holds entries");
  }
}

#ifdef SINEW_HAVE_FCLIB

namespace {

// Silences HDF5's automatic error-stack printing while sinew reports the failure itself.
class QuietHdf5 {
 public:
  QuietHdf5() {
    H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietHdf5() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }
  QuietHdf5(const QuietHdf5&) = delete;
  QuietHdf5& operator=(const QuietHdf5&) = delete;

 private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

// An HDF5 identifier closed by its own close function when it goes out of scope.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  hid_t get() const { return id_; }
  // Closes now and reports whether closing (which flushes a file) succeeded.
  bool close() {
    const herr_t rc = id_ >= 0 ? close_(id_) : 0;
    id_ = -1;
    return rc >= 0;
  }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

// Reads datasets of one open FCLIB file; every failure names the file and the dataset.
class Reader {
 public:
  explicit Reader(std::string path) : path_(std::move(path)), file_(open(path_), H5Fclose) {}

  // Whether the absolute path @p name (e.g. "/fclib_local/W") exists, each level checked.
  bool exists(const std::string& name) const {
    for (std::size_t pos = name.find('/', 1);; pos = name.find('/', pos + 1)) {
      const std::string prefix = name.substr(0, pos);
      if (H5Lexists(file_.get(), prefix.c_str(), H5P_DEFAULT) <= 0) return false;
      if (pos == std::string::npos) return true;
    }
  }

  int read_int(const std::string& name) const { return read_ints(name, 1)[0]; }

  // The integers of dataset @p name, which must hold between @p count and @p most of them
  // (most = count: exactly count); the first count are returned.
  std::vector<int> read_ints(const std::string& name, hsize_t count, hsize_t most = 0) const {
    const hsize_t size = check_dataset(name, H5T_INTEGER, count, std::max(count, most));
    std::vector<int> v(std::max<hsize_t>(size, 1));
    if (H5LTread_dataset_int(file_.get(), name.c_str(), v.data()) < 0) fail(name, "cannot be read");
    v.resize(count);
    return v;
  }

  // The numbers of dataset @p name, between @p count and @p most of them, as read_ints().
  std::vector<double> read_doubles(const std::string& name, hsize_t count, hsize_t most = 0) const {
    const hsize_t size = check_dataset(name, H5T_FLOAT, count, std::max(count, most));
    std::vector<double> v(std::max<hsize_t>(size, 1));
    if (H5LTread_dataset_double(file_.get(), name.c_str(), v.data()) < 0) fail(name, "cannot be read");
    v.resize(count);
    return v;
  }

  Eigen::VectorXd read_vector(const std::string& name, hsize_t count) const {
    const std::vector<double> v = read_doubles(name, count);
    return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
  }

  // A fixed-length (libfclib) or variable-length (h5py) string dataset; "" when absent.
  std::string read_string(const std::string& name) const {
    if (!exists(name)) return "";
    Handle set(H5Dopen2(file_.get(), name.c_str(), H5P_DEFAULT), H5Dclose);
    Handle type(set.get() >= 0 ? H5Dget_type(set.get()) : -1, H5Tclose);
    if (type.get() < 0 || H5Tget_class(type.get()) != H5T_STRING) fail(name, "is not a string");
    if (H5Tis_variable_str(type.get()) > 0) {
      char* text = nullptr;
      Handle mem(H5Tcopy(H5T_C_S1), H5Tclose);
      H5Tset_size(mem.get(), H5T_VARIABLE);
      if (H5Dread(set.get(), mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, &text) < 0) fail(name, "cannot be read");
      std::string s = text ? text : "";
      H5free_memory(text);
      return s;
    }
    std::vector<char> buffer(H5Tget_size(type.get()) + 1, '\0');
    if (H5Dread(set.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()) < 0) fail(name, "cannot be read");
    return std::string(buffer.data());
  }

  // The FCLIB matrix in group @p name (compressed columns, compressed rows or triplets) as
  // sorted CSR; duplicate entries are summed in file order. As libfclib (which allocates nzmax
  // and reads what is there), the index and value datasets may hold anything from the used
  // count (p[outer] compressed, nz triplets) up to nzmax entries: Siconos writes triplets
  // whose x holds nz < nzmax values.
  CsrMatrix read_matrix(const std::string& name) const {
    if (!exists(name)) fail(name, "is missing");
    const int nzmax = read_int(name + "/nzmax"), m = read_int(name + "/m"), n = read_int(name + "/n");
    const int nz = read_int(name + "/nz");
    if (m < 0 || n < 0 || nzmax < 0) fail(name, "has negative sizes");
    std::vector<std::tuple<Index, Index, double>> entries;
    const auto add = [&](long row, long col, double x) {
      if (row < 0 || row >= m || col < 0 || col >= n)
        fail(name, "has an entry (" + std::to_string(row) + ", " + std::to_string(col) + ") outside its " +
                       std::to_string(m) + " x " + std::to_string(n) + " shape");
      entries.emplace_back(static_cast<Index>(row), static_cast<Index>(col), x);
    };
    if (nz == -1 || nz == -2) {  // compressed columns (CSparse) or compressed rows
      const int outer = nz == -1 ? n : m;
      const std::vector<int> p = read_ints(name + "/p", static_cast<hsize_t>(outer) + 1);
      if (p[0] != 0 || p[outer] < 0 || p[outer] > nzmax) fail(name, "has pointers p outside [0, nzmax]");
      const auto used = static_cast<hsize_t>(p[outer]);
      const std::vector<int> idx = read_ints(name + "/i", used, static_cast<hsize_t>(nzmax));
      const std::vector<double> x = read_doubles(name + "/x", used, static_cast<hsize_t>(nzmax));
      for (int k = 0; k < outer; ++k) {
        if (p[k + 1] < p[k]) fail(name, "has decreasing pointers p");
        for (int e = p[k]; e < p[k + 1]; ++e) nz == -1 ? add(idx[e], k, x[e]) : add(k, idx[e], x[e]);
      }
    } else if (nz >= 0) {  // triplets, CSparse's convention: i = rows, p = columns
      if (nz > nzmax) fail(name, "has nz > nzmax");
      const auto used = static_cast<hsize_t>(nz), most = static_cast<hsize_t>(nzmax);
      const std::vector<int> cols = read_ints(name + "/p", used, most);
      const std::vector<int> rows = read_ints(name + "/i", used, most);
      const std::vector<double> x = read_doubles(name + "/x", used, most);
      for (int e = 0; e < nz; ++e) add(rows[e], cols[e], x[e]);
    } else {
      fail(name, "has nz = " + std::to_string(nz) + " (expected -1 CSC, -2 CSR or a triplet count >= 0)");
    }
    std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
      return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
    });
    CsrMatrix A;
    A.rows = m;
    A.cols = n;
    A.row_ptr.assign(static_cast<std::size_t>(m) + 1, 0);
    for (std::size_t e = 0; e < entries.size(); ++e) {
      const auto [row, col, x] = entries[e];
      if (e > 0 && std::get<0>(entries[e - 1]) == row && std::get<1>(entries[e - 1]) == col) {
        A.values.back() += x;
        continue;
      }
      A.col_idx.push_back(col);
      A.values.push_back(x);
      ++A.row_ptr[static_cast<std::size_t>(row) + 1];
    }
    for (Index r = 0; r < m; ++r) A.row_ptr[r + 1] += A.row_ptr[r];
    return A;
  }

  FclibInfo read_info(const std::string& group) const {
    return {read_string(group + "/title"), read_string(group + "/description"), read_string(group + "/math_info")};
  }

  [[noreturn]] void fail(const std::string& name, const std::string& what) const {
    throw Error(in_file(path_) + name + " " + what);
  }

  const std::string& path() const { return path_; }

 private:
  // Checks that dataset @p name exists and holds numbers of class @p cls, between @p count and
  // @p most of them; returns how many.
  hsize_t check_dataset(const std::string& name, H5T_class_t cls, hsize_t count, hsize_t most) const {
    if (!exists(name)) fail(name, "is missing");
    int rank = 0;
    if (H5LTget_dataset_ndims(file_.get(), name.c_str(), &rank) < 0 || rank > 1) fail(name, "is not a 1-D dataset");
    hsize_t dims[1] = {1};
    H5T_class_t actual = H5T_NO_CLASS;
    std::size_t size = 0;
    if (H5LTget_dataset_info(file_.get(), name.c_str(), dims, &actual, &size) < 0) fail(name, "cannot be inspected");
    if (actual != cls)
      fail(name, cls == H5T_INTEGER ? "does not hold integers" : "does not hold floating-point numbers");
    if (dims[0] < count || dims[0] > most)
      fail(name, "holds " + std::to_string(dims[0]) + " entries, expected " + std::to_string(count) +
                     (most > count ? " to " + std::to_string(most) : std::string()));
    return dims[0];
  }

  // Opens @p path read-only after the checks that give a missing or foreign file a clear message.
  static hid_t open(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw Error(in_file(path) + "no such file");
    if (std::filesystem::is_directory(path, ec)) throw Error(in_file(path) + "is a directory, not a file");
    if (H5Fis_hdf5(path.c_str()) <= 0) throw Error(in_file(path) + "not an HDF5 file (FCLIB problems are HDF5)");
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0) throw Error(in_file(path) + "cannot be opened by HDF5");
    return file;
  }

  std::string path_;
  Handle file_;
};

// Writes datasets into one open HDF5 file; any failure throws and leaves the caller to discard it.
class Writer {
 public:
  Writer(hid_t file, std::string path) : file_(file), path_(std::move(path)) {}

  void group(const std::string& name) const {
    Handle g(H5Gcreate2(file_, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    check(g.get(), name);
  }
  void ints(const std::string& name, const std::vector<int>& v) const {
    const hsize_t dim = v.size();
    const int dummy = 0;  // HDF5 wants a buffer even for an empty dataset
    check(H5LTmake_dataset_int(file_, name.c_str(), 1, &dim, v.empty() ? &dummy : v.data()), name);
  }
  void doubles(const std::string& name, const double* data, std::size_t size) const {
    const hsize_t dim = size;
    const double dummy = 0.0;
    check(H5LTmake_dataset_double(file_, name.c_str(), 1, &dim, size == 0 ? &dummy : data), name);
  }
  void vector(const std::string& name, const Eigen::VectorXd& v) const {
    doubles(name, v.data(), static_cast<std::size_t>(v.size()));
  }
  void string(const std::string& name, const std::string& s) const {
    if (!s.empty()) check(H5LTmake_dataset_string(file_, name.c_str(), s.c_str()), name);
  }

  // @p A in compressed columns (FCLIB nz = -1), the format every FCLIB reader accepts.
  void matrix(const std::string& name, const CsrMatrix& A) const {
    const std::size_t nnz = A.col_idx.size();
    std::vector<int> p(static_cast<std::size_t>(A.cols) + 1, 0), rows(nnz);
    std::vector<double> x(nnz);
    for (Index c : A.col_idx) ++p[static_cast<std::size_t>(c) + 1];
    for (Index c = 0; c < A.cols; ++c) p[c + 1] += p[c];
    std::vector<int> next(p.begin(), p.end() - 1);
    for (Index r = 0; r < A.rows; ++r)
      for (Index k = A.row_ptr[r]; k < A.row_ptr[r + 1]; ++k) {
        const int slot = next[A.col_idx[k]]++;
        rows[slot] = r;
        x[slot] = A.values[k];
      }
    group(name);
    ints(name + "/nzmax", {static_cast<int>(nnz)});
    ints(name + "/m", {A.rows});
    ints(name + "/n", {A.cols});
    ints(name + "/nz", {-1});
    ints(name + "/p", p);
    ints(name + "/i", rows);
    doubles(name + "/x", x.data(), x.size());
  }

  void info(const std::string& group_name, const FclibInfo& info) const {
    if (info.title.empty() && info.description.empty() && info.math_info.empty()) return;
    group(group_name);
    string(group_name + "/title", info.title);
    string(group_name + "/description", info.description);
    string(group_name + "/math_info", info.math_info);
  }

  void solution(const FclibSolution& s) const {
    group("/solution");
    if (s.v.size() > 0) vector("/solution/v", s.v);
    if (s.l.size() > 0) vector("/solution/l", s.l);
    vector("/solution/u", s.u);
    vector("/solution/r", s.r);
  }

 private:
  void check(long long rc, const std::string& name) const {
    if (rc < 0) throw Error(in_file(path_) + "writing " + name + " failed (disk full or no permission?)");
  }

  hid_t file_;
  std::string path_;
};

// Writes through @p body into a temporary file next to @p path and renames it over @p path once
// complete, so that readers never see a half-written file and a failure leaves nothing behind.
template <typename Body>
void write_atomically(const std::string& path, Body body) {
  std::string temp = path + ".tmp-XXXXXX";
  const int fd = mkstemp(temp.data());
  if (fd < 0) throw Error(in_file(path) + "cannot create a temporary file next to it: " + std::strerror(errno));
  fchmod(fd, 0644);  // mkstemp creates 0600; a problem file is meant to be shared
  close(fd);
  struct Remove {
    const std::string& name;
    bool keep = false;
    ~Remove() {
      if (!keep) std::remove(name.c_str());
    }
  } guard{temp};
  {
    QuietHdf5 quiet;
    Handle file(H5Fcreate(temp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    if (file.get() < 0) throw Error(in_file(path) + "HDF5 cannot create the temporary file '" + temp + "'");
    body(Writer(file.get(), path));
    if (!file.close()) throw Error(in_file(path) + "closing (flushing) the temporary file failed");
  }
  const int sync_fd = open(temp.c_str(), O_RDONLY);  // the data reach the disk before the rename
  if (sync_fd >= 0) {
    fsync(sync_fd);
    close(sync_fd);
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0)
    throw Error(in_file(path) + "cannot rename the temporary file onto it: " + std::strerror(errno));
  guard.keep = true;
}

void check_solution(const FclibSolution& s, Eigen::Index nv, Eigen::Index m, Eigen::Index nl,
                    const std::string& where) {
  check_vector(s.v, "solution v", nv, where);
  check_vector(s.u, "solution u", m, where);
  check_vector(s.r, "solution r", m, where);
  check_vector(s.l, "solution l", nl, where);
}

}  // namespace

void write_fclib_local(const std::string& path, const FclibLocalProblem& problem, const FclibSolution* solution) {
  problem.validate(in_file(path));
  if (solution) check_solution(*solution, 0, problem.W.rows, 0, in_file(path));
  write_atomically(path, [&](const Writer& out) {
    out.group("/fclib_local");
    out.ints("/fclib_local/spacedim", {3});
    out.matrix("/fclib_local/W", problem.W);
    out.group("/fclib_local/vectors");
    out.vector("/fclib_local/vectors/q", problem.q);
    out.vector("/fclib_local/vectors/mu", problem.mu);
    out.info("/fclib_local/info", problem.info);
    if (solution) out.solution(*solution);
  });
}

void write_fclib_global(const std::string& path, const FclibGlobalProblem& problem, const FclibSolution* solution) {
  problem.validate(in_file(path));
  if (solution) check_solution(*solution, problem.M.rows, problem.H.cols, problem.G.cols, in_file(path));
  write_atomically(path, [&](const Writer& out) {
    out.group("/fclib_global");
    out.ints("/fclib_global/spacedim", {3});
    out.matrix("/fclib_global/M", problem.M);
    out.matrix("/fclib_global/H", problem.H);
    if (problem.has_equalities()) out.matrix("/fclib_global/G", problem.G);
    out.group("/fclib_global/vectors");
    out.vector("/fclib_global/vectors/f", problem.f);
    out.vector("/fclib_global/vectors/w", problem.w);
    out.vector("/fclib_global/vectors/mu", problem.mu);
    if (problem.has_equalities()) out.vector("/fclib_global/vectors/b", problem.b);
    out.info("/fclib_global/info", problem.info);
    if (solution) out.solution(*solution);
  });
}

namespace {

// Opens the group of the requested form, with a message that says what the file holds instead.
void require_form(const Reader& in, const char* form, const char* other) {
  if (in.exists(std::string("/") + form)) {
    const int spacedim = in.read_int(std::string("/") + form + "/spacedim");
    if (spacedim != 3)
      in.fail(std::string("/") + form + "/spacedim",
              "is " + std::to_string(spacedim) + "; sinew reads 3-D contact problems only (spacedim 3)");
    return;
  }
  if (in.exists(std::string("/") + other))
    throw Error(in_file(in.path()) + "holds an FCLIB /" + other + " problem, not /" + form);
  throw Error(in_file(in.path()) + "holds no /" + form + " group: not an FCLIB " +
              (std::string(form) == "fclib_local" ? "local" : "global") + " problem");
}

Index checked_contacts(const Reader& in, Index m, const char* what) {
  try {
    return contacts_of(m, what, "");
  } catch (const Error& e) {
    throw Error(in_file(in.path()) + e.what());
  }
}

}  // namespace

FclibLocalProblem read_fclib_local(const std::string& path) {
  QuietHdf5 quiet;
  const Reader in(path);
  require_form(in, "fclib_local", "fclib_global");
  if (in.exists("/fclib_local/V") || in.exists("/fclib_local/R"))
    throw Error(in_file(path) + "holds FCLIB's mixed local form (V, R, s), which sinew does not read");
  FclibLocalProblem p;
  p.W = in.read_matrix("/fclib_local/W");
  if (p.W.cols != p.W.rows) in.fail("/fclib_local/W", "is not square");
  const Index nc = checked_contacts(in, p.W.rows, "rows of W");
  p.q = in.read_vector("/fclib_local/vectors/q", static_cast<hsize_t>(p.W.rows));
  p.mu = in.read_vector("/fclib_local/vectors/mu", static_cast<hsize_t>(nc));
  p.info = in.read_info("/fclib_local/info");
  p.validate(in_file(path));
  return p;
}

FclibGlobalProblem read_fclib_global(const std::string& path) {
  QuietHdf5 quiet;
  const Reader in(path);
  require_form(in, "fclib_global", "fclib_local");
  FclibGlobalProblem p;
  p.M = in.read_matrix("/fclib_global/M");
  expand_symmetric_triangle(p.M);  // LMGC90 stores M's upper triangle; FCLIB's M is symmetric
  p.H = in.read_matrix("/fclib_global/H");
  const Index nc = checked_contacts(in, p.H.cols, "columns of H");
  p.f = in.read_vector("/fclib_global/vectors/f", static_cast<hsize_t>(p.M.rows));
  p.w = in.read_vector("/fclib_global/vectors/w", static_cast<hsize_t>(p.H.cols));
  p.mu = in.read_vector("/fclib_global/vectors/mu", static_cast<hsize_t>(nc));
  if (in.exists("/fclib_global/G")) {
    p.G = in.read_matrix("/fclib_global/G");
    p.b = in.read_vector("/fclib_global/vectors/b", static_cast<hsize_t>(p.G.cols));
  }
  p.info = in.read_info("/fclib_global/info");
  p.validate(in_file(path));
  return p;
}

std::optional<FclibSolution> read_fclib_solution(const std::string& path) {
  QuietHdf5 quiet;
  const Reader in(path);
  int nv = 0, nr = 0, nl = 0;  // sizes of v, (u, r) and l, from the problem as libfclib does
  if (in.exists("/fclib_global")) {
    nv = in.read_int("/fclib_global/M/n");
    nr = in.read_int("/fclib_global/H/n");
    if (in.exists("/fclib_global/G")) nl = in.read_int("/fclib_global/G/n");
  } else if (in.exists("/fclib_local")) {
    nr = in.read_int("/fclib_local/W/n");
    if (in.exists("/fclib_local/R")) nl = in.read_int("/fclib_local/R/n");
  } else {
    throw Error(in_file(path) + "holds neither /fclib_local nor /fclib_global: not an FCLIB problem");
  }
  if (nv < 0 || nr < 0 || nl < 0) throw Error(in_file(path) + "has negative matrix sizes");
  if (!in.exists("/solution")) return std::nullopt;
  FclibSolution s;
  if (nv > 0) s.v = in.read_vector("/solution/v", static_cast<hsize_t>(nv));
  if (nl > 0) s.l = in.read_vector("/solution/l", static_cast<hsize_t>(nl));
  s.u = in.read_vector("/solution/u", static_cast<hsize_t>(nr));
  s.r = in.read_vector("/solution/r", static_cast<hsize_t>(nr));
  return s;
}

FclibForm fclib_form(const std::string& path) {
  QuietHdf5 quiet;
  const Reader in(path);
  if (in.exists("/fclib_local")) return FclibForm::kLocal;
  if (in.exists("/fclib_global")) return FclibForm::kGlobal;
  throw Error(in_file(path) + "holds neither /fclib_local nor /fclib_global: not an FCLIB problem");
}

bool is_hdf5_file(const std::string& path) {
  QuietHdf5 quiet;
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) && H5Fis_hdf5(path.c_str()) > 0;
}

bool fclib_supported() { return true; }

#else  // built without FCLIB / HDF5

namespace {
[[noreturn]] void unsupported(const std::string& path) {
  throw Error(in_file(path) +
              "sinew was built without FCLIB (install libfclib-dev and libhdf5-dev, then reconfigure CMake)");
}
}  // namespace

void write_fclib_local(const std::string& path, const FclibLocalProblem&, const FclibSolution*) { unsupported(path); }
void write_fclib_global(const std::string& path, const FclibGlobalProblem&, const FclibSolution*) { unsupported(path); }
FclibLocalProblem read_fclib_local(const std::string& path) { unsupported(path); }
FclibGlobalProblem read_fclib_global(const std::string& path) { unsupported(path); }
std::optional<FclibSolution> read_fclib_solution(const std::string& path) { unsupported(path); }
FclibForm fclib_form(const std::string& path) { unsupported(path); }
bool is_hdf5_file(const std::string&) { return false; }
bool fclib_supported() { return false; }

#endif

}  // namespace sinew::constraints
