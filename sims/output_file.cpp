// Outputs written whole or not at all. See output_file.h.
#include "sims/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "sims/stop_signals.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

// The mode a new file gets: 0666 less this process's umask (read without changing it).
mode_t new_file_mode() {
  static const mode_t mode = [] {
    mode_t mask = 022;
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
      if (line.rfind("Umask:", 0) == 0) mask = static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
    return static_cast<mode_t>(0666 & ~mask);
  }();
  return mode;
}

}  // namespace

bool CheckedFileBuffer::open(const std::string& path) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd_ < 0) error_ = errno;
  setp(buffer_.data(), buffer_.data() + buffer_.size());
  return fd_ >= 0;
}

void CheckedFileBuffer::adopt(int fd) {
  fd_ = fd;
  setp(buffer_.data(), buffer_.data() + buffer_.size());
}

namespace {

// Opens a FIFO for writing once a process reads it. open() would block until then, deaf to Ctrl-C (the
// call restarts after the handler); opening without blocking and trying again every 20 ms keeps the
// command stoppable. Returns the descriptor (blocking again), or -1 with errno for another failure.
int open_fifo_when_read(const std::string& path) {
  for (;;) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) {
      fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
      return fd;
    }
    if (errno != ENXIO) return -1;  // ENXIO: no reader yet
    throw_if_stop_requested();
    usleep(20000);
  }
}

}  // namespace

bool CheckedFileBuffer::write_out() {
  for (const char* p = pbase(); p < pptr() && error_ == 0;) {
    const ssize_t n = ::write(fd_, p, static_cast<std::size_t>(pptr() - p));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) error_ = n < 0 ? errno : EIO;
    else p += n;
  }
  setp(buffer_.data(), buffer_.data() + buffer_.size());
  return error_ == 0;
}

CheckedFileBuffer::int_type CheckedFileBuffer::overflow(int_type c) {
  if (fd_ < 0 || !write_out()) return traits_type::eof();
  if (!traits_type::eq_int_type(c, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
  }
  return traits_type::not_eof(c);
}

int CheckedFileBuffer::sync() { return fd_ >= 0 && write_out() ? 0 : -1; }

bool CheckedFileBuffer::close() {
  if (fd_ < 0) return error_ == 0;
  write_out();
  if (::close(fd_) != 0 && error_ == 0) error_ = errno;
  fd_ = -1;
  return error_ == 0;
}

std::string resolved_path(const std::string& path) {
  std::error_code error;
  std::filesystem::path resolved = std::filesystem::absolute(path, error);
  if (error) return path;
  // A link to a file not yet there is followed too (weakly_canonical stops at it).
  for (int links = 0; links < 40 && std::filesystem::is_symlink(resolved, error); ++links) {
    const std::filesystem::path target = std::filesystem::read_symlink(resolved, error);
    if (error) break;
    resolved = target.is_absolute() ? target : resolved.parent_path() / target;
  }
  resolved = std::filesystem::weakly_canonical(resolved, error);
  return error ? path : resolved.string();
}

void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (std::size_t j = i + 1; j < outputs.size(); ++j) {
      const auto& [first_field, first] = outputs[i];
      const auto& [second_field, second] = outputs[j];
      if (first.empty() || second.empty()) continue;
      struct stat a {}, b {};
      const bool same = resolved_path(first) == resolved_path(second) ||
                        (stat(first.c_str(), &a) == 0 && stat(second.c_str(), &b) == 0 && a.st_dev == b.st_dev &&
                         a.st_ino == b.st_ino && S_ISREG(a.st_mode));
      if (same)
        throw ConfigError(second_field, second,
                          "is the file " + first_field + " = '" + first + "' names: every output needs its own file");
    }
}

