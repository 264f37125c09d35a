//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import ArgumentParser
import Foundation
import Testing

@testable import pace

/// Seeded fuzzing of stream and replay command lines, as swift-argument-parser
/// and `StreamCommand.validate()` read them, and of marble diagrams and
/// stages, as `MarbleCommand` reads them: never a crash, and every rejection
/// a usage error, which `pace` prints as one line with status 2 (a sample of
/// them goes through the built binary to show it).
@Suite struct ParserFuzzTests {
  static let words = [
    "debounce", "throttle", "distinct", "filter", "skip", "take", "--leading", "--no-leading", "--no-trailing",
    "--max-wait", "--max-wait=1s", "--max-wait=", "--replay", "--stats", "--on-busy", "queue", "drop", "restart",
    "signal", "--stop-signal", "TERM", "--stop-timeout", "--", "true", "0", "1", "-1", "300", "1.5s", "250ms", "2m",
    "1h", "10us", "0s", "abc", "(", "[a-z]+", "^x$", "", " ", "--bogus", "-", "---a-b|", "1e3s", ".5s", "5.s", "ms",
    "s", "99999999999h", "nan", "inf", "-0s", "--=", "=", "é", "🙂", "filter=x", "\u{0}",
  ]
  static let diagramCharacters = Array("-abcxyz|^[]' ().")

  static let validStages = [
    ["distinct"], ["debounce", "250ms"], ["throttle", "1.5s", "--no-leading"], ["filter", "[a-z]+"], ["skip", "1"],
    ["take", "2"], ["debounce", "1s", "--max-wait", "2s"], ["--replay"], ["--stats"],
  ]

  /// Half the time a valid command line with one word perhaps replaced,
  /// half the time words from the list, or random characters.
  static func randomWords(_ generator: inout SplitMix) -> [String] {
    if generator.next() % 2 == 0 {
      var arguments = (0..<(1 + Int(generator.next() % 3))).flatMap { _ in
        validStages[Int(generator.next() % UInt64(validStages.count))]
      }
      if generator.next() % 2 == 0 {
        arguments[Int(generator.next() % UInt64(arguments.count))] = words[Int(generator.next() % UInt64(words.count))]
      }
      return arguments
    }
    return (0..<Int(generator.next() % 8)).map { _ in
      if generator.next() % 10 == 0 {
        // Now and then a word of random characters.
        return String(
          (0..<Int(generator.next() % 6)).map { _ in
            Character(Unicode.Scalar(UInt8(32 + generator.next() % 95)))
          })
      }
      return words[Int(generator.next() % UInt64(words.count))]
    }
  }

  static func randomDiagram(_ generator: inout SplitMix) -> String {
    String(
      (0..<Int(generator.next() % 20)).map { _ in
        diagramCharacters[Int(generator.next() % UInt64(diagramCharacters.count))]
      })
  }

  /// Parses `arguments` (the words after `pace`) as `pace` does, validation
  /// included: nil when accepted, else the error and whether it asks for help.
  static func rejection(of arguments: [String]) -> (message: String, isHelp: Bool)? {
    do {
      _ = try PaceCommand.parseCommandLine(arguments)
      return nil
    } catch {
      return (PaceCommand.message(for: error), PaceCommand.exitCode(for: error) == .success)
    }
  }

  /// Through swift-argument-parser, which takes about 2 ms a command line in
  /// a debug build: fewer lines than the diagrams below.
  @Test func twoThousandCommandLines_neverCrash_andRejectInOneLine() throws {
    var generator = SplitMix(seed: 2_026)
    var rejected: [[String]] = []
    var accepted = 0
    for _ in 0..<2_000 {
      let arguments = Self.randomWords(&generator)
      guard let rejection = Self.rejection(of: arguments) else {
        accepted += 1
        continue
      }
      if rejection.isHelp { continue }  // A random word such as "-h" asks for help.
      if rejection.message.isEmpty {
        Issue.record("no message for \(arguments)")
      }
      if rejected.count < 60 { rejected.append(arguments) }
    }
    #expect(accepted > 200 && rejected.count == 60)  // The fuzzing reaches both sides.
    for arguments in rejected {
      let result = try PaceExecutable.run(arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.standardError.hasPrefix("pace: error: ") && result.standardError.filter { $0 == "\n" }.count == 1)
    }
  }

  @Test func oneHundredThousandDiagrams_neverCrash_andRejectInOneLine() throws {
    var generator = SplitMix(seed: 437)
    let stageWords = ["debounce", "throttle", "distinct", "skip", "take", "2", "3", "0", "--leading", "filter", "a"]
    var rejected: [[String]] = []
    var accepted = 0
    for _ in 0..<100_000 {
      let stages = (0..<Int(generator.next() % 5)).map { _ in
        stageWords[Int(generator.next() % UInt64(stageWords.count))]
      }
      let arguments = [Self.randomDiagram(&generator)] + stages
      do {
        _ = try MarbleCommand.output(diagram: arguments[0], stages: Array(arguments.dropFirst()))
        accepted += 1
      } catch {
        if error.message.isEmpty || error.message.contains("\n") {
          Issue.record("not one line for \(arguments): \(error.message)")
        }
        if rejected.count < 40 { rejected.append(arguments) }
      }
    }
    #expect(accepted > 1_000 && rejected.count == 40)
    for arguments in rejected {
      let result = try PaceExecutable.run(["marble"] + arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.standardError.hasPrefix("pace: error: ") && result.standardError.filter { $0 == "\n" }.count == 1)
    }
  }
}
