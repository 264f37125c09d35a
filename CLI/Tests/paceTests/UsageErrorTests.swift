//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// Bad input in stream, replay and command mode: status 2, and one line on
/// standard error that names the problem.
@Suite struct UsageErrorTests {
  static let cases: [(arguments: [String], input: String, fragment: String)] = [
    (["debounce", "300"], "", "stage word 2 '300': '300' has no unit: a duration needs one, as in 300ms or 300s"),
    (["debounce", "-1s"], "", "a duration must not be negative"),
    (["debounce", "soon"], "", "'soon' is not a duration with a unit"),
    (["debounce"], "", "debounce needs a duration"),
    (["throttle", "1.5"], "", "'1.5' has no unit"),
    (["bogus"], "", "stage word 1 'bogus': unknown operator"),
    (["--stat", "debounce", "1s"], "", "unknown option '--stat'"),
    (["filter", "("], "", "stage word 2 '(': not a valid regular expression"),
    (["filter"], "", "filter needs a pattern"),
    (["skip", "x"], "", "skip needs a count"),
    (["take", "-2"], "", "a count must not be negative"),
    (["throttle", "1s", "--no-leading", "--no-trailing"], "", "would never emit"),
    (["debounce", "1s", "--sometimes"], "", "stage word 3 '--sometimes': unknown option for debounce"),
    (["distinct", "--"], "", "'--' must be followed by a command"),
    (["--on-busy", "sometimes", "distinct", "--", "true"], "", "'sometimes' is invalid for '--on-busy <mode>'. Please provide one of 'queue', 'drop', 'restart' or 'signal'"),
    (["--on-busy"], "", "Missing value for '--on-busy <mode>'"),
    (["--on-busy", "drop", "distinct"], "", "'--on-busy' applies to a command"),
    (["--replay", "distinct", "--", "true"], "", "--replay runs on the log's own clock, so it cannot run a command"),
    (["--stop-timeout", "10", "distinct", "--", "true"], "", "'10' is invalid for '--stop-timeout <duration>': a duration needs a unit"),
    (["--stop-signal", "LOUD", "distinct", "--", "true"], "", "'LOUD' is invalid for '--stop-signal <signal>': not a signal name or number"),
    (["--by", "(", "debounce", "1s"], "", "'(' is invalid for '--by <regex>': not a valid regular expression"),
    (["--replay", "--by", "[a-", "distinct"], "", "'[a-' is invalid for '--by <regex>': not a valid regular expression"),
    (["--by", "a)", "distinct", "--", "true"], "", "'a)' is invalid for '--by <regex>': not a valid regular expression"),
    (["marble", "--by", "(", "ab", "debounce", "1"], "", "'(' is invalid for '--by <regex>'"),
    (["marble", "ab", "--by", ".", "debounce", "1"], "", "'--by' goes before the diagram"),
    (["--replay"], "", "no stage given"),
    (["--stats", "--replay=yes", "distinct"], "", "'--replay' does not take any value"),
    (["--replay", "distinct"], "1764000000 a\nyesterday b\n", "line 2 does not start with a timestamp"),
    (["--replay", "distinct"], "1764000000 a\n1764000001 b\n1764000000 c\n", "line 3 is out of order"),
    (
      ["--replay", "distinct"], "1764000001 a\n\n1764000000 b\n",
      "line 3 is out of order: its timestamp is earlier than line 1's"
    ),
    (["--replay", "distinct"], "2026-02-30T10:00:00Z a\n", "line 1 does not start with a timestamp"),
  ]

  @Test(arguments: cases)
  func badInput_exitsWith2_andOneLineNamingIt(arguments: [String], input: String, fragment: String) throws {
    let result = try PaceExecutable.run(arguments, input: Array(input.utf8))
    #expect(result.status == 2)
    #expect(result.standardError.hasPrefix("pace: error: "))
    #expect(result.standardError.hasSuffix("\n"))
    #expect(result.standardError.dropLast().contains("\n") == false, "one line")
    #expect(result.standardError.contains(fragment), "\(result.standardError)")
  }
}
