//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace

/// Why a marble diagram could not be read, and where.
///
///     do { _ = try MarbleDiagram(parsing: "a[bc") }
///     catch { print(error) }  // column 2: group '[' is never closed with ']'
public struct MarbleParseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The 1-based column (in characters) of the problem.
  public var column: Int
  /// What is wrong, in a few words.
  public var reason: String

  /// Creates an error at `column` for `reason`.
  public init(column: Int, reason: String) {
    self.column = column
    self.reason = reason
  }

  public var description: String {
    "column \(column): \(reason)"
  }
}
