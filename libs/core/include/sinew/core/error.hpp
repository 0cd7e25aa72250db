/// @file
/// @brief The single exception type of sinew and the helper that raises it.
#pragma once

#include <stdexcept>
#include <string>

namespace sinew {

/// Error raised for bad input, API misuse or an unusable backend; the message says what was
/// expected and, where it applies, which file, key, option or hardware is involved.
class Error : public std::runtime_error {
 public:
  /// Builds an error with a complete, human-readable message.
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

/// Throws sinew::Error with @p message when @p condition is false.
inline void require(bool condition, const std::string& message) {
  if (!condition) throw Error(message);
}

}  // namespace sinew
