//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceMarbles
import PaceStageText
import Testing

/// The one path by which text becomes stages: `PacingStage.parse` and the
/// operator registry it reads.
@Suite struct PacingStageParsingTests {
  /// A stage as a string that names its operator and options, defaults included.
  static func describe(_ stage: PacingStage<String>) -> String {
    switch stage.kind {
    case .debounce(let interval, let edges): "debounce \(interval) \(edges)"
    case .throttle(let interval, let edges): "throttle \(interval) \(edges)"
    case .distinct: "distinct"
    case .filter: "filter"
    case .skip(let count): "skip \(count)"
    case .take(let count): "take \(count)"
    }
  }

  func parse(_ words: [String], durations: PacingDurationFormat = .frames) throws -> [String] {
    try PacingStage<String>.parse(words, durations: durations).map(Self.describe)
  }

  @Test func parse_stagesStartAtEachOperatorName() throws {
    #expect(
      try parse(["filter", "ERROR", "distinct", "debounce", "3", "--max-wait", "10", "--leading", "take", "2"]) == [
        "filter", "distinct", "debounce 3.0 seconds both(maxWait: Optional(10.0 seconds))", "take 2",
      ])
  }

  @Test func parse_defaults_areThoseOfMarblesDocument() throws {
    #expect(try parse(["debounce", "2"]) == ["debounce 2.0 seconds trailing(maxWait: nil)"])
    #expect(try parse(["throttle", "2"]) == ["throttle 2.0 seconds both"])
    #expect(try parse(["throttle", "2", "--no-leading"]) == ["throttle 2.0 seconds trailing"])
    #expect(try parse(["throttle", "2", "--no-trailing"]) == ["throttle 2.0 seconds leading"])
    #expect(try parse(["debounce", "2", "--leading", "--no-trailing"]) == ["debounce 2.0 seconds leading"])
  }

  @Test func parse_filterPattern_mayLookLikeAnOperatorOrAnOption() throws {
    #expect(try parse(["filter", "take", "skip", "1"]) == ["filter", "skip 1"])
    #expect(try parse(["filter", "--x"]) == ["filter"])
  }

  @Test func parse_maxWaitWithEquals() throws {
    #expect(
      try parse(["debounce", "1", "--max-wait=4"]) == ["debounce 1.0 seconds trailing(maxWait: Optional(4.0 seconds))"])
  }

  @Test func parse_filter_matchesAsGrepDoes() throws {
    let stages = try PacingStage<String>.parse(["filter", "^E[A-Z]+$"], durations: .frames)
    let output = try MarbleDiagram(parsing: "'ERROR''info''ERRORS x'|").run(stages: stages)
    #expect(output.description == "'ERROR'--|")
  }

  /// A plain pattern is searched for as bytes, not run as a regular
  /// expression: it must keep what the regular expression keeps.
  @Test func parse_filterWithAPlainPattern_keepsWhatTheRegularExpressionKeeps() throws {
    var generator = SeededGenerator(seed: 0xF117_E401)
    let alphabet = Array("abcAB -:/_éx")
    for _ in 0..<2_000 {
      let pattern = String(
        (0..<Int.random(in: 1...3, using: &generator)).map { _ in
          "abAB -:/_".randomElement(using: &generator)!
        })
      let plain = try PacingStage<String>.parse(["filter", pattern], durations: .frames)
      let regex = Regex<AnyRegexOutput>(verbatim: pattern)
      for _ in 0..<5 {
        let text = String(
          (0..<Int.random(in: 0...12, using: &generator)).map { _ in
            alphabet.randomElement(using: &generator)!
          })
        var machine = plain[0].makeStateMachine(for: VirtualInstant.self)
        let kept = !machine.valueReceived(text, at: .frame(0)).isEmpty
        #expect(kept == text.contains(regex), "'\(pattern)' in '\(text)'")
      }
    }
  }

  @Test func parse_filter_findsAPlainPatternAnywhere_evenAtTheEdges() throws {
    let stages = try PacingStage<String>.parse(["filter", "ERR"], durations: .frames)
    let output = try MarbleDiagram(parsing: "'ERR''xERR''ERRx''ER''E RR''xxERxERRR'|").run(stages: stages)
    #expect(output.description == "'ERR''xERR''ERRx'--'xxERxERRR'|")
  }

  @Test func parse_error_namesTheWord() {
    #expect(throws: PacingSyntaxError(wordIndex: 3, reason: "skip needs a count, a whole number such as 2")) {
      try PacingStage<String>.parse(["distinct", "distinct", "skip", "x"], durations: .frames)
    }
    #expect(
      throws: PacingSyntaxError(
        wordIndex: nil, reason: "no stage given: name at least one of debounce, throttle, distinct, filter, skip, take")
    ) {
      try PacingStage<String>.parse([], durations: .frames)
    }
  }

  @Test(arguments: [
    ("250ms", Duration.milliseconds(250)), ("1.5s", .milliseconds(1_500)), ("2m", .seconds(120)),
    ("1h", .seconds(3_600)), ("10us", .microseconds(10)), ("0s", .zero), (".5s", .milliseconds(500)),
  ])
  func durationsWithUnits(word: String, duration: Duration) {
    #expect(PacingDurationFormat.withUnits.duration(from: word) == duration)
  }

  @Test(arguments: [
    "300", "1.5", "ms", "1..5s", "1.5.5s", "-1s", "1e3ms", "infs", "nans", "1 s", "1sec", "99999999999h",
  ])
  func durationsWithUnits_rejectWhatIsNotOne(word: String) {
    #expect(PacingDurationFormat.withUnits.duration(from: word) == nil)
  }

  @Test func registry_listsEveryOperator_withItsSynopsis() {
    #expect(PacingOperator.allCases.map(\.name) == ["debounce", "throttle", "distinct", "filter", "skip", "take"])
    for op in PacingOperator.allCases {
      #expect(op.synopsis.hasPrefix(op.name))
      #expect(!op.summary.isEmpty)
    }
  }
}
