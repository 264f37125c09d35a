//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

/// `mapLatest` in virtual time: each operation sleeps on a `VirtualClock` for
/// its work (see ``MapLatestCase``), and the diagrams say what comes out and
/// when. Each table runs through the sequence and through a reference model.
@Suite(.timeLimit(.minutes(3))) struct MapLatestMarbleTests {
  static let cases: [MapLatestCase] = [
    // Switching: a newer element cancels the operation before; its result never comes out.
    MapLatestCase("a-b-----c---|", "-----b-----c|"),
    MapLatestCase("abcdef---|", "--------f|"),
    MapLatestCase("[ab]|", "---[b|]"),
    MapLatestCase("5-1---|", "---1--|"),
    MapLatestCase("0-0-|", "0-0-|"),
    // A superseded operation is cancelled: it does not hold the finish back.
    MapLatestCase("9-1|", "---[1|]"),
    // An element at the frame an operation would end supersedes it (inputs come first).
    MapLatestCase("a--b----|", "------b-|"),
    // A superseded operation that ignores cancellation and returns, or throws, late: nothing of it comes out.
    MapLatestCase("A-b-----|", "-----b--|"),
    MapLatestCase("X-a---|", "-----a|"),
    MapLatestCase("x-a---|", "-----a|"),
    // Finish: the running operation completes and its result comes out, then the finish.
    MapLatestCase("a-b|", "-----[b|]"),
    MapLatestCase("a--|", "---[a|]"),
    MapLatestCase("a----|", "---a-|"),
    MapLatestCase("|", "|"),
    // The end waits for a superseded operation that ignores cancellation.
    MapLatestCase("A0|", "-0-|"),
    // Failure: the running operation is cancelled and its result dropped, then the failure.
    MapLatestCase("a-b^", "---^"),
    MapLatestCase("a--^", "---^"),
    MapLatestCase("a----b^", "---a--^"),
    MapLatestCase("^", "^"),
    MapLatestCase("A-^", "---^"),
    // The transform throws: the sequence fails, and the rest of the base is never consumed.
    MapLatestCase("a---x---b|", "---a---^"),
    MapLatestCase("x", "---^"),
    // No finish: the last result, and nothing after it.
    MapLatestCase("a-b", "-----b"),
    MapLatestCase("", ""),
  ]

  @Test(arguments: cases)
  func diagram(_ marbles: MapLatestCase) async throws {
    let input = try MarbleDiagram(parsing: marbles.input)
    let expected = try MarbleDiagram(parsing: marbles.output)
    let (output, clock) = await MapLatestMarbles.run(input, work: marbles.work)
    #expect(output == expected, "\(MarbleDiagram.aligned([input, expected, output]).joined(separator: "\n"))")
    #expect(clock.sleeperCount == 0, "an operation is left asleep")
  }

  @Test(arguments: cases)
  func referenceModel(_ marbles: MapLatestCase) throws {
    let input = try MarbleDiagram(parsing: marbles.input)
    let expected = try MarbleDiagram(parsing: marbles.output)
    #expect(MapLatestMarbles.reference(input, work: marbles.work) == expected)
  }

  @Test func theDocumentedExample() async throws {
    let output = try await MarbleDiagram(parsing: "a-b-----c---|").run(on: VirtualClock()) { base, clock in
      base.mapLatest { value in
        try await clock.sleep(for: .frames(3))
        return value.uppercased()
      }
    }
    #expect(output.description == "-----B-----C|")
  }
}
