//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

/// The marble tables through the closure pacers on a virtual clock: the same
/// outputs as the policies, case by case.
@Suite struct PacerMarbleTests {
  @Test(arguments: MarbleTables.timed)
  func closurePacer_matchesThePolicy(_ marbles: MarbleCase) async throws {
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
  }
}
