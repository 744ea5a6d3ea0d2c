// Per-link utilisation and its heat map. See link_utilisation.h.
#include "sims/link_utilisation.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <sstream>

#include <unistd.h>

#include "sims/plot_script.h"
#include "sims/temporary_paths.h"

#ifndef MESHMP_LINK_HEATMAP_SCRIPT
#define MESHMP_LINK_HEATMAP_SCRIPT "plot_link_heatmap.py"
#endif

namespace meshmp {

void add_link_utilisation(nlohmann::json& result, const std::vector<LinkCount>& before,
                          const std::vector<LinkCount>& after, std::uint64_t measure_cycles) {
  nlohmann::json links = nlohmann::json::array();
  double largest = 0, sum = 0;
  for (std::size_t i = 0; i < after.size(); ++i) {
    const LinkCount& link = after[i];
    if (link.dst < 0) continue;  // an ejection channel
    const std::uint64_t flits = link.flits - before.at(i).flits;
    const double utilisation = static_cast<double>(flits) / static_cast<double>(measure_cycles);
    links.push_back({{"source", link.src},
                     {"destination", link.dst},
                     {"port", link.port},
                     {"flits", flits},
                     {"utilisation", utilisation}});
    largest = std::max(largest, utilisation);
    sum += utilisation;
  }
  result["average_link_utilisation"] = links.empty() ? 0.0 : sum / static_cast<double>(links.size());
  result["max_link_utilisation"] = largest;
  result["link_utilisation"] = links;
}

std::string link_utilisation_text(const nlohmann::json& result) {
  const nlohmann::json* busiest = nullptr;
  for (const nlohmann::json& link : result.at("link_utilisation"))
    if (!busiest || link.at("utilisation").get<double>() > busiest->at("utilisation").get<double>()) busiest = &link;
  if (!busiest) return "";
  std::ostringstream text;
  text << std::fixed << std::setprecision(4) << "max link utilisation " << busiest->at("utilisation").get<double>()
       << " flits/cycle (" << busiest->at("source") << "->" << busiest->at("destination") << "), average "
       << result.at("average_link_utilisation").get<double>();
  return text.str();
}

namespace {

// The links as the heat map's script reads them, in a file of $TMPDIR removed whatever happens.
struct LinkTable {
  LinkTable(const Topology& topology, const nlohmann::json& links, const OutputFile& png) {
    const char* tmp = std::getenv("TMPDIR");
    path = std::string(tmp && *tmp ? tmp : "/tmp") + "/meshmp-links-XXXXXX.csv";
    const int fd = mkstemps(path.data(), 4);
    if (fd < 0)
      throw OutputError(png.field() + " = '" + png.path() + "': no temporary file for the links in $TMPDIR: " +
                        std::strerror(errno));
    close(fd);
    registered = TemporaryPath(path);
    std::ofstream table(path);
    table << "source,destination,port,flits,utilisation,source_x,source_y,destination_x,destination_y,wraps\n";
    const bool plane = topology.num_dimensions() == 2;
    for (const nlohmann::json& link : links) {
      const int source = link.at("source"), destination = link.at("destination"), port = link.at("port");
      table << source << ',' << destination << ',' << port << ',' << link.at("flits") << ','
            << link.at("utilisation").get<double>();
      if (plane)
        table << ',' << topology.coordinate(source, 0) << ',' << topology.coordinate(source, 1) << ','
              << topology.coordinate(destination, 0) << ',' << topology.coordinate(destination, 1) << ','
              << (topology.crosses_dateline(source, port) ? 1 : 0);
      else
        table << ",,,,,";
      table << '\n';
    }
    table.close();
    if (!table)
      throw OutputError(png.field() + " = '" + png.path() + "': the links could not be written to " + path);
  }
  ~LinkTable() { std::remove(path.c_str()); }
  LinkTable(const LinkTable&) = delete;
  LinkTable& operator=(const LinkTable&) = delete;

  std::string path;
  TemporaryPath registered;
};

// A 2-D mesh or torus (each dimension a path or a ring) is drawn as itself; anything else as a matrix.
bool drawn_as_plane(const Topology& topology) {
  if (topology.num_dimensions() != 2) return false;
  for (int d = 0; d < 2; ++d)
    if (topology.dimension(d).kind == DimensionKind::Complete) return false;
  return true;
}

}  // namespace

void draw_link_heatmap(const std::string& self_path, const Topology& topology, const nlohmann::json& result,
                       const std::string& title, OutputFile& png, std::ostream& out) {
  const LinkTable table(topology, result.at("link_utilisation"), png);
  const std::string layout = drawn_as_plane(topology) ? "plane" : "matrix";
  run_plot_script(self_path, "plot_link_heatmap.py", MESHMP_LINK_HEATMAP_SCRIPT, {table.path}, png,
                  {std::to_string(topology.num_nodes()), layout, title}, out);
}

}  // namespace meshmp
