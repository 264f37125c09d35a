//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// An instant in whole nanoseconds, as a user would write for a policy on a hot
/// path: 64-bit arithmetic where `ContinuousClock.Instant` does 128-bit.
struct NanosecondInstant: InstantProtocol {
  var nanoseconds: Int64

  func advanced(by duration: Nanoseconds) -> NanosecondInstant {
    NanosecondInstant(nanoseconds: nanoseconds &+ duration.nanoseconds)
  }
  func duration(to other: NanosecondInstant) -> Nanoseconds {
    Nanoseconds(nanoseconds: other.nanoseconds &- nanoseconds)
  }
  static func < (lhs: NanosecondInstant, rhs: NanosecondInstant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
}

/// Whole nanoseconds.
struct Nanoseconds: DurationProtocol, Hashable {
  var nanoseconds: Int64

  static var zero: Nanoseconds { Nanoseconds(nanoseconds: 0) }
  static func + (lhs: Nanoseconds, rhs: Nanoseconds) -> Nanoseconds {
    .init(nanoseconds: lhs.nanoseconds &+ rhs.nanoseconds)
  }
  static func - (lhs: Nanoseconds, rhs: Nanoseconds) -> Nanoseconds {
    .init(nanoseconds: lhs.nanoseconds &- rhs.nanoseconds)
  }
  static func * (lhs: Nanoseconds, rhs: Int) -> Nanoseconds { .init(nanoseconds: lhs.nanoseconds &* Int64(rhs)) }
  static func / (lhs: Nanoseconds, rhs: Int) -> Nanoseconds { .init(nanoseconds: lhs.nanoseconds / Int64(rhs)) }
  static func / (lhs: Nanoseconds, rhs: Nanoseconds) -> Double { Double(lhs.nanoseconds) / Double(rhs.nanoseconds) }
  static func < (lhs: Nanoseconds, rhs: Nanoseconds) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
}
