// A strided access, as a TLM-2.0 extension of the generic payload: the transaction's data_length bytes
// (packed in its data pointer, in order) lie in the target's address space as pieces of piece_bytes, the
// first at the transaction's address and each next one stride_bytes after the one before (a 2-D DMA
// descriptor's column of a row-major matrix). One transaction, one start-up: this is what lets paper
// 004 §3.5 B's transposition through the shared memory (3.42) make one write and one read per processor.
// A target that knows the extension (tlm/shared_memory.h) checks it: piece_bytes >= 1 dividing the
// length, stride_bytes >= piece_bytes (no two pieces overlap), and the last piece inside its memory.
#pragma once

#include <tlm>

#include <cstdint>

namespace meshmp {

struct StridedAccess : tlm::tlm_extension<StridedAccess> {
  std::uint32_t piece_bytes = 0;
  std::uint32_t stride_bytes = 0;

  StridedAccess() = default;
  StridedAccess(std::uint32_t piece, std::uint32_t stride) : piece_bytes(piece), stride_bytes(stride) {}

  tlm::tlm_extension_base* clone() const override { return new StridedAccess(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const StridedAccess&>(other);
  }

  // Whether the pieces are well formed for `length` bytes: see the header comment.
  bool fits(std::uint64_t length) const {
    return piece_bytes >= 1 && length % piece_bytes == 0 && stride_bytes >= piece_bytes;
  }
  // The byte after the last piece, for an access of `length` bytes at `address` (fits(length) holds).
  std::uint64_t end(std::uint64_t address, std::uint64_t length) const {
    if (length == 0) return address;
    return address + (length / piece_bytes - 1) * stride_bytes + piece_bytes;
  }
};

}  // namespace meshmp
