//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Foundation
import Pace
import PaceMarbles
import Testing

/// `pace --replay` against the marble tables: each case of
/// `Tests/PaceTests/Support/MarbleTables.swift` whose input neither finishes
/// nor fails (a replayed log just ends, and time runs on), with frame `n` as
/// the second `base + n`. The replay's lines must be the table's output, and
/// `pace marble` must print that output too.
@Suite struct ReplayModeTests {
  static let base = 1_764_000_000

  /// (stages in frames, input, output), copied from the marble tables.
  static let tableCases: [([String], String, String)] = [
    (["debounce", "3"], "a--b-----", "------b"),
    (["debounce", "3", "--leading", "--no-trailing"], "a-b-c------d", "a----------d"),
    (["debounce", "3"], "a", "---a"),
    (["debounce", "3"], "a---b", "---a---b"),
    (["debounce", "3"], "[ab]", "---b"),
    (["debounce", "1"], "a-b-c", "-a-b-c"),
    (["debounce", "2", "--leading"], "ab---c", "a--b-c"),
    (["debounce", "3", "--max-wait", "5"], "abcdefghij", "-----f----j"),
    (["debounce", "3", "--max-wait", "2"], "abcdef", "---d--f"),
    (["throttle", "3"], "a--b", "a--b"),
    (["throttle", "2"], "aaaa", "a-a-a"),
    (["throttle", "3"], "[abc]", "a--c"),
    (["throttle", "3", "--no-leading"], "abc", "---c"),
    (["throttle", "0", "--no-trailing"], "[ab]c", "ac"),
    (["distinct"], "[aa]b", "ab"),
    (["debounce", "2", "take", "1"], "ab--c", "---[b|]"),
  ]

  /// Durations in frames become seconds.
  static func inSeconds(_ words: [String]) -> [String] {
    words.enumerated().map { index, word in
      guard index > 0, ["debounce", "throttle", "--max-wait"].contains(words[index - 1]), Int(word) != nil else {
        return word
      }
      return word + "s"
    }
  }

  @Test(arguments: tableCases)
  func replay_agreesWithTheMarbleTables(stages: [String], input: String, output: String) throws {
    let diagram = try MarbleDiagram(parsing: input)
    let log = diagram.entries.compactMap { entry -> String? in
      guard case .value(let value) = entry.event else { return nil }
      return "\(Self.base + entry.frame) \(value)\n"
    }.joined()
    let replay = try PaceExecutable.run(["--replay"] + Self.inSeconds(stages), input: Array(log.utf8))
    #expect(replay.status == 0)
    #expect(replay.standardError.isEmpty)
    let replayed = replay.standardOutput.split(separator: "\n").map { line in
      let parts = line.split(separator: " ", maxSplits: 1)
      return "\(Int(parts[0])! - Self.base) \(parts[1])"
    }
    let expected = try MarbleDiagram(parsing: output).entries.compactMap { entry -> String? in
      guard case .value(let value) = entry.event else { return nil }
      return "\(entry.frame) \(value)"
    }
    #expect(replayed == expected)
    let marble = try PaceExecutable.run(["marble", input] + stages)
    #expect(marble.standardOutput.split(separator: "\n").last.map(String.init) ?? "" == output)
  }

  @Test func rfc3339Timestamps_comeOutInTheirOwnOffsetAndPrecision() throws {
    let log = """
      2026-11-24T10:30:00+01:00 a
      2026-11-24T10:30:00.5+01:00 b
      2026-11-24T09:31:00Z c

      """
    let result = try PaceExecutable.run(["--replay", "debounce", "1.25s"], input: Array(log.utf8))
    #expect(result.status == 0)
    #expect(result.standardOutput == "2026-11-24T10:30:01.75+01:00 b\n2026-11-24T09:31:01.25Z c\n")
  }

  @Test func epochTimestamps_keepTheirDecimals_andLinesTheirBytes() throws {
    // A tab for a separator, a line that is only a timestamp, and content that is not UTF-8.
    let log: [UInt8] = Array("1764000000.000 x\n1764000000.100\tx\n1764000001\n1764000002 ".utf8) + [0xFF, 0x0A]
    let result = try PaceExecutable.runRaw(["--replay", "throttle", "250ms"], input: log)
    #expect(result == Array("1764000000.000 x\n1764000000.250\tx\n1764000001\n1764000002 ".utf8) + [0xFF, 0x0A])
  }

  @Test func distinct_comparesContentWithoutTheTimestamp_longOrShort() throws {
    // Content over 24 bytes is kept in its read, shorter content in the line
    // itself; either way, only the content after the timestamp counts.
    let long = "disk full on /var/lib/postgresql (98%)"
    let log = "1 \(long)\n2 \(long)\n3 \(long)!\n4 ok\n5 ok\n"
    let result = try PaceExecutable.run(["--replay", "distinct"], input: Array(log.utf8))
    #expect(result.status == 0)
    #expect(result.standardOutput == "1 \(long)\n3 \(long)!\n4 ok\n")
  }

  @Test func aBlankLine_isSkipped_andWhatIsPendingStillComesOut() throws {
    let result = try PaceExecutable.run(
      ["--replay", "debounce", "1s"], input: Array("1764000000 a\n1764000000.2 b\n\n\r\n".utf8))
    #expect(result.status == 0)
    #expect(result.standardOutput == "1764000001.2 b\n")
  }

  @Test func crlfLines_areReplayed_evenATimestampAlone() throws {
    let log = Array("1764000000 a\r\n1764000003\r\n".utf8)
    let result = try PaceExecutable.runRaw(["--replay", "distinct"], input: log)
    #expect(result == log)
  }

  @Test func stats_countLinesPerStage() throws {
    let log = "1 a\n2 a\n3 b\n"
    let result = try PaceExecutable.run(["--replay", "--stats", "distinct"], input: Array(log.utf8))
    #expect(result.standardOutput == "1 a\n3 b\n")
    #expect(result.standardError == "pace: 3 lines in, 2 lines out\npace:   stage 1 (distinct): 3 in, 2 out\n")
  }
}
