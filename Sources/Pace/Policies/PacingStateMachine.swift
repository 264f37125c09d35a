//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A pure description of one operator's timing: told what happened and when,
/// it answers what to deliver and when it next needs to be woken.
///
/// A state machine never reads a clock, takes a lock, starts a task or
/// allocates, and the timed policies call no user code (a filter or distinct
/// stage calls the predicate it was given, nothing else). Every driver — the
/// closure pacers, the `AsyncSequence` operators, the command-line tool and
/// the marble runner of `PaceTesting` — runs the same machines, so they cannot
/// disagree. The contract the machines implement is written as marble diagrams
/// in <doc:TimingContract>.
///
///     var debounce = DebounceStateMachine<String, ContinuousClock.Instant>(interval: .milliseconds(300))
///     let start = ContinuousClock.now
///     _ = debounce.valueReceived("swi", at: start)                           // .none
///     _ = debounce.valueReceived("swift", at: start + .milliseconds(100))     // .none
///     debounce.deadline                                                       // start + 400 ms
///     _ = debounce.timerFired(at: start + .milliseconds(400))                 // .emit("swift")
///
/// ## The deadline contract
///
/// After every event a driver reads ``deadline`` and keeps one timer for it.
/// Any event may move the deadline, later or earlier:
/// - A driver arms its timer again when the deadline moves *earlier* than the
///   armed one, so a machine is always woken on time.
/// - When it moves *later*, a driver may leave the armed timer alone. The
///   timer then fires early, and the machine must answer ``PacingAction/none``
///   to a ``timerFired(at:)`` before its deadline; the driver then re-arms.
/// - Firing after the deadline acts as of the instant given.
/// - The deadline changes only when the machine handles an event: it is a
///   function of the machine's state, which only its mutating methods change.
///   Drivers read it once after each event and keep it (``PacingPipeline``
///   keeps each stage's), so a machine whose deadline moved on its own, such
///   as one that reads a clock or shares state through a class, would be
///   woken at the wrong time.
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

  /// Whether a value waits to be emitted. `false` by default.
  var hasPendingValue: Bool { get }

  /// Whether the machine holds nothing that a new one, made with the same
  /// options, would not: a driver that keeps a machine per key may then
  /// discard it, and make a new one for the key's next value, with no change
  /// to any output. `false` by default, which is always safe: such a
  /// machine is kept for as long as its driver. A debounce is discardable
  /// when no burst goes on, a throttle once its window has ended.
  var isDiscardable: Bool { get }

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

  /// The user asked for the pending value now (a pacer's `flush()`). Nothing
  /// happens by default.
  mutating func flushRequested(at now: Instant) -> PacingAction<Value>

  /// The user dropped the pending value at `now` (a pacer's `cancel()`). What was
  /// already emitted is not taken back. Nothing happens by default.
  mutating func cancelled(at now: Instant) -> PacingAction<Value>
}

extension PacingStateMachine {
  /// No value waits.
  @inlinable
  public var hasPendingValue: Bool { false }

  /// Kept: nothing says a new machine would behave the same.
  @inlinable
  public var isDiscardable: Bool { false }

  /// Nothing happens at the start of the input.
  @inlinable
  public mutating func started(at now: Instant) -> PacingAction<Value> { .none }

  /// Nothing to flush.
  @inlinable
  public mutating func flushRequested(at now: Instant) -> PacingAction<Value> { .none }

  /// Nothing to cancel.
  @inlinable
  public mutating func cancelled(at now: Instant) -> PacingAction<Value> { .none }
}
