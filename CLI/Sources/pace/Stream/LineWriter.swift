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
  /// The buffer's memory; the writer owns it, and copies of the writer (none
  /// are made: it goes by `inout`) would share it.
  private let storage = Storage(capacity: bufferSize)
  /// How many bytes of it wait to be written.
  private var used = 0

  private final class Storage {
    let bytes: UnsafeMutableRawPointer

    init(capacity: Int) {
      bytes = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
      bytes.deallocate()
    }
  }

  init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// Adds `line`, with its newline if it had one.
  mutating func write(_ line: Line) {
    line.withBytes { append($0) }
    if line.hasNewline {
      if used == Self.bufferSize { flush() }
      storage.bytes.storeBytes(of: 0x0A, toByteOffset: used, as: UInt8.self)
      used += 1
    }
    if used >= Self.bufferSize { flush() }
  }

  /// Adds `bytes` as they are.
  mutating func write(bytes: some Collection<UInt8>) {
    let copied: Void? = bytes.withContiguousStorageIfAvailable { append(UnsafeRawBufferPointer($0)) }
    if copied == nil { Array(bytes).withUnsafeBytes { append($0) } }
    if used >= Self.bufferSize { flush() }
  }

  /// Copies `bytes` into the buffer, flushing it first when they do not fit;
  /// bytes that would fill it alone are written at once.
  private mutating func append(_ bytes: UnsafeRawBufferPointer) {
    if bytes.count > Self.bufferSize - used {
      flush()
      if bytes.count >= Self.bufferSize {
        write(bytes)
        return
      }
    }
    if let source = bytes.baseAddress {
      (storage.bytes + used).copyMemory(from: source, byteCount: bytes.count)
    }
    used += bytes.count
  }

  /// Writes what the buffer holds.
  mutating func flush() {
    guard used > 0 else { return }
    write(UnsafeRawBufferPointer(start: storage.bytes, count: used))
    used = 0
  }

  /// Writes `bytes` to the descriptor, all of them.
  private func write(_ bytes: UnsafeRawBufferPointer) {
    var offset = 0
    while offset < bytes.count {
      let written = SystemCalls.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written >= 0 {
        offset += written
      } else if errno == EPIPE {
        terminateProcess(status: 0)  // The reader has gone: nothing more to do.
      } else if errno != EINTR {
        let reason = SystemCalls.message(forError: errno)
        FileDescriptorOutput.standardError.write("pace: error: cannot write the output: \(reason)\n")
        terminateProcess(status: 1)
      }
    }
  }
}
