#include "sinew/render/line_chart.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <tuple>

#include "expect_error.hpp"

namespace sinew::render::render_line_chart_test {
namespace {

const Rgb kWhite{255, 255, 255};

ChartSeries horizontal(const std::string& name, double y, int n = 11) {
  ChartSeries s{name, {}, {}, {}};
  for (int i = 0; i < n; ++i) {
    s.x.push_back(static_cast<double>(i) / (n - 1));
    s.y.push_back(y);
  }
  return s;
}

int count_color(const Image& img, Rgb c, int x0, int y0, int x1, int y1) {
  int n = 0;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) n += img.at(x, y) == c;
  return n;
}

TEST(NiceTicks, StepsAreOneTwoOrFiveTimesAPowerOfTen) {
  double step = 0.0;
  std::vector<double> t = nice_ticks(0.0, 1.0, 5, &step);
  EXPECT_DOUBLE_EQ(step, 0.2);
  ASSERT_EQ(t.size(), 6u);
  EXPECT_DOUBLE_EQ(t.back(), 1.0);
  t = nice_ticks(-0.83, 0.41, 6, &step);
  EXPECT_DOUBLE_EQ(step, 0.2);
  EXPECT_NEAR(t.front(), -0.8, 1e-15);
  EXPECT_NEAR(t.back(), 0.4, 1e-15);
  EXPECT_EQ(std::count(t.begin(), t.end(), 0.0), 1) << "an exact zero, not 1e-17";
  nice_ticks(0.0, 7300.0, 4, &step);
  EXPECT_DOUBLE_EQ(step, 2000.0);
  nice_ticks(1e-9, 4e-9, 6, &step);
  EXPECT_NEAR(step, 5e-10, 1e-24);
  EXPECT_TRUE(nice_ticks(1.0, 1.0, 5).empty());
}

TEST(FormatTick, DecimalsFollowTheStepScientificForExtremes) {
  EXPECT_EQ(format_tick(0.25, 0.25, 1.0), "0.25");
  EXPECT_EQ(format_tick(-0.5, 0.5, 2.0), "-0.5");
  EXPECT_EQ(format_tick(1500.0, 500.0, 2000.0), "1500");
  EXPECT_EQ(format_tick(1e-17, 0.1, 1.0), "0");
  EXPECT_EQ(format_tick(2.5e-7, 2.5e-7, 1e-6), "2.5e-7");
  EXPECT_EQ(format_tick(1e-6, 2.5e-7, 1e-6), "1e-6");
  EXPECT_EQ(format_tick(1.5e6, 5e5, 2e6), "1.5e6");
}

TEST(LineChart, HorizontalLineLandsOnTheMappedRow) {
  ChartSpec spec;
  spec.series = {horizontal("half", 0.5)};
  spec.y_min = 0.0;
  spec.y_max = 1.0;
  const LineChart c = render_chart(spec);
  const Rgb blue = chart_color(0);
  // The axis maps 0 to the bottom of the frame and 1 to its top.
  EXPECT_DOUBLE_EQ(c.y.to_pixel(0.0), c.plot_bottom);
  EXPECT_DOUBLE_EQ(c.y.to_pixel(1.0), c.plot_top);
  const int row = static_cast<int>(std::floor(c.y.to_pixel(0.5)));
  EXPECT_NEAR(row, 0.5 * (c.plot_top + c.plot_bottom), 1.0);
  const int x0 = c.plot_left + 5, x1 = c.plot_right - 5;
  EXPECT_EQ(count_color(c.image, blue, x0, row, x1, row + 1), x1 - x0) << "the whole row is the series colour";
  EXPECT_EQ(count_color(c.image, blue, x0, row - 6, x1, row - 5), 0);
  EXPECT_EQ(count_color(c.image, blue, x0, row + 5, x1, row + 6), 0);
  EXPECT_EQ(c.skipped_nonfinite, 0);
}

TEST(LineChart, AutomaticRangeIsWidenedToWholeTicks) {
  ChartSpec spec;
  ChartSeries s{"ramp", {0.0, 3.7}, {-0.83, 0.41}, {}};
  spec.series = {s};
  const LineChart c = render_chart(spec);
  EXPECT_NEAR(c.y.lo, -1.0, 1e-12);
  EXPECT_NEAR(c.y.hi, 0.6, 1e-12) << "widened to the nice step 0.2";
  EXPECT_LE(c.x.lo, 0.0);
  EXPECT_GE(c.x.hi, 3.7);
  // Both end points of the segment are drawn where the mapping puts them.
  const Rgb blue = chart_color(0);
  const int xa = static_cast<int>(c.x.to_pixel(0.0)) + 2, ya = static_cast<int>(c.y.to_pixel(-0.83 + 0.01));
  EXPECT_GT(count_color(c.image, blue, xa - 3, ya - 3, xa + 4, ya + 4), 0);
}

TEST(LineChart, LogAxisPutsDecadesOnTheirTickRows) {
  ChartSpec spec;
  spec.log_y = true;
  ChartSeries decay{"residual", {}, {}, {}};
  for (int k = 0; k <= 5; ++k) {
    decay.x.push_back(k);
    decay.y.push_back(std::pow(10.0, -k));
  }
  spec.series = {decay, horizontal("flat", 1e-3)};
  spec.series[1].x = {0.0, 5.0};
  spec.series[1].y = {1e-3, 1e-3};
  const LineChart c = render_chart(spec);
  EXPECT_NEAR(c.y.lo, 1e-5, 1e-20);
  EXPECT_NEAR(c.y.hi, 1.0, 1e-15);
  // Decades are evenly spaced.
  const double step = c.y.to_pixel(1e-4) - c.y.to_pixel(1e-3);
  EXPECT_NEAR(c.y.to_pixel(1e-2) - c.y.to_pixel(1e-1), step, 1e-9);
  const int row = static_cast<int>(std::floor(c.y.to_pixel(1e-3)));
  // The 10^-3 tick mark (left of the frame) and the 1e-3 series share that row.
  EXPECT_NE(c.image.at(c.plot_left - 4, row), kWhite);
  EXPECT_EQ(c.image.at(c.plot_left - 4, row + 3), kWhite);
  const Rgb orange = chart_color(1);
  const int x0 = c.plot_left + 5, x1 = c.plot_right - 5;
  EXPECT_GT(count_color(c.image, orange, x0, row, x1, row + 1), (x1 - x0) * 3 / 4);
  // The decaying series passes 1e-3 at x = 3.
  const int col = static_cast<int>(c.x.to_pixel(3.0));
  EXPECT_GT(count_color(c.image, chart_color(0), col - 2, row - 2, col + 3, row + 3), 0);
}

TEST(LineChart, NonPositiveOnLogAxisAndNonFiniteAreSkippedAndCounted) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  ChartSpec spec;
  spec.log_y = true;
  spec.series = {ChartSeries{"r", {0, 1, 2, 3, 4, 5}, {1.0, 0.0, -2.0, 0.1, nan, inf}, {}}};
  const LineChart c = render_chart(spec);
  EXPECT_EQ(c.skipped_nonpositive, 2);
  EXPECT_EQ(c.skipped_nonfinite, 2);
  spec.log_y = false;
  EXPECT_EQ(render_chart(spec).skipped_nonpositive, 0);
}

