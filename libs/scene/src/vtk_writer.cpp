#include "sinew/scene/vtk_writer.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <utility>

#include "sinew/core/atomic_file.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew::scene {
namespace {

constexpr int kVtkTetra = 10, kVtkTriangle = 5;

// @p text with XML's special characters escaped, for attribute values.
std::string xml_escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

void check_field(const VtuField& f, std::size_t count, const char* where, const std::string& file) {
  bool name_ok = !f.name.empty();
  for (char c : f.name)
    name_ok =
        name_ok && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-');
  if (!name_ok)
    throw Error(file + ": field name '" + f.name +
                "' must be non-empty letters, digits, '_' or '-' (it goes into XML)");
  if (f.components != 1 && f.components != 3 && f.components != 9)
    throw Error(file + ": field '" + f.name + "' has " + std::to_string(f.components) +
                " components; expected 1, 3 or 9");
  if (f.values.size() != count * static_cast<std::size_t>(f.components))
    throw Error(file + ": " + where + " field '" + f.name + "' has " + std::to_string(f.values.size()) +
                " values; expected " + std::to_string(count * static_cast<std::size_t>(f.components)) + " (" +
                std::to_string(count) + " x " + std::to_string(f.components) + ")");
  for (std::size_t i = 0; i < f.values.size(); ++i)
    if (!std::isfinite(f.values[i]))
      throw Error(file + ": field '" + f.name + "' value " + std::to_string(i) + " is not finite");
}

void write_values(std::ostringstream& s, const std::vector<double>& v) {
  for (std::size_t i = 0; i < v.size(); ++i) s << (i % 9 == 0 ? "\n          " : " ") << v[i];
  s << '\n';
}

void write_fields(std::ostringstream& s, const char* tag, const std::vector<VtuField>& fields) {
  s << "      <" << tag << ">\n";
  for (const VtuField& f : fields) {
    s << "        <DataArray type=\"Float64\" Name=\"" << f.name << "\" NumberOfComponents=\"" << f.components
      << "\" format=\"ascii\">";
    write_values(s, f.values);
    s << "        </DataArray>\n";
  }
  s << "      </" << tag << ">\n";
}

}  // namespace

void write_vtu(const VtuFrame& frame, const std::filesystem::path& path) {
  const std::string file = path.string();
  if (frame.points.size() % 3 != 0)
    throw Error(file + ": points has " + std::to_string(frame.points.size()) + " values; expected 3 per point");
  const std::size_t n = frame.points.size() / 3, cells = frame.tets.size() + frame.triangles.size();
  for (std::size_t i = 0; i < frame.points.size(); ++i)
    if (!std::isfinite(frame.points[i]))
      throw Error(file + ": point " + std::to_string(i / 3) + " has a non-finite coordinate");
  auto check_cell = [&](const Index* v, int k, std::size_t c) {
    for (int a = 0; a < k; ++a)
      if (v[a] < 0 || static_cast<std::size_t>(v[a]) >= n)
        throw Error(file + ": cell " + std::to_string(c) + " uses point " + std::to_string(v[a]) +
                    ", out of range [0, " + std::to_string(n) + ")");
  };
  for (std::size_t c = 0; c < frame.tets.size(); ++c) check_cell(frame.tets[c].data(), 4, c);
  for (std::size_t c = 0; c < frame.triangles.size(); ++c)
    check_cell(frame.triangles[c].data(), 3, frame.tets.size() + c);
  for (const VtuField& f : frame.point_fields) check_field(f, n, "point", file);
  for (const VtuField& f : frame.cell_fields) check_field(f, cells, "cell", file);

  std::ostringstream s;
  s.precision(17);
  s << "<?xml version=\"1.0\"?>\n"
    << "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
    << "  <UnstructuredGrid>\n"
    << "    <Piece NumberOfPoints=\"" << n << "\" NumberOfCells=\"" << cells << "\">\n";
  write_fields(s, "PointData", frame.point_fields);
  write_fields(s, "CellData", frame.cell_fields);
  s << "      <Points>\n        <DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">";
  write_values(s, frame.points);
  s << "        </DataArray>\n      </Points>\n      <Cells>\n"
    << "        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n         ";
  for (const auto& t : frame.tets) s << ' ' << t[0] << ' ' << t[1] << ' ' << t[2] << ' ' << t[3];
  for (const auto& t : frame.triangles) s << ' ' << t[0] << ' ' << t[1] << ' ' << t[2];
  s << "\n        </DataArray>\n        <DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n         ";
  std::size_t offset = 0;
  for (std::size_t c = 0; c < frame.tets.size(); ++c) s << ' ' << (offset += 4);
  for (std::size_t c = 0; c < frame.triangles.size(); ++c) s << ' ' << (offset += 3);
  s << "\n        </DataArray>\n        <DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n         ";
  for (std::size_t c = 0; c < frame.tets.size(); ++c) s << ' ' << kVtkTetra;
  for (std::size_t c = 0; c < frame.triangles.size(); ++c) s << ' ' << kVtkTriangle;
  s << "\n        </DataArray>\n      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n</VTKFile>\n";
  write_file_atomically(path, s.str());
}

