// The VCD waveform's checked path to disk. See waveform_relay.h.
#include "sims/waveform_relay.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "sims/output_file.h"

namespace meshmp {

WaveformRelay::WaveformRelay(const std::string& target, const std::string& name) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/meshmp-waveform-XXXXXX";
  if (!mkdtemp(pattern.data())) throw OutputError(std::string("cannot create the waveform's FIFO: ") + std::strerror(errno));
  directory_ = pattern;
  fifo_path_ = directory_ + "/" + name + ".vcd";
  // Read and write: opening it never waits for the writer, and reading never sees an end of file until
  // finish() says the writer is done.
  if (mkfifo(fifo_path_.c_str(), 0600) != 0 ||
      (fifo_ = open(fifo_path_.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC)) < 0 ||
      (target_ = open(target.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC)) < 0) {
    const std::string reason = std::strerror(errno);
    release();
    throw OutputError("cannot relay the waveform into '" + target + "': " + reason);
  }
  thread_ = std::thread([this] { copy(); });
}

WaveformRelay::~WaveformRelay() {
  if (thread_.joinable()) finish();
  release();
}

void WaveformRelay::release() noexcept {
  if (fifo_ >= 0) close(fifo_);
  if (target_ >= 0) close(target_);
  fifo_ = target_ = -1;
  if (!fifo_path_.empty()) std::remove(fifo_path_.c_str());
  if (!directory_.empty()) rmdir(directory_.c_str());
  fifo_path_.clear();
  directory_.clear();
}

bool WaveformRelay::drain() {
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = read(fifo_, buffer, sizeof buffer);
    if (got < 0) return errno == EAGAIN || errno == EINTR;
    if (got == 0) return false;
    for (ssize_t written = 0; error_.empty() && written < got;) {
      const ssize_t n = write(target_, buffer + written, static_cast<std::size_t>(got - written));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) error_ = std::strerror(n < 0 ? errno : ENOSPC);
      else written += n;
    }
  }
}

void WaveformRelay::copy() {
  pollfd ready{fifo_, POLLIN, 0};
  for (;;) {
    const bool last = finishing_.load();  // read before the drain: what was written before it is copied
    if (!drain() || last) return;
    poll(&ready, 1, 50);
  }
}

std::string WaveformRelay::finish() {
  finishing_ = true;
  if (thread_.joinable()) thread_.join();
  if (error_.empty() && target_ >= 0 && fsync(target_) != 0) error_ = std::strerror(errno);
  return error_;
}

}  // namespace meshmp
