//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A driver's time: the current ``DriverInstant``, and one timer per owner
/// that it arms and disarms. The one vocabulary every back end speaks:
/// ``KernelTimerScheduler`` (the continuous clock on Linux: one thread on a
/// `timerfd` for the whole process), and ``ClockTimerScheduler`` (any other
/// clock: a sleeping task, or the manual clock of `PaceTesting`).
///
/// An abstract class rather than a protocol, so that a driver holds it in one
/// word (an existential takes two, and a program may hold a driver per
/// document or per user). Subclasses override every member.
@usableFromInline
class TimerScheduler: @unchecked Sendable {
  // @unchecked Sendable: this base class has no state; each subclass keeps its
  // own behind a lock (a non-final class cannot declare a checked conformance).

  init() {}

  /// The time since the scheduler's epoch.
  @usableFromInline
  var now: DriverInstant { preconditionFailure("\(Self.self) must override now") }

  /// Arms `owner`'s one timer for `deadline`, or moves it there: `fire` is
  /// called with the owner at `deadline` unless ``disarm(_:)`` or another
  /// `arm` comes first. The timer fires once; the owner arms it again if it
  /// still waits for something. The scheduler keeps the owner alive until
  /// then. Safe to call under the owner's lock.
  @usableFromInline
  func arm(_ owner: TimerOwner, at deadline: DriverInstant, fire: @escaping TimerCallback) {
    preconditionFailure("\(Self.self) must override arm(_:at:fire:)")
  }

  /// Disarms `owner`'s timer, if it is armed. Safe to call under the owner's
  /// lock: the caller holds a strong reference to the owner, so the one this
  /// releases is never the last.
  @usableFromInline
  func disarm(_ owner: ObjectIdentifier) {
    preconditionFailure("\(Self.self) must override disarm(_:)")
  }

  /// Does what a driver core asked of `owner`'s one timer: arms it, moves
  /// it, lets it go, or (nil) nothing. Safe to call under the owner's lock.
  ///
  /// `fire` is evaluated only to arm: a generic driver's callback can cost
  /// an allocation to form, which a send that arms nothing must not pay.
  @inlinable
  final func follow(_ command: TimerCommand?, owner: AnyObject, fire: @autoclosure () -> TimerCallback) {
    switch command {
    case nil:
      return  // The armed timer stays: it fires early, and the core arms it again.
    case .arm(let deadline):
      arm(TimerOwner(owner), at: deadline, fire: fire())
    case .disarm:
      disarm(ObjectIdentifier(owner))
    }
  }

  /// A driver on this scheduler is about to hand values to user code; a
  /// manual clock counts these so that a test can wait until they are done.
  /// Safe to call under the driver's lock. Nothing by default.
  @usableFromInline
  func deliveryStarted() {}

  /// A delivery that ``deliveryStarted()`` announced is done. Nothing by default.
  @usableFromInline
  func deliveryFinished() {}
}

/// The scheduler for `clock`: the shared kernel scheduler for the continuous
/// clock on Linux, a scheduler of its own on any other clock.
@usableFromInline
func makeTimerScheduler<C: Clock>(_ clock: C) -> TimerScheduler where C.Duration == Duration {
  #if os(Linux) && !PACE_PORTABLE_RUNTIME
    if C.self == ContinuousClock.self, let shared = KernelTimerScheduler.shared {
      return shared
    }
  #endif
  return ClockTimerScheduler(clock)
}
