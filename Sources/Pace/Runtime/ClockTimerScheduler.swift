//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Any `Clock<Duration>` as a ``TimerScheduler``, measured from the instant the
/// driver was created.
///
/// Its timers sleep in a task, or run on the clock itself when it is a
/// ``ManualTimerClock``. One instance serves one driver, so it keeps that
/// driver's one timer.
final class ClockTimerScheduler<C: Clock>: TimerScheduler, @unchecked Sendable where C.Duration == Duration {
  // @unchecked Sendable: its state is behind `scheduled`'s lock; the rest is immutable.
  let clock: C
  let epoch: C.Instant
  /// The timer armed by ``arm(_:at:fire:)``, its owner and its callback,
  /// held until it fires or is disarmed (a driver disarms it when it is
  /// released).
  private struct Scheduled {
    /// Tells the armed timer from earlier ones, which may still fire.
    var generation: UInt64 = 0
    var timer: ArmedTimer?
    var fire: (owner: TimerOwner, callback: TimerCallback)?
  }

  private let scheduled = LockedState(Scheduled())

  init(_ clock: C) {
    self.clock = clock
    self.epoch = clock.now
  }

  override var now: DriverInstant {
    DriverInstant(nanoseconds: DriverDuration(epoch.duration(to: clock.now)).nanoseconds)
  }

  override func arm(_ owner: TimerOwner, at deadline: DriverInstant, fire: @escaping TimerCallback) {
    // The callback is in place before the timer is armed, which may fire at once.
    let (generation, previous, replaced) = scheduled.withLock { scheduled in
      scheduled.generation &+= 1
      defer { (scheduled.timer, scheduled.fire) = (nil, (owner, fire)) }
      return (scheduled.generation, scheduled.timer, scheduled.fire)
    }
    release(previous)
    _ = replaced  // Released here, outside the scheduler's lock; the driver holds itself.
    let timer = armTimer(at: deadline) { [self] in fireScheduled(generation) }
    let isStale = scheduled.withLock { scheduled in
      guard scheduled.generation == generation else { return true }  // Fired, moved or disarmed meanwhile.
      scheduled.timer = timer
      return false
    }
    if isStale { timer.cancel() }
  }

  override func disarm(_ owner: ObjectIdentifier) {
    let (previous, fire) = scheduled.withLock { scheduled in
      scheduled.generation &+= 1
      defer { (scheduled.timer, scheduled.fire) = (nil, nil) }
      return (scheduled.timer, scheduled.fire)
    }
    release(previous)
    _ = fire  // Released outside the scheduler's lock; the caller holds the driver, so never its last reference.
  }

  override func deliveryStarted() {
    (clock as? any ManualTimerClock)?.deliveryStarted()
  }

  override func deliveryFinished() {
    (clock as? any ManualTimerClock)?.deliveryFinished()
  }

  /// Cancels a timer that was moved or let go. `arm` and `disarm` run under
  /// the driver's lock, and cancelling a task runs its clock's cancellation
  /// handler at once: the standard clocks' and the manual clock's run no user
  /// code, so they are cancelled here; any other clock's sleep may, so it is
  /// cancelled from a task of its own, never under the driver's lock.
  private func release(_ timer: ArmedTimer?) {
    guard let timer else { return }
    if C.self == ContinuousClock.self || C.self == SuspendingClock.self || clock is any ManualTimerClock {
      timer.cancel()
    } else {
      Task { timer.cancel() }
    }
  }

  /// The timer of `generation` fired: call its callback, unless a newer
  /// `arm` or a `disarm` came first.
  private func fireScheduled(_ generation: UInt64) {
    let fire = scheduled.withLock { scheduled -> (owner: TimerOwner, callback: TimerCallback)? in
      guard scheduled.generation == generation else { return nil }
      scheduled.generation &+= 1
      scheduled.timer = nil
      defer { scheduled.fire = nil }
      return scheduled.fire
    }
    guard let fire else { return }
    _ = fire.callback(fire.owner.object, false)  // Off the timer thread, a driver delivers in a task of its own.
  }

  /// Arms a one-shot timer for `deadline`: on the clock itself for a manual
  /// clock, in a sleeping task otherwise.
  private func armTimer(at deadline: DriverInstant, fire: @escaping @Sendable () -> Void) -> ArmedTimer {
    if let manual = clock as? any ManualTimerClock {
      return Self.armManualTimer(manual, epoch: epoch, at: deadline, fire: fire)
    }
    let clock = clock
    let instant = epoch.advanced(by: .nanoseconds(deadline.nanoseconds))
    return .task(
      Task {
        do {
          try await clock.sleep(until: instant, tolerance: nil)
        } catch {
          return  // Cancelled: the driver let the timer go.
        }
        fire()
      })
  }

  private static func armManualTimer<Manual: ManualTimerClock>(
    _ clock: Manual, epoch: C.Instant, at deadline: DriverInstant, fire: @escaping @Sendable () -> Void
  ) -> ArmedTimer {
    // `C` is `Manual` here; the cast only recovers that for the compiler.
    guard let epoch = epoch as? Manual.Instant else { preconditionFailure("A clock's instant type changed") }
    let id = clock.armTimer(at: epoch.advanced(by: .nanoseconds(deadline.nanoseconds)), fire)
    return .manual(cancel: { clock.disarmTimer(id) })
  }
}

/// A timer ``ClockTimerScheduler`` has armed, so it can be cancelled.
private enum ArmedTimer: Sendable {
  /// A task sleeping on a real clock.
  case task(Task<Void, Never>)
  /// A timer that a manual clock runs.
  case manual(cancel: @Sendable () -> Void)

  func cancel() {
    switch self {
    case .task(let task): task.cancel()
    case .manual(let cancel): cancel()
    }
  }
}
