// Private to linalg: how error messages print a dense matrix's size.
#pragma once

#include <Eigen/Core>
#include <string>

namespace sinew::detail {

/// "rows x cols" of a dense matrix, e.g. "3x4".
inline std::string dims(const Eigen::MatrixXd& A) { return std::to_string(A.rows()) + "x" + std::to_string(A.cols()); }

}  // namespace sinew::detail
