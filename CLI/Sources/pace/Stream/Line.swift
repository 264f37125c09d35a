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
/// A short line (up to ``inlineCapacity`` bytes) keeps its bytes in the value
/// itself, as a small `String` does: copying it is copying a few words, with
/// no reference count to touch, however many stages hold it. A longer line
/// is a view of the chunk it was read in, so reading allocates once per
/// chunk, not once per line; a line that spans chunks gets a chunk of its own.
struct Line: Equatable, Sendable {
  /// The most bytes a line keeps in itself.
  static let inlineCapacity = MemoryLayout<InlineBytes>.size

  private let storage: Storage
  /// Whether a newline ended it: only the last line of an input can lack one.
  let hasNewline: Bool

  private enum Storage: Sendable {
    /// The bytes themselves, zero after `count`.
    case inline(InlineBytes, count: UInt8)
    /// `count` bytes of `chunk`, which it keeps alive, at `address`: reaching
    /// them needs no copy of the reference (an atomic increment and
    /// decrement), only the address, an integer so that lines stay `Sendable`.
    case shared(LineChunk, address: UInt, count: Int)
  }

  /// Room for a short line's bytes.
  private typealias InlineBytes = (UInt64, UInt64, UInt64)

  /// A line of its own bytes.
  init(bytes: [UInt8], hasNewline: Bool = true) {
    self = bytes.withUnsafeBytes { bytes in
      if bytes.count <= Self.inlineCapacity { return Line(copying: bytes, hasNewline: hasNewline) }
      let chunk = LineChunk(copying: bytes)
      return chunk.withBytes { Line($0, of: chunk, hasNewline: hasNewline) }
    }
  }

  /// The line whose bytes are `bytes`, which are `chunk`'s:
  /// copied when they fit in the line, shared otherwise. For a reader that
  /// holds the chunk's bytes already.
  init(_ bytes: UnsafeRawBufferPointer, of chunk: LineChunk, hasNewline: Bool) {
    if bytes.count <= Self.inlineCapacity {
      self.init(copying: bytes, hasNewline: hasNewline)
    } else {
      precondition(chunk.contains(bytes), "a line's bytes must be its chunk's")
      let address = UInt(bitPattern: bytes.baseAddress)
      self.init(storage: .shared(chunk, address: address, count: bytes.count), hasNewline: hasNewline)
    }
  }

  private init(storage: Storage, hasNewline: Bool) {
    self.storage = storage
    self.hasNewline = hasNewline
  }

  /// A short line: `bytes` fit in it.
  private init(copying bytes: UnsafeRawBufferPointer, hasNewline: Bool) {
    precondition(bytes.count <= Self.inlineCapacity, "\(bytes.count) bytes do not fit in a line")
    var inline: InlineBytes = (0, 0, 0)
    withUnsafeMutableBytes(of: &inline) { $0.copyMemory(from: bytes) }
    self.init(storage: .inline(inline, count: UInt8(bytes.count)), hasNewline: hasNewline)
  }

  /// The number of bytes, without the newline.
  var count: Int {
    switch storage {
    case .inline(_, let count): Int(count)
    case .shared(_, _, let count): count
    }
  }

  /// Calls `body` with the line's bytes, without the newline.
  func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
    switch storage {
    case .inline(let inline, let count):
      try withUnsafeBytes(of: inline) { try body(UnsafeRawBufferPointer(rebasing: $0[..<Int(count)])) }
    case .shared(_, let address, let count):
      try body(UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: address), count: count))
    }
  }

  /// The line without its first `length` bytes, newline or not as it was.
  func dropping(first length: Int) -> Line {
    switch storage {
    case .inline:
      withBytes { Line(copying: UnsafeRawBufferPointer(rebasing: $0[length...]), hasNewline: hasNewline) }
    case .shared(let chunk, _, _):
      withBytes { Line(UnsafeRawBufferPointer(rebasing: $0[length...]), of: chunk, hasNewline: hasNewline) }
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
    if case .inline(let leftBytes, let leftCount) = left.storage,
      case .inline(let rightBytes, let rightCount) = right.storage
    {
      // Bytes after the count are zero in both: compare whole words.
      return leftCount == rightCount && leftBytes.0 == rightBytes.0 && leftBytes.1 == rightBytes.1
        && leftBytes.2 == rightBytes.2
    }
    guard left.count == right.count else { return false }
    return left.withBytes { leftBytes in
      right.withBytes { rightBytes in
        leftBytes.count == 0 || memcmp(leftBytes.baseAddress!, rightBytes.baseAddress!, leftBytes.count) == 0
      }
    }
  }
}
