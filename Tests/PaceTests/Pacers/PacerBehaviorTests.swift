//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
@_spi(Tools) import PaceMarbles
import PaceTesting
import Testing

/// Closure pacers on a virtual clock: the cost model, flush, cancel, finish and
/// a handler that sends again.
@Suite struct PacerBehaviorTests {
  @Test func aBurstOfSends_armsOneTimer_andDeadlinesComeFromTheSendTime() async throws {
    let clock = VirtualClock()
    let recorder = Recorder<Int>()
    let debouncer = Debouncer<Int>(for: .frames(3), clock: clock, handler: recorder.record)
    for value in 0..<1_000 {
      debouncer.send(value)
      #expect(clock.pendingTimerCount == 1)
    }
    clock.advance(to: .frame(2))
    debouncer.send(1_000)  // The burst now ends at frame 5.
    #expect(clock.pendingTimerCount == 1)
    clock.advance(to: .frame(3))  // The timer fires early and re-arms for frame 5.
    await clock.settle()
    #expect(recorder.all.isEmpty)
    #expect(clock.pendingTimerCount == 1)
    clock.advance(to: .frame(5))
    await clock.settle()
    #expect(recorder.all == [1_000])
    #expect(clock.pendingTimerCount == 0)
    #expect(!debouncer.isPending)
  }

  @Test func handlerThatSendsAgain_startsANewBurst() async throws {
    let clock = VirtualClock()
    let recorder = Recorder<Int>()
    let box = PacerBox<Debouncer<Int>>()
    let debouncer = Debouncer<Int>(for: .frames(2), edges: .both(), clock: clock) { value in
      recorder.record(value)
      if value < 3 { box.pacer?.send(value + 10) }
    }
    box.pacer = debouncer
    debouncer.send(1)  // Leading: delivered at once; the handler sends 11 into the same burst.
    await clock.settle()
    #expect(recorder.all == [1])
    clock.advance(to: .frame(2))  // The burst ends with 11.
    await clock.settle()
    #expect(recorder.all == [1, 11])
    debouncer.send(2)  // Idle again: a new burst, leading; the handler sends 12.
    await clock.settle()
    clock.advance(to: .frame(4))
    await clock.settle()
    #expect(recorder.all == [1, 11, 2, 12])
    #expect(clock.pendingTimerCount == 0)
  }

  @Test func flush_deliversAtOnce_andCancel_dropsThePendingValue() async throws {
    let clock = VirtualClock()
    let recorder = Recorder<String>()
    let debouncer = Debouncer<String>(for: .frames(100), clock: clock, handler: recorder.record)
    debouncer.send("a")
    #expect(debouncer.isPending)
    debouncer.flush()
    await clock.settle()
    #expect(recorder.all == ["a"])
    #expect(clock.pendingTimerCount == 0)  // Nothing waits: the timer is let go.
    debouncer.send("b")
    debouncer.cancel()
    #expect(!debouncer.isPending)
    #expect(clock.pendingTimerCount == 0)
    clock.advance(to: .frame(200))
    await clock.settle()
    #expect(recorder.all == ["a"])
  }

  @Test func throttlerCancel_keepsTheRate() async throws {
    let clock = VirtualClock()
    let recorder = Recorder<String>()
    let throttler = Throttler<String>(for: .frames(3), clock: clock, handler: recorder.record)
    throttler.send("a")  // Leading.
    await clock.settle()
    throttler.send("b")
    throttler.cancel()  // b is dropped; the window stays until frame 3.
    throttler.send("c")
    await clock.settle()
    #expect(recorder.all == ["a"])
    clock.advance(to: .frame(3))
    await clock.settle()
    #expect(recorder.all == ["a", "c"])
  }

  @Test func finish_deliversThePendingValue_thenIgnoresSends() async throws {
    let clock = VirtualClock()
    let recorder = Recorder<String>()
    let throttler = Throttler<String>(for: .frames(3), clock: clock, handler: recorder.record)
    throttler.send("a")
    throttler.send("b")
    throttler.finish()  // b waits for the window: the rate holds.
    throttler.send("c")
    await clock.settle()
    #expect(!throttler.isFinished)
    clock.advance(to: .frame(3))
    await clock.settle()
    #expect(recorder.all == ["a", "b"])
    #expect(throttler.isFinished)
  }

  @Test func voidPacer_sendsWithoutAValue() async throws {
    let clock = VirtualClock()
    let taps = Recorder<Void>()
    let throttler = Throttler<Void>(for: .frames(5), edges: .leading, clock: clock, handler: taps.record)
    throttler.send()
    throttler.send()  // A double tap: dropped.
    clock.advance(to: .frame(6))
    throttler.send()
    await clock.settle()
    #expect(taps.count == 2)
  }

  @Test func cancelRightAfterALeadingSend_stillDeliversTheEmittedValue() async {
    let clock = VirtualClock()
    let recorder = Recorder<String>()
    let throttler = Throttler<String>(for: .frames(3), clock: clock, handler: recorder.record)
    throttler.send("a")  // Leading: the policy emitted it, so it is on its way.
    throttler.send("b")  // Pending in the window.
    throttler.cancel()  // Drops "b" only: delivery is transport, not a decision.
    await clock.settle()
    clock.advance(to: .frame(3))
    await clock.settle()
    #expect(recorder.all == ["a"])
  }

  @Test func negativeIntervals_countAsZero() async {
    let clock = VirtualClock()
    let recorder = Recorder<Int>()
    let throttler = Throttler<Int>(for: .seconds(-1), clock: clock, handler: recorder.record)
    let debouncer = Debouncer<Int>(for: .seconds(-1), clock: clock, handler: recorder.record)
    throttler.send(1)
    debouncer.send(2)
    clock.fireDueTimers()
    await clock.settle()
    #expect(recorder.all.sorted() == [1, 2])
  }
}

/// Lets a handler reach the pacer it belongs to.
final class PacerBox<Pacer: Sendable>: Sendable {
  private let storage = LockedState<Pacer?>(nil)
  var pacer: Pacer? {
    get { storage.withLock { $0 } }
    set { storage.withLock { $0 = newValue } }
  }
}
