//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Foundation

/// Runs the built `pace` executable, as a user would.
enum PaceExecutable {
  struct Result {
    var status: Int32
    var standardOutput: String
    var standardError: String
  }

  /// The `pace` binary beside the test bundle in the build folder.
  static let url: URL = {
    #if os(macOS)
      if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
        return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("pace")
      }
    #endif
    let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    return executable.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("pace")
  }()

  static func run(_ arguments: [String]) throws -> Result {
    let process = Process()
    process.executableURL = url
    process.arguments = arguments
    // A fixed width, so help output is the same on every terminal.
    process.environment = ["COLUMNS": "80", "PATH": "/usr/bin:/bin"]
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus,
      standardOutput: String(decoding: outputData, as: UTF8.self),
      standardError: String(decoding: errorData, as: UTF8.self))
  }
}
