//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The callers that wait for one execution, in the order they came. Most
/// executions have one (latest wins) or none (a handler), so one is kept
/// inline and a list is made only when a second joins.
@usableFromInline
package enum Waiters<Success: Sendable>: Sendable {
  case none
  case one(Waiter<Success>)
  case many([Waiter<Success>])

  @inlinable
  package init(_ first: Waiter<Success>?) {
    self = first.map(Waiters.one) ?? .none
  }

  @inlinable
  package var isEmpty: Bool {
    switch self {
    case .none: true
    case .one: false
    case .many(let list): list.isEmpty
    }
  }

  @inlinable
  package var count: Int {
    switch self {
    case .none: 0
    case .one: 1
    case .many(let list): list.count
    }
  }

  @inlinable
  package mutating func append(_ waiter: Waiter<Success>) {
    switch self {
    case .none:
      self = .one(waiter)
    case .one(let first):
      // Joiners come in bursts: room for a few at once, not one by one.
      var list: [Waiter<Success>] = []
      list.reserveCapacity(4)
      list.append(first)
      list.append(waiter)
      self = .many(list)
    case .many(var list):
      self = .none  // The list is uniquely referenced while it grows.
      list.append(waiter)
      self = .many(list)
    }
  }

  /// Whether `caller` waits here.
  @inlinable
  package func contains(_ caller: CallerIdentity) -> Bool {
    switch self {
    case .none: false
    case .one(let waiter): waiter.caller == caller
    case .many(let list): list.contains { $0.caller == caller }
    }
  }

  /// Takes out the waiter of `caller`, if it waits here.
  @inlinable
  package mutating func remove(_ caller: CallerIdentity) -> Waiter<Success>? {
    switch self {
    case .none:
      return nil
    case .one(let waiter):
      guard waiter.caller == caller else { return nil }
      self = .none
      return waiter
    case .many(var list):
      guard let index = list.firstIndex(where: { $0.caller == caller }) else { return nil }
      self = .none
      let waiter = list.remove(at: index)
      self = .many(list)
      return waiter
    }
  }

  /// Answers every waiter with `result`.
  @inlinable
  package func resume(with result: Result<Success, any Error>) {
    switch self {
    case .none: break
    case .one(let waiter): waiter.resume(with: result)
    case .many(let list): for waiter in list { waiter.resume(with: result) }
    }
  }

  /// Answers every waiter with `CancellationError`.
  @inlinable
  package func lose() {
    switch self {
    case .none: break
    case .one(let waiter): waiter.lose()
    case .many(let list): for waiter in list { waiter.lose() }
    }
  }
}
