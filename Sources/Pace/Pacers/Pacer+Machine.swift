//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

extension Pacer {
  /// Creates a pacer that runs a policy of your own; the handler runs on the isolation it was created in.
  ///
  ///     let pacer = Pacer(machine: MyPolicy<String, DriverInstant>()) { value in print(value) }
  ///
  /// - Parameters:
  ///   - machine: The policy, any ``PacingStateMachine`` on ``DriverInstant``s.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - delivery: Where a timer's emissions run the handler: off the timer's thread by default.
  ///   - handler: Called with each value the policy emits, on the creator's isolation.
  public convenience init<C: Clock>(
    machine: Machine,
    clock: C = ContinuousClock(),
    delivery: PacerDelivery = .separate,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (Value) -> Void
  ) where C.Duration == Duration {
    self.init(
      machine: machine,
      clock: clock, delivery: delivery, handler: .isolated(handler))
  }

  /// Creates a pacer that runs a policy of your own for an actor that owns it: the handler runs on the
  /// actor, with the actor as an `isolated` parameter, which the pacer holds
  /// weakly. No cycle, no `await` in the handler, and once the actor is gone
  /// the handler is not called again.
  ///
  ///     actor Store {
  ///       private lazy var saves = Pacer(machine: MyPolicy<String, DriverInstant>(), owner: self) {
  ///         store, value in store.persist(value)
  ///       }
  ///     }
  ///
  /// - Parameters:
  ///   - machine: The policy, any ``PacingStateMachine`` on ``DriverInstant``s.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - delivery: Where a timer's emissions run the handler: off the timer's thread by default.
  ///   - owner: The actor the handler runs on; held weakly.
  ///   - handler: Called with the owner and each value the policy emits.
  public convenience init<C: Clock, Owner: Actor>(
    machine: Machine,
    clock: C = ContinuousClock(),
    delivery: PacerDelivery = .separate,
    owner: Owner,
    handler: @escaping @Sendable (isolated Owner, Value) -> Void
  ) where C.Duration == Duration {
    self.init(
      machine: machine,
      clock: clock, delivery: delivery, handler: .owned(by: owner, handler))
  }

  /// Creates a pacer that runs a policy of your own for an object that owns it (a main-actor model, any
  /// `Sendable` class): the handler gets the owner, which the pacer holds
  /// weakly, and runs on its own isolation (mark it `@MainActor` for a
  /// main-actor model).
  ///
  ///     @MainActor final class Model {
  ///       var text = ""
  ///       private lazy var edits = Pacer(machine: MyPolicy<String, DriverInstant>(), owner: self) {
  ///         @MainActor model, text in model.text = text
  ///       }
  ///     }
  ///
  /// - Parameters:
  ///   - machine: The policy, any ``PacingStateMachine`` on ``DriverInstant``s.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - delivery: Where a timer's emissions run the handler: off the timer's thread by default.
  ///   - owner: The object handed to the handler; held weakly.
  ///   - handler: Called with the owner and each value the policy emits, on its isolation.
  public convenience init<C: Clock, Owner: AnyObject & Sendable>(
    machine: Machine,
    clock: C = ContinuousClock(),
    delivery: PacerDelivery = .separate,
    owner: Owner,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (Owner, Value) -> Void
  ) where C.Duration == Duration {
    self.init(
      machine: machine,
      clock: clock, delivery: delivery, handler: .owned(by: owner, handler))
  }
}
