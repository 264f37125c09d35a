//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// `0..<count` as an asynchronous sequence whose `next()` never suspends: the
/// fastest base there is.
struct CountingSequence: AsyncSequence, Sendable {
  let count: Int

  struct Iterator: AsyncIteratorProtocol {
    var next = 0
    let count: Int

    mutating func next() async -> Int? {
      guard next < count else { return nil }
      defer { next += 1 }
      return next
    }
  }

  func makeAsyncIterator() -> Iterator {
    Iterator(count: count)
  }
}

/// A one-shot event that a test awaits: `signal()` from any task, `wait()`
/// returns once it has happened (at once if it already has).
final class Signal: Sendable {
  private let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))

  func signal() {
    continuation.yield()
  }

  func wait() async {
    var iterator = stream.makeAsyncIterator()
    await iterator.next()
  }
}
