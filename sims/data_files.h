// meshmp's data files (example configurations, reference curves) wherever meshmp runs from: a path that
// does not exist from the working directory is looked up where `cmake --install` puts them,
// <prefix>/share/meshmp/ beside the installed binary's bin/ (sims/examples -> examples, sims/reference ->
// reference), so `meshmp run --config sims/examples/hypercube6_pairwise.json` works in any directory.
#pragma once

#include <string>

namespace meshmp {

// `path` itself when it exists, is absolute or is found nowhere else (errors then name it as given);
// otherwise its installed copy.
std::string data_file(const std::string& path);

}  // namespace meshmp
