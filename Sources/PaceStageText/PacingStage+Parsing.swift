//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

public import Pace

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension PacingStage where Value == String {
  /// Reads stages written as words, a new stage starting at each operator
  /// name: `filter ERROR distinct debounce 300ms --max-wait 2s`. The one path
  /// by which text becomes stages: the command line, the marble runner and the
  /// tests use it, so their operators, options and defaults cannot differ.
  ///
  ///     let stages = try PacingStage<String>.parse(["distinct", "debounce", "300ms"], durations: .withUnits)
  ///
  /// Options follow the stage they belong to (`--name` or `--name=value`);
  /// ``PacingOperator/synopsis`` lists them.
  ///
  /// - Throws: ``PacingSyntaxError`` naming the first word that is wrong: an
  ///   unknown operator or option, a missing or bad duration, count or
  ///   pattern, or options that could never emit (`--no-trailing` without
  ///   `--leading`, `--max-wait` without the trailing edge).
  public static func parse(
    _ words: [String], durations: PacingDurationFormat
  ) throws(PacingSyntaxError) -> [PacingStage<String>] {
    try parse(words, durations: durations, text: { $0 })
  }
}

extension PacingStage where Value: Equatable & Sendable {
  /// Reads stages written as words, for values that are not strings: `text`
  /// gives the string a `filter` pattern is matched against. `pace` runs
  /// lines of bytes this way, which pass through untouched even when they
  /// are not UTF-8.
  ///
  ///     let stages = try PacingStage<[UInt8]>.parse(["filter", "ERROR"], durations: .withUnits) {
  ///       String(decoding: $0, as: UTF8.self)
  ///     }
  ///
  /// - Throws: ``PacingSyntaxError``, as `parse(_:durations:)`.
  @inlinable
  public static func parse(
    _ words: [String], durations: PacingDurationFormat, text: @escaping @Sendable (Value) -> String
  ) throws(PacingSyntaxError) -> [PacingStage<Value>] {
    // `distinct` compares with a `==` written here, which is compiled for
    // `Value` in the caller's module: the parser, compiled once for every
    // type, would call `==` through the conformance, copying both values,
    // at every value a stream lets through.
    try parseWords(words, durations: durations, text: text, equal: { (last: Value, next: Value) in last == next })
  }

  @usableFromInline
  static func parseWords(
    _ words: [String], durations: PacingDurationFormat, text: @escaping @Sendable (Value) -> String,
    equal: @escaping @Sendable (Value, Value) -> Bool
  ) throws(PacingSyntaxError) -> [PacingStage<Value>] {
    var parser = StageParser(words: words, durations: durations, text: text, equal: equal)
    return try parser.parse()
  }
}

/// Reads `PacingStage` values from words; see `PacingStage.parse(_:durations:)`.
private struct StageParser<Value: Equatable & Sendable> {
  let words: [String]
  let durations: PacingDurationFormat
  /// The string a filter's pattern is matched against.
  let text: @Sendable (Value) -> String
  /// How `distinct` compares values: `==`, made where it is specialised.
  let equal: @Sendable (Value, Value) -> Bool
  var position = 0

  init(
    words: [String], durations: PacingDurationFormat, text: @escaping @Sendable (Value) -> String,
    equal: @escaping @Sendable (Value, Value) -> Bool
  ) {
    self.equal = equal
    self.words = words
    self.durations = durations
    self.text = text
  }

  private static var operatorList: String { operatorNames }

  mutating func parse() throws(PacingSyntaxError) -> [PacingStage<Value>] {
    guard !words.isEmpty else {
      throw PacingSyntaxError(wordIndex: nil, reason: "no stage given: name at least one of \(Self.operatorList)")
    }
    var stages: [PacingStage<Value>] = []
    while position < words.count {
      stages.append(try parseStage())
    }
    return stages
  }

