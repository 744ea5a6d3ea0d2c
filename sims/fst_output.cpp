// The RTL waveform written whole. See fst_output.h.
#include "sims/fst_output.h"

#include <signal.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>

namespace meshmp {
namespace {

char fault_message[1024];

extern "C" void on_mapped_write_fault(int) {
  [[maybe_unused]] const ssize_t n = write(STDERR_FILENO, fault_message, std::strlen(fault_message));
  remove_temporary_paths_now();
  _exit(1);
}

}  // namespace

FstWriteFaultGuard::FstWriteFaultGuard(const std::string& field, const std::string& path, const std::string& writing_path)
    : hierarchy_file_(writing_path + ".hier") {
  const std::string message = "meshmp: error: " + field + " = '" + path +
                              "': writing the file failed: the FST writer's memory-mapped buffers could not grow "
                              "(the disk is full or a file-size limit was reached); no output written\n";
  std::strncpy(fault_message, message.c_str(), sizeof fault_message - 2);
  fault_message[sizeof fault_message - 2] = '\n';
  struct sigaction action {};
  action.sa_handler = on_mapped_write_fault;
  sigemptyset(&action.sa_mask);
  sigaction(SIGBUS, &action, &previous_);
}

FstWriteFaultGuard::~FstWriteFaultGuard() { sigaction(SIGBUS, &previous_, nullptr); }

// An FST file is a sequence of blocks, each a type byte and a big-endian 64-bit length that counts
// itself and the contents: the header (type 0) first, then hierarchy (4, 6, 7) and value-change blocks
// (1, 5, 8), among others.
std::optional<std::string> fst_file_problem(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "the FST file cannot be read back";
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.empty() || bytes[0] != 0) return "the FST file has no header block";
  bool hierarchy = false, changes = false;
  std::size_t at = 0;
  while (at < bytes.size()) {
    if (bytes.size() - at < 9) return "the FST file ends inside a block's header, at byte " + std::to_string(at);
    std::uint64_t length = 0;
    for (int k = 1; k <= 8; ++k) length = length << 8 | static_cast<unsigned char>(bytes[at + k]);
    if (length < 8 || length > bytes.size() - at - 1)
      return "the FST file ends inside a block, at byte " + std::to_string(at) + " of " + std::to_string(bytes.size());
    const int type = bytes[at];
    hierarchy |= type == 4 || type == 6 || type == 7;
    changes |= type == 1 || type == 5 || type == 8;
    at += 1 + length;
  }
  if (!hierarchy) return "the FST file has no hierarchy block";
  if (!changes) return "the FST file has no value-change block";
  return std::nullopt;
}

}  // namespace meshmp
