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
  private func expectStoredRunEqualsLiveRun<M: StorablePacingStateMachine & Sendable>(_ prototype: M, seed: UInt64) throws
  where M.Value == Int, M.Instant == DriverInstant {
    var random = SeededGenerator(seed: seed)
    var live = Runner(prototype)
    var stored = Runner(prototype)
    var liveOut: [String] = []
    var storedOut: [String] = []
    var now = DriverInstant(nanoseconds: 1_000_000_000)
    live.start(at: now) { liveOut.append("\($0)@\($1.nanoseconds)") }
    stored.start(at: now) { storedOut.append("\($0)@\($1.nanoseconds)") }
    for value in 0..<400 {
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
