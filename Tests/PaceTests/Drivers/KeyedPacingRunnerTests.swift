//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

@testable import Pace
import PaceStageText
import PaceTesting
import Testing

/// The loop driver for many keys: each key as a runner of its own, one order
/// over all keys, and state for live keys only.
@Suite struct KeyedPacingRunnerTests {
  typealias Debounce = DebounceStateMachine<String, VirtualInstant>
  typealias Pipeline = PacingPipeline<String, VirtualInstant>

  /// Records "key:value@frame" ("key:|@frame" for a finish).
  final class Log {
    var lines: [String] = []

    func record(_ key: String, _ event: MarbleEvent, _ instant: VirtualInstant) {
      lines.append("\(key):\(mark(event, instant))")
    }
  }

  @Test func timersOfEveryKey_fireEarliestFirst_beforeALaterInput() {
    var runner = KeyedPacingRunner<String, Debounce>(Debounce(interval: .frames(3)))
    let log = Log()
    runner.send("a", for: "x", at: .frame(0), log.record)
    runner.send("b", for: "y", at: .frame(1), log.record)
    runner.send("c", for: "x", at: .frame(2), log.record)  // x is now due at 5, after y.
    #expect(runner.deadline == .frame(4))
    runner.send("d", for: "z", at: .frame(10), log.record)  // The loop slept past both deadlines.
    #expect(log.lines == ["y:b@4", "x:c@5"])
    runner.fireTimers(through: .frame(13), log.record)
    #expect(log.lines == ["y:b@4", "x:c@5", "z:d@13"])
    #expect(runner.deadline == nil && runner.liveKeyCount == 0)
  }

  @Test func atOneInstant_keysFireInTheOrderTheirDeadlinesWereSet() {
    var runner = KeyedPacingRunner<String, Debounce>(Debounce(interval: .frames(3)))
    let log = Log()
    runner.send("a", for: "x", at: .frame(0), log.record)
    runner.send("b", for: "y", at: .frame(0), log.record)
    runner.send("c", for: "x", at: .frame(0), log.record)  // Its deadline stands (3): x stays first.
    runner.send("d", for: "z", at: .frame(1), log.record)
    runner.send("e", for: "w", at: .frame(1), log.record)
    runner.fireAllTimers(log.record)
    #expect(log.lines == ["x:c@3", "y:b@3", "z:d@4", "w:e@4"])
  }

  @Test func inputsOfAnInstant_comeBeforeItsTimers() {
    var runner = KeyedPacingRunner<String, Debounce>(Debounce(interval: .frames(3)))
    let log = Log()
    runner.send("a", for: "x", at: .frame(0), log.record)
    runner.send("b", for: "x", at: .frame(3), log.record)  // Due at 3: the input wins.
    runner.fireTimers(through: .frame(5), log.record)
    #expect(log.lines.isEmpty)
    runner.fireTimers(through: .frame(6), log.record)
    #expect(log.lines == ["x:b@6"])
  }

  @Test func oneKeysEndlessBurst_neverDelaysAnother() {
    var runner = KeyedPacingRunner<String, Debounce>(Debounce(interval: .frames(3)))
    let log = Log()
    for frame in 0..<50 {
      runner.send("hot", for: "x", at: .frame(frame), log.record)
      if frame == 10 { runner.send("a", for: "y", at: .frame(frame), log.record) }
      runner.fireTimers(through: .frame(frame), log.record)
    }
    #expect(log.lines == ["y:a@13"])
    #expect(runner.liveKeyCount == 1)
  }

  @Test func aThrottledKey_staysUntilItsWindowEnds() {
    var runner = KeyedPacingRunner<String, ThrottleStateMachine<String, VirtualInstant>>(
      ThrottleStateMachine(interval: .frames(4)))
    let log = Log()
    runner.send("a", for: "x", at: .frame(0), log.record)
    #expect(runner.liveKeyCount == 1 && runner.deadline == .frame(4))
    runner.send("b", for: "x", at: .frame(3), log.record)  // Still in the window: no second leading edge.
    runner.fireTimers(through: .frame(4), log.record)
    #expect(runner.liveKeyCount == 1)  // b opened a new window.
    runner.fireTimers(through: .frame(8), log.record)
    #expect(runner.liveKeyCount == 0)
    #expect(log.lines == ["x:a@0", "x:b@4"])
  }

