//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// An instant of a driver: the time since the driver was created, on its clock.
///
/// Drivers accept any `Clock<Duration>`; measuring from an epoch gives their
/// policy one concrete instant type whatever the clock.
struct DriverInstant: InstantProtocol, Sendable {
  var offset: Duration

  func advanced(by duration: Duration) -> DriverInstant { DriverInstant(offset: offset + duration) }
  func duration(to other: DriverInstant) -> Duration { other.offset - offset }
  static func < (lhs: DriverInstant, rhs: DriverInstant) -> Bool { lhs.offset < rhs.offset }
}
