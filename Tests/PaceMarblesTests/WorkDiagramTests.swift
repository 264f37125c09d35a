//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceMarbles
import Testing

/// The on-busy policy in marble notation: requests, how long their work
/// takes, and what each answer of the policy does with them.
@Suite struct WorkDiagramTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var onBusy: OnBusy
    var requests: String
    var work: String
    var starts: String
    var ends: String
    var cancels = ""
    var skips = ""

    var testDescription: String { "\(onBusy): \(requests) / \(work)" }
  }

  static let cases: [Case] = [
    // Requests far apart: every policy runs each one.
    Case(onBusy: .queue, requests: "a----b", work: "2----2", starts: "a----b", ends: "--a----b"),
    Case(onBusy: .drop, requests: "a----b", work: "2----2", starts: "a----b", ends: "--a----b"),
    Case(onBusy: .restart, requests: "a----b", work: "2----2", starts: "a----b", ends: "--a----b"),
    // The autosave: one run after the last request, never two at once.
    Case(onBusy: .queue, requests: "a-b-c", work: "4-1-2", starts: "a---c", ends: "----a-c", skips: "----b"),
    Case(onBusy: .queue, requests: "ab-c", work: "31-3", starts: "a--c", ends: "---a--c", skips: "---b"),
    // c comes at the frame a ends: a still runs (requests first), so c is dropped.
    Case(onBusy: .drop, requests: "a-b-c", work: "4-1-2", starts: "a", ends: "----a", skips: "--b-c"),
    Case(onBusy: .restart, requests: "a-b-c", work: "4-1-2", starts: "a-b-c", ends: "---b--c", cancels: "--a"),
    Case(onBusy: .restart, requests: "abc", work: "333", starts: "abc", ends: "-----c", cancels: "-ab"),
    // A request at the frame where work ends finds it running (inputs first).
    Case(onBusy: .drop, requests: "a-b", work: "2-1", starts: "a", ends: "--a", skips: "--b"),
    Case(onBusy: .queue, requests: "a-b", work: "2-1", starts: "a-b", ends: "--ab"),
    // Work of 0 frames ends in the frame it starts; a longer duration is quoted.
    Case(onBusy: .queue, requests: "ab", work: "0'12'", starts: "ab", ends: "a------------b"),
  ]

  @Test(arguments: cases)
  func timeline(_ example: Case) throws {
    let timeline = try WorkDiagram(requests: example.requests, work: example.work).run(onBusy: example.onBusy)
    #expect(timeline.starts.description == example.starts)
    #expect(timeline.ends.description == example.ends)
    #expect(timeline.cancels.description == example.cancels)
    #expect(timeline.skips.description == example.skips)
  }

  @Test func theDescription_alignsTheFourRows() throws {
    let timeline = try WorkDiagram(requests: "a-b-c", work: "4-1-2").run(onBusy: .queue)
    #expect(
      timeline.description == """
        starts   a---c
        ends     ----a-c
        cancels
        skips    ----b
        """)
  }

  @Test(arguments: [
    ("a-b", "2", "column 3: request 'b' has no duration under it in the work row"),
    ("a", "x", "column 1: the work row takes whole numbers of frames"),
    ("a|", "2-", "column 2: requests are values: no '|' or '^'"),
    ("a[", "1", "column 2: group '[' is never closed with ']'"),
  ])
  func aBadDiagram_namesTheColumn(requests: String, work: String, message: String) {
    #expect(throws: MarbleParseError.self) { try WorkDiagram(requests: requests, work: work) }
    do {
      _ = try WorkDiagram(requests: requests, work: work)
    } catch {
      #expect(error.description == message)
    }
  }
}
