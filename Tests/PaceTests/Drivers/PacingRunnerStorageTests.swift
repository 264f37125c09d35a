//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Foundation
import Pace
import Testing

/// A runner whose state goes through JSON after every event behaves exactly
/// as one that was never stored: what a fleet driver does with each key.
@Suite struct PacingRunnerStorageTests {
  typealias Runner<M: StorablePacingStateMachine> = PacingRunner<M>

  static let debounces: [DebounceStateMachine<Int, DriverInstant>] = [
    DebounceStateMachine(interval: .milliseconds(30)),
    DebounceStateMachine(interval: .milliseconds(30), edges: .leading),
    DebounceStateMachine(interval: .milliseconds(30), edges: .both(maxWait: .milliseconds(70))),
    DebounceStateMachine(interval: .milliseconds(30), edges: .trailing(maxWait: .milliseconds(45))),
  ]
  static let throttles: [ThrottleStateMachine<Int, DriverInstant>] = [
    ThrottleStateMachine(interval: .milliseconds(30)),
    ThrottleStateMachine(interval: .milliseconds(30), edges: .leading),
    ThrottleStateMachine(interval: .milliseconds(30), edges: .trailing),
  ]

  @Test(arguments: 0..<debounces.count)
  func debounce_storedAfterEveryEvent_emitsWhatItWouldHave(option: Int) throws {
    try expectStoredRunEqualsLiveRun(Self.debounces[option], seed: UInt64(option) + 1)
  }

  @Test(arguments: 0..<throttles.count)
  func throttle_storedAfterEveryEvent_emitsWhatItWouldHave(option: Int) throws {
    try expectStoredRunEqualsLiveRun(Self.throttles[option], seed: UInt64(option) + 11)
  }

  /// Stages of every kind, each storing its own state: values repeat (for
  /// distinct), some are filtered, counts run out mid-run (take finishes).
  static let pipelines: [PacingPipeline<Int, DriverInstant>] = [
    .stages([.filter { $0 % 5 != 0 }, .distinct(), .debounce(for: .milliseconds(30)), .skip(3)]),
    .stages([.skip(2), .throttle(for: .milliseconds(30), edges: .leading), .distinct(), .take(60)]),
    .stages([
      .distinct(), .debounce(for: .milliseconds(20), edges: .both(maxWait: .milliseconds(50))),
      .throttle(for: .milliseconds(40)),
    ]),
    PacingPipeline(machines: [EveryOther<Int>(), ThrottleStateMachine(interval: .milliseconds(30), edges: .trailing)]),
  ]

  @Test(arguments: 0..<pipelines.count)
  func pipeline_storedAfterEveryEvent_emitsWhatItWouldHave(option: Int) throws {
    try expectStoredRunEqualsLiveRun(Self.pipelines[option], seed: UInt64(option) + 21) { $0 % 4 }
  }

