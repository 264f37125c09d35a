//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A mistake in stages written as text: which word, and what is wrong with it.
///
///     do {
///       _ = try PacingStage<String>.parse(["debounce", "3ms", "--no-trailing"], durations: .withUnits)
///     } catch {
///       error.wordIndex  // 0
///       error.reason     // "debounce with neither leading nor trailing would never emit: ..."
///     }
public struct PacingSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The position of the word the mistake is about, or `nil` when it is about
  /// the whole list (no stage at all).
  public var wordIndex: Int?
  /// What is wrong, and how to fix it, in one line.
  public var reason: String

  /// Creates an error about the word at `wordIndex`.
  public init(wordIndex: Int?, reason: String) {
    self.wordIndex = wordIndex
    self.reason = reason
  }

  /// `word 3: reason`, or the reason alone.
  public var description: String {
    wordIndex.map { "word \($0 + 1): \(reason)" } ?? reason
  }
}
