//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
@_spi(Tools) import PaceMarbles
import Synchronization
import Testing

/// The clock itself: timer order, sleepers, cancellation, time that only moves
/// forwards, and `settle()`.
///
/// Nothing here waits on real time or on how often tasks yield. A task that
/// must be suspended in the clock before the test goes on is started with
/// `Task.immediate` from these nonisolated tests: it runs on the calling thread
/// up to its first real suspension, so a `sleep` or `settle` that suspends has
/// registered with the clock by the time `Task.immediate` returns, and one that
/// does not suspend has already returned.
@Suite struct VirtualClockTests {
  @Test func timersOfTheSameInstant_fireInArmingOrder_andEarlierDeadlinesFirst() {
    let clock = VirtualClock()
    let log = EventLog<String>()
    _ = clock.armTimer(at: .frame(3), { log.append("3a") })
    _ = clock.armTimer(at: .frame(1), { log.append("1a") })
    _ = clock.armTimer(at: .frame(3), { log.append("3b") })
    _ = clock.armTimer(at: .frame(2), { log.append("2") })
    _ = clock.armTimer(at: .frame(1), { log.append("1b") })
    _ = clock.armTimer(at: .frame(3), { log.append("3c") })
    clock.advance(to: .frame(3))
    #expect(log.all == ["1a", "1b", "2", "3a", "3b", "3c"])
    #expect(clock.pendingTimerCount == 0)
  }

  @Test func firingTimers_seeNow_atTheInstantAdvancedTo_notAtTheirOwnDeadline() {
    // `now` is moved first, then every due timer fires: a timer whose deadline
    // was passed over sees the instant the clock was advanced to.
    let clock = VirtualClock()
    let log = EventLog<VirtualInstant>()
    _ = clock.armTimer(at: .frame(2), { log.append(clock.now) })
    _ = clock.armTimer(at: .frame(5), { log.append(clock.now) })
    _ = clock.armTimer(at: .frame(6), { log.append(clock.now) })
    clock.advance(to: .frame(5))
    #expect(log.all == [.frame(5), .frame(5)])
    clock.advance(by: .frames(3))
    #expect(log.all == [.frame(5), .frame(5), .frame(8)])
  }

  @Test func jump_firesNothing_untilFireDueTimers() {
    let clock = VirtualClock()
    let log = EventLog<String>()
    _ = clock.armTimer(at: .frame(2), { log.append("2") })
    clock.jump(to: .frame(2))
    #expect(clock.now == .frame(2))
    #expect(log.all.isEmpty)
    #expect(clock.pendingTimerCount == 1)
    clock.fireDueTimers()
    #expect(log.all == ["2"])
    #expect(clock.pendingTimerCount == 0)
  }

  @Test func timerArmedByAFiringTimer_forTheSameInstant_firesInTheSameCall() {
    let clock = VirtualClock()
    let log = EventLog<String>()
    _ = clock.armTimer(
      at: .frame(2),
      {
        log.append("first")
        _ = clock.armTimer(at: .frame(2), { log.append("same instant") })
        _ = clock.armTimer(at: .frame(1), { log.append("already past") })
        _ = clock.armTimer(at: .frame(3), { log.append("later") })
      })
    _ = clock.armTimer(at: .frame(2), { log.append("second") })
    clock.advance(to: .frame(2))
    // What a firing timer arms joins the same queue: earliest deadline first
    // (frame 1 before frame 2), then behind the timers armed before it.
    #expect(log.all == ["first", "already past", "second", "same instant"])
    #expect(clock.pendingTimerCount == 1)
    #expect(clock.nextDeadline == .frame(3))
    clock.advance(to: .frame(3))
    #expect(log.all == ["first", "already past", "second", "same instant", "later"])
  }

