//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

extension Pacer {
  /// Creates a pacer that runs a chain of stages; the handler runs on the isolation it was created in.
  ///
  ///     let search = Pacer(stages: .distinct(), .debounce(for: .milliseconds(300))) { (query: String) in
  ///       print(query)
  ///     }
  ///
  /// - Parameters:
  ///   - stages: The stages, each feeding the next, with the timing contract's semantics.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - delivery: Where a timer's emissions run the handler: off the timer's thread by default.
  ///   - handler: Called with each value the policy emits, on the creator's isolation.
  public convenience init<V, C: Clock>(
    stages: PacingStage<V>...,
    clock: C = ContinuousClock(),
    delivery: PacerDelivery = .separate,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (V) -> Void
  ) where C.Duration == Duration, Machine == PacingPipeline<V, DriverInstant> {
    self.init(
      machine: PacingPipeline(stages: stages, converting: DriverDuration.init),
      clock: clock, delivery: delivery, handler: .isolated(handler))
  }

  /// Creates a pacer that runs a chain of stages for an actor that owns it: the handler runs on the
  /// actor, with the actor as an `isolated` parameter, which the pacer holds
  /// weakly. No cycle, no `await` in the handler, and once the actor is gone
  /// the handler is not called again.
  ///
  ///     actor SearchIndex {
  ///       private lazy var updates = Pacer(stages: .distinct(), .debounce(for: .seconds(1)), owner: self) {
  ///         (index, term: String) in index.reindex(term)
  ///       }
  ///     }
  ///
  /// - Parameters:
  ///   - stages: The stages, each feeding the next, with the timing contract's semantics.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - delivery: Where a timer's emissions run the handler: off the timer's thread by default.
  ///   - owner: The actor the handler runs on; held weakly.
  ///   - handler: Called with the owner and each value the policy emits.
  public convenience init<V, C: Clock, Owner: Actor>(
    stages: PacingStage<V>...,
    clock: C = ContinuousClock(),
    delivery: PacerDelivery = .separate,
    owner: Owner,
    handler: @escaping @Sendable (isolated Owner, V) -> Void
  ) where C.Duration == Duration, Machine == PacingPipeline<V, DriverInstant> {
    self.init(
      machine: PacingPipeline(stages: stages, converting: DriverDuration.init),
      clock: clock, delivery: delivery, handler: .owned(by: owner, handler))
  }

  /// Creates a pacer that runs a chain of stages for an object that owns it (a main-actor model, any
  /// `Sendable` class): the handler gets the owner, which the pacer holds
  /// weakly, and runs on its own isolation (mark it `@MainActor` for a
  /// main-actor model).
  ///
  ///     @MainActor final class SearchViewModel {
  ///       var query = ""
  ///       private lazy var search = Pacer(stages: .distinct(), .debounce(for: .milliseconds(300)), owner: self) {
  ///         @MainActor (model, text: String) in model.query = text
  ///       }
  ///     }
  ///
  /// - Parameters:
  ///   - stages: The stages, each feeding the next, with the timing contract's semantics.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - delivery: Where a timer's emissions run the handler: off the timer's thread by default.
  ///   - owner: The object handed to the handler; held weakly.
  ///   - handler: Called with the owner and each value the policy emits, on its isolation.
  public convenience init<V, C: Clock, Owner: AnyObject & Sendable>(
    stages: PacingStage<V>...,
    clock: C = ContinuousClock(),
    delivery: PacerDelivery = .separate,
    owner: Owner,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (Owner, V) -> Void
  ) where C.Duration == Duration, Machine == PacingPipeline<V, DriverInstant> {
    self.init(
      machine: PacingPipeline(stages: stages, converting: DriverDuration.init),
      clock: clock, delivery: delivery, handler: .owned(by: owner, handler))
  }

  /// Creates a pacer that runs a chain of stages given as an array (built at
  /// run time, for instance parsed from text).
  ///
  ///     let stages = try PacingStage<String>.parse(["distinct", "debounce", "300ms"], durations: .withUnits)
  ///     let pacer = Pacer(stages: stages) { line in print(line) }
  ///
  /// - Parameters:
  ///   - stages: The stages, each feeding the next, with the timing contract's semantics.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - delivery: Where a timer's emissions run the handler: off the timer's thread by default.
  ///   - handler: Called with each value the policy emits, on the creator's isolation.
  public convenience init<V, C: Clock>(
    stages: [PacingStage<V>],
    clock: C = ContinuousClock(),
    delivery: PacerDelivery = .separate,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (V) -> Void
  ) where C.Duration == Duration, Machine == PacingPipeline<V, DriverInstant> {
    self.init(
      machine: PacingPipeline(stages: stages, converting: DriverDuration.init),
      clock: clock, delivery: delivery, handler: .isolated(handler))
  }
}
