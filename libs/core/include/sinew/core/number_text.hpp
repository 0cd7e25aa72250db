/// @file
/// @brief Numbers as sinew writes them in messages and text files: one formatter for every
/// library, so that a tolerance of 1e-10 reads "1e-10", never "0.000000" (std::to_string).
#pragma once

#include <string>

namespace sinew {

/// @p v as the shortest decimal text that reads back to the same double ("0.1", "1e-10",
/// "2.5e+30", "-0"); "nan", "inf" or "-inf" when not finite. For values a user gave (parameters,
/// tolerances, limits) and for files that must read back exactly.
std::string number_text(double v);

/// @p v rounded to @p digits significant digits (printf's "%.*g", e.g. 6: "0.160679"), "nan",
/// "inf" or "-inf": for measured values in messages (errors, residuals), where the last bits are
/// noise. @p digits is clamped to [1, 17].
std::string number_text(double v, int digits);

}  // namespace sinew
