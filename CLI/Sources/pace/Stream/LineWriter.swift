//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes lines to a file descriptor, gathering those emitted together into
/// one write. The stream loop flushes before it waits for anything, so a line
/// never waits in the buffer: it is written the moment it is due, whether
/// the output is a terminal or a pipe.
///
/// A closed output (`pace … | head -1`) ends `pace` quietly with status 0,
/// as it does `cat` and `grep`.
struct LineWriter {
  /// Flushed once it holds this much, even in the middle of a read's lines.
  static let bufferSize = 1 << 16

  let descriptor: Int32
  private var buffer: [UInt8] = []

  init(descriptor: Int32) {
    self.descriptor = descriptor
    buffer.reserveCapacity(Self.bufferSize + 1)
  }

  /// Adds `line`, with its newline if it had one.
  mutating func write(_ line: Line) {
    line.withBytes { buffer.append(contentsOf: $0) }
    if line.hasNewline { buffer.append(0x0A) }
    if buffer.count >= Self.bufferSize { flush() }
  }

  /// Adds `bytes` as they are.
  mutating func write(bytes: some Collection<UInt8>) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= Self.bufferSize { flush() }
  }

  /// Writes what the buffer holds.
  mutating func flush() {
    guard !buffer.isEmpty else { return }
    buffer.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = SystemCalls.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written >= 0 {
          offset += written
        } else if errno == EPIPE {
          terminateProcess(status: 0)  // The reader has gone: nothing more to do.
        } else if errno != EINTR {
          let reason = String(cString: strerror(errno))
          FileDescriptorOutput.standardError.write("pace: error: cannot write the output: \(reason)\n")
          terminateProcess(status: 1)
        }
      }
    }
    buffer.removeAll(keepingCapacity: true)
  }
}
