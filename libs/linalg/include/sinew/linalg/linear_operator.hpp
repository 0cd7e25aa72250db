/// @file
/// @brief LinearOperator: y = A x on backend arrays, what Krylov solvers need of a matrix.
#pragma once

#include "sinew/core/backend.hpp"

namespace sinew {

/// A square linear operator applied on a backend: y = A x. Matrix-free operators (Schur
/// complements, S^T S products) derive from it as well as stored matrices.
class LinearOperator {
 public:
  virtual ~LinearOperator() = default;
  /// Dimension n of A (x and y have n entries).
  virtual Index rows() const = 0;
  /// y = A x; x and y are distinct arrays of rows() entries on the operator's backend.
  virtual void apply(const DeviceArray<double>& x, DeviceArray<double>& y) = 0;
};

/// A stored square CSR matrix as a LinearOperator (one SpMV per apply).
class CsrOperator final : public LinearOperator {
 public:
  /// Wraps @p A (square, kept by reference: it must outlive the operator) on @p backend, where A
  /// must live. Throws sinew::Error when A is not square.
  CsrOperator(Backend& backend, const DeviceCsr& A) : backend_(&backend), A_(&A) {
    if (A.rows != A.cols)
      throw Error("CsrOperator: expected a square matrix, got " + std::to_string(A.rows) + "x" +
                  std::to_string(A.cols));
  }
  Index rows() const override { return A_->rows; }
  void apply(const DeviceArray<double>& x, DeviceArray<double>& y) override {
    backend_->spmv(1.0, *A_, Op::kNoTranspose, x, 0.0, y);
  }

 private:
  Backend* backend_;
  const DeviceCsr* A_;
};

}  // namespace sinew
