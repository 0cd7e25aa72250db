// `sinew plot CSV`: a PNG line chart of columns of a CSV file with a header row (the results of
// `sinew demo` and `sinew compare`, convergence logs), so that results can be looked at on a
// machine without a display. Reading is strict: a missing column or a cell that is not a number
// is an error naming the file, the line and the column, never a silently wrong picture.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include "commands.hpp"
#include "options.hpp"
#include "sinew/render/image.hpp"
#include "sinew/render/line_chart.hpp"

namespace sinew::app {
namespace {

// One CSV table: header names and rows of raw cells, with the file line of each row.
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<int> lines;  // (rows) 1-based line number in the file
};

std::string trim(const std::string& s) {
  const std::size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

// Splits one CSV line; fields may be double-quoted ("a,b", "say ""hi""").
std::vector<std::string> split_csv(const std::string& line, const std::string& where) {
  std::vector<std::string> cells;
  std::string cell;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cell += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cell += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.push_back(trim(cell));
      cell.clear();
    } else {
      cell += c;
    }
  }
  if (quoted) throw Error("plot: " + where + ": unterminated quoted field");
  cells.push_back(trim(cell));
  return cells;
}

Table read_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("plot: cannot open '" + path + "': " + std::strerror(errno));
  Table t;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (trim(line).empty()) continue;  // blank lines (a trailing one, most often) carry nothing
    const std::string where = path + " line " + std::to_string(number);
    std::vector<std::string> cells = split_csv(line, where);
    if (t.header.empty()) {
      for (std::size_t c = 0; c < cells.size(); ++c)
        if (cells[c].empty())
          throw Error("plot: " + where + ": header column " + std::to_string(c + 1) + " has no name");
      t.header = std::move(cells);
      continue;
    }
    if (cells.size() != t.header.size())
      throw Error("plot: " + where + ": " + std::to_string(cells.size()) + " cells, but the header has " +
                  std::to_string(t.header.size()) + " columns");
    t.rows.push_back(std::move(cells));
    t.lines.push_back(number);
  }
  if (in.bad()) throw Error("plot: error reading '" + path + "'");
  if (t.header.empty()) throw Error("plot: " + path + " is empty: expected a header row and data rows");
  if (t.rows.empty()) throw Error("plot: " + path + " has a header but no data rows");
  return t;
}

// The cell as a number ("nan", "inf" accepted: plotted as gaps); false when it is not one.
bool parse_number(const std::string& cell, double& v) {
  if (cell.empty()) return false;
  char* end = nullptr;
  v = std::strtod(cell.c_str(), &end);
  return end == cell.c_str() + cell.size();
}

std::size_t column_index(const Table& t, const std::string& name, const std::string& path) {
  for (std::size_t c = 0; c < t.header.size(); ++c)
    if (t.header[c] == name) return c;
  std::string known;
  for (const std::string& h : t.header) known += (known.empty() ? "" : ", ") + h;
  throw Error("plot: " + path + " line 1: no column '" + name + "' (columns: " + known + ")");
}

std::vector<double> column_values(const Table& t, std::size_t c, const std::string& path) {
  std::vector<double> values(t.rows.size());
  for (std::size_t r = 0; r < t.rows.size(); ++r)
    if (!parse_number(t.rows[r][c], values[r]))
      throw Error("plot: " + path + " line " + std::to_string(t.lines[r]) + ", column '" + t.header[c] + "' (" +
                  std::to_string(c + 1) + "): '" + t.rows[r][c] + "' is not a number");
  return values;
}

std::vector<std::string> split_names(const std::string& list) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = list.find(',', start);
    const std::string name = trim(list.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (name.empty()) throw Error("plot: --y expects comma-separated column names, got '" + list + "'");
    names.push_back(name);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return names;
}

}  // namespace

int plot_command(const std::vector<std::string>& args) {
  if (args.empty() || args.front().rfind("--", 0) == 0)
    throw Error(
        "plot: expected a CSV file: sinew plot CSV [--x COLUMN] [--y COL1,COL2,...] [--logy] [--logx] "
        "[--title T] [--out FILE.png]");
  const std::string path = args.front();
  const Options o("plot", std::vector<std::string>(args.begin() + 1, args.end()),
                  {"x", "y", "title", "out", "width", "height"}, {"logx", "logy"});
  const bool log_x = o.has("logx"), log_y = o.has("logy");
  const std::filesystem::path out = o.str("out", std::filesystem::path(path).replace_extension(".png").string());
  if (!render::png_supported())
    throw Error("plot: cannot write '" + out.string() +
                "': sinew was built without libpng (install libpng-dev and reconfigure)");

  const Table table = read_csv(path);
  const std::size_t xc = o.has("x") ? column_index(table, o.str("x", ""), path) : 0;
  std::vector<std::size_t> ycs;
  if (o.has("y")) {
    for (const std::string& name : split_names(o.str("y", ""))) ycs.push_back(column_index(table, name, path));
  } else {  // every other column whose first cell is a number ("status" and the like are left out)
    double ignored = 0.0;
    for (std::size_t c = 0; c < table.header.size(); ++c)
      if (c != xc && parse_number(table.rows.front()[c], ignored)) ycs.push_back(c);
    if (ycs.empty())
      throw Error("plot: " + path + " line " + std::to_string(table.lines.front()) +
                  ": no numeric column to plot besides '" + table.header[xc] + "'");
  }

  render::ChartSpec spec;
  spec.width = o.integer("width", spec.width, 240, 8192);
  spec.height = o.integer("height", spec.height, 180, 8192);
  spec.log_x = log_x;
  spec.log_y = log_y;
  spec.title = o.str("title", std::filesystem::path(path).filename().string());
  spec.x_label = table.header[xc];
  if (ycs.size() == 1) spec.y_label = table.header[ycs.front()];
  const std::vector<double> x = column_values(table, xc, path);
  for (std::size_t c : ycs) spec.series.push_back({table.header[c], x, column_values(table, c, path), {}});
  const render::LineChart chart = render::render_chart(spec);
  if (out.has_parent_path()) {  // as `sinew demo --out DIR` does, the folder is made on demand
    std::error_code ec;
    std::filesystem::create_directories(out.parent_path(), ec);
    if (ec) throw Error("plot: cannot create the folder of '" + out.string() + "': " + ec.message());
  }
  render::write_png(chart.image, out.string());

  std::printf("wrote %s (%zu series, %zu rows)\n", out.string().c_str(), ycs.size(), table.rows.size());
  if (chart.skipped_nonpositive > 0)
    std::printf("note: %ld point(s) <= 0 left out of the logarithmic axis\n", chart.skipped_nonpositive);
  if (chart.skipped_nonfinite > 0)
    std::printf("note: %ld NaN or infinite point(s) left out (gaps)\n", chart.skipped_nonfinite);
  return 0;
}

}  // namespace sinew::app
