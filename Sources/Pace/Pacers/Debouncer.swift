//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A pacer that calls its handler once things settle: with the last value of
/// each burst of ``Pacer/send(_:)`` calls, optionally also with the first, and
/// at least every `maxWait` while a burst goes on.
///
/// ```swift
/// @MainActor final class SearchViewModel {
///   var query = ""
///   private lazy var search = Debouncer<String>(for: .milliseconds(300), owner: self) { @MainActor model, text in
///     model.query = text          // on the main actor, with the model, which the pacer holds weakly
///   }
///   func textChanged(_ text: String) { search.send(text) }
/// }
/// ```
///
///     send:     a-b-c-----d----|        (finish)
///     handler:  -------c-----d-|        (interval: 3 steps)
///
/// The timing is ``DebounceStateMachine``'s, exactly; see <doc:Debounce>.
public typealias Debouncer<Value: Sendable> = Pacer<DebounceStateMachine<Value, DriverInstant>>

extension Pacer {
  /// Creates a debouncer; the handler runs on the isolation it was created in.
  ///
  ///     let search = Debouncer<String>(for: .milliseconds(300)) { query in print(query) }
  ///
  /// - Parameters:
  ///   - interval: The quiet period that ends a burst; a negative one counts as zero.
  ///   - edges: Which values of a burst the handler gets: the last by default.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - delivery: Where a timer's emissions run the handler: off the timer's thread by default.
  ///   - handler: Called with each value the policy emits, on the creator's isolation.
  public convenience init<V, C: Clock>(
    for interval: Duration,
    edges: DebounceEdges<Duration> = .default,
    clock: C = ContinuousClock(),
    delivery: PacerDelivery = .separate,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (V) -> Void
  ) where C.Duration == Duration, Machine == DebounceStateMachine<V, DriverInstant> {
    self.init(
      machine: DebounceStateMachine(interval: DriverDuration(interval), edges: edges.map(DriverDuration.init)),
      clock: clock, delivery: delivery, handler: .isolated(handler))
  }

  /// Creates a debouncer for an actor that owns it: the handler runs on the
  /// actor, with the actor as an `isolated` parameter, which the pacer holds
  /// weakly. No cycle, no `await` in the handler, and once the actor is gone
  /// the handler is not called again.
  ///
  ///     actor DraftStore {
  ///       private lazy var saves = Debouncer<String>(for: .seconds(1), owner: self) { store, draft in
  ///         store.persist(draft)
  ///       }
  ///     }
  ///
  /// - Parameters:
  ///   - interval: The quiet period that ends a burst; a negative one counts as zero.
  ///   - edges: Which values of a burst the handler gets: the last by default.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - delivery: Where a timer's emissions run the handler: off the timer's thread by default.
  ///   - owner: The actor the handler runs on; held weakly.
  ///   - handler: Called with the owner and each value the policy emits.
  public convenience init<V, C: Clock, Owner: Actor>(
    for interval: Duration,
    edges: DebounceEdges<Duration> = .default,
    clock: C = ContinuousClock(),
    delivery: PacerDelivery = .separate,
    owner: Owner,
    handler: @escaping @Sendable (isolated Owner, V) -> Void
  ) where C.Duration == Duration, Machine == DebounceStateMachine<V, DriverInstant> {
    self.init(
      machine: DebounceStateMachine(interval: DriverDuration(interval), edges: edges.map(DriverDuration.init)),
      clock: clock, delivery: delivery, handler: .owned(by: owner, handler))
  }

  /// Creates a debouncer for an object that owns it (a main-actor model, any
  /// `Sendable` class): the handler gets the owner, which the pacer holds
  /// weakly, and runs on its own isolation (mark it `@MainActor` for a
  /// main-actor model).
  ///
  ///     @MainActor final class SearchViewModel {
  ///       var query = ""
  ///       private lazy var search = Debouncer<String>(for: .milliseconds(300), owner: self) {
  ///         @MainActor model, text in model.query = text
  ///       }
  ///     }
  ///
  /// - Parameters:
  ///   - interval: The quiet period that ends a burst; a negative one counts as zero.
  ///   - edges: Which values of a burst the handler gets: the last by default.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - delivery: Where a timer's emissions run the handler: off the timer's thread by default.
  ///   - owner: The object handed to the handler; held weakly.
  ///   - handler: Called with the owner and each value the policy emits, on its isolation.
  public convenience init<V, C: Clock, Owner: AnyObject & Sendable>(
    for interval: Duration,
    edges: DebounceEdges<Duration> = .default,
    clock: C = ContinuousClock(),
    delivery: PacerDelivery = .separate,
    owner: Owner,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (Owner, V) -> Void
  ) where C.Duration == Duration, Machine == DebounceStateMachine<V, DriverInstant> {
    self.init(
      machine: DebounceStateMachine(interval: DriverDuration(interval), edges: edges.map(DriverDuration.init)),
      clock: clock, delivery: delivery, handler: .owned(by: owner, handler))
  }
}