TEST(LineChart, NaNBreaksTheLine) {
  ChartSpec spec;
  ChartSeries s = horizontal("gappy", 0.5, 21);
  s.y[10] = std::numeric_limits<double>::quiet_NaN();  // x = 0.5: no point, so no segment 0.45 .. 0.55
  spec.series = {s};
  spec.y_min = 0.0;
  spec.y_max = 1.0;
  spec.legend = false;
  const LineChart c = render_chart(spec);
  const int row = static_cast<int>(std::floor(c.y.to_pixel(0.5)));
  const Rgb blue = chart_color(0);
  EXPECT_EQ(c.image.at(static_cast<int>(c.x.to_pixel(0.25)), row), blue);
  EXPECT_EQ(c.image.at(static_cast<int>(c.x.to_pixel(0.75)), row), blue);
  EXPECT_NE(c.image.at(static_cast<int>(c.x.to_pixel(0.5)), row), blue);
}

TEST(LineChart, SeriesGetDistinctColoursAndALegend) {
  std::set<std::tuple<int, int, int>> colours;
  for (int i = 0; i < 10; ++i) colours.insert({chart_color(i).r, chart_color(i).g, chart_color(i).b});
  EXPECT_EQ(colours.size(), 10u);
  ChartSpec spec;
  spec.series = {horizontal("a", 0.1), horizontal("b", 0.9)};
  spec.series[1].color = Rgb{1, 2, 3};
  const LineChart with = render_chart(spec);
  EXPECT_GT(count_color(with.image, Rgb{1, 2, 3}, 0, 0, spec.width, spec.height), 0);
  spec.legend = false;
  EXPECT_NE(render_chart(spec).image, with.image) << "the legend is drawn";
}

