//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceMarbles

/// Reads stages written as plain words, a new stage starting at each operator
/// name: `filter ERROR distinct debounce 3 --max-wait 10`.
///
/// Errors name the argument they are about, counted as the user counts them.
struct StageParser {
  /// How durations are written.
  enum DurationSyntax {
    /// Whole numbers of marble frames: `3`.
    case frames
  }

  private let words: [String]
  private let firstArgumentNumber: Int
  private let durations: DurationSyntax
  private var position = 0

  /// - Parameters:
  ///   - words: The stage words.
  ///   - firstArgumentNumber: The argument number of `words[0]` on the command line.
  ///   - durations: How the durations are written.
  init(_ words: [String], firstArgumentNumber: Int, durations: DurationSyntax) {
    self.words = words
    self.firstArgumentNumber = firstArgumentNumber
    self.durations = durations
  }

  /// Parses every stage; at least one is required.
  mutating func parse() throws(UsageError) -> [StageSpecification] {
    guard !words.isEmpty else {
      throw UsageError("no stage given: name at least one of \(Self.operatorList)")
    }
    var stages: [StageSpecification] = []
    while position < words.count {
      stages.append(try parseStage())
    }
    return stages
  }

  private static let operatorList = StageSpecification.operatorNames.joined(separator: ", ")

  private func location(_ index: Int) -> String {
    "argument \(firstArgumentNumber + index) '\(words[index])'"
  }

  private mutating func parseStage() throws(UsageError) -> StageSpecification {
    let start = position
    let name = words[position]
    position += 1
    let stage: StageSpecification
    switch name {
    case "debounce":
      let interval = try parseDuration(for: name, at: start)
      var leading = false
      var trailing = true
      var maxWait: Duration?
      while let flag = nextFlag() {
        switch flag.name {
        case "--leading": leading = true
        case "--no-trailing": trailing = false
        case "--max-wait": maxWait = try parseDuration(for: "--max-wait", at: flag.index, inline: flag.value)
        default: throw unknownFlag(at: flag.index, of: name, allowed: "--leading, --no-trailing, --max-wait N")
        }
        if flag.name != "--max-wait", flag.value != nil { throw flagTakesNoValue(at: flag.index) }
      }
      stage = .debounce(interval: interval, leading: leading, trailing: trailing, maxWait: maxWait)
    case "throttle":
      let interval = try parseDuration(for: name, at: start)
      var leading = true
      var trailing = true
      while let flag = nextFlag() {
        switch flag.name {
        case "--no-leading": leading = false
        case "--no-trailing": trailing = false
        default: throw unknownFlag(at: flag.index, of: name, allowed: "--no-leading, --no-trailing")
        }
        if flag.value != nil { throw flagTakesNoValue(at: flag.index) }
      }
      stage = .throttle(interval: interval, leading: leading, trailing: trailing)
    case "distinct":
      stage = .distinct
    case "filter":
      guard position < words.count else {
        throw UsageError("\(location(start)): filter needs a pattern (a regular expression), none given")
      }
      stage = .filter(pattern: words[position])
      position += 1
    case "skip", "take":
      let count = try parseCount(for: name, at: start)
      stage = name == "skip" ? .skip(count: count) : .take(count: count)
    default:
      let hint =
        name.hasPrefix("-") ? "an option must follow the stage it belongs to" : "stages are \(Self.operatorList)"
      throw UsageError("\(location(start)): unknown operator; \(hint)")
    }
    if let flag = nextFlag() {
      throw UsageError("\(location(flag.index)): \(name) takes no option \(flag.name)")
    }
    do {
      _ = try stage.makeStateMachine(ContinuousClock.Instant.self)
    } catch let error as PacingConfigurationError {
      throw UsageError("\(location(start)): \(error)")
    } catch {
      throw UsageError("\(location(start + 1)): not a valid regular expression (\(error))")
    }
    return stage
  }

  /// The next word when it is an option (`--name` or `--name=value`); nil otherwise.
  private mutating func nextFlag() -> (name: String, value: String?, index: Int)? {
    guard position < words.count, words[position].hasPrefix("--") else { return nil }
    let index = position
    position += 1
    let word = words[index]
    if let equals = word.firstIndex(of: "=") {
      return (String(word[..<equals]), String(word[word.index(after: equals)...]), index)
    }
    return (word, nil, index)
  }

  private mutating func parseDuration(
    for owner: String, at ownerIndex: Int, inline: String? = nil
  ) throws(UsageError) -> Duration {
    let word: String
    let index: Int
    if let inline {
      (word, index) = (inline, ownerIndex)
    } else {
      guard position < words.count, !StageSpecification.operatorNames.contains(words[position]),
        !words[position].hasPrefix("--")
      else {
        throw UsageError("\(location(ownerIndex)): \(owner) needs a duration \(durationForm), none given")
      }
      (word, index) = (words[position], position)
      position += 1
    }
    switch durations {
    case .frames:
      guard let frames = Int(word) else {
        throw UsageError("\(location(index)): '\(word)' is not a duration \(durationForm)")
      }
      guard frames >= 0 else { throw UsageError("\(location(index)): a duration must not be negative") }
      return .frames(frames)
    }
  }

  private var durationForm: String {
    switch durations {
    case .frames: "in frames (a whole number such as 3)"
    }
  }

  private mutating func parseCount(for owner: String, at ownerIndex: Int) throws(UsageError) -> Int {
    guard position < words.count, !StageSpecification.operatorNames.contains(words[position]) else {
      throw UsageError("\(location(ownerIndex)): \(owner) needs a count (a whole number such as 2), none given")
    }
    let index = position
    position += 1
    guard let count = Int(words[index]) else {
      throw UsageError("\(location(index)): \(owner) needs a count, a whole number such as 2")
    }
    guard count >= 0 else { throw UsageError("\(location(index)): a count must not be negative") }
    return count
  }

  private func unknownFlag(at index: Int, of name: String, allowed: String) -> UsageError {
    UsageError("\(location(index)): unknown option for \(name); it takes \(allowed)")
  }

  private func flagTakesNoValue(at index: Int) -> UsageError {
    UsageError("\(location(index)): this option takes no value")
  }
}
