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

  @Test func wait_pokedBeforeItsAlarm_leavesNoTimerWatched_untilTheNextWait() async throws {
    let watcher = DeadlineWatcher()
    let wake = FleetWake(watcher: watcher)
    wake.wake(at: .now + .milliseconds(30))
    async let woken = wake.wait()
    await waitUntilWaiting(wake)
    #expect(watcher.count == 1)
    wake.poke()
    #expect(await woken == false)
    #expect(watcher.count == 0)
    // The alarm is still set: the next wait sets the timer for it again.
    #expect(await wake.wait() == true)
    #expect(watcher.count == 0)
  }

  @Test func sent_withNoHold_wakesTheWaitingWorker() async {
    let wake = FleetWake()
    async let woken = wake.wait()
    await waitUntilWaiting(wake)
    wake.sent()  // No alarm and no hold: only the send can wake it.
    #expect(await woken == false)
  }

  @Test func sent_afterTheHoldEnded_wakesTheWaitingWorker() async {
    let wake = FleetWake()
    wake.holdSends(until: .now - .milliseconds(1))  // a hold that has ended
    async let woken = wake.wait()
    await waitUntilWaiting(wake)
    wake.sent()
    #expect(await woken == false)
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
    await waitUntilWaiting(wake)
    wake.sent()
    wake.sent()  // a second send of the hold changes nothing
    #expect(await woken == false)
    #expect(ContinuousClock.now >= held)
  }

  @Test func pokeOrAlarm_duringTheHold_isNotHeld() async {
    let wake = FleetWake()
    let start = ContinuousClock.now
    wake.holdSends(until: start + .seconds(600))
    wake.sent()
    wake.poke()  // shutdown, a notification, a finished delivery
    #expect(await wake.wait() == false)
    wake.sent()
    wake.wake(at: .now + .milliseconds(20))  // a deadline
    #expect(await wake.wait() == true)
    #expect(ContinuousClock.now - start < .seconds(30))  // not the hold's 600 s
  }

  @Test func holdWithoutASend_wakesNothing() async {
    let wake = FleetWake()
    wake.holdSends(until: .now + .milliseconds(10))
    wake.wake(at: .now + .milliseconds(60))
    // Only the alarm wakes it: a hold alone is no reason to.
    #expect(await wake.wait() == true)
  }

  /// Returns once the worker's `wait()` has registered.
  private func waitUntilWaiting(_ wake: FleetWake) async {
    while !wake.isWaiting { await Task.yield() }
  }
}
