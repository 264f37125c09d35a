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
  /// error into a usage error that names the argument as the user counts it.
  ///
  /// - Parameters:
  ///   - words: The stage words.
  ///   - firstArgumentNumber: The argument number of `words[0]` on the command line.
  ///   - durations: How the durations are written.
  static func parsingStages(
    _ words: [String], firstArgumentNumber: Int, durations: PacingDurationFormat
  ) throws(UsageError) -> [PacingStage<String>] {
    do {
      return try PacingStage<String>.parse(words, durations: durations)
    } catch {
      guard let index = error.wordIndex else { throw UsageError(error.reason) }
      throw UsageError("argument \(firstArgumentNumber + index) '\(words[index])': \(error.reason)")
    }
  }
}
