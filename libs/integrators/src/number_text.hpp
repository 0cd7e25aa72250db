// A number as the integrators' error messages show it: 6 significant digits. Private to the library.
#pragma once

#include <cstdio>
#include <string>

namespace sinew::integrators::detail {

/// @p v printed with "%.6g".
inline std::string num(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", v);
  return buffer;
}

}  // namespace sinew::integrators::detail
