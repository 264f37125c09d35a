//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceStageText

/// A mistake in the command line: printed as one line on standard error, and
/// `pace` exits with status 2.
struct UsageError: Error, Equatable, CustomStringConvertible {
  /// What is wrong and where, in one line.
  var message: String

  init(_ message: String) {
    self.message = message
  }

  var description: String { message }
}

extension UsageError {
  /// Parses stage words with the library's one validating path, and turns its
  /// error into a usage error that names the word and where it stands.
  ///
  /// - Parameters:
  ///   - words: The stage words.
  ///   - durations: How the durations are written.
  ///   - text: What a filter matches in a value.
  ///   - naming: Where the word at an index of `words` stands, as the user
  ///     counts: "argument 3", "stage word 2".
  ///   - help: The command whose help tells more, for an error that names no word.
  static func parsingStages<Value: Equatable & Sendable>(
    _ words: [String], durations: PacingDurationFormat, text: @escaping @Sendable (Value) -> String,
    naming: (Int) -> String, help: String
  ) throws(UsageError) -> [PacingStage<Value>] {
    do {
      return try PacingStage<Value>.parse(words, durations: durations, text: text)
    } catch {
      guard let index = error.wordIndex else { throw UsageError("\(error.reason) (see '\(help)')") }
      throw UsageError("\(naming(index)) '\(words[index])': \(error.reason)")
    }
  }
}
