//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import PaceMarbles
import Testing

@testable import pace

@Suite struct StageParserTests {
  func parse(_ words: [String]) throws(UsageError) -> [StageSpecification] {
    var parser = StageParser(words, firstArgumentNumber: 2, durations: .frames)
    return try parser.parse()
  }

  @Test func parse_stagesStartAtEachOperatorName() throws {
    let stages = try parse([
      "filter", "ERROR", "distinct", "debounce", "3", "--max-wait", "10", "--leading", "take", "2",
    ])
    #expect(
      stages == [
        .filter(pattern: "ERROR"), .distinct,
        .debounce(interval: .frames(3), leading: true, trailing: true, maxWait: .frames(10)), .take(count: 2),
      ])
  }

  @Test func parse_defaults_areThoseOfMarblesDocument() throws {
    #expect(
      try parse(["debounce", "2"]) == [.debounce(interval: .frames(2), leading: false, trailing: true, maxWait: nil)])
    #expect(try parse(["throttle", "2"]) == [.throttle(interval: .frames(2), leading: true, trailing: true)])
    #expect(
      try parse(["throttle", "2", "--no-leading"]) == [.throttle(interval: .frames(2), leading: false, trailing: true)])
  }

  @Test func parse_filterPattern_mayLookLikeAnOperatorOrAnOption() throws {
    #expect(try parse(["filter", "take", "skip", "1"]) == [.filter(pattern: "take"), .skip(count: 1)])
    #expect(try parse(["filter", "--x"]) == [.filter(pattern: "--x")])
  }

  @Test func parse_maxWaitWithEquals() throws {
    #expect(
      try parse(["debounce", "1", "--max-wait=4"]) == [
        .debounce(interval: .frames(1), leading: false, trailing: true, maxWait: .frames(4))
      ])
  }

  @Test func parse_error_countsArgumentsFromTheFirstStageWord() {
    #expect(throws: UsageError("argument 5 'x': skip needs a count, a whole number such as 2")) {
      try parse(["distinct", "distinct", "skip", "x"])
    }
  }
}
