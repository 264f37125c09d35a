//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

@testable import Pace
import Testing

/// The armed-deadline rule, at the end of time: `Int64.max` is "none", so a
/// timer is never armed there (it would read as disarmed and never be let go).
@Suite struct ArmedDeadlineTests {
  @Test func theEndOfTime_isNeverArmed_followingOrMoving() {
    var armed = ArmedDeadline()
    #expect(armed.move(to: DriverInstant(nanoseconds: 10)) == .arm(at: DriverInstant(nanoseconds: 10)))
    #expect(armed.move(to: DriverInstant(nanoseconds: .max)) == .disarm)
    #expect(armed.deadline == nil && armed.disarm() == nil)
    #expect(armed.follow(DriverInstant(nanoseconds: .max)) == nil && armed.deadline == nil)
    #expect(armed.follow(DriverInstant(nanoseconds: 5)) == .arm(at: DriverInstant(nanoseconds: 5)))
    #expect(armed.follow(DriverInstant(nanoseconds: 9)) == nil)  // Later: it fires early, then re-arms.
    #expect(armed.follow(nil) == .disarm && armed.deadline == nil)
  }
}