  private mutating func parseStage() throws(PacingSyntaxError) -> PacingStage<Value> {
    let start = position
    let name = words[position]
    position += 1
    guard let op = PacingOperator(rawValue: name) else {
      let hint =
        name.hasPrefix("-") ? "an option must follow the stage it belongs to" : "stages are \(Self.operatorList)"
      throw PacingSyntaxError(wordIndex: start, reason: "unknown operator; \(hint)")
    }
    let stage: PacingStage<Value>
    switch op {
    case .debounce:
      let interval = try parseDuration(for: name, at: start)
      var leading = DebounceEdges<Duration>.default.leading
      var trailing = DebounceEdges<Duration>.default.trailing
      var maxWait = DebounceEdges<Duration>.default.maxWait
      while let flag = try nextFlag(of: op) {
        switch flag.name {
        case "--leading": leading = true
        case "--no-trailing": trailing = false
        default: maxWait = try parseDuration(for: "--max-wait", at: flag.index, inline: flag.value)
        }
      }
      switch (leading, trailing, maxWait) {
      case (false, false, _):
        throw PacingSyntaxError(
          wordIndex: start, reason: "debounce with neither leading nor trailing would never emit: turn one of them on")
      case (true, false, .some):
        throw PacingSyntaxError(
          wordIndex: start,
          reason: "debounce max-wait needs the trailing edge: it emits the pending value, which only trailing keeps")
      case (true, false, nil): stage = .debounce(for: interval, edges: .leading)
      case (true, true, _): stage = .debounce(for: interval, edges: .both(maxWait: maxWait))
      case (false, true, _): stage = .debounce(for: interval, edges: .trailing(maxWait: maxWait))
      }
    case .throttle:
      let interval = try parseDuration(for: name, at: start)
      var leading = ThrottleEdges.default.leading
      var trailing = ThrottleEdges.default.trailing
      while let flag = try nextFlag(of: op) {
        if flag.name == "--no-leading" { leading = false } else { trailing = false }
      }
      guard leading || trailing else {
        throw PacingSyntaxError(
          wordIndex: start, reason: "throttle with neither leading nor trailing would never emit: turn one of them on")
      }
      stage = .throttle(for: interval, edges: leading ? (trailing ? .both : .leading) : .trailing)
    case .distinct:
      stage = .distinct(by: equal)
    case .filter:
      guard position < words.count else {
        throw PacingSyntaxError(wordIndex: start, reason: "filter needs a pattern (a regular expression), none given")
      }
      let regex: Regex<AnyRegexOutput>
      do {
        regex = try Regex(words[position])
      } catch {
        throw PacingSyntaxError(wordIndex: position, reason: "not a valid regular expression (\(error))")
      }
      let text = text
      if let literal = LiteralPattern(words[position]) {
        stage = .filter { value in literal.isFound(in: text(value)) }
      } else {
        let matcher = RegexMatcher(regex: regex)
        stage = .filter { value in matcher.matches(text(value)) }
      }
      position += 1
    case .skip, .take:
      let count = try parseCount(for: name, at: start)
      stage = op == .skip ? .skip(count) : .take(count)
    }
    if let flag = try nextFlag(of: nil) {
      throw PacingSyntaxError(wordIndex: flag.index, reason: "\(name) takes no option \(flag.name)")
    }
    return stage
  }

  /// The next word when it is an option of `op` (`--name` or `--name=value`);
  /// nil when the next word is not an option. With `op` nil, any option.
  private mutating func nextFlag(of op: PacingOperator?) throws(PacingSyntaxError) -> (
    name: String, value: String?, index: Int
  )? {
    guard position < words.count, words[position].hasPrefix("--") else { return nil }
    let index = position
    position += 1
    let word = words[index]
    let name: String
    let value: String?
    if let equals = word.firstIndex(of: "=") {
      (name, value) = (String(word[..<equals]), String(word[word.index(after: equals)...]))
    } else {
      (name, value) = (word, nil)
    }
    guard let op else { return (name, value, index) }
    guard let option = op.options.first(where: { $0.flag == name }) else {
      let allowed = op.options.isEmpty ? "no option" : op.options.map(\.synopsis).joined(separator: ", ")
      throw PacingSyntaxError(wordIndex: index, reason: "unknown option for \(op.name); it takes \(allowed)")
    }
    if value != nil, !option.takesDuration {
      throw PacingSyntaxError(wordIndex: index, reason: "this option takes no value")
    }
    return (name, value, index)
  }

