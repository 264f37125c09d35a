//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceMarbles
import Testing

@Suite struct MarbleDiagramParsingTests {
  typealias Entry = MarbleDiagram.Entry

  static let valid: [(String, [Entry])] = [
    ("", []),
    ("---", []),
    ("a", [.init(frame: 0, event: .value("a"))]),
    ("a--b", [.init(frame: 0, event: .value("a")), .init(frame: 3, event: .value("b"))]),
    (
      "ab|",
      [.init(frame: 0, event: .value("a")), .init(frame: 1, event: .value("b")), .init(frame: 2, event: .finish)]
    ),
    ("-^", [.init(frame: 1, event: .failure)]),
    ("'foo'-b", [.init(frame: 0, event: .value("foo")), .init(frame: 2, event: .value("b"))]),
    ("[ab]-", [.init(frame: 0, event: .value("a")), .init(frame: 0, event: .value("b"))]),
    ("-[a|]", [.init(frame: 1, event: .value("a")), .init(frame: 1, event: .finish)]),
    (
      "['foo' b]c",
      [.init(frame: 0, event: .value("foo")), .init(frame: 0, event: .value("b")), .init(frame: 1, event: .value("c"))]
    ),
    ("a -b", [.init(frame: 0, event: .value("a")), .init(frame: 2, event: .value("b"))]),
    ("a\t-b", [.init(frame: 0, event: .value("a")), .init(frame: 2, event: .value("b"))]),
    ("é😀", [.init(frame: 0, event: .value("é")), .init(frame: 1, event: .value("😀"))]),
    ("'-'", [.init(frame: 0, event: .value("-"))]),
    ("a|--", [.init(frame: 0, event: .value("a")), .init(frame: 1, event: .finish)]),
    (";", [.init(frame: 0, event: .value(";"))]),
  ]

  @Test(arguments: valid)
  func parse_validDiagram(text: String, entries: [Entry]) throws {
    #expect(try MarbleDiagram(parsing: text).entries == entries)
  }

  static let malformed: [(String, Int, String)] = [
    ("a[bc", 2, "never closed"),
    ("a'bc", 2, "never closed"),
    ("ab]", 3, "closes no group"),
    ("[]", 1, "empty group"),
    ("[a[b]]", 3, "nested"),
    ("[a-b]", 3, "'-' inside a group"),
    ("''", 1, "empty value"),
    ("a|b", 3, "after the end"),
    ("a^|", 3, "after the end"),
    ("[|a]", 3, "after the end"),
    ("'ab'|'cd'", 6, "after the end"),
  ]

  @Test(arguments: malformed)
  func parse_malformedDiagram_namesTheColumn(text: String, column: Int, reason: String) {
    #expect {
      try MarbleDiagram(parsing: text)
    } throws: { error in
      guard let error = error as? MarbleParseError else { return false }
      return error.column == column && error.reason.contains(reason)
    }
  }

  @Test func parseError_description_startsWithTheColumn() {
    let error = MarbleParseError(column: 4, reason: "empty group '[]'")
    #expect(error.description == "column 4: empty group '[]'")
  }
}
