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

ChildOutcome run_child_process(const std::vector<std::string>& argv) {
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  // The child takes the default action for the signals this process ignores (SIGPIPE, SIGXFSZ).
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
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, args[0], &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (spawned != 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(spawned));
  }
  register_child(pid);

  ChildOutcome outcome;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* texts[2] = {&outcome.out, &outcome.err};
  int open_pipes = 2;
  char buffer[1 << 14];
  while (open_pipes > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t got = read(fds[i].fd, buffer, sizeof buffer);
      if (got > 0) {
        texts[i]->append(buffer, static_cast<std::size_t>(got));
      } else if (got == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_pipes;
      }
    }
  }
  for (const pollfd& f : fds)
    if (f.fd >= 0) close(f.fd);
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
