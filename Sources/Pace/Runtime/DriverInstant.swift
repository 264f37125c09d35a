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
/// A driver infers it: a policy of your own, generic over its instant, is
/// written with ``DriverDuration``'s `.milliseconds(_:)` and its kin, as a
/// `Swift.Duration` would be, and never names this type:
///
///     let pacer = Pacer(DebounceStateMachine(interval: .milliseconds(300))) { (value: String) in print(value) }
public struct DriverInstant: InstantProtocol, Hashable, Sendable, Codable {
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
/// Written as a `Swift.Duration` is, so that a policy of your own reads the
/// same on a driver as on any clock:
///
///     DriverDuration.milliseconds(300).nanoseconds    // 300_000_000
///     DriverDuration(.milliseconds(300)).nanoseconds  // the same, from a `Swift.Duration`
public struct DriverDuration: DurationProtocol, Hashable, Sendable, Codable {
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

  /// A duration of `seconds` whole seconds; saturates at about 292 years.
  ///
  ///     let machine = ThrottleStateMachine<Int, DriverInstant>(interval: .seconds(1))
  public static func seconds<T: BinaryInteger>(_ seconds: T) -> DriverDuration {
    DriverDuration(.seconds(seconds))
  }

  /// A duration of `seconds` seconds, rounded down to whole nanoseconds.
  ///
  ///     let machine = DebounceStateMachine<String, DriverInstant>(interval: .seconds(0.3))
  public static func seconds(_ seconds: Double) -> DriverDuration {
    DriverDuration(.seconds(seconds))
  }

  /// A duration of `milliseconds` whole milliseconds; saturates at about 292 years.
  ///
  ///     let machine = DebounceStateMachine<String, DriverInstant>(interval: .milliseconds(300))
  public static func milliseconds<T: BinaryInteger>(_ milliseconds: T) -> DriverDuration {
    DriverDuration(.milliseconds(milliseconds))
  }

  /// A duration of `milliseconds` milliseconds, rounded down to whole nanoseconds.
  ///
  ///     let machine = DebounceStateMachine<String, DriverInstant>(interval: .milliseconds(2.5))
  public static func milliseconds(_ milliseconds: Double) -> DriverDuration {
    DriverDuration(.milliseconds(milliseconds))
  }

  /// A duration of `microseconds` whole microseconds; saturates at about 292 years.
  ///
  ///     let machine = ThrottleStateMachine<Int, DriverInstant>(interval: .microseconds(500))
  public static func microseconds<T: BinaryInteger>(_ microseconds: T) -> DriverDuration {
    DriverDuration(.microseconds(microseconds))
  }

  /// A duration of `microseconds` microseconds, rounded down to whole nanoseconds.
  ///
  ///     let machine = ThrottleStateMachine<Int, DriverInstant>(interval: .microseconds(2.5))
  public static func microseconds(_ microseconds: Double) -> DriverDuration {
    DriverDuration(.microseconds(microseconds))
  }

  /// A duration of `nanoseconds` nanoseconds; saturates at about 292 years.
  ///
  ///     let machine = ThrottleStateMachine<Int, DriverInstant>(interval: .nanoseconds(100))
  public static func nanoseconds<T: BinaryInteger>(_ nanoseconds: T) -> DriverDuration {
    DriverDuration(.nanoseconds(nanoseconds))
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

extension DriverInstant {
  /// Decodes the bare number of nanoseconds that ``encode(to:)`` writes.
  public init(from decoder: any Decoder) throws {
    nanoseconds = try decoder.singleValueContainer().decode(Int64.self)
  }

  /// Encodes the nanoseconds as one bare number.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(nanoseconds)
  }
}

extension DriverDuration {
  /// Decodes the bare number of nanoseconds that ``encode(to:)`` writes.
  public init(from decoder: any Decoder) throws {
    nanoseconds = try decoder.singleValueContainer().decode(Int64.self)
  }

  /// Encodes the nanoseconds as one bare number.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(nanoseconds)
  }
}
