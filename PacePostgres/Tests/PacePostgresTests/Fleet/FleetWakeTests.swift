//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

@testable import PacePostgres
import Testing

/// What the worker sleeps on, alone (no database): a poke, the alarm, and
/// the gathering of sends before a fold.
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

  @Test func gather_pokedBeforeAndDuring_takesThePokes() async {
    let wake = FleetWake()
    wake.poke()
    // A child task: the suite's time limit would cancel it, not wait on it.
    async let gathering = wake.gather(for: .milliseconds(50))
    wake.poke()
    #expect(await gathering == false, "no alarm rang")
    // Had a poke been left, this wait would return at once with false.
    wake.wake(at: .now + .milliseconds(20))
    #expect(await wake.wait() == true, "the pokes were taken by the gather: the alarm woke this wait")
  }

  @Test func gather_alarmDueFirst_endsAtTheAlarmAndSaysItRang() async {
    let wake = FleetWake()
    wake.wake(at: .now + .milliseconds(20))
    // An hour's gather: returning at all shows the alarm ended it.
    #expect(await wake.gather(for: .seconds(3600)) == true)
  }

  @Test func gather_cancelled_endsAtOnce() async {
    let wake = FleetWake()
    let gathering = Task { await wake.gather(for: .seconds(3600)) }
    gathering.cancel()
    #expect(await gathering.value == false)
  }
}