  @Test func aKeyThatTookItsCount_staysFinished_untilTheInputEnds() throws {
    let stages = try PacingStage<String>.parse(["take", "1", "debounce", "2"], durations: .frames)
    var runner = KeyedPacingRunner<String, Pipeline>(Pipeline(stages: stages))
    let log = Log()
    runner.send("a", for: "x", at: .frame(0), log.record)
    runner.send("b", for: "x", at: .frame(1), log.record)
    runner.send("c", for: "y", at: .frame(1), log.record)
    runner.fireAllTimers(log.record)
    #expect(log.lines == ["x:a@0", "x:|@0", "y:c@1", "y:|@1"])
    #expect(runner.liveKeyCount == 2 && !runner.isTerminated)
    runner.send("d", for: "x", at: .frame(5), log.record)  // x took its one: nothing.
    runner.finish(at: .frame(6), log.record)
    #expect(log.lines.count == 4)
    #expect(runner.isTerminated && runner.liveKeyCount == 0)
  }

  @Test func theFinish_tellsLiveKeysInTheOrderTheyBecameLive_andAThrottleKeepsItsRate() {
    var runner = KeyedPacingRunner<String, ThrottleStateMachine<String, VirtualInstant>>(
      ThrottleStateMachine(interval: .frames(4)))
    let log = Log()
    runner.send("a", for: "y", at: .frame(0), log.record)
    runner.send("b", for: "x", at: .frame(1), log.record)
    runner.send("c", for: "x", at: .frame(2), log.record)
    runner.finish(at: .frame(2), log.record)
    #expect(log.lines == ["y:a@0", "x:b@1", "y:|@2"])  // y had nothing pending.
    #expect(!runner.isTerminated)
    runner.send("d", for: "z", at: .frame(3), log.record)  // After the finish: ignored.
    runner.fireAllTimers(log.record)
    #expect(log.lines == ["y:a@0", "x:b@1", "y:|@2", "x:c@5", "x:|@5"])
    #expect(runner.isTerminated && runner.liveKeyCount == 0)
  }

  @Test func theFailure_dropsWhatIsPending_inEveryKey() {
    var runner = KeyedPacingRunner<String, Debounce>(Debounce(interval: .frames(3)))
    let log = Log()
    runner.send("a", for: "x", at: .frame(0), log.record)
    runner.send("b", for: "y", at: .frame(1), log.record)
    runner.fail(at: .frame(2), log.record)
    #expect(log.lines == ["x:^@2", "y:^@2"])
    #expect(runner.isTerminated && runner.deadline == nil)
  }

