//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

@testable import PacePostgres
import Testing

/// What the worker sleeps on, alone (no database): a poke, a send held
/// until the fold interval ends, or the alarm.
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

  @Test func sent_afterAQuietSpell_wakesTheWorkerAtOnce() async {
    let wake = FleetWake()
    wake.holdSends(until: .now - .milliseconds(1))  // a hold that has ended
    wake.sent()
    #expect(await wake.wait() == false)
  }

  @Test func sent_duringTheHold_wakesTheWorkerWhenItEnds() async {
    let wake = FleetWake()
    let held = ContinuousClock.now + .milliseconds(50)
    wake.holdSends(until: held)
    wake.sent()
    #expect(await wake.wait() == false)
    #expect(ContinuousClock.now >= held)  // never before the hold ends
  }

  @Test func sent_whileTheWorkerWaits_wakesItWhenTheHoldEnds() async {
    let wake = FleetWake()
    let held = ContinuousClock.now + .milliseconds(50)
    wake.holdSends(until: held)
    async let woken = wake.wait()
    try? await Task.sleep(for: .milliseconds(5))
    wake.sent()
    #expect(await woken == false)
    #expect(ContinuousClock.now >= held)
  }

  @Test func pokeOrAlarm_duringTheHold_isNotHeld() async {
    let wake = FleetWake()
    let held = ContinuousClock.now + .seconds(600)
    wake.holdSends(until: held)
    wake.sent()
    wake.poke()  // shutdown, a notification, a finished delivery
    #expect(await wake.wait() == false)
    wake.sent()
    wake.wake(at: .now + .milliseconds(20))  // a deadline
    #expect(await wake.wait() == true)
    #expect(ContinuousClock.now < held)
  }

  @Test func holdWithoutASend_wakesNothing() async {
    let wake = FleetWake()
    wake.holdSends(until: .now + .milliseconds(10))
    wake.wake(at: .now + .milliseconds(60))
    // Only the alarm wakes it: a hold alone is no reason to.
    #expect(await wake.wait() == true)
  }
}
