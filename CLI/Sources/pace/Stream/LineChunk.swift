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

/// The bytes of one read, which the long lines read from it share: memory
/// of its own, which a read fills once; no array, so that reaching a line's
/// bytes touches no reference count but the chunk's.
final class LineChunk: Sendable {
  /// Where the bytes start: an integer, as a pointer is not `Sendable`. They
  /// are written once, by the read (or the copy) that makes the chunk,
  /// before any line shares it, then only read, and freed with the chunk.
  private let address: UInt
  /// How many bytes the read wrote.
  let count: Int

  /// A chunk of the bytes that `fill` writes, given room for `capacity` of
  /// them; `fill` returns how many it wrote.
  init<Failure>(
    capacity: Int, fill: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int
  ) throws(Failure) {
    let room = UnsafeMutableRawBufferPointer.allocate(byteCount: max(capacity, 1), alignment: 16)
    let count: Int
    do {
      count = try fill(UnsafeMutableRawBufferPointer(rebasing: room[..<capacity]))
    } catch {
      room.deallocate()
      throw error
    }
    precondition((0...capacity).contains(count), "filled \(count) bytes of \(capacity)")
    address = UInt(bitPattern: room.baseAddress)
    self.count = count
  }

  /// A chunk holding a copy of `source`.
  convenience init(copying source: UnsafeRawBufferPointer) {
    self.init(capacity: source.count) { room in
      room.copyMemory(from: source)
      return source.count
    }
  }

  /// Calls `body` with the chunk's bytes, which stay alive until it returns.
  func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
    try withExtendedLifetime(self) {
      try body(UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: address), count: count))
    }
  }

  /// Whether `bytes` lie within the chunk's.
  func contains(_ bytes: UnsafeRawBufferPointer) -> Bool {
    let start = UInt(bitPattern: bytes.baseAddress)
    return start >= address && start + UInt(bytes.count) <= address + UInt(count)
  }

  deinit {
    UnsafeMutableRawPointer(bitPattern: address)?.deallocate()
  }
}
