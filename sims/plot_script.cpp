// Running the plot scripts. See plot_script.h.
#include "sims/plot_script.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>

#include <sys/stat.h>
#include <unistd.h>

#include "sims/child_process.h"
#include "sims/stop_signals.h"
#include "topology/config_error.h"

namespace meshmp {

namespace {

// A regular file in $TMPDIR with the plot's extension (matplotlib picks the format by it), removed
// whatever happens.
struct ScratchPlot {
  explicit ScratchPlot(const OutputFile& png) {
    const char* tmp = std::getenv("TMPDIR");
    std::string extension = std::filesystem::path(png.path()).extension().string();
    if (extension.size() < 2) extension = ".png";  // a special file without one takes a PNG
    path = std::string(tmp && *tmp ? tmp : "/tmp") + "/meshmp-plot-XXXXXX" + extension;
    const int fd = mkstemps(path.data(), static_cast<int>(extension.size()));
    if (fd < 0)
      throw OutputError(png.field() + " = '" + png.path() + "': no temporary file for the plot in $TMPDIR: " +
                        std::strerror(errno));
    close(fd);
    registered = TemporaryPath(path);
  }
  ~ScratchPlot() { std::remove(path.c_str()); }
  ScratchPlot(const ScratchPlot&) = delete;
  ScratchPlot& operator=(const ScratchPlot&) = delete;

  std::string path;
  TemporaryPath registered;
};

}  // namespace

void run_plot_script(const std::string& self_path, const std::string& script_name, const std::string& source_path,
                     const std::vector<std::string>& arguments, OutputFile& png,
                     const std::vector<std::string>& trailing, std::ostream& out) {
  std::string script = self_path.substr(0, self_path.rfind('/') + 1) + script_name;
  if (access(script.c_str(), R_OK) != 0) script = source_path;
  const std::string python = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "/usr/bin/env";
  std::vector<std::string> argv{python};
  if (python == "/usr/bin/env") argv.push_back("python3");
  argv.push_back(script);
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  // A special file (/dev/full, a FIFO) is not handed to the script: matplotlib does not report a failed
  // write to one. The plot is drawn into a regular file, then copied through the output's checked stream.
  std::optional<ScratchPlot> scratch;
  if (png.writes_in_place()) scratch.emplace(png);
  argv.push_back(scratch ? scratch->path : png.writing_path());
  argv.insert(argv.end(), trailing.begin(), trailing.end());
  const ChildOutcome plot = run_child_process(argv);
  throw_if_stop_requested();  // Ctrl-C stopped the script too: the command ends as stopped (130 / 143)
  if (plot.exit_status != 0)
    throw OutputError(png.field() + " = '" + png.path() + "': the plot was not drawn: " + script +
                      " (python3 with matplotlib) ended with " + plot.describe());
  if (scratch) {
    std::ifstream drawn(scratch->path, std::ios::binary);
    if (!(png.stream() << drawn.rdbuf()))
      throw OutputError(png.field() + " = '" + png.path() + "': the plot was not drawn: " + script + " wrote nothing");
  }
  const std::string path = png.path();
  png.commit();
  out << plot.out << "  plot: " << path << "\n";
}

OutputFile plot_output(const std::string& field, const std::string& path) {
  // matplotlib's writers (FigureCanvasBase.get_supported_filetypes() with the Agg, PDF, PS, SVG and PGF
  // backends Debian's python3-matplotlib has).
  static const char* const kFormats[] = {"eps", "jpeg", "jpg", "pdf", "pgf", "png", "ps", "raw", "rgba",
                                         "svg", "svgz", "tif", "tiff", "webp"};
  std::string list;
  for (const char* format : kFormats) list += (list.empty() ? "" : ", ") + std::string(format);
  // Without one matplotlib would append .png to the name it is given, leaving the output empty.
  std::string extension = std::filesystem::path(path).extension().string();
  if (extension.size() < 2) {
    // A special file (/dev/null, /dev/full, a FIFO) takes a PNG; a file needs its format named.
    struct stat target {};
    if (stat(path.c_str(), &target) == 0 && !S_ISREG(target.st_mode) && !S_ISDIR(target.st_mode))
      return OutputFile(field, path);
    throw ConfigError(field, path, "the plot's format is chosen by its extension; give one (" + list + ")");
  }
  extension.erase(0, 1);
  std::string lower;
  for (char c : extension) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (std::find(std::begin(kFormats), std::end(kFormats), lower) == std::end(kFormats))
    throw ConfigError(field, path, "the plot's format is chosen by its extension; ." + extension +
                                       " is none matplotlib writes (" + list + ")");
  return OutputFile(field, path);
}

OutputFile table_beside_plot(const std::string& png) {
  const std::string csv = std::filesystem::path(png).replace_extension(".csv").string();
  check_distinct_outputs({{"--plot", png}, {"--plot's CSV", csv}});
  return OutputFile("--plot", csv);
}

}  // namespace meshmp
