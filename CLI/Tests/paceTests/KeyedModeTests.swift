//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// `pace --by REGEX` in every mode: each key paced on its own, the lines that
/// match no key under one key of their own, and one order across keys (the
/// earlier instant first; at one instant, the key whose deadline was set first).
@Suite struct KeyedModeTests {
  // MARK: Stream mode

  @Test(arguments: [
    // At the end of the input each key flushes, in the order the keys came.
    (["debounce", "50ms"], "host=a 1\nhost=b 1\nhost=a 2\nnothing 1\nhost=b 2\nnothing 2\n", "host=a 2\nhost=b 2\nnothing 2\n"),
    // Each key its own leading edge; the trailing ones keep each key's rate.
    (["throttle", "300ms"], "host=a 1\nhost=b 1\nhost=a 2\nhost=b 2\n", "host=a 1\nhost=b 1\nhost=a 2\nhost=b 2\n"),
    // Distinct per key: a repeat in another key is not a repeat.
    (["distinct"], "host=a x\nhost=b x\nhost=a x\nx\nx\n", "host=a x\nhost=b x\nx\n"),
    (["take", "1"], "host=a 1\nhost=a 2\nhost=b 1\nnone\nnone 2\n", "host=a 1\nhost=b 1\nnone\n"),
  ])
  func stream_pacesEachKeyOnItsOwn(stages: [String], input: String, output: String) throws {
    let result = try PaceExecutable.run(["--by", "host=(\\w+)"] + stages, input: Array(input.utf8))
    #expect(result.status == 0)
    #expect(result.standardError.isEmpty)
    #expect(result.standardOutput == output)
  }

  @Test func stream_oneKeysBurst_doesNotDelayAnother() throws {
    let (status, output) = try PaceExecutable.runTimed(["--by", "^(.)", "debounce", "500ms"]) { input in
      input.write(Data("a1\nb1\n".utf8))
      for line in 2...8 {
        Thread.sleep(forTimeInterval: 0.1)
        input.write(Data("b\(line)\n".utf8))
      }
      Thread.sleep(forTimeInterval: 1)
    }
    #expect(status == 0)
    // a's quiet period ends while b's burst goes on: a1 first, b's last one at the end.
    #expect(output.first?.text == "a1")
    #expect(output.last?.text == "b8")
    if let first = output.first, let last = output.last { #expect(first.elapsed < last.elapsed) }
  }

  @Test func stream_withStats_countsOverAllKeys() throws {
    let result = try PaceExecutable.run(
      ["--stats", "--by", "^(.)", "distinct"], input: Array("a1\nb1\na1\nb2\n".utf8))
    #expect(result.standardOutput == "a1\nb1\nb2\n")
    #expect(result.standardError.hasPrefix("pace: 4 lines in, 3 lines out\n"))
  }

  // MARK: Replay mode

  @Test func replay_pacesEachKeyOnItsOwnClock_andOrdersKeysByInstant() throws {
    let input = """
      1764000000 host=a up
      1764000001 host=b up
      1764000002 host=a down
      1764000003 no host here
      1764000010 host=d x
      1764000010 host=c y
      1764000020 host=a up

      """
    let result = try PaceExecutable.run(["--replay", "--by", "host=(\\w+)", "debounce", "5s"], input: Array(input.utf8))
    #expect(result.status == 0)
    #expect(result.standardError.isEmpty)
    // d and c are due at the same instant: d's deadline was set first.
    #expect(
      result.standardOutput == """
        1764000006 host=b up
        1764000007 host=a down
        1764000008 no host here
        1764000015 host=d x
        1764000015 host=c y
        1764000025 host=a up

        """)
  }

  // MARK: Marble mode

  @Test(arguments: [
    (["--by", ".", "abab---a|", "debounce", "2"], "----ab--[a|]"),
    // x and y match no key: they share one, whose burst is x, y, x.
    (["--by", "[ab]", "axbyaxb---|", "debounce", "2"], "--a-b-axb-|"),
    // The finish waits for b's window: a throttle keeps its rate per key.
    (["--by", "^(.)", "'a1''b1''a2'--'b2''b3'|", "throttle", "3"], "'a1''b1'-'a2'-'b2'--['b3'|]"),
    (["--by=.", "aaab|", "take", "1"], "a--b|"),
  ])
  func marble_pacesEachKeyOfTheValueText(arguments: [String], output: String) throws {
    let result = try PaceExecutable.run(["marble"] + arguments)
    #expect(result.status == 0)
    #expect(result.standardError.isEmpty)
    #expect(result.standardOutput.split(separator: "\n").last.map(String.init) == output)
  }

  // MARK: Command mode

  /// Runs `pace` with all of `input` at once and `command` for each line;
  /// the lines the commands printed, sorted (commands of different keys run
  /// side by side).
  private func commandOutput(_ arguments: [String], input: String, command: String) throws -> (Int32, [String], String) {
    let result = try PaceExecutable.run(arguments + ["--", "sh", "-c", command], input: Array(input.utf8))
    return (result.status, result.standardOutput.split(separator: "\n").map(String.init).sorted(), result.standardError)
  }

  @Test func command_getsItsLinesKey_inPACE_KEY_unsetForALineWithNoKey() throws {
    let (status, lines, errors) = try commandOutput(
      ["--by", "k=(\\w+)", "debounce", "20ms"], input: "k=a 1\nk=bb 2\nno key\nk=a 3\n",
      command: #"echo "${PACE_KEY-unset}: $PACE_LINE""#)
    #expect(status == 0)
    #expect(errors.isEmpty)
    #expect(lines == ["a: k=a 3", "bb: k=bb 2", "unset: no key"])
  }

  /// The lines of one read come at one instant: `a 2` finds a's command
  /// running (it sleeps), while b's runs beside it.
  @Test(arguments: [
    ("drop", ["a: a 1", "b: b 1", "none: x 1"]),
    ("queue", ["a: a 1", "a: a 3", "b: b 1", "none: x 1"]),
  ])
  func command_onBusyAppliesPerKey(mode: String, expected: [String]) throws {
    let (status, lines, errors) = try commandOutput(
      ["--by", "^([ab]) ", "--on-busy", mode, "skip", "0"], input: "a 1\nb 1\nx 1\na 2\na 3\n",
      command: #"echo "${PACE_KEY-none}: $PACE_LINE"; sleep 1"#)
    #expect(status == 0)
    #expect(errors.isEmpty)
    #expect(lines == expected)
  }
}
