// The VCD waveform's checked path to disk. SystemC's VCD writer opens its file itself and checks none of
// its writes, so a full disk would leave a cut waveform and a run that says nothing. Instead it writes into a
// FIFO, and a thread of this relay copies what arrives into the output file, checking every write: a
// failed one is reported when the waveform is finished (the rest is drained, so the writer never blocks).
#pragma once

#include <atomic>
#include <string>
#include <thread>

namespace meshmp {

class WaveformRelay {
 public:
  // Relays into `target` (opened now, truncated); the FIFO is fifo_path(), named `<name>.vcd` in a
  // private temporary directory. Throws OutputError when either cannot be created.
  WaveformRelay(const std::string& target, const std::string& name);
  WaveformRelay(const WaveformRelay&) = delete;
  WaveformRelay& operator=(const WaveformRelay&) = delete;
  ~WaveformRelay();

  const std::string& fifo_path() const { return fifo_path_; }
  // Once the writer has closed the FIFO: copies what is left and stops. The first write error's reason,
  // empty when every byte reached the file.
  std::string finish();

 private:
  void copy();
  void release() noexcept;  // closes and removes the FIFO and its directory
  bool drain();  // copies what the FIFO holds now; false once the writer closed it

  std::string directory_, fifo_path_, error_;
  int fifo_ = -1, target_ = -1;
  std::atomic<bool> finishing_{false};
  std::thread thread_;
};

}  // namespace meshmp
