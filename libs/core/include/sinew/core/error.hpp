/// @file
/// @brief The single exception type of sinew and the helper that raises it.
#pragma once

#include <stdexcept>
#include <string>
#include <type_traits>

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

/// Throws sinew::Error with the fixed @p message when @p condition is false; a literal binds here
/// rather than to the std::string overload, so a check that holds builds no string.
inline void require(bool condition, const char* message) {
  if (!condition) throw Error(message);
}

/// Throws sinew::Error with make_message() when @p condition is false: the message is built only
/// on failure, for checks that run on every step (`require(ok, [&] { return "..." + x; })`).
template <class MakeMessage, class = std::enable_if_t<std::is_invocable_r_v<std::string, MakeMessage&>>>
void require(bool condition, MakeMessage&& make_message) {
  if (!condition) throw Error(make_message());
}

/// Whether an entry point checks its input: kFull (the default) for data from outside, kTrusted
/// for data a sinew step assembled and checked itself, so that a problem is validated once, not
/// again by every stage it passes through (the O(nnz) checks were a fifth of a small step).
enum class InputCheck { kFull, kTrusted };

}  // namespace sinew
