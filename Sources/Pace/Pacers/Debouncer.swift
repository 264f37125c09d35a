//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A pacer that calls its handler once things settle: with the last value of
/// each burst of ``Pacer/send(_:)`` calls, optionally also with the first, and
/// at least every `maxWait` while a burst goes on.
///
/// ```swift
/// let search = Debouncer<String>(for: .milliseconds(300)) { query in print("search", query) }
///
/// @MainActor final class SearchViewModel {
///   var query = ""
///   private lazy var search = Pacer(.debounce(for: .milliseconds(300)), owner: self) {
///     @MainActor (model, text: String) in
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
  /// The same as `Pacer(.debounce(for: interval, edges: edges))`, which also
  /// takes an owner or an `async` handler.
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
    self.init(machine: .debounce(for: interval, edges: edges), clock: clock, delivery: delivery, handler: .isolated(handler))
  }
}

extension PacingStateMachine {
  /// A debounce for a pacer: emits once things settle; see ``DebounceStateMachine``.
  ///
  ///     let saves = Pacer(.debounce(for: .seconds(1), edges: .trailing(maxWait: .seconds(10))), owner: self) {
  ///       (store, draft: String) in store.persist(draft)
  ///     }
  ///
  /// - Parameters:
  ///   - interval: The quiet period that ends a burst; a negative one counts as zero.
  ///   - edges: Which values of a burst are emitted: the last by default.
  public static func debounce<V>(
    for interval: Duration, edges: DebounceEdges<Duration> = .default
  ) -> Self where Self == DebounceStateMachine<V, DriverInstant> {
    DebounceStateMachine(interval: DriverDuration(interval), edges: edges.map(DriverDuration.init))
  }
}
