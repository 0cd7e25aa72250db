// Gmsh MSH 4.1 reader (ASCII and binary): $MeshFormat, $Entities, $PhysicalNames, $Nodes and
// $Elements are parsed, every other section is skipped to its $End marker. Format reference: the Gmsh manual, section
// "MSH file format" (version 4.1).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "mesh_io_checks.hpp"
#include "sinew/core/atomic_file.hpp"
#include "sinew/scene/mesh_io.hpp"
#include "text_input.hpp"

namespace sinew::scene {
namespace {

// Nodes of the element types a volume mesh file may hold next to its tetrahedra (Gmsh's
// numbering); 0 = unknown. Type 4 is the 4-node tetrahedron.
int nodes_of_type(long long type) {
  switch (type) {
    case 15:
      return 1;  // point
    case 1:
      return 2;  // line
    case 8:
      return 3;  // 3-node line
    case 2:
      return 3;  // triangle
    case 9:
      return 6;  // 6-node triangle
    case 3:
      return 4;  // quadrangle
    case 10:
      return 9;  // 9-node quadrangle
    case 16:
      return 8;  // 8-node quadrangle
    case 4:
      return 4;  // tetrahedron
    case 11:
      return 10;  // 10-node tetrahedron
    case 5:
      return 8;  // hexahedron
    case 6:
      return 6;  // prism
    case 7:
      return 5;  // pyramid
    default:
      return 0;
  }
}

// What the two encodings share: node tags and coordinates, then the tetrahedra's node tags.
struct RawMesh {
  std::vector<std::size_t> node_tags;
  std::vector<Vec3> coordinates;
  std::vector<std::size_t> tet_tags;        // 4 per tetrahedron
  std::vector<std::string> tet_where;       // line or offset of each tetrahedron
  std::vector<int> tet_entity;              // volume entity of each tetrahedron (its block's tag)
  std::map<int, int> volume_physical;       // $Entities: volume entity -> its first physical group
  std::map<std::string, int> volume_names;  // $PhysicalNames of dimension 3: name -> physical group
};

// One line of $PhysicalNames, '<dimension> <tag> "<name>"' (ASCII in both encodings): a
// volume's (dimension 3) name is kept; a name given twice is an error.
void physical_name(const std::vector<std::string>& tokens, RawMesh& raw,
                   const std::function<void(const std::string&)>& fail) {
  if (tokens.size() < 3) fail("expected a physical name '<dimension> <tag> \"<name>\"'");
  std::string name = tokens[2];
  for (std::size_t k = 3; k < tokens.size(); ++k) name += " " + tokens[k];
  if (name.size() < 2 || name.front() != '"' || name.back() != '"')
    fail("a physical name must be quoted, found " + name.substr(0, 40));
  name = name.substr(1, name.size() - 2);
  long long dim = 0, tag = 0;
  try {
    std::size_t used = 0;
    dim = std::stoll(tokens[0], &used);
    if (used != tokens[0].size()) throw std::invalid_argument("dimension");
    tag = std::stoll(tokens[1], &used);
    if (used != tokens[1].size()) throw std::invalid_argument("tag");
  } catch (const std::exception&) {
    fail("expected integers '<dimension> <tag>' before the physical name, found '" + tokens[0] + " " + tokens[1] + "'");
  }
  if (dim != 3) return;
  if (!raw.volume_names.emplace(name, static_cast<int>(tag)).second)
    fail("the volume name \"" + name + "\" is given twice");
}

// A checked element block type: tetrahedra are kept, lower-dimensional elements skipped, any
// other volume element (or an unknown type) is an error.
int element_nodes(long long type, long long dim, const std::function<void(const std::string&)>& fail) {
  const int nodes = nodes_of_type(type);
  if (nodes == 0) fail("unknown element type " + std::to_string(type));
  if (dim == 3 && type != 4)
    fail("unsupported volume element type " + std::to_string(type) + " (" + std::to_string(nodes) +
         " nodes): sinew reads 4-node tetrahedra (type 4); export a linear tetrahedral mesh");
  return nodes;
}

void read_ascii(detail::Tokens& in, RawMesh& raw) {
  while (in.next_line()) {
    const std::string section(in.token(0));
    if (section.empty() || section[0] != '$') in.fail("expected a section header '$Name', found '" + section + "'");
    const std::string end = "$End" + section.substr(1);
    if (section == "$Entities") {
      // Points, curves and surfaces one line each (skipped), then the volumes:
      // '<tag> <min x y z> <max x y z> <physical tags> <tag>... <surfaces> <tag>...'.
      in.require_line("'<points> <curves> <surfaces> <volumes>'");
      std::size_t skip = 0;
      for (std::size_t k = 0; k < 3; ++k) skip += in.count(k, "number of entities", 4);
      const std::size_t volumes = in.count(3, "number of volumes", 4);
      for (std::size_t k = 0; k < skip; ++k) in.require_line("an entity");
      for (std::size_t k = 0; k < volumes; ++k) {
        in.require_line("a volume '<tag> <bounding box> <physical tags>...'");
        in.require_tokens(8, "volume tag, bounding box and number of physical tags");
        const long long tag = in.integer(0, "volume tag");
        const std::size_t physical = in.count(7, "number of physical tags", 1);
        if (physical > 0) {
          in.require_tokens(9, "a physical tag");
          raw.volume_physical[static_cast<int>(tag)] = static_cast<int>(in.integer(8, "physical tag"));
        }
      }
    } else if (section == "$PhysicalNames") {
      in.require_line("'<number of names>'");
      const std::size_t names = in.count(0, "number of physical names", 6);
      for (std::size_t k = 0; k < names; ++k) {
        in.require_line("a physical name '<dimension> <tag> \"<name>\"'");
        std::vector<std::string> tokens;
        for (std::size_t t = 0; t < in.size(); ++t) tokens.emplace_back(in.token(t));
        physical_name(tokens, raw, [&](const std::string& m) { in.fail(m); });
      }
    } else if (section == "$Nodes") {
      in.require_line("'<blocks> <nodes> <min tag> <max tag>'");
      const std::size_t blocks = in.count(0, "number of node blocks", 8);
      const std::size_t total = in.count(1, "number of nodes", 8);
      raw.node_tags.reserve(total);
      raw.coordinates.reserve(total);
      for (std::size_t b = 0; b < blocks; ++b) {
        in.require_line("node block " + std::to_string(b) + " '<dim> <tag> <parametric> <nodes>'");
        const bool parametric = in.integer(2, "parametric flag") != 0;
        const std::size_t n = in.count(3, "nodes in block", 4);
        if (raw.node_tags.size() + n > total)
          in.fail("more nodes in the blocks than the header's " + std::to_string(total));
        for (std::size_t i = 0; i < n; ++i) {
          in.require_line("a node tag");
          const long long tag = in.integer(0, "node tag");
          if (tag <= 0) in.fail("node tags must be > 0, found " + std::to_string(tag));
          raw.node_tags.push_back(static_cast<std::size_t>(tag));
        }
        for (std::size_t i = 0; i < n; ++i) {
          in.require_line("node coordinates 'x y z'");
          in.require_tokens(parametric ? 4 : 3, "coordinates");
          Vec3 x{};
          for (int c = 0; c < 3; ++c) x[c] = in.real(static_cast<std::size_t>(c), "coordinate");
          raw.coordinates.push_back(x);
        }
      }
      if (raw.node_tags.size() != total)
        in.fail("the node blocks hold " + std::to_string(raw.node_tags.size()) + " nodes, the header says " +
                std::to_string(total));
    } else if (section == "$Elements") {
      in.require_line("'<blocks> <elements> <min tag> <max tag>'");
      const std::size_t blocks = in.count(0, "number of element blocks", 8);
      in.count(1, "number of elements", 4);
      for (std::size_t b = 0; b < blocks; ++b) {
        in.require_line("element block " + std::to_string(b) + " '<dim> <tag> <type> <elements>'");
        const long long dim = in.integer(0, "entity dimension");
        const int entity = static_cast<int>(in.integer(1, "entity tag"));
        const long long type = in.integer(2, "element type");
        const int nodes = element_nodes(type, dim, [&](const std::string& m) { in.fail(m); });
        const std::size_t n = in.count(3, "elements in block", 4);
        for (std::size_t e = 0; e < n; ++e) {
          in.require_line("an element '<tag> <nodes>...'");
          in.require_tokens(static_cast<std::size_t>(1 + nodes),
                            "element tag and " + std::to_string(nodes) + " node tags");
          if (type != 4) continue;
          for (int a = 0; a < 4; ++a) {
            const long long tag = in.integer(static_cast<std::size_t>(1 + a), "node tag");
            if (tag <= 0) in.fail("node tags must be > 0, found " + std::to_string(tag));
            raw.tet_tags.push_back(static_cast<std::size_t>(tag));
          }
          raw.tet_where.push_back(std::to_string(in.line()));
          raw.tet_entity.push_back(entity);
        }
      }
    }
    // Every section, parsed or not, must close.
    for (;;) {
      in.require_line("'" + end + "'");
      if (in.token(0) == end) break;
      if (section == "$Nodes" || section == "$Elements")
        in.fail("expected '" + end + "', found '" + std::string(in.token(0)) + "'");
    }
  }
}

// Little cursor over the binary sections with the file's byte order.
class Bytes {
 public:
  Bytes(std::string_view text, std::size_t offset, std::string file, bool swap)
      : text_(text), pos_(offset), file_(std::move(file)), swap_(swap) {}
  template <class T>
  T read(const char* what) {
    if (text_.size() - pos_ < sizeof(T)) fail(std::string("unexpected end of file reading ") + what);
    unsigned char b[sizeof(T)];
    std::memcpy(b, text_.data() + pos_, sizeof(T));
    if (swap_)
      for (std::size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(b[i], b[sizeof(T) - 1 - i]);
    T v;
    std::memcpy(&v, b, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  std::size_t count(const char* what, std::size_t bytes_each) {
    const std::uint64_t n = read<std::uint64_t>(what);
    if (n > (text_.size() - pos_) / bytes_each)
      fail(std::string(what) + " = " + std::to_string(n) +
           " is more than the rest of the file can hold: truncated or corrupt");
    return static_cast<std::size_t>(n);
  }
  // Reads the rest of the line (a section name or its end marker).
  std::string line() {
    const std::size_t end = text_.find('\n', pos_);
    const std::size_t stop = end == std::string::npos ? text_.size() : end;
    std::string s(text_.substr(pos_, stop - pos_));
    while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.pop_back();
    pos_ = end == std::string::npos ? text_.size() : end + 1;
    return s;
  }
  void skip_to(const std::string& marker) {
    const std::size_t at = text_.find(marker, pos_);
    if (at == std::string::npos) fail("missing '" + marker + "'");
    pos_ = at;
  }
  bool done() const { return pos_ >= text_.size(); }
  std::size_t offset() const { return pos_; }
  [[noreturn]] void fail(const std::string& message) const {
    throw Error(file_ + ": byte " + std::to_string(pos_) + ": " + message);
  }

 private:
  std::string_view text_;
  std::size_t pos_;
  std::string file_;
  bool swap_;
};

void read_binary(Bytes& in, RawMesh& raw) {
  while (!in.done()) {
    const std::string section = in.line();
    if (section.empty()) continue;
    if (section[0] != '$') in.fail("expected a section header '$Name', found '" + section.substr(0, 40) + "'");
    const std::string end = "$End" + section.substr(1);
    if (section == "$Nodes") {
      const std::size_t blocks = in.count("number of node blocks", 20);
      const std::size_t total = in.count("number of nodes", 32);
      in.read<std::uint64_t>("minimum node tag");
      in.read<std::uint64_t>("maximum node tag");
      raw.node_tags.reserve(total);
      raw.coordinates.reserve(total);
      for (std::size_t b = 0; b < blocks; ++b) {
        const int dim = in.read<std::int32_t>("entity dimension");
        in.read<std::int32_t>("entity tag");
        const bool parametric = in.read<std::int32_t>("parametric flag") != 0;
        const std::size_t n = in.count("nodes in block", 32);
        if (raw.node_tags.size() + n > total)
          in.fail("more nodes in the blocks than the header's " + std::to_string(total));
        for (std::size_t i = 0; i < n; ++i) {
          const std::uint64_t tag = in.read<std::uint64_t>("node tag");
          if (tag == 0) in.fail("node tags must be > 0");
          raw.node_tags.push_back(static_cast<std::size_t>(tag));
        }
        for (std::size_t i = 0; i < n; ++i) {
          Vec3 x{};
          for (int c = 0; c < 3; ++c) {
            x[c] = in.read<double>("coordinate");
            if (!std::isfinite(x[c])) in.fail("coordinate of node " + std::to_string(i) + " is not finite");
          }
          for (int p = 0; parametric && p < dim; ++p) in.read<double>("parametric coordinate");
          raw.coordinates.push_back(x);
        }
      }
      if (raw.node_tags.size() != total)
        in.fail("the node blocks hold " + std::to_string(raw.node_tags.size()) + " nodes, the header says " +
                std::to_string(total));
    } else if (section == "$Elements") {
      const std::size_t blocks = in.count("number of element blocks", 20);
      in.count("number of elements", 16);
      in.read<std::uint64_t>("minimum element tag");
      in.read<std::uint64_t>("maximum element tag");
      for (std::size_t b = 0; b < blocks; ++b) {
        const int dim = in.read<std::int32_t>("entity dimension");
        const int entity = in.read<std::int32_t>("entity tag");
        const int type = in.read<std::int32_t>("element type");
        const int nodes = element_nodes(type, dim, [&](const std::string& m) { in.fail(m); });
        const std::size_t n = in.count("elements in block", 8 * static_cast<std::size_t>(1 + nodes));
        for (std::size_t e = 0; e < n; ++e) {
          const std::size_t at = in.offset();
          in.read<std::uint64_t>("element tag");
          for (int a = 0; a < nodes; ++a) {
            const std::uint64_t tag = in.read<std::uint64_t>("node tag");
            if (type != 4) continue;
            if (tag == 0) in.fail("node tags must be > 0");
            raw.tet_tags.push_back(static_cast<std::size_t>(tag));
          }
          if (type == 4) {
            raw.tet_where.push_back("byte " + std::to_string(at));
            raw.tet_entity.push_back(entity);
          }
        }
      }
    } else if (section == "$Entities") {
      // Points, curves, surfaces, then volumes: each a tag, its box (3 or 6 doubles), its physical
      // tags and (but points) its bounding entities; a volume's first physical tag is its region.
      std::size_t n[4];
      for (std::size_t& k : n) k = in.count("number of entities", 4);
      for (int kind = 0; kind < 4; ++kind)
        for (std::size_t e = 0; e < n[kind]; ++e) {
          const int tag = in.read<std::int32_t>("entity tag");
          for (int d = 0; d < (kind == 0 ? 3 : 6); ++d) in.read<double>("bounding box");
          const std::size_t physical = in.count("number of physical tags", 4);
          for (std::size_t k = 0; k < physical; ++k) {
            const int group = in.read<std::int32_t>("physical tag");
            if (kind == 3 && k == 0) raw.volume_physical[tag] = group;
          }
          if (kind == 0) continue;
          const std::size_t bounding = in.count("number of bounding entities", 4);
          for (std::size_t k = 0; k < bounding; ++k) in.read<std::int32_t>("bounding entity");
        }
    } else if (section == "$PhysicalNames") {
      // ASCII lines in a binary file too.
      const std::string count = in.line();
      std::size_t names = 0;
      try {
        std::size_t used = 0;
        names = std::stoul(count, &used);
        if (used != count.size()) throw std::invalid_argument("count");
      } catch (const std::exception&) {
        in.fail("expected the number of physical names, found '" + count.substr(0, 40) + "'");
      }
      for (std::size_t k = 0; k < names; ++k) {
        std::vector<std::string> tokens;
        std::istringstream words(in.line());
        for (std::string w; words >> w;) tokens.push_back(w);
        physical_name(tokens, raw, [&](const std::string& m) { in.fail(m); });
      }
    } else {
      // Sections sinew does not use ($NodeData, $Periodic, ...) are skipped whole.
      in.skip_to(end);
    }
    // The binary data ends with a newline before the end marker.
    std::string closing = in.line();
    if (closing.empty()) closing = in.line();
    if (closing != end) in.fail("expected '" + end + "', found '" + closing.substr(0, 40) + "'");
  }
}

}  // namespace

TetMesh read_gmsh(const std::filesystem::path& path) {
  return parse_gmsh(read_file(path, "a Gmsh .msh file"), path.string());
}

TetMesh parse_gmsh(std::string_view text, const std::string& file) {
  detail::Tokens head(text, file, 0);
  head.require_line("'$MeshFormat'");
  if (head.token(0) != "$MeshFormat")
    head.fail("not a Gmsh mesh: expected '$MeshFormat', found '" + std::string(head.token(0)).substr(0, 40) + "'");
  head.require_line("'4.1 <file type> <data size>'");
  if (head.token(0) != "4.1")
    head.fail("MSH version " + std::string(head.token(0)) +
              " is not supported: sinew reads version 4.1 (gmsh -format msh41)");
  const long long binary = head.integer(1, "file type (0 ASCII, 1 binary)");
  if (binary != 0 && binary != 1)
    head.fail("file type must be 0 (ASCII) or 1 (binary), found " + std::to_string(binary));
  if (head.integer(2, "data size") != 8)
    head.fail("data size must be 8 (64-bit size_t), found " + std::string(head.token(2)));
  RawMesh raw;
  if (binary == 0) {
    head.require_line("'$EndMeshFormat'");
    if (head.token(0) != "$EndMeshFormat") head.fail("expected '$EndMeshFormat'");
    read_ascii(head, raw);
  } else {
    // The integer 1 in the writer's byte order, then the rest in binary.
    const std::size_t at = head.offset();
    if (text.size() < at + 4) head.fail("truncated after the format line");
    std::int32_t one = 0;
    std::memcpy(&one, text.data() + at, 4);
    const bool swap = one != 1;
    if (swap && one != 0x01000000)
      throw Error(file + ": byte " + std::to_string(at) + ": expected the binary integer 1");
    Bytes in(text, at + 4, file, swap);
    const std::string rest = in.line();  // the newline after the integer
    if (!rest.empty()) in.fail("expected a newline after the binary integer 1");
    if (in.line() != "$EndMeshFormat") in.fail("expected '$EndMeshFormat'");
    read_binary(in, raw);
  }
  if (raw.tet_tags.empty()) throw Error(file + ": no 4-node tetrahedra (element type 4) in the file");

  // Keep the nodes the tetrahedra use, in the file's node order.
  std::unordered_map<std::size_t, std::size_t> position;  // tag -> position in the $Nodes section
  position.reserve(raw.node_tags.size());
  for (std::size_t i = 0; i < raw.node_tags.size(); ++i)
    if (!position.emplace(raw.node_tags[i], i).second)
      throw Error(file + ": node tag " + std::to_string(raw.node_tags[i]) + " appears twice in $Nodes");
  std::vector<Index> index(raw.node_tags.size(), -1);
  for (std::size_t k = 0; k < raw.tet_tags.size(); ++k) {
    const auto it = position.find(raw.tet_tags[k]);
    if (it == position.end())
      throw Error(file + ":" + raw.tet_where[k / 4] + ": tetrahedron " + std::to_string(k / 4) + " uses node tag " +
                  std::to_string(raw.tet_tags[k]) + ", which $Nodes does not define");
    index[it->second] = 0;
  }
  TetMesh mesh;
  for (std::size_t i = 0; i < index.size(); ++i)
    if (index[i] == 0) {
      index[i] = static_cast<Index>(mesh.vertices.size());
      mesh.vertices.push_back(raw.coordinates[i]);
    }
  mesh.tets.resize(raw.tet_tags.size() / 4);
  for (std::size_t k = 0; k < raw.tet_tags.size(); ++k) mesh.tets[k / 4][k % 4] = index[position[raw.tet_tags[k]]];
  detail::check_tets(mesh, file, raw.tet_where);
  // Regions: each tetrahedron's volume's physical group where $Entities gives one, else the volume.
  mesh.regions.reserve(raw.tet_entity.size());
  for (int entity : raw.tet_entity) {
    const auto it = raw.volume_physical.find(entity);
    mesh.regions.push_back(it != raw.volume_physical.end() ? it->second : entity);
  }
  mesh.region_names = std::move(raw.volume_names);
  return mesh;
}

}  // namespace sinew::scene