TEST(LineChart, TextStaysInsideTheImage) {
  ChartSpec spec;
  spec.title = "A rather long title for a convergence chart of many solvers";
  spec.x_label = "Newton iteration";
  spec.y_label = "residual norm [N]";
  spec.log_y = true;
  spec.series = {ChartSeries{"solver with a long name", {0, 1e5}, {1e-12, 1e3}, {}}};
  const LineChart c = render_chart(spec);
  const Image& img = c.image;
  // A white border: nothing (text included) touches the image's edge.
  for (int x = 0; x < img.width(); ++x)
    for (int y : {0, 1, img.height() - 2, img.height() - 1}) ASSERT_EQ(img.at(x, y), kWhite) << x << ", " << y;
  for (int y = 0; y < img.height(); ++y)
    for (int x : {0, 1, img.width() - 2, img.width() - 1}) ASSERT_EQ(img.at(x, y), kWhite) << x << ", " << y;
  // Title, x label and y label have ink where they belong.
  EXPECT_GT(count_color(img, Rgb{40, 40, 40}, 0, 0, img.width(), c.plot_top - 1), 50);
  EXPECT_GT(count_color(img, Rgb{40, 40, 40}, 0, c.plot_bottom + 2, img.width(), img.height()), 50);
  EXPECT_GT(count_color(img, Rgb{40, 40, 40}, 0, c.plot_top, 30, c.plot_bottom), 50);
}

TEST(LineChart, TickLabelsDoNotRunIntoEachOther) {
  // x in [0, 0.026] once gave 14 labels "0.002" .. "0.026" run together into one line of digits.
  ChartSpec spec;
  spec.series = {ChartSeries{"tip", {0.0, 0.005, 0.01, 0.015, 0.02, 0.026}, {0, -1, -2, -3, -4, -5}, {}}};
  const LineChart c = render_chart(spec);
  // Label band under the x axis: runs of columns with ink are single labels, at most 7 characters.
  const int y0 = c.plot_bottom + 8, y1 = c.plot_bottom + 8 + 9 * spec.text_scale;
  // Ink columns closer than one character width (12 px) belong to one label: labels must be at
  // least that far apart to read as separate numbers.
  int labels = 0, longest = 0, start = -1, last_ink = -100;
  for (int x = 0; x < c.image.width(); ++x) {
    bool ink = false;
    for (int y = y0; y < y1; ++y) ink = ink || c.image.at(x, y) != kWhite;
    if (!ink) continue;
    if (x - last_ink > 6 * spec.text_scale) {
      ++labels;
      start = x;
    }
    last_ink = x;
    longest = std::max(longest, x - start + 1);
  }
  EXPECT_LT(longest, 7 * 6 * spec.text_scale);
  EXPECT_GE(labels, 3);
}

