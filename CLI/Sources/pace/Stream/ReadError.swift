//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A read that failed, with its `errno`.
struct ReadError: Error {
  var errorNumber: Int32

  var message: String {
    SystemCalls.message(forError: errorNumber)
  }
}
