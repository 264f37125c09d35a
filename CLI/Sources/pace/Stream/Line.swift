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

/// One line of input, as bytes: whatever they are (not UTF-8, a `\r` before
/// the newline, a NUL), they come out as they went in.
///
/// A line is a view of the chunk it was read in, so reading allocates once
/// per chunk, not once per line; a line that spans chunks gets a chunk of
/// its own.
struct Line: Equatable, Sendable {
  /// The bytes of a read; lines share it.
  let chunk: LineChunk
  /// Where the line's bytes start in the chunk, and how many there are,
  /// without the newline.
  let start: Int
  let count: Int
  /// Whether a newline ended it: only the last line of an input can lack one.
  let hasNewline: Bool

  /// A line of its own bytes.
  init(bytes: [UInt8], hasNewline: Bool = true) {
    self.init(chunk: LineChunk(bytes), start: 0, count: bytes.count, hasNewline: hasNewline)
  }

  init(chunk: LineChunk, start: Int, count: Int, hasNewline: Bool) {
    self.chunk = chunk
    self.start = start
    self.count = count
    self.hasNewline = hasNewline
  }

  /// Calls `body` with the line's bytes, without the newline.
  func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
    try chunk.bytes.withUnsafeBytes { all in
      try body(UnsafeRawBufferPointer(rebasing: all[start..<start + count]))
    }
  }

  /// The bytes, without the newline.
  var bytes: [UInt8] {
    withBytes { Array($0) }
  }

  /// The line as text, for a `filter` pattern; bytes that are not UTF-8
  /// read as U+FFFD here, and still come out as they were.
  var text: String {
    withBytes { String(decoding: $0, as: UTF8.self) }
  }

  /// Lines are equal when their bytes are, newline or not (as `uniq` sees them).
  static func == (left: Line, right: Line) -> Bool {
    guard left.count == right.count else { return false }
    return left.withBytes { leftBytes in
      right.withBytes { rightBytes in
        leftBytes.count == 0 || memcmp(leftBytes.baseAddress!, rightBytes.baseAddress!, leftBytes.count) == 0
      }
    }
  }
}

/// The bytes of one read, which the lines read from it share.
final class LineChunk: Sendable {
  let bytes: [UInt8]

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }
}