TEST(LineChart, SameInputSamePixels) {
  ChartSpec spec;
  spec.title = "determinism";
  for (int k = 0; k < 3; ++k) {
    ChartSeries s{"s" + std::to_string(k), {}, {}, {}};
    for (int i = 0; i < 500; ++i) {
      s.x.push_back(0.01 * i);
      s.y.push_back(std::sin(0.05 * i * (k + 1)));
    }
    spec.series.push_back(s);
  }
  EXPECT_EQ(render_chart(spec).image, render_chart(spec).image);
}

TEST(LineChart, EmptyAndConstantDataStillDraw) {
  ChartSpec spec;
  LineChart c = render_chart(spec);
  EXPECT_EQ(c.image.width(), spec.width);
  EXPECT_DOUBLE_EQ(c.y.lo, 0.0);
  EXPECT_DOUBLE_EQ(c.y.hi, 1.0);
  spec.series = {ChartSeries{"one point", {2.0}, {3.0}, {}}};
  c = render_chart(spec);
  EXPECT_LT(c.y.lo, 3.0);
  EXPECT_GT(c.y.hi, 3.0);
  const int x = static_cast<int>(c.x.to_pixel(2.0)), y = static_cast<int>(c.y.to_pixel(3.0));
  EXPECT_EQ(c.image.at(x, y), chart_color(0)) << "an isolated point is drawn as a dot";
}

TEST(LineChart, ASmallDriftFarFromZeroKeepsItsOwnScale) {
  ChartSpec spec;
  ChartSeries drift{"total energy", {}, {}, {}};
  for (int i = 0; i < 100; ++i) {
    drift.x.push_back(i);
    drift.y.push_back(-0.5 + 3e-9 * std::sin(0.1 * i));
  }
  spec.series = {drift};
  const LineChart c = render_chart(spec);
  EXPECT_LE(c.y.lo, -0.5 - 2.9e-9);
  EXPECT_GE(c.y.hi, -0.5 + 2.9e-9);
  EXPECT_LT(c.y.hi - c.y.lo, 2e-8) << "the drift fills the plot, not a range around -0.5 of 0.1";
  // A constant (up to round-off) gets a range of its own size instead.
  spec.series[0].y.assign(100, -0.5);
  spec.series[0].y[3] = std::nextafter(-0.5, 0.0);
  const LineChart flat = render_chart(spec);
  EXPECT_LT(flat.y.lo, -0.54);  // +-10% of the value, widened to whole ticks
  EXPECT_GT(flat.y.hi, -0.46);
  EXPECT_LT(flat.y.hi - flat.y.lo, 0.2);
}

TEST(LineChart, BadSpecsAreRefused) {
  ChartSpec spec;
  spec.series = {ChartSeries{"bad", {0, 1, 2}, {0, 1}, {}}};
  EXPECT_SINEW_ERROR(render_chart(spec), "'bad'", "3 x values", "2 y values");
  spec.series = {horizontal("ok", 1.0)};
  spec.y_min = 2.0;
  spec.y_max = 1.0;
  EXPECT_SINEW_ERROR(render_chart(spec), "y axis", "increasing");
  spec.y_min.reset();
  spec.y_max.reset();
  spec.log_x = true;
  spec.x_min = 0.0;
  EXPECT_SINEW_ERROR(render_chart(spec), "x_min", "positive");
  spec = ChartSpec{};
  spec.width = 100;
  EXPECT_SINEW_ERROR(render_chart(spec), "size");
  spec = ChartSpec{};
  spec.line_width = 0;
  EXPECT_SINEW_ERROR(render_chart(spec), "line_width");
}

}  // namespace
}  // namespace sinew::render::render_line_chart_test
