//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Why a connection to the server failed, in the words of the system: the
/// network library describes a refused connection as
/// `Connection errors: SingleConnectionFailure(target: …, error: connection
/// reset (error set): Connection refused) (errno: 111))`; a user needs
/// `Connection refused`.
enum ConnectionFailure {
  /// The system's message for the last `errno` that `description` names,
  /// or `description` itself when it names none.
  static func reason(_ description: String) -> String {
    guard let range = description.ranges(of: "errno: ").last else { return description }
    let digits = description[range.upperBound...].prefix(while: \.isNumber)
    guard let number = Int32(digits), number > 0 else { return description }
    return SystemCalls.message(forError: number)
  }
}
