//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

@testable import PacePostgres
import Testing

/// What the worker sleeps on, alone (no database): a poke or the alarm.
@Suite(.timeLimit(.minutes(1)))
struct FleetWakeTests {
  @Test func wait_poked_returnsThatNoAlarmRang() async {
    let wake = FleetWake()
    wake.poke()
    #expect(await wake.wait() == false)
  }

  @Test func wait_alarmDue_returnsThatItRang() async {
    let wake = FleetWake()
    wake.wake(at: .now + .milliseconds(20))
    #expect(await wake.wait() == true)
  }
}
