//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

/// A policy that breaks the deadline contract: its deadline is always now,
/// and firing it never acts or moves it.
struct StuckStateMachine: PacingStateMachine, Sendable {
  var deadline: DriverInstant?
  mutating func valueReceived(_ value: String, at now: DriverInstant) -> PacingAction<String> {
    deadline = now
    return .none
  }
  mutating func timerFired(at now: DriverInstant) -> PacingAction<String> { .none }
  mutating func upstreamFinished(at now: DriverInstant) -> PacingAction<String> { .finish }
  mutating func upstreamFailed(at now: DriverInstant) -> PacingAction<String> { .fail }
}

/// What the drivers do with policies and inputs that misbehave, and how
/// pipelines pass user requests through their stages.
@Suite struct DriverRobustnessTests {
  @Test func aPolicyThatNeverMovesItsPastDeadline_doesNotSpinTheTimer() async {
    let clock = VirtualClock()
    let pacer = Pacer(StuckStateMachine(), clock: clock) { (_: String) in }
    pacer.send("a")
    clock.advance(by: .seconds(1))  // Fires once, then leaves it: this returns.
    #expect(clock.pendingTimerCount == 0)
    pacer.send("b")  // The next event arms it again, once.
    clock.advance(by: .seconds(1))
    #expect(clock.pendingTimerCount == 0)
  }

  @Test func aStuckPolicyOnTheRealClock_leavesOtherPacersOnTime() async {
    let stuck = Pacer(StuckStateMachine()) { (_: String) in }
    stuck.send("a")
    let (values, delivered) = AsyncStream<Int>.makeStream()
    let other = Debouncer<Int>(for: .milliseconds(5)) { delivered.yield($0) }
    other.send(1)
    #expect(await PacerRealClockTests.firstValue(of: values) == 1)
    withExtendedLifetime(stuck) {}
  }

  @Test func cancellingAPipeline_dropsWhatEveryStageHoldsBack() {
    // The throttle holds back "b" and the finish; the debounce holds "a".
    var pipeline = PacingPipeline<String, VirtualInstant>(stages: [
      .throttle(for: .frames(5)), .debounce(for: .frames(10)),
    ])
    #expect(pipeline.valueReceived("a", at: .frame(0)).isEmpty)  // Leading "a" passes to the debounce.
    #expect(pipeline.valueReceived("b", at: .frame(1)).isEmpty)
    #expect(pipeline.upstreamFinished(at: .frame(2)).isEmpty)
    // The cancel releases the throttle's finish; it must not flush the debounce's "a".
    #expect(pipeline.cancelled(at: .frame(3)) == .finish)
    #expect(pipeline.isTerminated)
  }

  @Test func flushingAPipeline_flushesWhatUpstreamFlushed() {
    var pipeline = PacingPipeline<String, VirtualInstant>(stages: [
      .debounce(for: .frames(10)), .debounce(for: .frames(10)),
    ])
    _ = pipeline.valueReceived("a", at: .frame(0))
    // The first debounce emits "a" into the second, which is then flushed too.
    #expect(pipeline.flushRequested(at: .frame(1)) == .emit("a"))
    #expect(!pipeline.hasPendingValue)
  }

  @Test func aPacedSequence_stopsConsumingItsBase_whenItsPolicyHasEnded() async {
    let (base, input) = AsyncStream<Int>.makeStream()
    let (terminations, terminated) = AsyncStream<Void>.makeStream()
    input.onTermination = { _ in terminated.yield() }
    var iterator = base.paced(by: .take(1)).makeAsyncIterator()
    input.yield(1)
    #expect(await iterator.next(isolation: #isolation) == 1)
    #expect(await iterator.next(isolation: #isolation) == nil)
    // The iterator is still alive, but the base is no longer consumed.
    #expect(await PacerRealClockTests.firstValue(of: terminations) != nil)
    withExtendedLifetime(iterator) {}
  }

  @Test func takeZero_neverConsumesTheBase() async {
    let base = TouchedSequence()
    var iterator = base.paced(by: .take(0)).makeAsyncIterator()
    #expect(await iterator.next(isolation: #isolation) == nil)
    #expect(!base.wasIterated)
  }
}

/// A base that notes whether anyone started iterating it.
struct TouchedSequence: AsyncSequence, Sendable {
  typealias Element = String
  private let touched = Recorder<Bool>()

  var wasIterated: Bool { !touched.all.isEmpty }

  func makeAsyncIterator() -> AsyncStream<String>.Iterator {
    touched.record(true)
    return AsyncStream<String> { $0.finish() }.makeAsyncIterator()
  }
}
