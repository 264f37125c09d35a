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

/// Reads lines from a file descriptor, a chunk at a time: whatever one read
/// returns is split into lines at once, so memory stays flat however long
/// the input, and a line longer than a chunk is carried into the next.
struct LineReader {
  /// The largest read, and so the most bytes held besides a long line.
  static let chunkSize = 1 << 16

  let descriptor: Int32
  /// The start of a line that the last read did not finish.
  private var carry: [UInt8] = []

  init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// Reads once (waiting for input if there is none) and calls `body` with
  /// each complete line, in order; at the end of the input, with the last
  /// line if no newline ended it.
  ///
  /// - Returns: False at the end of the input.
  /// - Throws: The read's error number, for an error other than an interruption.
  mutating func read(_ body: (consuming Line) -> Void) throws(ReadError) -> Bool {
    let shared = try LineChunk(capacity: Self.chunkSize) { (room) throws(ReadError) -> Int in
      while true {
        let count = SystemCalls.read(descriptor, room.baseAddress!, room.count)
        if count >= 0 { return count }
        if errno != EINTR { throw ReadError(errorNumber: errno) }
      }
    }
    guard shared.count > 0 else {
      if !carry.isEmpty {
        body(Line(bytes: carry, hasNewline: false))
        carry = []
      }
      return false
    }
    shared.withBytes { bytes in
      let base = bytes.baseAddress!
      var start = 0
      while start < bytes.count,
        let newline = memchr(base + start, 0x0A, bytes.count - start)
      {
        let end = base.distance(to: UnsafeRawPointer(newline))
        if carry.isEmpty {
          body(Line(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), of: shared, hasNewline: true))
        } else {
          carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
          body(Line(bytes: carry))
          carry = []
        }
        start = end + 1
      }
      if start < bytes.count {
        carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...]))
      }
    }
    return true
  }
}