namespace {

// A target's temporary files are named ".NAME.meshmp-PID-XXXXXX.EXT" beside it: its writer's process id
// and six random characters, NAME cut so that the whole stays within a file name's 255 bytes (a legal
// name of 250 bytes would otherwise be refused for its temporary's length).
struct TemporaryName {
  std::filesystem::path directory;
  std::string prefix;     // ".NAME.meshmp-"
  std::string extension;  // ".EXT" or empty
};

TemporaryName temporary_name(const std::string& target) {
  const std::filesystem::path target_path(target);
  std::string name = target_path.filename().string();
  const std::string extension = target_path.extension().string();
  const std::size_t affixes = std::string(".").size() + std::string(".meshmp-4194304-XXXXXX").size() + extension.size();
  if (name.size() + affixes > 255) name.resize(affixes < 255 ? 255 - affixes : 0);
  return {target_path.parent_path(), "." + name + ".meshmp-", extension};
}

// Removes the temporaries of this target that a meshmp killed while writing it left behind (SIGKILL, a
// power cut): files of this user named as temporary_name() gives, whose process no longer exists. A
// living writer's are kept, another user's never touched.
void remove_stale_temporaries(const TemporaryName& temporary) {
  std::error_code error;
  const std::filesystem::path directory = temporary.directory.empty() ? "." : temporary.directory;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    const std::string name = entry.path().filename().string();
    const std::size_t digits_end = name.find('-', temporary.prefix.size());
    if (name.compare(0, temporary.prefix.size(), temporary.prefix) != 0 || digits_end == std::string::npos ||
        name.size() != digits_end + 7 + temporary.extension.size() ||
        name.compare(digits_end + 7, std::string::npos, temporary.extension) != 0)
      continue;
    const std::string digits = name.substr(temporary.prefix.size(), digits_end - temporary.prefix.size());
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    struct stat file {};
    if (lstat(entry.path().c_str(), &file) != 0 || !S_ISREG(file.st_mode) || file.st_uid != geteuid()) continue;
    const pid_t writer = static_cast<pid_t>(std::stol(digits));
    if (writer == getpid() || kill(writer, 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to judge
    std::filesystem::remove(entry.path(), error);
  }
}

}  // namespace

OutputFile::OutputFile(std::string field, std::string path) : field_(std::move(field)), path_(std::move(path)) {
  if (path_.empty()) throw ConfigError(field_, path_, "an output needs a file name");
  if (path_ == kStandardOutput)
    throw ConfigError(field_, path_, "standard output is not offered for this output; give a file name (./- for a file named -)");
  const std::string target = resolved_path(path_);
  struct stat existing {};
  if (stat(target.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode)) {
    if (S_ISDIR(existing.st_mode)) throw ConfigError(field_, path_, "is a directory, not a file");
    in_place_ = true;  // a device or a FIFO: written as it is
    writing_path_ = target;
    if (access(target.c_str(), W_OK) != 0)
      throw ConfigError(field_, path_, std::string("the file cannot be written: ") + std::strerror(errno));
    if (S_ISFIFO(existing.st_mode)) {
      // Opened now, before any work, and held until the contents are written: the reader waits for them.
      const int fd = open_fifo_when_read(target);
      if (fd < 0) throw ConfigError(field_, path_, std::string("the FIFO cannot be opened: ") + std::strerror(errno));
      buffer_ = std::make_unique<CheckedFileBuffer>();
      buffer_->adopt(fd);
      stream_ = std::make_unique<std::ostream>(buffer_.get());
    }
    return;
  }
  const TemporaryName temporary = temporary_name(target);
  remove_stale_temporaries(temporary);
  std::string pattern = (temporary.directory / (temporary.prefix + std::to_string(getpid()) + "-XXXXXX" + temporary.extension)).string();
  const int fd = mkstemps(pattern.data(), static_cast<int>(temporary.extension.size()));
  if (fd < 0)
    throw ConfigError(field_, path_, std::string("the file cannot be written: ") + std::strerror(errno));
  close(fd);
  writing_path_ = pattern;
  registered_ = TemporaryPath(writing_path_);
}

OutputFile::OutputFile(OutputFile&& other) noexcept { *this = std::move(other); }

OutputFile& OutputFile::operator=(OutputFile&& other) noexcept {
  if (this != &other) {
    discard();
    field_ = std::move(other.field_);
    path_ = std::move(other.path_);
    writing_path_ = std::move(other.writing_path_);
    in_place_ = other.in_place_;
    registered_ = std::move(other.registered_);
    buffer_ = std::move(other.buffer_);
    stream_ = std::move(other.stream_);
    other.path_.clear();
    other.writing_path_.clear();
  }
  return *this;
}

OutputFile::~OutputFile() { discard(); }

std::ostream& OutputFile::stream() {
  if (!stream_) {
    buffer_ = std::make_unique<CheckedFileBuffer>();
    buffer_->open(writing_path_);  // a failure is reported at commit, with its reason
    stream_ = std::make_unique<std::ostream>(buffer_.get());
  }
  return *stream_;
}

std::string OutputFile::failure(const std::string& what, int error_number) {
  const std::string reason = error_number != 0 ? std::strerror(error_number) : "the write failed";
  const std::string message = field_ + " = '" + path_ + "': " + what + ": " + reason;
  discard();
  return message;
}

void OutputFile::commit() {
  if (auto error = try_commit()) throw OutputError(*error);
}

std::optional<std::string> OutputFile::try_commit() {
  if (path_.empty()) return std::nullopt;
  if (buffer_) {
    const bool opened = buffer_->is_open();
    if (!buffer_->close()) return failure(opened ? "writing the file failed" : "the file cannot be opened", buffer_->error());
  }
  if (in_place_) {
    path_.clear();
    return std::nullopt;
  }
  // On disk before it replaces the target: a crash leaves the old file or the new one, whole.
  const int fd = open(writing_path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 || fsync(fd) != 0) {
    const int error_number = errno;
    if (fd >= 0) close(fd);
    return failure("writing the file to disk failed", error_number);
  }
  close(fd);
  const std::string target = resolved_path(path_);
  struct stat existing {};
  const mode_t mode = stat(target.c_str(), &existing) == 0 ? (existing.st_mode & 07777) : new_file_mode();
  chmod(writing_path_.c_str(), mode);
  if (std::rename(writing_path_.c_str(), target.c_str()) != 0) return failure("the file cannot be put in place", errno);
  registered_ = TemporaryPath();
  path_.clear();
  writing_path_.clear();
  return std::nullopt;
}

void OutputFile::discard() noexcept {
  if (buffer_) buffer_->close();
  stream_.reset();
  buffer_.reset();
  if (!in_place_ && !writing_path_.empty()) std::remove(writing_path_.c_str());
  registered_ = TemporaryPath();
  path_.clear();
  writing_path_.clear();
}

}  // namespace meshmp