  /// Random policies (stages, leading, trailing, max-wait, throttle edges)
  /// and random interleavings of 50 or more keys, with quiet gaps in which
  /// keys go and come back: the keyed runner gives each key what a runner
  /// of its own gives it, in one order of instants over all keys.
  @Test func everyKey_getsWhatARunnerOfItsOwnGives_forRandomPoliciesAndInterleavings() throws {
    var generator = SeededGenerator(seed: 0x4B52_0001)
    for run in 0..<60 {
      let chain: [StageConfiguration] =
        run.isMultiple(of: 2)
        ? [
          run.isMultiple(of: 4)
            ? PolicyPropertyTests.randomDebounce(using: &generator)
            : PolicyPropertyTests.randomThrottle(using: &generator)
        ]
        : DriverMarbleTests.randomChain(using: &generator)
      let stages = try PacingStage<String>.parse(chain.flatMap(\.arguments), durations: .frames)
      let keys = 0..<Int.random(in: 50...64, using: &generator)
      let events = KeyedPacerTests.randomEvents(keys: keys, using: &generator)
      let lastFrame = (events.keys.max() ?? 0) + 1
      let description = "run \(run), \(chain.map(\.description).joined(separator: " "))"

      var keyed = KeyedPacingRunner<Int, Pipeline>(Pipeline(stages: stages))
      var separate = Dictionary(uniqueKeysWithValues: keys.map { ($0, PacingRunner(Pipeline(stages: stages))) })
      var keyedLog: [Int: [String]] = [:]
      var separateLog: [Int: [String]] = [:]
      var instants: [Int] = []
      func recordKeyed(_ key: Int, _ event: MarbleEvent, _ instant: VirtualInstant) {
        instants.append(instant.frame)
        if case .value = event { keyedLog[key, default: []].append(mark(event, instant)) }
      }
      for key in keys { separate[key]!.start(at: .frame(0)) { _, _ in } }
      for frame in 0...lastFrame {
        for (key, value) in events[frame] ?? [] {
          keyed.send(value, for: key, at: .frame(frame), recordKeyed)
          separate[key]!.send(value, at: .frame(frame)) { event, instant in
            if case .value = event { separateLog[key, default: []].append(mark(event, instant)) }
          }
        }
        if frame == lastFrame { keyed.finish(at: .frame(frame), recordKeyed) }
        keyed.fireTimers(through: .frame(frame), recordKeyed)
      }
      keyed.fireAllTimers(recordKeyed)
      for key in keys {
        separate[key]!.finish(at: .frame(lastFrame)) { event, instant in
          if case .value = event { separateLog[key, default: []].append(mark(event, instant)) }
        }
        separate[key]!.fireAllTimers { event, instant in
          if case .value = event { separateLog[key, default: []].append(mark(event, instant)) }
        }
        #expect(keyedLog[key] ?? [] == separateLog[key] ?? [], "\(description), key \(key)")
      }
      #expect(instants == instants.sorted(), "\(description): out of order")
      #expect(keyed.isTerminated && keyed.liveKeyCount == 0, "\(description)")
    }
  }

  /// A lone debounce or throttle keeps only the keys that are live: after a
  /// quiet gap longer than every interval, none.
  @Test func quietKeys_leaveNoState() {
    var runner = KeyedPacingRunner<Int, Debounce>(Debounce(interval: .frames(3)))
    for key in 0..<10_000 {
      runner.send("v", for: key, at: .frame(key / 100), { _, _, _ in })
    }
    #expect(runner.liveKeyCount <= 400)
    runner.fireAllTimers { _, _, _ in }
    #expect(runner.liveKeyCount == 0 && runner.deadline == nil)
  }

  /// A policy whose value says whether it waits: "wait" sets a far
  /// deadline, anything else clears it (and the key can go at once).
  struct WaitOrNot: PacingStateMachine {
    var waitsUntil: VirtualInstant?
    var deadline: VirtualInstant? { waitsUntil }
    var isDiscardable: Bool { waitsUntil == nil }
    mutating func valueReceived(_ value: String, at now: VirtualInstant) -> PacingAction<String> {
      waitsUntil = value == "wait" ? now.advanced(by: .frames(1_000)) : nil
      return .none
    }
    mutating func timerFired(at now: VirtualInstant) -> PacingAction<String> { .none }
    mutating func upstreamFinished(at now: VirtualInstant) -> PacingAction<String> { .finish }
    mutating func upstreamFailed(at now: VirtualInstant) -> PacingAction<String> { .fail }
  }

  /// Keys that go while their deadline is queued leave stale entries; they
  /// never outnumber the live keys for long, whatever the count of keys seen.
  @Test func keysThatGoBeforeTheirDeadline_leaveNoQueueBehind() {
    var runner = KeyedPacingRunner<Int, WaitOrNot>(WaitOrNot())
    runner.send("wait", for: -1, at: .frame(0), { _, _, _ in })  // Due first: the stale entries queue up behind it.
    for key in 0..<20_000 {
      runner.send("wait", for: key, at: .frame(1), { _, _, _ in })
      runner.send("done", for: key, at: .frame(1), { _, _, _ in })
    }
    #expect(runner.liveKeyCount == 1)
    #expect(runner.queue.count <= 2 + 1_024 + 1)
  }
}
