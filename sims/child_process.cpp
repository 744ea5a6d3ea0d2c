// Child processes without a shell. See child_process.h.
#include "sims/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cerrno>
#include <chrono>
#include <thread>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "hw/base/stop_request.h"
#include "sims/stop_signals.h"
#include "topology/config_error.h"

extern char** environ;

namespace meshmp {

std::string ChildOutcome::describe() const {
  std::string text = signal != 0 ? "killed by signal " + std::to_string(signal) : "exit status " + std::to_string(exit_status);
  std::string last = err;
  while (!last.empty() && last.back() == '\n') last.pop_back();
  if (const auto newline = last.rfind('\n'); newline != std::string::npos) last = last.substr(newline + 1);
  if (!last.empty()) text += ": " + last;
  return text;
}

namespace {

// A pipe whose ends close with it (O_CLOEXEC: no other child inherits them).
struct Pipe {
  int read_end = -1, write_end = -1;
  Pipe() {
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0) throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
    read_end = ends[0], write_end = ends[1];
  }
  ~Pipe() {
    close_read();
    close_write();
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  void close_read() {
    if (read_end >= 0) close(read_end);
    read_end = -1;
  }
  void close_write() {
    if (write_end >= 0) close(write_end);
    write_end = -1;
  }
};

// This process's environment without kProgressFdVariable, with it set to 3 when `progress`.
std::vector<std::string> child_environment(bool progress) {
  std::vector<std::string> variables;
  const std::string prefix = std::string(kProgressFdVariable) + "=";
  for (char** v = environ; *v != nullptr; ++v)
    if (std::string(*v).rfind(prefix, 0) != 0) variables.emplace_back(*v);
  if (progress) variables.push_back(prefix + "3");
  return variables;
}

// Starts argv with standard input from /dev/null, output and error into `out` and `err`, and, when
// `progress` is given, descriptor 3 into it. The child takes the default action for the signals this
// process ignores (SIGPIPE, SIGXFSZ).
pid_t spawn(const std::vector<std::string>& argv, Pipe& out, Pipe& err, Pipe* progress) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out.write_end, 1);
  posix_spawn_file_actions_adddup2(&actions, err.write_end, 2);
  if (progress != nullptr) posix_spawn_file_actions_adddup2(&actions, progress->write_end, 3);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGXFSZ);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> environment = child_environment(progress != nullptr);
  std::vector<char*> envp;
  for (std::string& e : environment) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, args[0], &actions, &attributes, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(spawned));
  return pid;
}

// Reads the child's pipes until every one is closed: its output, its error, and its progress lines (each
// complete line handed to on_progress).
void read_until_closed(Pipe& out, Pipe& err, Pipe* progress, ChildOutcome& outcome,
                       const std::function<void(const std::string&)>& on_progress) {
  std::string lines;  // progress text not yet ended by a newline
  pollfd fds[3] = {{out.read_end, POLLIN, 0}, {err.read_end, POLLIN, 0}, {progress ? progress->read_end : -1, POLLIN, 0}};
  std::string* texts[3] = {&outcome.out, &outcome.err, &lines};
  int open_pipes = progress ? 3 : 2;
  char buffer[1 << 14];
  while (open_pipes > 0) {
    if (poll(fds, 3, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 3; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t got = read(fds[i].fd, buffer, sizeof buffer);
      if (got > 0) {
        texts[i]->append(buffer, static_cast<std::size_t>(got));
      } else if (got == 0 || errno != EINTR) {
        fds[i].fd = -1;
        --open_pipes;
      }
    }
    for (std::size_t end; (end = lines.find('\n')) != std::string::npos; lines.erase(0, end + 1))
      on_progress(lines.substr(0, end));
  }
}

}  // namespace

ChildOutcome run_child_process(const std::vector<std::string>& argv,
                               const std::function<void(const std::string&)>& on_progress) {
  Pipe out, err;
  std::unique_ptr<Pipe> progress = on_progress ? std::make_unique<Pipe>() : nullptr;
  const pid_t pid = spawn(argv, out, err, progress.get());
  out.close_write();
  err.close_write();
  if (progress) progress->close_write();
  register_child(pid);
  ChildOutcome outcome;
  read_until_closed(out, err, progress.get(), outcome, on_progress);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  unregister_child(pid);
  if (WIFEXITED(status)) outcome.exit_status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
  return outcome;
}

bool stopped_with_this_process(const ChildOutcome& outcome) {
  if (stop_signal() != 0) return true;
  const auto by = [&outcome](int signal_number) {
    return outcome.signal == signal_number || outcome.exit_status == 128 + signal_number;
  };
  if (!by(SIGINT) && !by(SIGTERM) && !by(SIGHUP)) return false;
  for (int waited = 0; waited < 100 && stop_signal() == 0; ++waited)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return stop_signal() != 0;
}

std::string command_line(const std::vector<std::string>& argv) {
  std::string line;
  for (const std::string& word : argv) {
    if (!line.empty()) line += ' ';
    const bool plain = !word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                               "0123456789-_=.,:/+%@") == std::string::npos;
    if (plain) {
      line += word;
      continue;
    }
    line += '\'';
    for (char c : word) line += c == '\'' ? std::string("'\\''") : std::string(1, c);
    line += '\'';
  }
  return line;
}

std::vector<std::string> split_arguments(const std::string& field, const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\\') {
      if (++i == text.size()) throw ConfigError(field, text, "ends in a backslash that escapes nothing");
      word += text[i];
    } else if (c == '\'' || c == '"') {
      std::size_t k = i + 1;
      for (; k < text.size() && text[k] != c; ++k) {
        // Inside double quotes a backslash escapes only \ " $ and `, as in the shell.
        if (c == '"' && text[k] == '\\' && k + 1 < text.size() && text[k + 1] != '\0' &&
            std::strchr("\\\"$`", text[k + 1]))
          ++k;
        word += text[k];
      }
      if (k == text.size())
        throw ConfigError(field, text, std::string("the quote ") + c + " at character " + std::to_string(i + 1) +
                                           " is never closed");
      i = k;
    } else {
      word += c;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

}  // namespace meshmp
