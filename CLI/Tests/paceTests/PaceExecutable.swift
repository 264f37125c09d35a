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

  /// Whether the process `pid` has a handler for `signal` (`SigCgt` in its
  /// `/proc` status). `pace` ignores SIGINT and SIGTERM until its handler is
  /// in place, a moment after it starts: a signal sent before is lost.
  static func catches(_ signal: Int32, pid: Int32) -> Bool {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
      let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
    else { return false }
    return mask & (1 << UInt64(signal - 1)) != 0
  }

  /// Sends `signal` to the process `pid` once it handles it (waiting up to
  /// `limit`); false when it never did (the signal is sent anyway).
  @discardableResult
  static func signal(_ signal: Int32, pid: Int32, waitingUpTo limit: Duration = .seconds(20)) -> Bool {
    let deadline = ContinuousClock.now + limit
    var handled = catches(signal, pid: pid)
    while !handled, ContinuousClock.now < deadline {
      Thread.sleep(forTimeInterval: 0.01)
      handled = catches(signal, pid: pid)
    }
    kill(pid, signal)
    return handled
  }

  /// A started `pace`, with pipes to its standard input, output and error.
  struct Launched {
    let process: Process
    let input: Pipe
    let output: Pipe
    let error: Pipe

    /// Starts a thread that writes with `feed`, then closes the input.
    func feed(_ feed: @escaping @Sendable (FileHandle) -> Void) {
      let input = input.fileHandleForWriting
      Thread {
        feed(input)
        try? input.close()
      }.start()
    }
  }

  /// Starts `pace` with `arguments`; a fixed width, so help output is the
  /// same on every terminal, and a small `PATH`, with `environment` added.
  static func launch(_ arguments: [String], environment: [String: String] = [:]) throws -> Launched {
    let process = Process()
    process.executableURL = url
    process.arguments = arguments
    process.environment = ["COLUMNS": "80", "PATH": "/usr/bin:/bin"].merging(environment) { $1 }
    let launched = Launched(process: process, input: Pipe(), output: Pipe(), error: Pipe())
    process.standardInput = launched.input
    process.standardOutput = launched.output
    process.standardError = launched.error
    try process.run()
    return launched
  }

  /// Runs `pace` with `input` on its standard input, all at once.
  static func run(_ arguments: [String], input: [UInt8], environment: [String: String] = [:]) throws -> Result {
    let data = Data(input)
    return try run(arguments, environment: environment) { $0.write(data) }
  }

  /// Runs `pace` with no input.
  static func run(_ arguments: [String]) throws -> Result {
    try run(arguments) { _ in }
  }

  /// Runs `pace`, feeding its standard input with `feed` (which may pause
  /// between writes); the input ends when `feed` returns.
  static func run(
    _ arguments: [String], environment: [String: String] = [:], feeding feed: @escaping @Sendable (FileHandle) -> Void
  ) throws -> Result {
    let launched = try launch(arguments, environment: environment)
    launched.feed(feed)
    let errorReader = ReadToEnd(launched.error.fileHandleForReading)
    let outputData = launched.output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errorReader.wait()
    launched.process.waitUntilExit()
    return Result(
      status: launched.process.terminationStatus,
      standardOutput: String(decoding: outputData, as: UTF8.self),
      standardError: String(decoding: errorData, as: UTF8.self))
  }

  /// A line of output and when it came, after the process started.
  struct TimedLine: Equatable {
    var text: String
    var elapsed: Duration
  }

  /// Runs `pace` as ``run(_:feeding:)`` does, and notes when each line of
  /// its standard output arrives.
  static func runTimed(
    _ arguments: [String], feeding feed: @escaping @Sendable (FileHandle) -> Void
  ) throws -> (status: Int32, lines: [TimedLine]) {
    let start = ContinuousClock.now
    let launched = try launch(arguments)
    launched.feed(feed)
    let errors = ReadToEnd(launched.error.fileHandleForReading)
    var lines: [TimedLine] = []
    var pending = Data()
    while true {
      let chunk = launched.output.fileHandleForReading.availableData
      guard !chunk.isEmpty else { break }
      let now = start.duration(to: .now)
      pending.append(chunk)
      while let newline = pending.firstIndex(of: 0x0A) {
        lines.append(TimedLine(text: String(decoding: pending[..<newline], as: UTF8.self), elapsed: now))
        pending = Data(pending[(newline + 1)...])
      }
    }
    _ = errors.wait()
    launched.process.waitUntilExit()
    return (launched.process.terminationStatus, lines)
  }

  /// Runs `pace` on `input` and returns its standard output as bytes.
  static func runRaw(_ arguments: [String], input: [UInt8]) throws -> [UInt8] {
    try runRawMeasuringMemory(arguments, input: input).output
  }

  /// Runs `pace` on `input`; its standard output as bytes, and its peak
  /// resident memory in kilobytes: the kernel's high-water mark (`VmHWM` in
  /// `/proc/PID/status`), read every few milliseconds until it exits. (Not
  /// `getrusage`: a child's figure counts its time as a fork of this large
  /// test process, before it became `pace`.)
  static func runRawMeasuringMemory(
    _ arguments: [String], input: [UInt8]
  ) throws -> (output: [UInt8], peakKilobytes: Int) {
    let launched = try launch(arguments)
    let peak = PeakMemory(processIdentifier: launched.process.processIdentifier)
    let data = Data(input)
    launched.feed { $0.write(data) }
    let errors = ReadToEnd(launched.error.fileHandleForReading)
    let output = launched.output.fileHandleForReading.readDataToEndOfFile()
    _ = errors.wait()
    launched.process.waitUntilExit()
    return ([UInt8](output), peak.stop())
  }
}

/// Reads a pipe to its end on a thread of its own, so that a process
/// writing to two pipes never blocks on the one not being read.
final class ReadToEnd: @unchecked Sendable {
  // @unchecked Sendable: `data` is written once, by the thread, before the
  // semaphore is signalled, and read only after `wait()` has seen it.
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)

  init(_ handle: FileHandle) {
    Thread {
      self.data = handle.readDataToEndOfFile()
      self.done.signal()
    }.start()
  }

  func wait() -> Data {
    done.wait()
    return data
  }
}

/// Samples a running process's memory high-water mark until stopped.
final class PeakMemory: @unchecked Sendable {
  // @unchecked Sendable: `peak` and `isStopped` are only touched under `lock`.
  private let lock = NSLock()
  private var peak = 0
  private var isStopped = false
  private let done = DispatchSemaphore(value: 0)

  init(processIdentifier: Int32) {
    let path = "/proc/\(processIdentifier)/status"
    Thread {
      while !self.lock.withLock({ self.isStopped }) {
        if let status = try? String(contentsOfFile: path, encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
          let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        {
          self.lock.withLock { self.peak = max(self.peak, kilobytes) }
        }
        Thread.sleep(forTimeInterval: 0.002)
      }
      self.done.signal()
    }.start()
  }

  /// Stops sampling; the highest mark seen, in kilobytes.
  func stop() -> Int {
    lock.withLock { isStopped = true }
    done.wait()
    return lock.withLock { peak }
  }
}
