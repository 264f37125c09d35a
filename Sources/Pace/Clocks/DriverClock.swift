//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A driver's view of its clock: the current ``DriverInstant`` and timers.
///
/// A class, so that a driver holds it in two words and the continuous clock
/// on Linux is one shared instance.
@usableFromInline
protocol DriverClock: AnyObject, Sendable {
  /// The time since the clock's epoch.
  var now: DriverInstant { get }

  /// Arms or moves `owner`'s one timer: `fire` is called with the owner at
  /// `deadline` unless ``unschedule(_:)`` or another `schedule` comes first.
  /// The timer fires once; the owner schedules again if it still waits for
  /// something. The clock keeps the owner alive until then. Safe to call
  /// under the owner's lock.
  func schedule(_ owner: TimerOwner, at deadline: DriverInstant, fire: @escaping TimerCallback)

  /// Disarms `owner`'s timer, if it is armed.
  func unschedule(_ owner: ObjectIdentifier)
}

/// The driver clock for `clock`: the shared kernel clock for the continuous
/// clock on Linux, an epoch-based adapter for any other clock.
func makeDriverClock<C: Clock>(_ clock: C) -> any DriverClock where C.Duration == Duration {
  #if os(Linux)
    if C.self == ContinuousClock.self, let shared = LinuxContinuousClock.shared {
      return shared
    }
  #endif
  return EpochClock(clock)
}
