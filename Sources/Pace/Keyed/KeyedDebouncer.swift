//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A keyed debounce: each key's values settle on their own
/// (``KeyedPacer`` with ``DebounceStateMachine``).
///
/// ```swift
/// let autosave = KeyedDebouncer<UUID, String>(for: .seconds(1)) { document, text in
///   store.save(text, for: document)   // once per document, when its edits settle
/// }
/// autosave.send(text, for: documentID)
/// ```
public typealias KeyedDebouncer<Key: Hashable & Sendable, Value: Sendable> =
  KeyedPacer<Key, DebounceStateMachine<Value, DriverInstant>>

extension KeyedPacer {
  /// Creates a keyed debouncer; the handler runs on the isolation it was
  /// created in.
  ///
  ///     let saves = KeyedDebouncer<Int, String>(for: .milliseconds(500)) { id, draft in print(id, draft) }
  ///
  /// The same as `KeyedPacer(.debounce(for: interval, edges: edges))`, which
  /// also takes an owner or an `async` handler.
  ///
  /// - Parameters:
  ///   - interval: The quiet period that ends a key's burst; a negative one counts as zero.
  ///   - edges: Which values of a key's burst the handler gets: the last by default.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - delivery: Where a timer's emissions run the handler: off the timer's thread by default.
  ///   - handler: Called with the key and each value its policy emits, on the creator's isolation.
  public convenience init<V, C: Clock>(
    for interval: Duration,
    edges: DebounceEdges<Duration> = .default,
    clock: C = ContinuousClock(),
    delivery: PacerDelivery = .separate,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (Key, V) -> Void
  ) where C.Duration == Duration, Machine == DebounceStateMachine<V, DriverInstant> {
    self.init(.debounce(for: interval, edges: edges), clock: clock, delivery: delivery, handler: handler)
  }
}
