#include "sinew/core/number_text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace sinew {
namespace {

const char* non_finite_text(double v) { return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf"; }

}  // namespace

std::string number_text(double v) {
  if (!std::isfinite(v)) return non_finite_text(v);
  char buffer[40];
  const std::to_chars_result r = std::to_chars(buffer, buffer + sizeof buffer, v);
  return std::string(buffer, r.ptr);
}

std::string number_text(double v, int digits) {
  if (!std::isfinite(v)) return non_finite_text(v);
  // to_chars with a precision is printf's "%.*g" without its format parser and locale.
  char buffer[40];
  const std::to_chars_result r =
      std::to_chars(buffer, buffer + sizeof buffer, v, std::chars_format::general, std::clamp(digits, 1, 17));
  return std::string(buffer, r.ptr);
}

}  // namespace sinew
