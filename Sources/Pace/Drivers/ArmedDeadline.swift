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
  /// The deadline the timer is armed for, if any.
  @usableFromInline var deadline: DriverInstant?

  @inlinable
  init() {}

  /// What to do with the timer so that it fires no later than `wanted`.
  @inlinable
  mutating func follow(_ wanted: DriverInstant?) -> TimerCommand? {
    guard let wanted else { return disarm() }
    if let armed = deadline, armed <= wanted { return nil }  // It fires early, then re-arms.
    deadline = wanted
    return .arm(at: wanted)
  }

  /// Lets the timer go, if it is armed.
  @inlinable
  mutating func disarm() -> TimerCommand? {
    guard deadline != nil else { return nil }
    deadline = nil
    return .disarm
  }

  /// The timer fired: nothing is armed any more.
  @inlinable
  mutating func fired() {
    deadline = nil
  }
}
