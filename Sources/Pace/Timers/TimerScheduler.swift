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
/// A class, so that a driver holds it in two words.
@usableFromInline
protocol TimerScheduler: AnyObject, Sendable {
  /// The time since the scheduler's epoch.
  var now: DriverInstant { get }

  /// Arms `owner`'s one timer for `deadline`, or moves it there: `fire` is
  /// called with the owner at `deadline` unless ``disarm(_:)`` or another
  /// `arm` comes first. The timer fires once; the owner arms it again if it
  /// still waits for something. The scheduler keeps the owner alive until
  /// then. Safe to call under the owner's lock.
  func arm(_ owner: TimerOwner, at deadline: DriverInstant, fire: @escaping TimerCallback)

  /// Disarms `owner`'s timer, if it is armed. Safe to call under the owner's lock.
  func disarm(_ owner: ObjectIdentifier)

  /// A driver on this scheduler is about to hand values to user code; a
  /// manual clock counts these so that a test can wait until they are done.
  /// Safe to call under the driver's lock.
  func deliveryStarted()

  /// A delivery that ``deliveryStarted()`` announced is done.
  func deliveryFinished()
}

/// The scheduler for `clock`: the shared kernel scheduler for the continuous
/// clock on Linux, a scheduler of its own on any other clock.
@usableFromInline
func makeTimerScheduler<C: Clock>(_ clock: C) -> any TimerScheduler where C.Duration == Duration {
  #if os(Linux)
    if C.self == ContinuousClock.self, let shared = KernelTimerScheduler.shared {
      return shared
    }
  #endif
  return ClockTimerScheduler(clock)
}
