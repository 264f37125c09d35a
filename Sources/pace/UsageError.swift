//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

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
