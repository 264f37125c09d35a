//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceMarbles
import Testing

@Suite struct MarbleDiagramRenderingTests {
  @Test(arguments: ["", "a", "a--b", "ab|", "-^", "'foo'-b", "[ab]", "-[a|]", "a----------d", "['foo'b]c", "'-'[']'|]"])
  func render_canonicalDiagram_roundTrips(text: String) throws {
    #expect(try MarbleDiagram(parsing: text).description == text)
  }

  @Test(arguments: [("ab---", "ab"), ("a b", "ab"), ("a|--", "a|"), ("[a]", "a"), ("'x'", "x"), ("---", "")])
  func render_endsAtTheLastEvent_inCanonicalForm(text: String, rendered: String) throws {
    #expect(try MarbleDiagram(parsing: text).description == rendered)
  }

  @Test func render_entriesOutOfOrder_sortsByFrameStably() {
    let diagram = MarbleDiagram(entries: [
      .init(frame: 2, event: .value("c")), .init(frame: 0, event: .value("a")), .init(frame: 2, event: .finish),
    ])
    #expect(diagram.description == "a-[c|]")
  }

  @Test func aligned_padsEachFrameToTheWidestDiagram() throws {
    let lines = MarbleDiagram.aligned([
      try MarbleDiagram(parsing: "a[bc]d"),
      try MarbleDiagram(parsing: "-x--e"),
      try MarbleDiagram(parsing: "'foo'"),
    ])
    #expect(lines == ["a    [bc]d", "-    x   --e", "'foo'"])
  }

  @Test func aligned_diagramsParseBackToThemselves() throws {
    let diagrams = [try MarbleDiagram(parsing: "a[bc]d|"), try MarbleDiagram(parsing: "-'long'-[e|]")]
    let lines = MarbleDiagram.aligned(diagrams)
    #expect(try lines.map { try MarbleDiagram(parsing: $0) } == diagrams)
  }

  @Test func events_atAFrame_keepTheirOrder() throws {
    let diagram = try MarbleDiagram(parsing: "-[ba|]")
    #expect(diagram.events(at: 1) == [.value("b"), .value("a"), .finish])
    #expect(diagram.events(at: 0).isEmpty)
    #expect(diagram.lastFrame == 1)
  }
}
