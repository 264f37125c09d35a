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
  @usableFromInline typealias Handler = @Sendable @isolated(any) (Value) -> Void

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

  init(machine: Machine, clock: any DriverClock, handler: @escaping Handler) {
    self.machine = machine
    self.clock = clock
    self.handler = handler
  }

  var isSettled: Bool { !isDelivering && outbox.isEmpty }
}