  @Test func disarmTimer_removesIt_soItNeverFires() {
    let clock = VirtualClock()
    let log = EventLog<String>()
    let kept = clock.armTimer(at: .frame(2), { log.append("kept") })
    let cancelled = clock.armTimer(at: .frame(1), { log.append("cancelled") })
    #expect(kept != cancelled)
    #expect(clock.pendingTimerCount == 2)
    #expect(clock.nextDeadline == .frame(1))
    clock.disarmTimer(cancelled)
    #expect(clock.pendingTimerCount == 1)
    #expect(clock.nextDeadline == .frame(2))
    clock.advance(to: .frame(10))
    #expect(log.all == ["kept"])
    clock.disarmTimer(kept)  // Already fired: nothing to remove.
    clock.disarmTimer(cancelled)  // Already cancelled: likewise.
    #expect(clock.pendingTimerCount == 0)
    #expect(clock.nextDeadline == nil)
  }

  @Test func pendingTimerCountAndNextDeadline_reflectTimersAndSleepers() async throws {
    let clock = VirtualClock()
    #expect(clock.pendingTimerCount == 0)
    #expect(clock.sleeperCount == 0)
    #expect(clock.nextDeadline == nil)
    let timer = clock.armTimer(at: .frame(4), {})
    #expect(clock.nextDeadline == .frame(4))
    let sleeper = Task.immediate { try await clock.sleep(until: .frame(2)) }
    // A sleeper counts in `nextDeadline` and `sleeperCount`, not in `pendingTimerCount`.
    #expect(clock.sleeperCount == 1)
    #expect(clock.pendingTimerCount == 1)
    #expect(clock.nextDeadline == .frame(2))
    clock.advance(to: .frame(2))
    try await sleeper.value
    #expect(clock.sleeperCount == 0)
    #expect(clock.nextDeadline == .frame(4))
    clock.disarmTimer(timer)
    #expect(clock.pendingTimerCount == 0)
    #expect(clock.nextDeadline == nil)
  }

  @Test func sleep_resumesWhenTheClockReachesItsDeadline_andNotBefore() async throws {
    let clock = VirtualClock()
    let sleeper = Task.immediate {
      try await clock.sleep(until: .frame(5))
      return clock.now
    }
    #expect(clock.sleeperCount == 1)
    clock.advance(to: .frame(4))
    #expect(clock.sleeperCount == 1)  // Still asleep one frame early.
    clock.advance(to: .frame(5))
    #expect(clock.sleeperCount == 0)
    // It woke at frame 5: the clock was never at or past 5 before that.
    #expect(try await sleeper.value == .frame(5))
  }

  @Test func sleep_resumesWhenTheClockJumpsPastItsDeadline() async throws {
    let clock = VirtualClock()
    let sleepers = [3, 7].map { frame in
      Task.immediate {
        try await clock.sleep(until: .frame(frame))
        return frame
      }
    }
    #expect(clock.sleeperCount == 2)
    clock.advance(to: .frame(6))
    #expect(clock.sleeperCount == 1)
    #expect(try await sleepers[0].value == 3)
    #expect(clock.nextDeadline == .frame(7))
    clock.advance(by: .frames(10))
    #expect(clock.sleeperCount == 0)
    #expect(try await sleepers[1].value == 7)
  }

  @Test func sleep_untilAnInstantAlreadyReached_returnsAtOnce() async throws {
    let clock = VirtualClock(now: .frame(3))
    try await clock.sleep(until: .frame(3))
    try await clock.sleep(until: .frame(1))
    #expect(clock.sleeperCount == 0)
    // Without suspending, too: an immediate task has finished when it returns.
    let returned = Flag()
    _ = Task.immediate {
      try await clock.sleep(until: .frame(2))
      returned.set()
    }
    #expect(returned.isSet)
    #expect(clock.sleeperCount == 0)
    #expect(clock.now == .frame(3))
  }

  @Test func sleeperCancelledWhileAsleep_throwsCancellationError_andIsRemoved() async {
    let clock = VirtualClock()
    let sleeper = Task.immediate { try await clock.sleep(until: .frame(5)) }
    #expect(clock.sleeperCount == 1)
    sleeper.cancel()  // Runs the cancellation handler on this thread.
    #expect(clock.sleeperCount == 0)
    #expect(clock.nextDeadline == nil)
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    clock.advance(to: .frame(5))  // Nothing left to resume.
    #expect(clock.sleeperCount == 0)
  }

