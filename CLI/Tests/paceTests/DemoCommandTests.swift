//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// `pace demo` off a terminal: the replay of a typing session, as a user runs it.
@Suite struct DemoCommandTests {
  /// The numbers in a summary line such as "Pace: 44 keystrokes -> 10 searches run -> …, 0 stale results shown."
  struct Summary {
    var keystrokes: Int
    var searches: Int
    var staleShown: Int

    init?(_ line: Substring) {
      let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
      guard numbers.count >= 3, let stale = line.range(of: " stale results shown") else { return nil }
      keystrokes = numbers[0]
      searches = numbers[1]
      staleShown = Int(line[..<stale.lowerBound].split(separator: " ").last ?? "") ?? -1
    }
  }

  static func summaries(_ output: String) -> (pace: Summary, naive: Summary)? {
    let lines = output.split(separator: "\n")
    guard let pace = lines.first(where: { $0.hasPrefix("Pace: ") }).flatMap(Summary.init),
      let naive = lines.first(where: { $0.hasPrefix("Naive: ") }).flatMap(Summary.init)
    else { return nil }
    return (pace, naive)
  }

  @Test(arguments: [42, 7]) func theSameSeed_givesTheSameTimeline(seed: Int) throws {
    let first = try PaceExecutable.run(["demo", "--seed", "\(seed)"])
    let second = try PaceExecutable.run(["demo", "--seed", "\(seed)"])
    #expect(first.status == 0)
    #expect(first.standardError.isEmpty)
    #expect(first.standardOutput == second.standardOutput)
    #expect(first.standardOutput.contains("search #1 starts"))
  }

  @Test func anotherSeed_givesAnotherTimeline() throws {
    let first = try PaceExecutable.run(["demo", "--seed", "1"])
    let second = try PaceExecutable.run(["demo", "--seed", "2"])
    #expect(first.standardOutput != second.standardOutput)
  }

  @Test(arguments: [1, 2, 3, 42, 44, 99]) func theSummary_showsFewerSearchesThanKeystrokes_andNoStaleResult(seed: Int)
    throws
  {
    let result = try PaceExecutable.run(["demo", "--seed", "\(seed)"])
    let summaries = try #require(Self.summaries(result.standardOutput))
    #expect(summaries.pace.searches < summaries.pace.keystrokes / 2)
    #expect(summaries.pace.staleShown == 0)
    // The hand-rolled version, beside it: a search per keystroke, and stale results on screen.
    #expect(summaries.naive.searches > summaries.pace.searches * 3)
    #expect(summaries.naive.staleShown > 0)
  }

  @Test func aScript_isReplayed_atTheSpeedAsked() throws {
    let script = FileManager.default.temporaryDirectory.appendingPathComponent("pace-demo-\(UUID()).txt")
    try "type 100ms swi\npause 900ms\ntype 100ms ft\npause 1s\n".write(to: script, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: script) }
    let result = try PaceExecutable.run(["demo", "--script", script.path, "--seed", "44", "--speed", "2"])
    #expect(result.status == 0)
    let lines = result.standardOutput.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
    // Twice as fast: 50 ms between keys and a pause of 450 ms; the debounce's 300 ms stays what it is.
    #expect(lines.contains("0.100s key 'i' swi"))
    #expect(lines.contains("0.600s key 'f' swif"))
    #expect(lines.contains("0.400s typing paused swi"))
    #expect(lines.contains("0.400s search #1 starts swi"))
    #expect(lines.contains { $0.hasSuffix("search #1 cancelled swi a newer search runs") })
    #expect(lines.contains { $0.hasSuffix("swi too late: dropped") })
    #expect(lines.contains { $0.hasSuffix("results shown swift swift, swiftly") })
  }

  @Test(arguments: [
    (["demo", "--speed", "0"], "pace: error: --speed 0.0: the factor must be a positive number"),
    (["demo", "--script", "/nonexistent/script"], "pace: error: --script /nonexistent/script: cannot read the file"),
  ])
  func badInput_exitsWithStatus2_andOneLine(arguments: [String], message: String) throws {
    let result = try PaceExecutable.run(arguments)
    #expect(result.status == 2)
    #expect(result.standardError == message + "\n")
    #expect(result.standardOutput.isEmpty)
  }

  @Test(arguments: [
    ("fly 3", "script line 1 'fly 3': unknown action 'fly'; use type, pause, backspace or clear"),
    ("type 100 abc", "script line 1 'type 100 abc': expected a duration with a unit, such as 150ms"),
    ("pause 1s\nbackspace 10ms -1", "script line 2 'backspace 10ms -1': the count must be a positive whole number"),
    ("# nothing\npause 1s", "the script types nothing"),
  ])
  func aBadScript_namesItsLine(script: String, message: String) throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("pace-demo-\(UUID()).txt")
    try script.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try PaceExecutable.run(["demo", "--script", file.path])
    #expect(result.status == 2)
    #expect(result.standardError == "pace: error: \(message)\n")
  }
}
