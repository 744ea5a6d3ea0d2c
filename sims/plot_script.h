// The plots of `meshmp traffic --rates`, `meshmp sweep --plot` and `meshmp paper 003-paths --plot`: a
// Python script with matplotlib, found beside the installed tool or in the source tree, run (without a
// shell) with Debian's python3 (where python3-matplotlib installs) even when another python3 comes first
// on PATH. The PNG is an OutputFile: it appears whole once the script succeeded, or not at all.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sims/output_file.h"

namespace meshmp {

// Runs `script_name` (beside `self_path`, else `source_path`) with `arguments` and the PNG's writing path
// last but for `trailing` (arguments after the PNG), then puts the PNG in place and prints what the script
// printed (a table the plot summarises, if any) and "plot: PNG".
// A script that fails is an OutputError with its last line of output.
void run_plot_script(const std::string& self_path, const std::string& script_name, const std::string& source_path,
                     const std::vector<std::string>& arguments, OutputFile& png,
                     const std::vector<std::string>& trailing, std::ostream& out);

// The output a plot is drawn into, opened before any work: `path`'s extension must be one matplotlib
// writes (png, pdf, svg, ...), else a ConfigError naming `field`; a special file without one (/dev/null,
// /dev/full) takes a PNG.
OutputFile plot_output(const std::string& field, const std::string& path);

// The CSV of the numbers a plot shows, written beside the PNG `png` (its name with .csv for the
// extension): checked to be another file than the PNG, whatever the links, and opened as an OutputFile.
OutputFile table_beside_plot(const std::string& png);

}  // namespace meshmp
