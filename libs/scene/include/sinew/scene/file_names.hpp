/// @file
/// @brief The one rule for names that become part of an output path (a scene's name under
/// `results/`, a body's VTU series and OBJ files): letters, digits, '_' and '-' only, 1 to 128 of
/// them, so that no name can hold a path separator or "..", be empty, or be too long for a file
/// system.
#pragma once

#include <string_view>

namespace sinew::scene {

/// The rule of is_safe_file_name() in words, for messages.
inline constexpr const char* kSafeFileNameRule = "1 to 128 letters, digits, '_' or '-' (it names files)";

/// True when @p name follows kSafeFileNameRule.
bool is_safe_file_name(std::string_view name);

}  // namespace sinew::scene
