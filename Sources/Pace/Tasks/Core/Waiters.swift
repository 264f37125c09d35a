//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The callers that wait for one execution, in the order they came. Most
/// executions have one (latest wins) or none (a handler), so the first is
/// kept inline; a list is made only when a second joins, and it grows in
/// place (stored properties, not an enum's payload, which would be copied
/// on each append).
@usableFromInline
package struct Waiters<Success: Sendable>: Sendable {
  @usableFromInline var first: Waiter<Success>?
  @usableFromInline var rest: [Waiter<Success>] = []

  @inlinable
  package init(_ first: Waiter<Success>?) {
    self.first = first
  }

  @inlinable
  package var isEmpty: Bool { first == nil }

  @inlinable
  package var count: Int { first == nil ? 0 : 1 + rest.count }

  @inlinable
  package mutating func append(_ waiter: Waiter<Success>) {
    guard first != nil else {
      first = waiter
      return
    }
    // Joiners come in bursts: room for a few at once, not one by one.
    if rest.isEmpty { rest.reserveCapacity(4) }
    rest.append(waiter)
  }

  /// Whether `caller` waits here.
  @inlinable
  package func contains(_ caller: CallerIdentity) -> Bool {
    first?.caller == caller || rest.contains { $0.caller == caller }
  }

  /// Takes out the waiter of `caller`, if it waits here.
  @inlinable
  package mutating func remove(_ caller: CallerIdentity) -> Waiter<Success>? {
    if let waiter = first, waiter.caller == caller {
      first = rest.isEmpty ? nil : rest.removeFirst()
      return waiter
    }
    guard let index = rest.firstIndex(where: { $0.caller == caller }) else { return nil }
    return rest.remove(at: index)
  }

  /// Answers every waiter with `result`.
  @inlinable
  package func resume(with result: Result<Success, any Error>) {
    first?.resume(with: result)
    for waiter in rest { waiter.resume(with: result) }
  }

  /// Answers every waiter with `CancellationError`.
  @inlinable
  package func lose() {
    first?.lose()
    for waiter in rest { waiter.lose() }
  }
}
