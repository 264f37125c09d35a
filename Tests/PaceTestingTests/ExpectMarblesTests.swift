//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

@Suite struct ExpectMarblesTests {
  typealias Debounce = DebounceStateMachine<String, VirtualInstant>

  @Test func expectMarbles_whenOutputsMatch_recordsNothingAndReturnsTheOutput() throws {
    let output = expectMarbles(
      "abcd----e---f-g-|", through: Debounce(interval: .frames(3)), produce: "------d----e----[g|]")
    #expect(output?.description == "------d----e----[g|]")
  }

  @Test func expectMarbles_comparesEventsNotSpelling() throws {
    // Spaces align; trailing frames with no event do not count.
    expectMarbles("a - b", through: Debounce(interval: .frames(1)), produce: "- a - b ---")
  }

  @Test func expectMarbles_whenOutputsDiffer_showsTheDiagramsAlignedWithACaret() throws {
    let debounce = Debounce(interval: .frames(3))
    withKnownIssue {
      expectMarbles("a[bc]d", through: debounce, produce: "----d")
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text == """
        Marble diagrams differ at frame 4:
          input     a[bc]d
          expected  --   --d
          actual    --   ---d
                           ^
        """
    }
  }

  @Test func expectMarbles_whenADiagramDoesNotParse_recordsWhereItIsWrong() throws {
    let debounce = Debounce(interval: .frames(3))
    withKnownIssue {
      expectMarbles("a[b", through: debounce, produce: "a")
    } matching: { issue in
      issue.comments.map(\.rawValue).joined() == "Input diagram \"a[b\": column 2: group '[' is never closed with ']'"
    }
    withKnownIssue {
      expectMarbles("a", through: debounce, produce: "a]")
    } matching: { issue in
      issue.comments.map(\.rawValue).joined() == "Expected diagram \"a]\": column 2: ']' closes no group"
    }
  }

  @Test func expectMarbles_throughAPipeline_chainsTheStages() throws {
    let pipeline = PacingPipeline<String, VirtualInstant>(machines: [
      DistinctStateMachine(), ThrottleStateMachine(interval: .frames(2)),
    ])
    expectMarbles("aab-bc|", through: pipeline, produce: "a-b--c|")
  }
}
