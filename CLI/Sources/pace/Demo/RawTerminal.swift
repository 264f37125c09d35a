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

/// The terminal in raw mode, for the interactive demo: each key is read as
/// it is pressed, not echoed, and Ctrl-C is a key. ``restore()`` puts it back.
struct RawTerminal {
  private let original: termios

  /// Switches standard input to raw mode; `nil` when it is not a terminal.
  init?() {
    var settings = termios()
    guard tcgetattr(0, &settings) == 0 else { return nil }
    original = settings
    settings.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
    withUnsafeMutableBytes(of: &settings.c_cc) { characters in
      characters[Int(VMIN)] = 1
      characters[Int(VTIME)] = 0
    }
    guard tcsetattr(0, TCSANOW, &settings) == 0 else { return nil }
  }

  func restore() {
    var settings = original
    _ = tcsetattr(0, TCSANOW, &settings)
  }

  /// The bytes typed on standard input, read on a thread of their own (a
  /// blocking read must not hold a thread of the concurrency pool).
  static func keys() -> AsyncStream<UInt8> {
    let (keys, continuation) = AsyncStream<UInt8>.makeStream()
    let reader = KeyReader(continuation: continuation)
    if !BlockingThread.start({ reader.readUntilEnd() }) { continuation.finish() }
    return keys
  }
}

/// Reads standard input a byte at a time into a stream.
private final class KeyReader: Sendable {
  let continuation: AsyncStream<UInt8>.Continuation

  init(continuation: AsyncStream<UInt8>.Continuation) {
    self.continuation = continuation
  }

  func readUntilEnd() {
    var byte: UInt8 = 0
    while read(0, &byte, 1) == 1 {
      continuation.yield(byte)
    }
    continuation.finish()
  }
}