PvdSeries::PvdSeries(std::filesystem::path path, std::vector<PvdEntry> earlier)
    : path_(std::move(path)), entries_(std::move(earlier)) {}

std::string PvdSeries::frame_file(long step) const {
  char index[32];
  std::snprintf(index, sizeof index, "_%06ld.vtu", step);
  return path_.stem().string() + index;
}

void PvdSeries::add(double time, long step, const VtuFrame& frame) {
  if (!std::isfinite(time)) throw Error(path_.string() + ": frame time is not finite");
  const std::string name = frame_file(step);
  // The same step again (a run resumed where the series ends) replaces its frame.
  const bool replaces = !entries_.empty() && entries_.back().file == name;
  const std::size_t kept = entries_.size() - (replaces ? 1 : 0);
  if (kept > 0 && !(time > entries_[kept - 1].time))
    throw Error(path_.string() + ": frame time " + number_text(time) + " is not after the previous frame's " +
                number_text(entries_[kept - 1].time));
  write_vtu(frame, path_.parent_path() / name);
  entries_.resize(kept);
  entries_.push_back({time, name});
  std::ostringstream s;
  s.precision(17);
  s << "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"1.0\" byte_order=\"LittleEndian\">\n"
    << "  <Collection>\n";
  for (const PvdEntry& e : entries_)
    s << "    <DataSet timestep=\"" << e.time << "\" part=\"0\" file=\"" << xml_escaped(e.file) << "\"/>\n";
  s << "  </Collection>\n</VTKFile>\n";
  write_file_atomically(path_, s.str());
}

std::vector<PvdEntry> read_pvd(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw Error(path.string() + ": cannot read the .pvd series");
  std::vector<PvdEntry> out;
  std::string line;
  // The value of attribute @p name in @p line, or nullopt.
  auto attribute = [&](const std::string& name) -> std::optional<std::string> {
    const std::size_t at = line.find(" " + name + "=\"");
    if (at == std::string::npos) return std::nullopt;
    const std::size_t from = at + name.size() + 3, to = line.find('"', from);
    if (to == std::string::npos) return std::nullopt;
    return line.substr(from, to - from);
  };
  for (long number = 1; std::getline(in, line); ++number) {
    if (line.find("<DataSet") == std::string::npos) continue;
    const std::optional<std::string> time = attribute("timestep"), file = attribute("file");
    char* end = nullptr;
    const double t = time ? std::strtod(time->c_str(), &end) : 0.0;
    if (!time || !file || end != time->c_str() + time->size() || !std::isfinite(t) || file->empty() ||
        file->find_first_of("&<>/\\") != std::string::npos)
      throw Error(path.string() + ":" + std::to_string(number) + ": expected <DataSet timestep=\"T\" file=\"F\"/> as " +
                  "sinew writes it");
    out.push_back({t, *file});
  }
  return out;
}

}  // namespace sinew::scene
