//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// What every driver keeps under its lock, and the one place that decides
/// arm, disarm and deliver: a policy, its one armed deadline, an outbox of
/// what the policy emitted, and whether the driver was shut down.
///
/// Pure: it reads no clock and touches no timer. Each event is told the
/// instant, and answers what to do with the driver's timer (a
/// ``TimerCommand``); the shell applies that to its own timer: a pacer or a
/// paced sequence to its scheduler slot (``TimerScheduler/follow(_:owner:fire:)``),
/// a keyed driver to its key's entry in one shared structure. The shells add
/// only what is theirs: a closure pacer (``PacerDriver``) drains the outbox
/// into a handler, a paced sequence (``PacedSequenceStorage``) into `next()`.
/// Every method runs under the shell's lock; none calls user code or resumes
/// a continuation.
///
/// The timer follows ``PacingStateMachine``'s deadline contract:
/// - A deadline earlier than the armed one is armed at once.
/// - A later one leaves the armed timer alone (the hot path of a debounce:
///   a send that only moves the deadline later arms nothing); the timer then
///   fires early, the policy answers `.none`, and the core arms it again.
/// - No deadline disarms the timer, so a settled driver holds none.
///
/// Every firing is handled the same way, early, late or stale: the policy is
/// asked as of now and the timer re-armed for its deadline. A shell keeps
/// one timer per core, so re-arming never duplicates one.
@usableFromInline
struct DriverCore<Machine: PacingStateMachine> where Machine.Instant == DriverInstant {
  @usableFromInline typealias Value = Machine.Value

  // Laid out for size, since a program may hold a driver per document or per
  // user: the optional deadline's tag and the flags share its tail padding,
  // and so can the shell's own small fields after the core.
  @usableFromInline var machine: Machine
  /// Emitted and not yet delivered, oldest first.
  @usableFromInline var outbox: [PacingEvent<Value>] = []
  /// The deadline the shell holds a timer for, if any.
  @usableFromInline var armed = ArmedDeadline()
  /// Whether the policy has emitted its finish or failure (it is in the outbox
  /// or was delivered).
  @usableFromInline var isTerminated = false
  /// Whether what it emitted to end was a failure.
  @usableFromInline var isFailed = false
  /// Whether the driver was shut down: nothing is armed or delivered after.
  @usableFromInline var isShutDown = false

  @usableFromInline
  init(machine: Machine) {
    self.machine = machine
  }

  /// Puts what `action` emits in the outbox, then makes the timer follow the
  /// policy's deadline.
  @inlinable
  mutating func apply(_ action: PacingAction<Value>) -> DriverStep {
    let timer = followDeadline()
    guard !action.isEmpty, !isShutDown else { return DriverStep(emitted: false, timer: timer) }
    if action.terminates {
      isTerminated = true
      if case .failure = action.last { isFailed = true }
    }
    outbox.append(contentsOf: action)
    return DriverStep(emitted: true, timer: timer)
  }

  /// Arms, moves or disarms the timer for the policy's deadline.
  @inlinable
  mutating func followDeadline() -> TimerCommand? {
    armed.follow(isShutDown ? nil : machine.deadline)
  }

  /// The armed timer fired at `now` (or one that was moved, or let go, did):
  /// asks the policy as of now, puts what it emits in the outbox and follows
  /// its new deadline.
  ///
  /// A policy that neither acts nor moves a deadline already past breaks its
  /// contract; it is not re-armed until its next event, so that it cannot
  /// spin the timer (on Linux, the thread every pacer shares). The marble
  /// runner applies the same rule.
  @inlinable
  mutating func timerFired(at now: DriverInstant) -> DriverStep {
    armed.fired()
    guard let action = machine.driverTimerFired(at: now) else { return DriverStep(emitted: false, timer: nil) }
    return apply(action)
  }

  /// Lets the timer go, if one is armed.
  @inlinable
  mutating func disarm() -> TimerCommand? {
    armed.disarm()
  }

  /// The driver is gone or cancelled: nothing more is armed, and the value
  /// the policy holds is dropped. What the policy already emitted (a flush, a
  /// finish, a leading edge, a timer that fired) is dropped too, unless
  /// `keepingEmitted`: a pacer released by its user still delivers it.
  @inlinable
  mutating func shutDown(keepingEmitted: Bool = false) -> TimerCommand? {
    isShutDown = true
    if !keepingEmitted { outbox.removeAll() }
    return disarm()
  }

  /// Takes the oldest event of the outbox, if any.
  @inlinable
  mutating func takeNext() -> PacingEvent<Value>? {
    outbox.isEmpty ? nil : outbox.removeFirst()
  }

  /// Whether a value waits: in the policy, or emitted and not yet delivered.
  @inlinable
  var hasPendingValue: Bool {
    machine.hasPendingValue || outbox.contains { !$0.isTerminal }
  }
}

extension PacingStateMachine where Instant == DriverInstant {
  /// The timer armed for this policy fired at `now`: asks the policy as of
  /// now. `nil` when it neither acts nor moves a deadline already past,
  /// which breaks its contract: its driver then does not arm it again until
  /// its next event, so that it cannot spin the timer. Every driver (a
  /// ``DriverCore``, each key of a keyed driver) fires its policies through it.
  @inlinable
  mutating func driverTimerFired(at now: DriverInstant) -> PacingAction<Value>? {
    let before = deadline
    let action = timerFired(at: now)
    if action.isEmpty, let deadline, deadline == before, deadline <= now { return nil }
    return action
  }
}

/// What one event of a ``DriverCore`` asks of its shell.
@usableFromInline
struct DriverStep {
  /// Whether the outbox received anything: the shell delivers it.
  @usableFromInline let emitted: Bool
  /// What to do with the shell's timer, if anything.
  @usableFromInline let timer: TimerCommand?

  @inlinable
  init(emitted: Bool, timer: TimerCommand?) {
    self.emitted = emitted
    self.timer = timer
  }
}
