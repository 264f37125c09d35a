//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace

/// `pace [--replay] [--stats] [--on-busy …] STAGE... [-- COMMAND [ARG...]]`,
/// read from the command line.
///
/// The options of `pace` itself may stand anywhere before `--`: their names
/// are no stage's. Every other word up to `--` belongs to the stages, which
/// the library's one stage parser reads.
struct StreamInvocation {
  /// Options of `pace` itself, with the number of values each takes.
  static let options: [String: Int] = [
    "--replay": 0, "--stats": 0, "--on-busy": 1, "--stop-signal": 1, "--stop-timeout": 1,
  ]

  var replay = false
  var stats = false
  /// The stage words, and each one's argument number (1 is the first argument).
  var stageWords: [String] = []
  var stageArgumentNumbers: [Int] = []
  /// The command after `--`, if any: its name and arguments.
  var command: [String]?
  var onBusy: (value: String, argument: Int)?
  var stopSignal: (value: String, argument: Int)?
  var stopTimeout: (value: String, argument: Int)?

  /// Reads the arguments after `pace`.
  static func parse(_ arguments: [String]) throws(UsageError) -> StreamInvocation {
    var invocation = StreamInvocation()
    var index = 0
    while index < arguments.count {
      let word = arguments[index]
      let number = index + 1
      if word == "--" {
        invocation.command = Array(arguments[(index + 1)...])
        guard invocation.command?.isEmpty == false else {
          throw UsageError("argument \(number) '--': a command must follow it, as in: pace debounce 200ms -- make")
        }
        break
      }
      // A filter's pattern is the filter's, whatever it looks like.
      if index > 0, arguments[index - 1] == "filter", invocation.stageWords.last == "filter" {
        invocation.append(stage: word, number: number)
        index += 1
        continue
      }
      let (name, inlineValue) = Self.split(option: word)
      guard let valueCount = options[name] else {
        invocation.append(stage: word, number: number)
        index += 1
        continue
      }
      var value: String?
      if valueCount == 1 {
        if let inlineValue {
          value = inlineValue
        } else {
          guard index + 1 < arguments.count, arguments[index + 1] != "--" else {
            throw UsageError("argument \(number) '\(name)' needs a value")
          }
          index += 1
          value = arguments[index]
        }
      } else if inlineValue != nil {
        throw UsageError("argument \(number) '\(word)': \(name) takes no value")
      }
      switch name {
      case "--replay": invocation.replay = true
      case "--stats": invocation.stats = true
      case "--on-busy": invocation.onBusy = (value!, number)
      case "--stop-signal": invocation.stopSignal = (value!, number)
      default: invocation.stopTimeout = (value!, number)
      }
      index += 1
    }
    try invocation.validate()
    return invocation
  }

  private mutating func append(stage word: String, number: Int) {
    stageWords.append(word)
    stageArgumentNumbers.append(number)
  }

  private static func split(option word: String) -> (name: String, value: String?) {
    guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
    return (String(word[..<equals]), String(word[word.index(after: equals)...]))
  }

  private func validate() throws(UsageError) {
    if command == nil {
      for (option, given) in [("--on-busy", onBusy), ("--stop-signal", stopSignal), ("--stop-timeout", stopTimeout)] {
        if let given {
          throw UsageError(
            "argument \(given.argument) '\(option)' applies to a command: add one after '--', "
              + "as in: pace debounce 1s \(option) \(given.value) -- make"
          )
        }
      }
    }
    if replay, command != nil {
      throw UsageError("--replay runs on the log's own clock, so it cannot run a command: remove one of them")
    }
    if let onBusy, OnBusyMode(rawValue: onBusy.value) == nil {
      throw UsageError(
        "argument \(onBusy.argument) '\(onBusy.value)': --on-busy is one of queue, drop, restart, signal")
    }
    if let stopSignal, StopSignal(stopSignal.value) == nil {
      throw UsageError(
        "argument \(stopSignal.argument) '\(stopSignal.value)': "
          + "--stop-signal is a signal name or number, such as TERM, INT, HUP, USR1 or 15"
      )
    }
    if let stopTimeout, PacingDurationFormat.withUnits.duration(from: stopTimeout.value) == nil {
      throw UsageError(
        "argument \(stopTimeout.argument) '\(stopTimeout.value)': "
          + "--stop-timeout needs a duration with a unit, such as 10s or 500ms"
      )
    }
  }

  /// The command and its options, when there is one (validated by `parse`).
  var commandOptions: CommandOptions? {
    guard let command, let executable = command.first else { return nil }
    var options = CommandOptions(executable: executable, arguments: Array(command.dropFirst()))
    if let onBusy { options.onBusy = OnBusyMode(rawValue: onBusy.value)! }
    if let stopSignal { options.stopSignal = StopSignal(stopSignal.value)! }
    if let stopTimeout { options.stopTimeout = PacingDurationFormat.withUnits.duration(from: stopTimeout.value)! }
    return options
  }

  /// The stages, for values of any type; `text` is what a filter matches.
  func stages<Value: Equatable & Sendable>(
    text: @escaping @Sendable (Value) -> String
  ) throws(UsageError) -> [PacingStage<Value>] {
    do {
      return try PacingStage<Value>.parse(stageWords, durations: .withUnits, text: text)
    } catch {
      guard let index = error.wordIndex else { throw UsageError("\(error.reason) (see 'pace --help')") }
      throw UsageError("argument \(stageArgumentNumbers[index]) '\(stageWords[index])': \(error.reason)")
    }
  }

  /// The stages' names, for `--stats`: "1 debounce", "2 distinct".
  static func names<Value>(of stages: [PacingStage<Value>]) -> [String] {
    stages.enumerated().map { "stage \($0.offset + 1) (\($0.element.operator.name))" }
  }
}
