//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The deadline one timer is armed for, and the one rule every driver
/// follows with it: a wanted deadline earlier than the armed one is armed at
/// once; a later one leaves the timer alone (it fires early, and the driver
/// asks again); none disarms it.
///
/// A ``DriverCore`` follows its policy's deadline with it; a keyed driver
/// follows the earliest deadline of all its keys with it.
@usableFromInline
struct ArmedDeadline {
  /// The armed deadline's nanoseconds, or `Int64.max` when none is armed:
  /// 8 bytes where an optional instant takes 16 in a keyed driver's slot. A
  /// deadline at the end of time needs no timer, so nothing is lost.
  @usableFromInline var nanoseconds: Int64 = .max

  @inlinable
  init() {}

  /// The deadline the timer is armed for, if any.
  @inlinable
  var deadline: DriverInstant? {
    nanoseconds == .max ? nil : DriverInstant(nanoseconds: nanoseconds)
  }

  /// What to do with the timer so that it fires no later than `wanted`.
  @inlinable
  mutating func follow(_ wanted: DriverInstant?) -> TimerCommand? {
    guard let wanted else { return disarm() }
    if nanoseconds <= wanted.nanoseconds { return nil }  // It fires early, then re-arms.
    nanoseconds = wanted.nanoseconds
    return .arm(at: wanted)
  }

  /// What to do with the timer so that it fires exactly at `wanted`: the
  /// rule of a timer structure that moves every timer (see ``KeyedTimerQueue``).
  @inlinable
  mutating func move(to wanted: DriverInstant?) -> TimerCommand? {
    // The end of time needs no timer (and is this type's "none").
    guard let wanted, wanted.nanoseconds != .max else { return disarm() }
    guard nanoseconds != wanted.nanoseconds else { return nil }
    nanoseconds = wanted.nanoseconds
    return .arm(at: wanted)
  }

  /// Lets the timer go, if it is armed.
  @inlinable
  mutating func disarm() -> TimerCommand? {
    guard nanoseconds != .max else { return nil }
    nanoseconds = .max
    return .disarm
  }

  /// The timer fired: nothing is armed any more.
  @inlinable
  mutating func fired() {
    nanoseconds = .max
  }
}
