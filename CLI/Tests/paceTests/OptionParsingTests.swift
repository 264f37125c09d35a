//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import ArgumentParser
import PacePostgres
import Testing

@testable import pace

/// The options that `pace --help` lists are real options: each one parses,
/// as `pace` parses it, into its typed value, and completion scripts offer it.
@Suite struct OptionParsingTests {
  static func stream(_ arguments: [String]) throws -> StreamCommand {
    try #require(try PaceCommand.parseCommandLine(arguments) as? StreamCommand)
  }

  /// A valid use of each option of `pace --help`, and what it must set.
  static let examples: [String: (arguments: [String], check: @Sendable (StreamCommand) -> Bool)] = [
    "--replay": (["--replay", "distinct"], { $0.replay }),
    "--stats": (["distinct", "--stats"], { $0.stats }),
    "--by": (
      ["--by", "id=(\\d+)", "distinct", "--", "make"],
      { $0.by?.key(in: "x id=42") == "42" && $0.commandOptions?.isKeyed == true }
    ),
    "--on-busy": (["--on-busy", "restart", "distinct", "--", "make"], { $0.commandOptions?.onBusy == .restart }),
    "--stop-signal": (["--stop-signal=INT", "distinct", "--", "make"], { $0.commandOptions?.stopSignal.description == "INT" }),
    "--stop-timeout": (["distinct", "--stop-timeout", "1.5s", "--", "make"], { $0.commandOptions?.stopTimeout == .milliseconds(1500) }),
    "--postgres": (
      ["--postgres", "postgres://app@db.internal:6432/ops?sslmode=require", "distinct"],
      { command in
        guard let fleet = try? command.fleetStream() else { return false }
        return fleet.url.host == "db.internal" && fleet.url.port == 6432 && fleet.url.database == "ops"
          && fleet.namespace.name == "pace" && fleet.pacerName == "distinct"
      }
    ),
    "--namespace": (
      ["--postgres", "postgres:///ops", "--namespace", "jobs", "--by", "^(\\w+)", "debounce", "1s", "--", "make"],
      { command in
        guard let fleet = try? command.fleetStream() else { return false }
        return fleet.namespace.name == "jobs" && fleet.pacerName == "--by '^(\\w+)' debounce 1s -- make"
      }
    ),
  ]

  @Test func everyOptionInTheHelp_parses() throws {
    let help = PaceCommand.helpMessage(for: StreamCommand.self, columns: 80)
    let optionLines = help.split(separator: "\n").drop { $0 != "OPTIONS:" }
    let options = optionLines.compactMap { line -> String? in
      guard line.hasPrefix("  --") else { return nil }
      return String(line.dropFirst(2).prefix { $0 != " " })
    }
    #expect(Set(options) == Set(Self.examples.keys))
    for (option, example) in Self.examples {
      #expect(example.check(try Self.stream(example.arguments)), "\(option)")
    }
  }

  @Test func defaults_whenNoOptionIsGiven() throws {
    let command = try Self.stream(["distinct", "--", "make", "-j", "4"])
    let options = try #require(command.commandOptions)
    #expect(!command.replay && !command.stats)
    #expect(options.onBusy == .queue && options.stopSignal == .term && options.stopTimeout == .seconds(10))
    #expect(options.executable == "make" && options.arguments == ["-j", "4"])
    #expect(Array(command.stageWords) == ["distinct"])
  }

  @Test(arguments: OnBusyMode.allCases)
  func everyOnBusyMode_parses(mode: OnBusyMode) throws {
    #expect(try Self.stream(["--on-busy", mode.rawValue, "distinct", "--", "true"]).commandOptions?.onBusy == mode)
  }

  /// Stage words that look like options reach the stages, as before the
  /// command line was declared to swift-argument-parser.
  @Test(arguments: [
    ["filter", "-x"], ["filter", "-1"], ["debounce", "1s", "--max-wait=2s", "--leading"],
    ["throttle", "1s", "--no-leading"], ["--stats", "filter", "^-", "take", "2"],
  ])
  func stageWordsThatLookLikeOptions_reachTheStages(arguments: [String]) throws {
    #expect(Array(try Self.stream(arguments).stageWords) == arguments.filter { $0 != "--stats" })
  }

  @Test func aMarbleDiagramThatStartsWithDashes_isTheDiagram() throws {
    let command = try #require(try PaceCommand.parseCommandLine(["marble", "---a-b|", "debounce", "1"]) as? MarbleCommand)
    #expect(try command.output() == "----a-[b|]")
  }

  @Test(arguments: [["--by", "."], ["--by=."]])
  func aMarbleDiagramThatStartsWithDashes_isTheDiagram_afterBy(by: [String]) throws {
    let arguments = ["marble"] + by + ["---ab|", "debounce", "1"]
    let command = try #require(try PaceCommand.parseCommandLine(arguments) as? MarbleCommand)
    #expect(try command.output() == "----a[b|]")  // Keys a and b: a is due at 4, b flushes at the finish.
  }

  /// The key: the first capture group, or else the whole match; nil when nothing matches.
  @Test(arguments: [
    ("id=(\\d+)", "a id=42 b", "42"), ("[a-z]+", "12 abc 3", "abc"), ("x(y)?", "x", "x"), ("x(y)?", "xy", "y"),
    ("^$", "", ""), ("z", "abc", nil),
  ] as [(String, String, String?)])
  func keyPattern_keyIsTheFirstGroup_orElseTheWholeMatch(pattern: String, text: String, key: String?) throws {
    #expect(try KeyPattern(pattern).key(in: text) == key)
  }

  @Test func theBashCompletionScript_offersTheOptionsAndTheirValues() throws {
    let script = PaceCommand.completionScript(for: .bash)
    for word in ["--replay", "--stats", "--by", "--on-busy", "--stop-signal", "--stop-timeout", "'queue'$'\\n''drop'", "'USR1'"] {
      #expect(script.contains(word), "\(word)")
    }
    let result = try PaceExecutable.run(["--generate-completion-script", "bash"])
    #expect(result.status == 0 && result.standardOutput.contains("--on-busy") && result.standardOutput.contains("--stop-timeout"))
  }
}