  private mutating func parseDuration(
    for owner: String, at ownerIndex: Int, inline: String? = nil
  ) throws(PacingSyntaxError) -> Duration {
    let word: String
    let index: Int
    if let inline {
      (word, index) = (inline, ownerIndex)
    } else {
      guard position < words.count, PacingOperator(rawValue: words[position]) == nil, !words[position].hasPrefix("--")
      else {
        throw PacingSyntaxError(
          wordIndex: ownerIndex, reason: "\(owner) needs a duration \(durations.description), none given")
      }
      (word, index) = (words[position], position)
      position += 1
    }
    if word.hasPrefix("-") {
      throw PacingSyntaxError(wordIndex: index, reason: "a duration must not be negative")
    }
    guard let duration = durations.duration(from: word) else {
      if Double(word) != nil, durations.duration(from: word + "ms") != nil {
        throw PacingSyntaxError(
          wordIndex: index, reason: "'\(word)' has no unit: a duration needs one, as in \(word)ms or \(word)s")
      }
      throw PacingSyntaxError(wordIndex: index, reason: "'\(word)' is not a duration \(durations.description)")
    }
    return duration
  }

  private mutating func parseCount(for owner: String, at ownerIndex: Int) throws(PacingSyntaxError) -> Int {
    guard position < words.count, PacingOperator(rawValue: words[position]) == nil else {
      throw PacingSyntaxError(
        wordIndex: ownerIndex, reason: "\(owner) needs a count (a whole number such as 2), none given")
    }
    let index = position
    position += 1
    guard let count = Int(words[index]) else {
      throw PacingSyntaxError(wordIndex: index, reason: "\(owner) needs a count, a whole number such as 2")
    }
    guard count >= 0 else { throw PacingSyntaxError(wordIndex: index, reason: "a count must not be negative") }
    return count
  }
}

/// A regular expression shared by the threads a filter runs on.
private struct RegexMatcher: @unchecked Sendable {
  // @unchecked Sendable: `Regex<AnyRegexOutput>` is an immutable value once
  // compiled, and `contains(_:)` only reads it; its type does not say so.
  let regex: Regex<AnyRegexOutput>

  func matches(_ line: String) -> Bool {
    line.contains(regex)
  }
}

/// A filter pattern with no character that means anything to a regular
/// expression, and all ASCII: it matches where its bytes appear, as `grep`
/// finds it, and a search for bytes is tens of times faster than running
/// the regular expression. (Swift's `Regex` matches by grapheme: it would not
/// find `e` in an `e` followed by a combining accent, where `grep` does.)
private struct LiteralPattern: Sendable {
  let bytes: [UInt8]

  init?(_ pattern: String) {
    let special = Set("\\^$.|?*+()[]{}".utf8)
    guard !pattern.isEmpty, pattern.utf8.allSatisfy({ $0 < 0x80 && !special.contains($0) }) else { return nil }
    bytes = Array(pattern.utf8)
  }

  /// Whether the pattern's bytes appear in `text`'s UTF-8.
  func isFound(in text: String) -> Bool {
    var text = text
    return text.withUTF8 { haystack in
      bytes.withUnsafeBufferPointer { needle in
        guard haystack.count >= needle.count, let base = haystack.baseAddress else { return false }
        let first = Int32(needle[0])
        var start = 0
        let last = haystack.count - needle.count  // The last place the needle can start.
        while start <= last {
          guard let hit = memchr(base + start, first, last - start + 1) else { return false }
          let found = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
          if memcmp(base + found, needle.baseAddress!, needle.count) == 0 { return true }
          start = found + 1
        }
        return false
      }
    }
  }
}

/// The operators' names, for messages.
private let operatorNames = PacingOperator.allCases.map(\.name).joined(separator: ", ")
