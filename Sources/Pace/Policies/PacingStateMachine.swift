//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A pure description of one operator's timing: told what happened and when,
/// it answers what to deliver and when it next needs to be woken.
///
/// A state machine never reads a clock, takes a lock, starts a task, allocates
/// or calls user code. Every driver — the closure pacers, the `AsyncSequence`
/// operators, the command-line tool and the marble runner of `PaceTesting` —
/// runs the same machines, so they cannot disagree. The contract each machine
/// implements is written as marble diagrams in the package's `MARBLES.md`.
///
/// A driver keeps at most one timer per machine. After every event it reads
/// ``deadline``; when the timer fires it calls ``timerFired(at:)`` and re-arms
/// for the new deadline. A timer that fires before the current deadline (because
/// a later value moved it) is harmless: the machine answers ``PacingAction/none``.
///
///     var debounce = try DebounceStateMachine<String, ContinuousClock.Instant>(interval: .milliseconds(300))
///     let start = ContinuousClock.now
///     _ = debounce.valueReceived("swi", at: start)                           // .none
///     _ = debounce.valueReceived("swift", at: start + .milliseconds(100))     // .none
///     debounce.deadline                                                       // start + 400 ms
///     _ = debounce.timerFired(at: start + .milliseconds(400))                 // .emit("swift")
///
/// Once a machine has returned an action that ``PacingAction/terminates``, it
/// ignores every later event and its ``deadline`` is `nil`.
public protocol PacingStateMachine<Value, Instant> {
  /// The type of the values that pass through.
  associatedtype Value
  /// The type of the instants the machine is told about.
  associatedtype Instant: InstantProtocol

  /// The instant at which the machine next needs ``timerFired(at:)``, or `nil`
  /// when it waits for nothing.
  var deadline: Instant? { get }

  /// The input starts at `now`, before any value. Most machines answer
  /// ``PacingAction/none``; `take(0)` finishes here.
  mutating func started(at now: Instant) -> PacingAction<Value>

  /// The input produced `value` at `now`.
  mutating func valueReceived(_ value: Value, at now: Instant) -> PacingAction<Value>

  /// A timer armed for ``deadline`` fired at `now`. Firing before the deadline
  /// does nothing; firing after it acts as of `now`.
  mutating func timerFired(at now: Instant) -> PacingAction<Value>

  /// The input finished at `now`. A machine may delay the finish (a throttle
  /// with a pending value finishes when its window ends).
  mutating func upstreamFinished(at now: Instant) -> PacingAction<Value>

  /// The input failed at `now`. Anything pending is dropped and the machine
  /// answers ``PacingAction/fail`` at once.
  mutating func upstreamFailed(at now: Instant) -> PacingAction<Value>
}

extension PacingStateMachine {
  /// Nothing happens at the start of the input.
  @inlinable
  public mutating func started(at now: Instant) -> PacingAction<Value> { .none }
}
