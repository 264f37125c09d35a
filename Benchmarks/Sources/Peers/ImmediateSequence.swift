//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// An asynchronous sequence of `0..<count` whose `next()` returns at once: the
/// base on which an operator's own cost shows.
public struct ImmediateSequence: AsyncSequence, Sendable {
  public typealias Element = Int
  public typealias Failure = Never

  let count: Int

  public init(count: Int) {
    self.count = count
  }

  public func makeAsyncIterator() -> Iterator {
    Iterator(count: count)
  }

  public struct Iterator: AsyncIteratorProtocol {
    var next = 0
    let count: Int

    public mutating func next() async -> Int? {
      guard next < count else { return nil }
      defer { next += 1 }
      return next
    }

    public mutating func next(isolation actor: isolated (any Actor)?) async -> Int? {
      guard next < count else { return nil }
      defer { next += 1 }
      return next
    }
  }
}
