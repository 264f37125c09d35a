//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// An instant of a driver: nanoseconds since the driver was created, on its clock.
///
/// Drivers accept any `Clock<Duration>`. Measuring from an epoch gives their
/// policy one concrete instant type whatever the clock. Whole nanoseconds in an
/// `Int64` (292 years) make the send path's `now + interval` one integer add,
/// where `Swift.Duration` would do 128-bit arithmetic.
@usableFromInline
struct DriverInstant: InstantProtocol, Sendable {
  @usableFromInline
  var nanoseconds: Int64

  @inlinable
  init(nanoseconds: Int64) {
    self.nanoseconds = nanoseconds
  }

  /// `now + interval`, saturating: an interval too long for 292 years of
  /// nanoseconds means "never", not a deadline in the past.
  @inlinable
  func advanced(by duration: DriverDuration) -> DriverInstant {
    let (sum, overflow) = nanoseconds.addingReportingOverflow(duration.nanoseconds)
    guard !overflow else { return DriverInstant(nanoseconds: duration.nanoseconds > 0 ? .max : .min) }
    return DriverInstant(nanoseconds: sum)
  }

  @inlinable
  func duration(to other: DriverInstant) -> DriverDuration {
    let (difference, overflow) = other.nanoseconds.subtractingReportingOverflow(nanoseconds)
    guard !overflow else { return DriverDuration(nanoseconds: other.nanoseconds > nanoseconds ? .max : .min) }
    return DriverDuration(nanoseconds: difference)
  }

  @inlinable
  static func < (lhs: DriverInstant, rhs: DriverInstant) -> Bool {
    lhs.nanoseconds < rhs.nanoseconds
  }
}

/// A driver's durations: whole nanoseconds in an `Int64`.
@usableFromInline
struct DriverDuration: DurationProtocol, Hashable, Sendable {
  @usableFromInline
  var nanoseconds: Int64

  @inlinable
  init(nanoseconds: Int64) {
    self.nanoseconds = nanoseconds
  }

  /// `duration`, rounded down to whole nanoseconds; saturates at about 292 years.
  @usableFromInline
  init(_ duration: Duration) {
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
  @usableFromInline
  var duration: Duration { .nanoseconds(nanoseconds) }

  @inlinable static var zero: DriverDuration { DriverDuration(nanoseconds: 0) }
  @inlinable static func + (lhs: DriverDuration, rhs: DriverDuration) -> DriverDuration {
    DriverDuration(nanoseconds: lhs.nanoseconds &+ rhs.nanoseconds)
  }
  @inlinable static func - (lhs: DriverDuration, rhs: DriverDuration) -> DriverDuration {
    DriverDuration(nanoseconds: lhs.nanoseconds &- rhs.nanoseconds)
  }
  @inlinable static func * (lhs: DriverDuration, rhs: Int) -> DriverDuration {
    DriverDuration(nanoseconds: lhs.nanoseconds &* Int64(rhs))
  }
  @inlinable static func / (lhs: DriverDuration, rhs: Int) -> DriverDuration {
    DriverDuration(nanoseconds: lhs.nanoseconds / Int64(rhs))
  }
  @inlinable static func / (lhs: DriverDuration, rhs: DriverDuration) -> Double {
    Double(lhs.nanoseconds) / Double(rhs.nanoseconds)
  }
  @inlinable static func < (lhs: DriverDuration, rhs: DriverDuration) -> Bool {
    lhs.nanoseconds < rhs.nanoseconds
  }
}
