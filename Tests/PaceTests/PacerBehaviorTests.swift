//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

@_spi(Testing) import Pace
import PaceTesting
import Testing

/// Closure pacers on a virtual clock: the cost model, flush, cancel, finish and
/// a handler that sends again.
@Suite struct PacerBehaviorTests {
  @Test func aBurstOfSends_armsOneTimer_andDeadlinesComeFromTheSendTime() async throws {
    let clock = VirtualClock()
    let recorder = Recorder<Int>()
    let debouncer = try Debouncer<Int>(for: .frames(3), clock: clock, handler: recorder.record)
    for value in 0..<1_000 {
      debouncer.send(value)
      #expect(clock.pendingTimerCount == 1)
    }
    clock.advance(to: .frame(2))
    debouncer.send(1_000)  // The burst now ends at frame 5.
    #expect(clock.pendingTimerCount == 1)
    clock.advance(to: .frame(3))  // The timer fires early and re-arms for frame 5.
    await debouncer._waitUntilDelivered()
    #expect(recorder.all.isEmpty)
    #expect(clock.pendingTimerCount == 1)
    clock.advance(to: .frame(5))
    await debouncer._waitUntilDelivered()
    #expect(recorder.all == [1_000])
    #expect(clock.pendingTimerCount == 0)
    #expect(!debouncer.isPending)
  }

  @Test func handlerThatSendsAgain_startsANewBurst() async throws {
    let clock = VirtualClock()
    let recorder = Recorder<Int>()
    let box = PacerBox<Debouncer<Int>>()
    let debouncer = try Debouncer<Int>(for: .frames(2), leading: true, clock: clock) { value in
      recorder.record(value)
      if value < 3 { box.pacer?.send(value + 10) }
    }
    box.pacer = debouncer
    debouncer.send(1)  // Leading: delivered at once; the handler sends 11 into the same burst.
    await debouncer._waitUntilDelivered()
    #expect(recorder.all == [1])
    clock.advance(to: .frame(2))  // The burst ends with 11.
    await debouncer._waitUntilDelivered()
    #expect(recorder.all == [1, 11])
    debouncer.send(2)  // Idle again: a new burst, leading; the handler sends 12.
    await debouncer._waitUntilDelivered()
    clock.advance(to: .frame(4))
    await debouncer._waitUntilDelivered()
    #expect(recorder.all == [1, 11, 2, 12])
    #expect(clock.pendingTimerCount == 0)
  }

  @Test func flush_deliversAtOnce_andCancel_dropsThePendingValue() async throws {
    let clock = VirtualClock()
    let recorder = Recorder<String>()
    let debouncer = try Debouncer<String>(for: .frames(100), clock: clock, handler: recorder.record)
    debouncer.send("a")
    #expect(debouncer.isPending)
    debouncer.flush()
    await debouncer._waitUntilDelivered()
    #expect(recorder.all == ["a"])
    #expect(clock.pendingTimerCount == 0)  // Nothing waits: the timer is let go.
    debouncer.send("b")
    debouncer.cancel()
    #expect(!debouncer.isPending)
    #expect(clock.pendingTimerCount == 0)
    clock.advance(to: .frame(200))
    await debouncer._waitUntilDelivered()
    #expect(recorder.all == ["a"])
  }

  @Test func throttlerCancel_keepsTheRate() async throws {
    let clock = VirtualClock()
    let recorder = Recorder<String>()
    let throttler = try Throttler<String>(for: .frames(3), clock: clock, handler: recorder.record)
    throttler.send("a")  // Leading.
    await throttler._waitUntilDelivered()
    throttler.send("b")
    throttler.cancel()  // b is dropped; the window stays until frame 3.
    throttler.send("c")
    await throttler._waitUntilDelivered()
    #expect(recorder.all == ["a"])
    clock.advance(to: .frame(3))
    await throttler._waitUntilDelivered()
    #expect(recorder.all == ["a", "c"])
  }

  @Test func finish_deliversThePendingValue_thenIgnoresSends() async throws {
    let clock = VirtualClock()
    let recorder = Recorder<String>()
    let throttler = try Throttler<String>(for: .frames(3), clock: clock, handler: recorder.record)
    throttler.send("a")
    throttler.send("b")
    throttler.finish()  // b waits for the window: the rate holds.
    throttler.send("c")
    await throttler._waitUntilDelivered()
    #expect(!throttler.isFinished)
    clock.advance(to: .frame(3))
    await throttler._waitUntilDelivered()
    #expect(recorder.all == ["a", "b"])
    #expect(throttler.isFinished)
  }

  @Test func voidPacer_sendsWithoutAValue() async throws {
    let clock = VirtualClock()
    let taps = Recorder<Void>()
    let throttler = try Throttler<Void>(for: .frames(5), trailing: false, clock: clock, handler: taps.record)
    throttler.send()
    throttler.send()  // A double tap: dropped.
    clock.advance(to: .frame(6))
    throttler.send()
    await throttler._waitUntilDelivered()
    #expect(taps.count == 2)
  }

  @Test func invalidOptions_throw() {
    #expect(throws: PacingConfigurationError.neverEmits(operator: "debounce")) {
      try Debouncer<Int>(for: .seconds(1), leading: false, trailing: false) { _ in }
    }
    #expect(throws: PacingConfigurationError.negativeDuration(parameter: "throttle interval")) {
      try Throttler<Int>(for: .seconds(-1)) { _ in }
    }
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
