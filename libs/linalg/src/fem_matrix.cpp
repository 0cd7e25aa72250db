#include "sinew/linalg/fem_matrix.hpp"

#include <cmath>
#include <string>

#include "sinew/linalg/assembly.hpp"

namespace sinew {

namespace {

void check_size(const GridSize& s) {
  if (s.nx < 1 || s.ny < 1 || s.nz < 1)
    throw Error("fem grid: every dimension must be >= 1, got " + std::to_string(s.nx) + "x" + std::to_string(s.ny) +
                "x" + std::to_string(s.nz));
  if (static_cast<double>(s.nx) * s.ny * s.nz * 27.0 * 9.0 > 2147483647.0)
    throw Error("fem grid: " + std::to_string(s.nx) + "x" + std::to_string(s.ny) + "x" + std::to_string(s.nz) +
                " has too many entries for 32-bit indices");
}

// Visits the coupled neighbours (including v itself) of vertex (x, y, z) in increasing index
// order: offsets in (dz, dy, dx) lexicographic order give increasing x + nx (y + ny z).
template <class F>
void for_each_neighbour(const GridSize& s, Index x, Index y, Index z, F f) {
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const Index X = x + dx, Y = y + dy, Z = z + dz;
        if (X < 0 || Y < 0 || Z < 0 || X >= s.nx || Y >= s.ny || Z >= s.nz) continue;
        f(X + s.nx * (Y + s.ny * Z), dx, dy, dz);
      }
}

// Spring weight of a coupling: stronger along axes than along diagonals, like a stiffness.
double weight(int dx, int dy, int dz) { return 1.0 / (dx * dx + dy * dy + dz * dz); }

}  // namespace

Bsr3Matrix fem_grid_matrix(const GridSize& s) {
  check_size(s);
  Bsr3Matrix A;
  A.block_rows = A.block_cols = s.vertices();
  A.row_ptr.assign(static_cast<std::size_t>(A.block_rows) + 1, 0);
  A.col_idx.reserve(27 * static_cast<std::size_t>(A.block_rows));
  A.values.reserve(9 * 27 * static_cast<std::size_t>(A.block_rows));
  for (Index z = 0; z < s.nz; ++z)
    for (Index y = 0; y < s.ny; ++y)
      for (Index x = 0; x < s.nx; ++x) {
        const Index v = x + s.nx * (y + s.ny * z);
        std::size_t diag = 0;
        double dsum[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};  // lumped mass I
        for_each_neighbour(s, x, y, z, [&](Index j, int dx, int dy, int dz) {
          A.col_idx.push_back(j);
          const std::size_t at = A.values.size();
          A.values.resize(at + 9, 0.0);
          if (j == v) {
            diag = at;
            return;
          }
          const double w = weight(dx, dy, dz), len = std::sqrt(1.0 / w);
          const double d[3] = {dx / len, dy / len, dz / len};
          for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) {
              const double b = w * (d[r] * d[c] + (r == c ? 0.1 : 0.0));
              A.values[at + 3 * r + c] = -b;
              dsum[3 * r + c] += b;
            }
        });
        for (int k = 0; k < 9; ++k) A.values[diag + k] = dsum[k];
        A.row_ptr[static_cast<std::size_t>(v) + 1] = static_cast<Index>(A.col_idx.size());
      }
  return A;
}

CsrMatrix fem_grid_scalar_matrix(const GridSize& s) {
  check_size(s);
  CsrMatrix A;
  A.rows = A.cols = s.vertices();
  A.row_ptr.assign(static_cast<std::size_t>(A.rows) + 1, 0);
  for (Index z = 0; z < s.nz; ++z)
    for (Index y = 0; y < s.ny; ++y)
      for (Index x = 0; x < s.nx; ++x) {
        const Index v = x + s.nx * (y + s.ny * z);
        std::size_t diag = 0;
        double dsum = 1.0;
        for_each_neighbour(s, x, y, z, [&](Index j, int dx, int dy, int dz) {
          A.col_idx.push_back(j);
          if (j == v) {
            diag = A.values.size();
            A.values.push_back(0.0);
            return;
          }
          const double w = weight(dx, dy, dz);
          A.values.push_back(-w);
          dsum += w;
        });
        A.values[diag] = dsum;
        A.row_ptr[static_cast<std::size_t>(v) + 1] = static_cast<Index>(A.col_idx.size());
      }
  return A;
}

CsrMatrix cloth_stretch_matrix(const ClothGrid& c) {
  if (c.nx < 2 || c.ny < 2)
    throw Error("cloth: expected at least 2x2 vertices, got " + std::to_string(c.nx) + "x" + std::to_string(c.ny));
  if (!(c.mass > 0) || !(c.stiffness >= 0) || !(c.time_step > 0))
    throw Error("cloth: expected mass > 0, stiffness >= 0 and time_step > 0");
  const Index n = c.vertices();
  MatrixAssembler a(n, n);
  for (Index v = 0; v < n; ++v) a.add(v, v, c.mass);
  const double w = c.time_step * c.time_step * c.stiffness;
  auto edge = [&](Index i, Index j) {  // w G^T G with G = [1 -1] on (i, j)
    a.add(i, i, w);
    a.add(j, j, w);
    a.add(i, j, -w);
    a.add(j, i, -w);
  };
  for (Index y = 0; y < c.ny; ++y)
    for (Index x = 0; x < c.nx; ++x) {
      const Index v = x + c.nx * y;
      if (x + 1 < c.nx) edge(v, v + 1);
      if (y + 1 < c.ny) edge(v, v + c.nx);
      if (x + 1 < c.nx && y + 1 < c.ny) edge(v, v + c.nx + 1);
    }
  return a.build();
}

}  // namespace sinew
