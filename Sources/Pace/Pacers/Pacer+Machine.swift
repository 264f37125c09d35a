//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

// A pacer is a policy and a handler. The policy is a value — `.debounce(for:)`,
// `.throttle(for:)`, `.stages(…)` or a machine of your own — so these three
// handler shapes, and their `async` twins in Pacer+AsyncHandlers.swift, serve
// every operator: a new operator adds a static member, never an initialiser.

extension Pacer {
  /// Creates a pacer that runs `machine`; the handler runs on the isolation it was created in.
  ///
  ///     let search = Pacer(.debounce(for: .milliseconds(300))) { (query: String) in print(query) }
  ///     let scroll = Pacer(.throttle(for: .milliseconds(100))) { (offset: Double) in print(offset) }
  ///     let edits = Pacer(.stages(.distinct(), .debounce(for: .seconds(1)))) { (text: String) in print(text) }
  ///     let custom = Pacer(DebounceStateMachine(interval: .milliseconds(300))) { (text: String) in print(text) }
  ///
  /// - Parameters:
  ///   - machine: The policy: ``PacingStateMachine/debounce(for:edges:)``,
  ///     ``PacingStateMachine/throttle(for:edges:)``,
  ///     ``PacingStateMachine/stages(_:)-(PacingStage<V>...)``, or a
  ///     ``PacingStateMachine`` of your own.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - delivery: Where a timer's emissions run the handler: off the timer's thread by default.
  ///   - handler: Called with each value the policy emits, on the creator's isolation.
  public convenience init<C: Clock>(
    _ machine: Machine,
    clock: C = ContinuousClock(),
    delivery: PacerDelivery = .separate,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (Value) -> Void
  ) where C.Duration == Duration {
    self.init(machine: machine, clock: clock, delivery: delivery, handler: .isolated(handler))
  }

  /// Creates a pacer that runs `machine` for an actor that owns it: the
  /// handler runs on the actor, with the actor as an `isolated` parameter,
  /// which the pacer holds weakly. No cycle, no `await` in the handler, and
  /// once the actor is gone the handler is not called again.
  ///
  ///     actor DraftStore {
  ///       private lazy var saves = Pacer(.debounce(for: .seconds(1)), owner: self) { (store, draft: String) in
  ///         store.persist(draft)
  ///       }
  ///       func persist(_ draft: String) { /* … */ }
  ///     }
  ///
  /// - Parameters:
  ///   - machine: The policy (see ``init(_:clock:delivery:handler:)``).
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - delivery: Where a timer's emissions run the handler: off the timer's thread by default.
  ///   - owner: The actor the handler runs on; held weakly.
  ///   - handler: Called with the owner and each value the policy emits.
  public convenience init<C: Clock, Owner: Actor>(
    _ machine: Machine,
    clock: C = ContinuousClock(),
    delivery: PacerDelivery = .separate,
    owner: Owner,
    handler: @escaping @Sendable (isolated Owner, Value) -> Void
  ) where C.Duration == Duration {
    self.init(machine: machine, clock: clock, delivery: delivery, handler: .owned(by: owner, handler))
  }

  /// Creates a pacer that runs `machine` for an object that owns it (a
  /// main-actor model, any `Sendable` class): the handler gets the owner,
  /// which the pacer holds weakly, and runs on its own isolation (mark it
  /// `@MainActor` for a main-actor model).
  ///
  ///     @MainActor final class SearchViewModel {
  ///       var query = ""
  ///       private lazy var search = Pacer(.debounce(for: .milliseconds(300)), owner: self) {
  ///         @MainActor (model, text: String) in model.query = text
  ///       }
  ///     }
  ///
  /// - Parameters:
  ///   - machine: The policy (see ``init(_:clock:delivery:handler:)``).
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - delivery: Where a timer's emissions run the handler: off the timer's thread by default.
  ///   - owner: The object handed to the handler; held weakly.
  ///   - handler: Called with the owner and each value the policy emits, on its isolation.
  public convenience init<C: Clock, Owner: AnyObject & Sendable>(
    _ machine: Machine,
    clock: C = ContinuousClock(),
    delivery: PacerDelivery = .separate,
    owner: Owner,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (Owner, Value) -> Void
  ) where C.Duration == Duration {
    self.init(machine: machine, clock: clock, delivery: delivery, handler: .owned(by: owner, handler))
  }
}
