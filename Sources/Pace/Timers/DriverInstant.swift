//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// An instant of a driver: nanoseconds since the driver's epoch, on its clock.
///
/// Drivers (``Pacer``, ``AsyncPacedSequence``) accept any `Clock<Duration>`.
/// Measuring from an epoch gives their policy one concrete instant type
/// whatever the clock. Whole nanoseconds in an `Int64` (292 years) make the
/// send path's `now + interval` one integer add, where `Swift.Duration` would
/// do 128-bit arithmetic.
///
/// You meet it when you run a state machine of your own in a driver:
///
///     let machine = DebounceStateMachine<String, DriverInstant>(interval: DriverDuration(.milliseconds(300)))
///     let pacer = Pacer(machine: machine) { (value: String) in print(value) }
public struct DriverInstant: InstantProtocol, Hashable, Sendable {
  /// Nanoseconds since the driver's epoch.
  public var nanoseconds: Int64

  /// The instant `nanoseconds` after the driver's epoch.
  @inlinable
  public init(nanoseconds: Int64) {
    self.nanoseconds = nanoseconds
  }

  /// `now + interval`, saturating: an interval too long for 292 years of
  /// nanoseconds means "never", not a deadline in the past.
  @inlinable
  public func advanced(by duration: DriverDuration) -> DriverInstant {
    let (sum, overflow) = nanoseconds.addingReportingOverflow(duration.nanoseconds)
    guard !overflow else { return DriverInstant(nanoseconds: duration.nanoseconds > 0 ? .max : .min) }
    return DriverInstant(nanoseconds: sum)
  }

  @inlinable
  public func duration(to other: DriverInstant) -> DriverDuration {
    let (difference, overflow) = other.nanoseconds.subtractingReportingOverflow(nanoseconds)
    guard !overflow else { return DriverDuration(nanoseconds: other.nanoseconds > nanoseconds ? .max : .min) }
    return DriverDuration(nanoseconds: difference)
  }

  @inlinable
  public static func < (lhs: DriverInstant, rhs: DriverInstant) -> Bool {
    lhs.nanoseconds < rhs.nanoseconds
  }
}

/// A driver's durations: whole nanoseconds in an `Int64`.
///
///     DriverDuration(.milliseconds(300)).nanoseconds  // 300_000_000
public struct DriverDuration: DurationProtocol, Hashable, Sendable {
  /// The length in nanoseconds.
  public var nanoseconds: Int64

  /// A duration of `nanoseconds`.
  @inlinable
  public init(nanoseconds: Int64) {
    self.nanoseconds = nanoseconds
  }

  /// `duration`, rounded down to whole nanoseconds; saturates at about 292 years.
  public init(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    let (total, overflowAdding) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
    if overflow || overflowAdding {
      nanoseconds = seconds < 0 ? .min : .max
    } else {
      nanoseconds = total
    }
  }

  /// The same length as a `Swift.Duration`.
  public var duration: Duration { .nanoseconds(nanoseconds) }

  @inlinable public static var zero: DriverDuration { DriverDuration(nanoseconds: 0) }
  @inlinable public static func + (lhs: DriverDuration, rhs: DriverDuration) -> DriverDuration {
    DriverDuration(nanoseconds: lhs.nanoseconds &+ rhs.nanoseconds)
  }
  @inlinable public static func - (lhs: DriverDuration, rhs: DriverDuration) -> DriverDuration {
    DriverDuration(nanoseconds: lhs.nanoseconds &- rhs.nanoseconds)
  }
  @inlinable public static func * (lhs: DriverDuration, rhs: Int) -> DriverDuration {
    DriverDuration(nanoseconds: lhs.nanoseconds &* Int64(rhs))
  }
  @inlinable public static func / (lhs: DriverDuration, rhs: Int) -> DriverDuration {
    DriverDuration(nanoseconds: lhs.nanoseconds / Int64(rhs))
  }
  @inlinable public static func / (lhs: DriverDuration, rhs: DriverDuration) -> Double {
    Double(lhs.nanoseconds) / Double(rhs.nanoseconds)
  }
  @inlinable public static func < (lhs: DriverDuration, rhs: DriverDuration) -> Bool {
    lhs.nanoseconds < rhs.nanoseconds
  }
}
