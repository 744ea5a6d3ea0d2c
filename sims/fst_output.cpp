// The RTL waveform written whole. See fst_output.h.
#include "sims/fst_output.h"

#include <signal.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

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
  std::error_code error;
  const std::uint64_t size = std::filesystem::file_size(path, error);
  if (!in || error) return "the FST file cannot be read back";
  bool hierarchy = false, changes = false;
  std::uint64_t at = 0;
  while (at < size) {  // only the block headers are read: a waveform can be large
    unsigned char header[9];
    if (size - at < 9 || !in.seekg(static_cast<std::streamoff>(at)).read(reinterpret_cast<char*>(header), 9))
      return "the FST file ends inside a block's header, at byte " + std::to_string(at);
    if (at == 0 && header[0] != 0) return "the FST file has no header block";
    std::uint64_t length = 0;
    for (int k = 1; k <= 8; ++k) length = length << 8 | header[k];
    if (length < 8 || length > size - at - 1)
      return "the FST file ends inside a block, at byte " + std::to_string(at) + " of " + std::to_string(size);
    hierarchy |= header[0] == 4 || header[0] == 6 || header[0] == 7;
    changes |= header[0] == 1 || header[0] == 5 || header[0] == 8;
    at += 1 + length;
  }
  if (size == 0) return "the FST file has no header block";
  if (!hierarchy) return "the FST file has no hierarchy block";
  if (!changes) return "the FST file has no value-change block";
  return std::nullopt;
}

}  // namespace meshmp
