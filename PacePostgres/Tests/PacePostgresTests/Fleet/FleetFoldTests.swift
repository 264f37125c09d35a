//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import FleetScenario
import Foundation
import Pace
@testable import PacePostgres
import Testing

/// The fire a fold stores with a key (what it does at its deadline if no
/// send comes first, for `pace_fire`) is exactly what a fold at that
/// deadline, with no send, would do.
@Suite struct FleetFoldTests {
  /// A fire as `pace_fire` reads it.
  struct Fire: Equatable {
    var emissions: [[String]]  // [µs, value JSON]
    var state: NSObject?
    var due: Int64?
    var pending: Bool

    init(json: String) throws {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
      let list = try #require(object["emissions"] as? [[Any]])
      emissions = try list.map { pair in
        let micros = try #require(pair.first as? NSNumber)
        let value = try JSONSerialization.data(withJSONObject: pair[1], options: [.fragmentsAllowed, .sortedKeys])
        return [micros.stringValue, String(decoding: value, as: UTF8.self)]
      }
      // Only the emissions when the key goes; all four keys when it stays.
      if object["state"] == nil {
        #expect(object.count == 1, "a fire after which the key goes has its emissions alone: \(json)")
        (state, due, pending) = (nil, nil, false)
      } else {
        state = try #require(object["state"] as? NSObject)
        due = (object["due"] as? NSNumber)?.int64Value
        pending = try #require(object["pending"] as? Bool)
      }
    }

    init(_ result: FoldResult, key: String) throws {
      emissions = try result.emissions.map { emission in
        let object = try JSONSerialization.jsonObject(with: Data(emission.value.utf8), options: .fragmentsAllowed)
        let value = try JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed, .sortedKeys])
        return [String(emission.micros), String(decoding: value, as: UTF8.self)]
      }
      if let kept = result.kept.first(where: { $0.key == key }) {
        state = try JSONSerialization.jsonObject(with: Data(kept.state.utf8)) as? NSObject
        due = kept.due
        pending = kept.pending
      } else {
        #expect(result.gone == [key])
        state = nil
        due = nil
        pending = false
      }
    }
  }

  func check<Machine: StorablePacingStateMachine & Sendable>(_ machine: Machine, seed: UInt64) throws
  where Machine.Instant == DriverInstant, Machine.Value == String {
    let fold = FleetFold(prototype: machine)
    var random = ScenarioRandom(seed: seed)
    var state: String?
    var micros: Int64 = 1_700_000_000_000_000
    var fires = 0
    for round in 0..<40 {
      // A few sends, then a fold a little after the last.
      var sends: [ClaimedKey.Send] = []
      for index in 0..<Int(random.next() % 4) {
        micros += Int64(random.next() % 400_000)
        sends.append(.init(id: Int64(round * 10 + index), value: "\"v\(round).\(index)\"", micros: micros))
      }
      micros += Int64(random.next() % 50_000)
      let result = fold.fold([ClaimedKey(key: "k", state: state, sends: sends)], now: micros)
      guard let kept = result.kept.first else {
        state = nil
        continue
      }
      #expect((kept.due == nil) == (kept.fire == nil))
      if let due = kept.due, let fire = kept.fire {
        // What a fold at the deadline, with no send, does.
        let atDeadline = fold.fold([ClaimedKey(key: "k", state: kept.state, sends: [])], now: due)
        #expect(try Fire(json: fire) == Fire(atDeadline, key: "k"), "seed \(seed), round \(round)")
        fires += 1
        if random.next() % 2 == 0 {
          // Time goes on to the deadline: the fire happened.
          micros = max(micros, due)
          state = atDeadline.kept.first?.state
          continue
        }
      }
      state = kept.state
    }
    #expect(fires > 0)
  }

  @Test(arguments: FleetScenario.Pacer.Kind.allCases)
  func fire_isWhatAFoldAtTheDeadlineDoes(kind: FleetScenario.Pacer.Kind) throws {
    for seed in 1...20 as ClosedRange<UInt64> {
      var random = ScenarioRandom(seed: seed)
      let interval = Int64(100 + random.next() % 400)
      let maxWait: Int64? = random.next() % 2 == 0 ? interval + Int64(random.next() % 600) : nil
      let pacer = FleetScenario.Pacer(name: "p", kind: kind, intervalMilliseconds: interval, maxWaitMilliseconds: maxWait)
      if pacer.isDebounce { try check(pacer.debounce, seed: seed) } else { try check(pacer.throttle, seed: seed) }
    }
  }

  /// Deadlines that fall inside a microsecond: the stored due is rounded
  /// up, the emissions' instants down, as a fold's are.
  @Test func fire_withIntervalsOfNoWholeMicrosecond_isWhatAFoldAtTheDeadlineDoes() throws {
    for seed in 1...10 as ClosedRange<UInt64> {
      try check(
        DebounceStateMachine<String, DriverInstant>(
          interval: .nanoseconds(123_456_789), edges: .both(maxWait: .nanoseconds(333_333_333))),
        seed: seed)
      try check(ThrottleStateMachine<String, DriverInstant>(interval: .nanoseconds(99_999_999), edges: .both), seed: seed)
    }
  }

  @Test func trailingDebounce_firesItsValueOnTheDeadline_andTheKeyGoes() throws {
    let fold = FleetFold(prototype: DebounceStateMachine<String, DriverInstant>(interval: .milliseconds(500)))
    let result = fold.fold(
      [ClaimedKey(key: "k", state: nil, sends: [.init(id: 1, value: "\"a\"", micros: 1_000_000)])], now: 1_000_100)
    let kept = try #require(result.kept.first)
    #expect(kept.due == 1_500_000)
    #expect(kept.fire == #"{"emissions":[[1500000,"a"]]}"#)
  }
}
