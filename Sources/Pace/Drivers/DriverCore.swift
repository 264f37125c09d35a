//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// What every driver keeps under its lock, and the one place that decides
/// arm, disarm and deliver: a policy, its one armed deadline, an outbox of
/// what the policy emitted, and whether the driver was shut down.
///
/// The shells add only what is theirs: a closure pacer (``PacerDriver``)
/// drains the outbox into a handler, a paced sequence
/// (``PacedSequenceStorage``) into `next()`. Every method runs under the
/// shell's lock; none calls user code or resumes a continuation.
///
/// The timer follows ``PacingStateMachine``'s deadline contract:
/// - A deadline earlier than the armed one is armed at once.
/// - A later one leaves the armed timer alone (the hot path of a debounce:
///   a send that only moves the deadline later arms nothing); the timer then
///   fires early, the policy answers `.none`, and the core arms it again.
/// - No deadline disarms the timer, so a settled driver holds none.
///
/// Every firing is handled the same way, early, late or stale: the policy is
/// asked as of now and the timer re-armed for its deadline. The scheduler
/// keeps one timer per owner, so re-arming never duplicates one.
@usableFromInline
struct DriverCore<Machine: PacingStateMachine> where Machine.Instant == DriverInstant {
  @usableFromInline typealias Value = Machine.Value

  // Laid out for size, since a program may hold a driver per document or per
  // user: the optional deadline's tag and the flags share its tail padding,
  // and so can the shell's own small fields after the core.
  @usableFromInline var machine: Machine
  @usableFromInline let scheduler: TimerScheduler
  /// Emitted and not yet delivered, oldest first.
  @usableFromInline var outbox: [PacingEvent<Value>] = []
  /// The deadline the scheduler holds a timer for, if any.
  @usableFromInline var armedDeadline: DriverInstant?
  /// Whether the policy has emitted its finish or failure (it is in the outbox
  /// or was delivered).
  @usableFromInline var isTerminated = false
  /// Whether what it emitted to end was a failure.
  @usableFromInline var isFailed = false
  /// Whether the driver was shut down: nothing is armed or delivered after.
  @usableFromInline var isShutDown = false

  @usableFromInline
  init(machine: Machine, scheduler: TimerScheduler) {
    self.machine = machine
    self.scheduler = scheduler
  }

  /// The current instant of the driver's clock.
  @inlinable
  var now: DriverInstant { scheduler.now }

  /// Puts what `action` emits in the outbox, then makes the timer follow the
  /// policy's deadline; returns whether the outbox received anything.
  @inlinable
  mutating func apply(_ action: PacingAction<Value>, owner: AnyObject, fire: @escaping TimerCallback) -> Bool {
    followDeadline(owner: owner, fire: fire)
    guard !action.isEmpty, !isShutDown else { return false }
    if action.terminates {
      isTerminated = true
      if case .failure = action.last { isFailed = true }
    }
    outbox.append(contentsOf: action)
    return true
  }

  /// Arms, moves or disarms the timer for the policy's deadline.
  @inlinable
  mutating func followDeadline(owner: AnyObject, fire: @escaping TimerCallback) {
    guard !isShutDown, let deadline = machine.deadline else {
      disarm(owner: owner)
      return
    }
    if let armed = armedDeadline, armed <= deadline { return }  // It fires early, then re-arms.
    armedDeadline = deadline
    scheduler.arm(TimerOwner(owner), at: deadline, fire: fire)
  }

  /// The armed timer fired (or one that was moved, or let go, did): asks the
  /// policy as of now, puts what it emits in the outbox and follows its new
  /// deadline; returns whether the outbox received anything.
  ///
  /// A policy that neither acts nor moves a deadline already past breaks its
  /// contract; it is not re-armed until its next event, so that it cannot
  /// spin the timer (on Linux, the thread every pacer shares). The marble
  /// runner applies the same rule.
  @inlinable
  mutating func timerFired(owner: AnyObject, fire: @escaping TimerCallback) -> Bool {
    armedDeadline = nil
    let before = machine.deadline
    let now = self.now
    let action = machine.timerFired(at: now)
    if action.isEmpty, let deadline = machine.deadline, deadline == before, deadline <= now { return false }
    return apply(action, owner: owner, fire: fire)
  }

  /// Lets the timer go, if one is armed.
  @inlinable
  mutating func disarm(owner: AnyObject) {
    guard armedDeadline != nil else { return }
    armedDeadline = nil
    scheduler.disarm(ObjectIdentifier(owner))
  }

  /// The driver is gone or cancelled: nothing more is armed or delivered.
  @inlinable
  mutating func shutDown(owner: AnyObject) {
    isShutDown = true
    outbox.removeAll()
    disarm(owner: owner)
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