  @Test func sleeperCancelledBeforeItSleeps_throwsCancellationError_andNeverRegisters() async throws {
    // The task is cancelled before `sleep` starts, so the cancellation handler
    // runs before the sleeper is registered, and the sleep must see that.
    let clock = VirtualClock()
    let sleeper = Task.immediate {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(until: .frame(5))
    }
    #expect(clock.sleeperCount == 0)
    #expect(clock.nextDeadline == nil)
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    // Cancellation wins even over a deadline already reached.
    let due = Task.immediate {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(until: .frame(0))
    }
    await #expect(throws: CancellationError.self) { try await due.value }
    // The clock still works for the sleepers after them.
    let next = Task.immediate { try await clock.sleep(until: .frame(1)) }
    #expect(clock.sleeperCount == 1)
    clock.advance(to: .frame(1))
    try await next.value
    #expect(clock.sleeperCount == 0)
  }

  @Test func time_neverMovesBackwards() {
    let clock = VirtualClock(now: .frame(5))
    let log = EventLog<String>()
    _ = clock.armTimer(at: .frame(7), { log.append("7") })
    clock.jump(to: .frame(2))
    #expect(clock.now == .frame(5))
    clock.advance(to: .frame(3))
    #expect(clock.now == .frame(5))
    clock.advance(by: .frames(-4))
    #expect(clock.now == .frame(5))
    clock.advance(to: .frame(5))
    #expect(clock.now == .frame(5))
    #expect(log.all.isEmpty)
    clock.advance(to: .frame(7))
    clock.jump(to: .frame(6))
    #expect(clock.now == .frame(7))
    #expect(log.all == ["7"])
  }

  @Test func settle_withNothingBeingDelivered_returnsAtOnce() async {
    let clock = VirtualClock()
    await clock.settle()
    // Without suspending: an immediate task has finished when it returns.
    let settled = Flag()
    _ = Task.immediate {
      await clock.settle()
      settled.set()
    }
    #expect(settled.isSet)
  }

  @Test func settle_waitsUntilEveryDeliveryHasFinished() async {
    let clock = VirtualClock()
    clock.deliveryStarted()
    clock.deliveryStarted()
    let settled = Flag()
    let waiter = Task.immediate {
      await clock.settle()
      settled.set()
    }
    #expect(!settled.isSet)
    clock.deliveryFinished()
    #expect(!settled.isSet)  // One delivery still runs.
    clock.deliveryFinished()
    await waiter.value
    #expect(settled.isSet)
  }

  @Test func settle_waitsForADebouncerOnTheClock_toRunItsHandler() async {
    let clock = VirtualClock()
    let received = EventLog<String>()
    let debouncer = Debouncer<String>(for: .frames(3), clock: clock) { value in
      received.append(value)
    }
    debouncer.send("a")
    #expect(clock.pendingTimerCount == 1)
    clock.advance(to: .frame(2))
    await clock.settle()
    #expect(received.all.isEmpty)
    clock.advance(to: .frame(3))  // The timer fires…
    await clock.settle()  // …and the handler has run.
    #expect(received.all == ["a"])
    #expect(clock.pendingTimerCount == 0)
    #expect(!debouncer.isPending)
  }
}

/// What timers and handlers append, from any thread, in order.
private final class EventLog<Value: Sendable>: Sendable {
  private let values = Mutex<[Value]>([])

  var all: [Value] { values.withLock { $0 } }

  func append(_ value: Value) {
    values.withLock { $0.append(value) }
  }
}

/// A flag that any thread can set.
private final class Flag: Sendable {
  private let value = Mutex(false)

  var isSet: Bool { value.withLock { $0 } }

  func set() {
    value.withLock { $0 = true }
  }
}
