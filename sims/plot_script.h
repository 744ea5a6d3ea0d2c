// The plots of `meshmp traffic --rates` and `meshmp sweep --plot`: a Python script with matplotlib,
// found beside the installed tool or in the source tree, run with Debian's python3 (where
// python3-matplotlib installs) even when another python3 comes first on PATH.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace meshmp {

// A word for /bin/sh, single-quoted.
std::string shell_quote(const std::string& word);

// Runs `script_name` (beside `self_path`, else `source_path`) with `arguments`; prints "plot: PNG" or why
// there is none. The CSV is the result either way, so a missing matplotlib is not an error.
void run_plot_script(const std::string& self_path, const std::string& script_name, const std::string& source_path,
                     const std::vector<std::string>& arguments, const std::string& png, std::ostream& out);

}  // namespace meshmp
