// Whole-file input and a line-aware tokenizer for the mesh readers: every error carries
// "file:line". Private to the scene library.
#pragma once

#include <charconv>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "sinew/core/error.hpp"

namespace sinew::scene::detail {

// Splits text into lines of whitespace-separated tokens, skipping blank lines and, when
// comment != 0, everything from that character to the end of the line.
class Tokens {
 public:
  Tokens(std::string_view text, std::string file, char comment)
      : text_(text), file_(std::move(file)), comment_(comment) {}

  // Advances to the next line with tokens; false at the end of the text.
  bool next_line() {
    while (pos_ < text_.size()) {
      const std::size_t end = std::min(text_.find('\n', pos_), text_.size());
      std::string_view line = text_.substr(pos_, end - pos_);
      pos_ = end + 1;
      ++line_;
      if (comment_ != 0) line = line.substr(0, std::min(line.find(comment_), line.size()));
      tokens_.clear();
      std::size_t i = 0;
      while (i < line.size()) {
        while (i < line.size() && is_space(line[i])) ++i;
        const std::size_t start = i;
        while (i < line.size() && !is_space(line[i])) ++i;
        if (i > start) tokens_.push_back(line.substr(start, i - start));
      }
      if (!tokens_.empty()) return true;
    }
    tokens_.clear();
    return false;
  }
  // next_line(), failing with "unexpected end of file, expected <what>" at the end.
  void require_line(const std::string& what) {
    if (!next_line()) fail("unexpected end of file, expected " + what);
  }

  std::size_t line() const { return line_; }
  std::size_t size() const { return tokens_.size(); }
  std::string_view token(std::size_t i) const { return tokens_[i]; }
  // Bytes not yet read: an upper bound on what the rest of the file can hold.
  std::size_t remaining_bytes() const { return pos_ < text_.size() ? text_.size() - pos_ : 0; }
  // Byte offset of the next line (for binary sections that follow an ASCII line).
  std::size_t offset() const { return std::min(pos_, text_.size()); }
  // Skips @p n bytes (binary data) without tokenizing them.
  void skip_bytes(std::size_t n) { pos_ += n; }
  const std::string& file() const { return file_; }

  // Checks that the line has at least @p n tokens.
  void require_tokens(std::size_t n, const std::string& what) const {
    if (size() < n) fail("expected " + what + " (" + std::to_string(n) + " values), found " + std::to_string(size()));
  }
  // Token @p i as an integer.
  long long integer(std::size_t i, const std::string& what) const {
    require_tokens(i + 1, what);
    long long v = 0;
    const std::string_view t = tokens_[i];
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || end != t.data() + t.size())
      fail("expected an integer " + what + ", found '" + std::string(t) + "'");
    return v;
  }
  // Token @p i as a finite real.
  double real(std::size_t i, const std::string& what) const {
    require_tokens(i + 1, what);
    const std::string_view t = tokens_[i];
    double v = 0.0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || end != t.data() + t.size())
      fail("expected a number " + what + ", found '" + std::string(t) + "'");
    if (!std::isfinite(v)) fail(what + " is not finite ('" + std::string(t) + "')");
    return v;
  }
  // A count read from token @p i that each of its items needs at least @p bytes_each bytes of the
  // rest of the file for: a count the file cannot hold is an error before anything is allocated.
  std::size_t count(std::size_t i, const std::string& what, std::size_t bytes_each) const {
    const long long n = integer(i, what);
    if (n < 0) fail(what + " must be >= 0, found " + std::to_string(n));
    if (static_cast<unsigned long long>(n) > remaining_bytes() / std::max<std::size_t>(bytes_each, 1))
      fail(what + " = " + std::to_string(n) + " is more than the rest of the file can hold (" +
           std::to_string(remaining_bytes()) + " bytes): truncated or corrupt");
    return static_cast<std::size_t>(n);
  }
  [[noreturn]] void fail(const std::string& message) const {
    throw Error(file_ + ":" + std::to_string(line_) + ": " + message);
  }

 private:
  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

  std::string_view text_;
  std::string file_;
  char comment_;
  std::size_t pos_ = 0, line_ = 0;
  std::vector<std::string_view> tokens_;
};

}  // namespace sinew::scene::detail
