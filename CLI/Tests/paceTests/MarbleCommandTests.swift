//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Testing

@Suite struct MarbleCommandTests {
  /// The worked examples of `MARBLES.md`, as command lines.
  static let workedExamples: [([String], String)] = [
    (["abcd----e---f-g----|", "debounce", "3"], "------d----e-----g-|"),
    (["abcd----e---f-g-|", "debounce", "3"], "------d----e----[g|]"),
    (["a|", "debounce", "3"], "-[a|]"),
    (["a^", "debounce", "3"], "-^"),
    (["a--b-----", "debounce", "3"], "------b"),
    (["a-b-c------d", "debounce", "3", "--leading", "--no-trailing"], "a----------d"),
    (["abcdefghijk|", "throttle", "3"], "a--d--g--j--[k|]"),
    (["-a-xy-----b--x--cxxx--|", "throttle", "4"], "-a---y----b---x---x---[x|]"),
    (["-a--------xy|", "throttle", "4", "--no-leading"], "-----a--------[y|]"),
  ]

  @Test(arguments: workedExamples)
  func workedExampleOfMarblesDocument(arguments: [String], output: String) throws {
    let result = try PaceExecutable.run(["marble"] + arguments)
    #expect(result.status == 0)
    #expect(result.standardError.isEmpty)
    #expect(result.standardOutput.split(separator: "\n").last.map(String.init) == output)
  }

  static let chains: [([String], String)] = [
    (["aab-a--bb|", "distinct", "filter", "[ab]", "skip", "1"], "--b-a--b-|"),
    (["ab--c", "debounce", "2", "take", "1"], "---[b|]"),
    (["abcdefghij", "debounce", "3", "--max-wait=5"], "-----f----j"),
    (["--", "-a", "throttle", "0"], "-a"),
    // A diagram that starts with dashes is a diagram, not an option.
    (["---a-b|", "debounce", "1"], "----a-[b|]"),
    (["-", "distinct"], ""),
    (["--x|", "take", "1"], "--[x|]"),
    (["abc", "take", "0"], "|"),
    (["", "debounce", "3"], ""),
  ]

  @Test(arguments: chains)
  func stagesChainLeftToRight(arguments: [String], output: String) throws {
    let result = try PaceExecutable.run(["marble"] + arguments)
    #expect(result.status == 0)
    #expect(result.standardOutput == output + "\n")
  }

  /// Malformed command lines and a fragment of the one-line error each must give.
  static let usageErrors: [([String], String)] = [
    (["marble"], "missing the diagram"),
    (["marble", "a[b", "debounce", "3"], "column 2: group '[' is never closed"),
    (["marble", "a'b", "debounce", "3"], "column 2: quote ' is never closed"),
    (["marble", "a|b", "debounce", "1"], "column 3: 'b' after the end of the sequence"),
    (["marble", "''", "debounce", "1"], "column 1: empty value"),
    (["marble", "]a", "debounce", "1"], "column 1: ']' closes no group"),
    (["marble", "a[-b]", "debounce", "1"], "column 3: '-' inside a group"),
    (["marble", "ab"], "no stage given"),
    (["marble", "ab", "bounce", "3"], "argument 2 'bounce': unknown operator"),
    (
      ["marble", "ab", "--leading", "debounce", "3"], "argument 2 '--leading': unknown operator; an option must follow"
    ),
    (["marble", "ab", "debounce"], "argument 2 'debounce': debounce needs a duration"),
    (["marble", "ab", "debounce", "distinct"], "argument 2 'debounce': debounce needs a duration"),
    (["marble", "ab", "debounce", "-2"], "argument 3 '-2': a duration must not be negative"),
    (["marble", "ab", "throttle", "1.5"], "argument 3 '1.5': '1.5' is not a duration in frames"),
    (["marble", "ab", "debounce", "3", "--max-wait"], "argument 4 '--max-wait': --max-wait needs a duration"),
    (["marble", "ab", "debounce", "3", "--max-wait", "-1"], "argument 5 '-1': a duration must not be negative"),
    (
      ["marble", "ab", "debounce", "3", "--no-trailing"],
      "argument 2 'debounce': debounce with neither leading nor trailing"
    ),
    (
      ["marble", "ab", "debounce", "3", "--leading", "--no-trailing", "--max-wait", "4"],
      "max-wait needs the trailing edge"
    ),
    (["marble", "ab", "throttle", "3", "--no-leading", "--no-trailing"], "throttle with neither leading nor trailing"),
    (["marble", "ab", "debounce", "3", "--leeding"], "argument 4 '--leeding': unknown option for debounce"),
    (["marble", "ab", "throttle", "3", "--max-wait", "4"], "argument 4 '--max-wait': unknown option for throttle"),
    (["marble", "ab", "debounce", "3", "--leading=yes"], "argument 4 '--leading=yes': this option takes no value"),
    (["marble", "ab", "distinct", "--x"], "argument 3 '--x': distinct takes no option --x"),
    (["marble", "ab", "filter"], "argument 2 'filter': filter needs a pattern"),
    (["marble", "ab", "filter", "("], "argument 3 '(': not a valid regular expression"),
    (["marble", "ab", "take"], "argument 2 'take': take needs a count"),
    (["marble", "ab", "skip", "x"], "argument 3 'x': skip needs a count"),
    (["marble", "ab", "take", "-1"], "argument 3 '-1': a count must not be negative"),
    (["bogus"], "stage word 1 'bogus': unknown operator"),
  ]

  @Test(arguments: usageErrors)
  func usageError_exitsWithStatus2_andOneLineSayingWhatAndWhere(arguments: [String], fragment: String) throws {
    let result = try PaceExecutable.run(arguments)
    #expect(result.status == 2)
    #expect(result.standardOutput.isEmpty)
    let lines = result.standardError.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 2 && lines[1].isEmpty, "exactly one line: \(result.standardError)")
    #expect(result.standardError.hasPrefix("pace: error: "))
    #expect(result.standardError.contains(fragment), "\(result.standardError)")
  }

  @Test func usageErrors_numberAtLeastFifteen() {
    #expect(Self.usageErrors.count >= 15)
  }
}
