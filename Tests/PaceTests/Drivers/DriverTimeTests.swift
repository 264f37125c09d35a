//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import PaceTesting
import Testing

@_spi(Testing) @testable import Pace

/// The drivers' integer time: conversions from `Duration` and their limits.
@Suite struct DriverTimeTests {
  @Test(arguments: [
    (Duration.zero, Int64(0)),
    (.nanoseconds(1), 1),
    (.milliseconds(300), 300_000_000),
    (.seconds(2) + .nanoseconds(5), 2_000_000_005),
    (.milliseconds(-1), -1_000_000),
    (.nanoseconds(1) / 2, 0),  // Sub-nanosecond parts are dropped.
  ])
  func driverDuration_fromDuration_isWholeNanoseconds(duration: Duration, nanoseconds: Int64) {
    #expect(DriverDuration(duration).nanoseconds == nanoseconds)
    #expect(DriverDuration(nanoseconds: nanoseconds).duration == .nanoseconds(nanoseconds))
  }

  @Test func driverDuration_beyondInt64Nanoseconds_saturates() {
    #expect(DriverDuration(.seconds(Int64.max)).nanoseconds == .max)
    #expect(DriverDuration(.seconds(Int64.min)).nanoseconds == .min)
  }

  @Test func driverInstant_arithmetic() {
    let start = DriverInstant(nanoseconds: 10)
    #expect(start.advanced(by: DriverDuration(nanoseconds: 5)) == DriverInstant(nanoseconds: 15))
    #expect(start.duration(to: DriverInstant(nanoseconds: 4)) == DriverDuration(nanoseconds: -6))
    #expect(DriverDuration(nanoseconds: 10) / DriverDuration(nanoseconds: 4) == 2.5)
    #expect(DriverDuration(nanoseconds: 10) * 3 == DriverDuration(nanoseconds: 30))
  }

  @Test func pacer_withAnEnormousInterval_neitherTrapsNorFires() async throws {
    let clock = VirtualClock()
    let recorder = Recorder<Int>()
    let debouncer = Debouncer<Int>(for: .seconds(Int64.max), clock: clock, handler: recorder.record)
    clock.advance(by: .seconds(5))  // now + interval overflows 64-bit nanoseconds: it must saturate, not wrap.
    debouncer.send(1)
    clock.advance(by: .seconds(1_000_000))
    await clock.settle()
    #expect(recorder.all.isEmpty)
    #expect(debouncer.isPending)
    debouncer.flush()
    await clock.settle()
    #expect(recorder.all == [1])
  }
}