  @Test func pipeline_withAStageThatCannotBeStored_throwsNamingIt() throws {
    var runner = Runner(PacingPipeline<Int, DriverInstant>(machines: [DistinctStateMachine(), NotStorable()]))
    runner.start(at: DriverInstant(nanoseconds: 0)) { _, _ in }
    #expect {
      _ = try JSONEncoder().encode(Encoded(runner: runner))
    } throws: { error in
      "\(error)".contains("Stage 2 (NotStorable<Int>) is not a StorablePacingStateMachine")
    }
  }

  @Test func pipeline_decodeState_ofAnotherNumberOfStages_throws() throws {
    var runner = Runner(PacingPipeline<Int, DriverInstant>.stages(.distinct(), .skip(1)))
    runner.start(at: DriverInstant(nanoseconds: 0)) { _, _ in }
    let data = try JSONEncoder().encode(Encoded(runner: runner))
    #expect(throws: DecodingError.self) {
      _ = try Decoded(prototype: PacingPipeline<Int, DriverInstant>.stages(.distinct()), data: data)
    }
  }

  @Test func instant_encodesAsBareNanoseconds() throws {
    let data = try JSONEncoder().encode([DriverInstant(nanoseconds: 1_700_000_000_123_456_000)])
    #expect(String(decoding: data, as: UTF8.self) == "[1700000000123456000]")
    #expect(try JSONDecoder().decode([DriverInstant].self, from: data) == [DriverInstant(nanoseconds: 1_700_000_000_123_456_000)])
  }

  @Test func decodeState_ofAnotherKindOfPolicy_throws() throws {
    var throttle = Runner(Self.throttles[0])
    throttle.start(at: DriverInstant(nanoseconds: 0)) { _, _ in }
    throttle.send(1, at: DriverInstant(nanoseconds: 0)) { _, _ in }
    let data = try JSONEncoder().encode(Encoded(runner: throttle))
    #expect(throws: DecodingError.self) {
      _ = try Decoded(prototype: Self.debounces[0], data: data)
    }
  }

  /// Sends seeded values at seeded instants (gaps around the interval, equal
  /// instants included), firing timers between them: once with one runner,
  /// once storing and restoring the runner after every event.
  private func expectStoredRunEqualsLiveRun<M: StorablePacingStateMachine & Sendable>(
    _ prototype: M, seed: UInt64, values: (Int) -> Int = { $0 }
  ) throws
  where M.Value == Int, M.Instant == DriverInstant {
    var random = SeededGenerator(seed: seed)
    var live = Runner(prototype)
    var stored = Runner(prototype)
    var liveOut: [String] = []
    var storedOut: [String] = []
    var now = DriverInstant(nanoseconds: 1_000_000_000)
    live.start(at: now) { liveOut.append("\($0)@\($1.nanoseconds)") }
    stored.start(at: now) { storedOut.append("\($0)@\($1.nanoseconds)") }
    for index in 0..<400 {
      let value = values(index)
      now = now.advanced(by: .milliseconds(Int64(random.next() % 50)))
      live.send(value, at: now) { liveOut.append("\($0)@\($1.nanoseconds)") }
      stored = try roundTrip(stored, prototype: prototype)
      stored.send(value, at: now) { storedOut.append("\($0)@\($1.nanoseconds)") }
      if random.next() % 3 == 0 {
        live.fireTimers(through: now) { liveOut.append("\($0)@\($1.nanoseconds)") }
        stored = try roundTrip(stored, prototype: prototype)
        stored.fireTimers(through: now) { storedOut.append("\($0)@\($1.nanoseconds)") }
      }
    }
    live.fireAllTimers { liveOut.append("\($0)@\($1.nanoseconds)") }
    stored = try roundTrip(stored, prototype: prototype)
    stored.fireAllTimers { storedOut.append("\($0)@\($1.nanoseconds)") }
    #expect(liveOut.count > 20)
    #expect(storedOut == liveOut)
  }

  private func roundTrip<M: StorablePacingStateMachine & Sendable>(_ runner: Runner<M>, prototype: M) throws -> Runner<M>
  where M.Instant == DriverInstant {
    try Decoded(prototype: prototype, data: JSONEncoder().encode(Encoded(runner: runner))).runner
  }
}

/// A stage of one's own that stores its state: lets every other value through.
private struct EveryOther<Value: Codable & Sendable>: StorablePacingStateMachine, Sendable {
  var skipNext = false
  var deadline: DriverInstant? { nil }
  mutating func valueReceived(_ value: Value, at now: DriverInstant) -> PacingAction<Value> {
    defer { skipNext.toggle() }
    return skipNext ? .none : .emit(value)
  }
  mutating func timerFired(at now: DriverInstant) -> PacingAction<Value> { .none }
  mutating func upstreamFinished(at now: DriverInstant) -> PacingAction<Value> { .finish }
  mutating func upstreamFailed(at now: DriverInstant) -> PacingAction<Value> { .fail }
  func encodeState(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(skipNext)
  }
  mutating func decodeState(from decoder: any Decoder) throws {
    skipNext = try decoder.singleValueContainer().decode(Bool.self)
  }
}

/// A stage of one's own that does not say how to store it.
private struct NotStorable<Value: Sendable>: PacingStateMachine, Sendable {
  var deadline: DriverInstant? { nil }
  mutating func valueReceived(_ value: Value, at now: DriverInstant) -> PacingAction<Value> { .emit(value) }
  mutating func timerFired(at now: DriverInstant) -> PacingAction<Value> { .none }
  mutating func upstreamFinished(at now: DriverInstant) -> PacingAction<Value> { .finish }
  mutating func upstreamFailed(at now: DriverInstant) -> PacingAction<Value> { .fail }
}

private struct Encoded<M: StorablePacingStateMachine>: Encodable where M.Instant: Codable {
  let runner: PacingRunner<M>
  func encode(to encoder: any Encoder) throws { try runner.encodeState(to: encoder) }
}

private struct Decoded<M: StorablePacingStateMachine & Sendable>: Decodable where M.Instant: Codable {
  static var prototypeKey: CodingUserInfoKey { CodingUserInfoKey(rawValue: "prototype")! }
  var runner: PacingRunner<M>

  init(prototype: M, data: Data) throws {
    let decoder = JSONDecoder()
    decoder.userInfo[Self.prototypeKey] = prototype
    self = try decoder.decode(Self.self, from: data)
  }

  init(from decoder: any Decoder) throws {
    let prototype = try #require(decoder.userInfo[Self.prototypeKey] as? M)
    runner = PacingRunner(prototype)
    try runner.decodeState(from: decoder)
  }
}
