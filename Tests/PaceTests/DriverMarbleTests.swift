//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

/// The marble tables through three executors — the policy, the closure pacer
/// on a virtual clock, the AsyncSequence operator on a virtual clock — with
/// identical outputs, case by case.
@Suite struct DriverMarbleTests {
  @Test(arguments: MarbleTables.timed)
  func closurePacer_andSequence_matchThePolicy(_ marbles: MarbleCase) async throws {
    let input = try MarbleDiagram(parsing: marbles.input)
    let expected = try MarbleDiagram(parsing: marbles.output)
    let policyOutput = input.run(through: try marbles.makePipeline())
    #expect(policyOutput == expected)

    let clock = VirtualClock()
    let output: MarbleDiagram
    switch marbles.stages[0] {
    case .debounce(let interval, let leading, let trailing, let maxWait):
      output = try await input.run(on: clock) { clock, handler in
        try Debouncer(
          for: .frames(interval), leading: leading, trailing: trailing, maxWait: maxWait.map { .frames($0) },
          clock: clock, handler: handler)
      }
    case .throttle(let interval, let leading, let trailing):
      output = try await input.run(on: clock) { clock, handler in
        try Throttler(for: .frames(interval), leading: leading, trailing: trailing, clock: clock, handler: handler)
      }
    case .distinct, .filter, .skip, .take:
      Issue.record("not a timed stage")
      return
    }
    #expect(output == expected, "pacer: \(output), policy: \(policyOutput)")
    // The pacer is gone: it left no timer behind.
    #expect(clock.pendingTimerCount == 0)

    let sequenceClock = VirtualClock()
    let sequenceOutput: MarbleDiagram
    switch marbles.stages[0] {
    case .debounce(let interval, let leading, let trailing, let maxWait):
      sequenceOutput = try await input.run(on: sequenceClock) { base, clock in
        try base.debounced(
          for: .frames(interval), leading: leading, trailing: trailing, maxWait: maxWait.map { .frames($0) },
          clock: clock)
      }
    case .throttle(let interval, let leading, let trailing):
      sequenceOutput = try await input.run(on: sequenceClock) { base, clock in
        try base.throttled(for: .frames(interval), leading: leading, trailing: trailing, clock: clock)
      }
    case .distinct, .filter, .skip, .take:
      return
    }
    #expect(sequenceOutput == expected, "sequence: \(sequenceOutput), policy: \(policyOutput)")
    // The iterator is gone: it left no timer behind.
    #expect(sequenceClock.pendingTimerCount == 0)
  }
}
