#include "sinew/core/number_text.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace sinew::core_number_text_test {
namespace {

TEST(NumberText, SmallNumbersAreNotPrintedAsZero) {
  // std::to_string(1e-10) is "0.000000": the message "tolerance 0.000000" this formatter replaces.
  EXPECT_EQ(number_text(1e-10), "1e-10");
  EXPECT_EQ(number_text(1e-3), "0.001");
  EXPECT_EQ(number_text(-2.5e-30), "-2.5e-30");
  EXPECT_EQ(number_text(0.0), "0");
  EXPECT_EQ(number_text(0.1), "0.1");
  EXPECT_EQ(number_text(1e300), "1e+300");
}

TEST(NumberText, ShortestTextReadsBackToTheSameDouble) {
  for (double v : {0.1 + 0.2, 1.0 / 3.0, 2.0 / 3.0 * 1e-17, 6.02214076e23, std::numeric_limits<double>::max(),
                   std::numeric_limits<double>::denorm_min(), -123456.789}) {
    const std::string t = number_text(v);
    EXPECT_EQ(std::strtod(t.c_str(), nullptr), v) << t;
  }
  EXPECT_EQ(number_text(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(number_text(1.0 / 3.0), "0.3333333333333333");
}

TEST(NumberText, RoundedToDigitsAndNonFinite) {
  EXPECT_EQ(number_text(-0.1606795, 6), "-0.16068");
  EXPECT_EQ(number_text(1.5e-12, 3), "1.5e-12");
  EXPECT_EQ(number_text(123.456, 0), "1e+02");  // digits clamped to 1
  for (int digits : {-1, 6}) {
    EXPECT_EQ(number_text(std::numeric_limits<double>::quiet_NaN(), digits), "nan");
    EXPECT_EQ(number_text(std::numeric_limits<double>::infinity(), digits), "inf");
    EXPECT_EQ(number_text(-std::numeric_limits<double>::infinity(), digits), "-inf");
  }
  EXPECT_EQ(number_text(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(number_text(-std::numeric_limits<double>::infinity()), "-inf");
}

}  // namespace
}  // namespace sinew::core_number_text_test
