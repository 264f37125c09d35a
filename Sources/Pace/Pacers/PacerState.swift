//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Everything a ``PacerCore`` holds, behind its lock.
///
/// Laid out for size, since a program may hold a pacer per document or per
/// user: the flags come right after the machine, where they fill its tail
/// padding, and the clock is a class reference.
@usableFromInline
struct PacerState<Machine: ControllableStateMachine> where Machine.Instant == DriverInstant, Machine.Value: Sendable {
  @usableFromInline typealias Value = Machine.Value
  @usableFromInline typealias HandlerFunction = @Sendable @isolated(any) (Value) -> Void

  /// The user's handler, in a struct so that it leaves the lock as it is:
  /// a bare function returned through `withLock`'s generic result is
  /// re-abstracted, which allocates a thunk on the way out of the lock and
  /// another on the way back (four allocations per firing, before this).
  @usableFromInline
  struct Handler: Sendable {
    @usableFromInline let function: HandlerFunction

    /// The actor the handler runs on, or `nil` for none.
    @inlinable var isolation: (any Actor)? { function.isolation }
  }

  @usableFromInline var machine: Machine
  /// Whether the clock holds a timer for this pacer.
  @usableFromInline var isTimerArmed = false
  /// Whether a delivery is draining the outbox.
  @usableFromInline var isDelivering = false
  /// Whether the policy has delivered its finish.
  @usableFromInline var isTerminated = false
  /// Whether the pacer was released; nothing is delivered after that.
  @usableFromInline var isShutDown = false
  /// Emitted values not yet handed to the handler, oldest first.
  @usableFromInline var outbox: [Value] = []
  @usableFromInline let clock: any DriverClock
  @usableFromInline let handler: Handler
  /// Tasks waiting until everything emitted has been delivered.
  @usableFromInline var settledWaiters: [CheckedContinuation<Void, Never>] = []

  init(machine: Machine, clock: any DriverClock, handler: @escaping HandlerFunction) {
    self.machine = machine
    self.clock = clock
    self.handler = Handler(function: handler)
  }

  var isSettled: Bool { !isDelivering && outbox.isEmpty }
}
