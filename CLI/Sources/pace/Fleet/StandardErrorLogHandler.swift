//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Logging

/// Where `pace --postgres` says what went wrong in the fleet pacer and the
/// database client: warnings and errors, one line each on standard error,
/// `pace: warning: MESSAGE (KEY: VALUE, ...)`.
struct StandardErrorLogHandler: LogHandler {
  var logLevel: Logger.Level = .warning
  var metadata: Logger.Metadata = [:]

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    var all = metadata.merging(event.metadata ?? [:]) { $1 }
    if let error = event.error { all["error"] = "\(error)" }
    let details = all.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    let text = details.isEmpty ? "\(event.message)" : "\(event.message) (\(details))"
    let oneLine = text.split(whereSeparator: \.isNewline).joined(separator: " ")
    FileDescriptorOutput.standardError.write("pace: \(event.level): \(oneLine)\n")
  }
}
