//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// `pace STAGE...` on piped input: which lines come out, in what order, and
/// (as generous lower bounds only) when.
@Suite struct StreamModeTests {
  private func lines(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test(arguments: [
    (["distinct"], "a\na\nb\nc\nc\na\n", "a\nb\nc\na\n"),
    (["filter", "^ERROR"], "ERROR 1\nok\nERROR 2\nwarn ERROR\n", "ERROR 1\nERROR 2\n"),
    (["skip", "2"], "a\nb\nc\nd\n", "c\nd\n"),
    (["take", "2"], "a\nb\nc\nd\n", "a\nb\n"),
    (["filter", "x", "distinct", "skip", "1", "take", "2"], "x1\nx1\ny\nx2\nx3\nx4\n", "x2\nx3\n"),
    (["debounce", "50ms"], "a\nb\nc\n", "c\n"),  // The end of the input flushes at once.
    (["throttle", "100ms"], "a\nb\nc\n", "a\nc\n"),  // The trailing edge keeps the rate.
  ])
  func linesAtOnce_comeOutAsTheStagesSay(arguments: [String], input: String, output: String) throws {
    let result = try PaceExecutable.run(arguments, input: lines(input))
    #expect(result.status == 0)
    #expect(result.standardError.isEmpty)
    #expect(result.standardOutput == output)
  }

  @Test func aDebouncedLine_comesAfterItsQuietPeriod_whileTheInputIsStillOpen() throws {
    let (status, output) = try PaceExecutable.runTimed(["debounce", "300ms"]) { input in
      input.write(Data("a\nb\n".utf8))
      Thread.sleep(forTimeInterval: 3)  // Open, quiet: the timer, not the end, emits "b" (pace starts meanwhile).
      input.write(Data("c\n".utf8))
    }
    #expect(status == 0)
    #expect(output.map(\.text) == ["b", "c"])
    if output.count == 2 {
      #expect(output[0].elapsed >= .milliseconds(300))
      #expect(output[0].elapsed < output[1].elapsed)
    }
  }

  @Test func aThrottle_emitsTheFirstLineAtOnce_andTheLastAfterItsWindow() throws {
    let (status, output) = try PaceExecutable.runTimed(["throttle", "400ms"]) { input in
      input.write(Data("a\nb\nc\n".utf8))
      Thread.sleep(forTimeInterval: 1)
    }
    #expect(status == 0)
    #expect(output.map(\.text) == ["a", "c"])
    if output.count == 2 {
      // Its window began after pace started, which is after the clock here
      // started: "c" can come no sooner. (The gap to "a" also counts how
      // late "a" reached this reader, which a loaded machine stretches.)
      #expect(output[1].elapsed >= .milliseconds(400))
    }
  }

  @Test func aThrottle_keepsItsRateAfterTheEndOfInput() throws {
    let started = ContinuousClock.now
    let result = try PaceExecutable.run(["throttle", "500ms"], input: lines("a\nb\n"))
    #expect(result.standardOutput == "a\nb\n")
    #expect(started.duration(to: .now) >= .milliseconds(500))
  }

  /// A pattern that starts with a dash is the filter's, not an option of pace's.
  @Test(arguments: [["filter", "-x"], ["filter", "^-", "distinct"], ["--stats", "filter", "-x"]])
  func aFilterPatternThatLooksLikeAnOption_isAPattern(stages: [String]) throws {
    let result = try PaceExecutable.run(stages, input: lines("a\n-x\nb\n-x\n"))
    #expect(result.status == 0)
    #expect(result.standardOutput == (stages.contains("distinct") ? "-x\n" : "-x\n-x\n"))
  }

  @Test func bytesPassThroughUntouched() throws {
    // Not UTF-8, a CR before the newline, an empty line, a NUL, and a last line with no newline.
    let input: [UInt8] = [0xFF, 0xFE, 0x41, 0x0A, 0x61, 0x0D, 0x0A, 0x0A, 0x00, 0x62, 0x0A, 0x7A]
    for stages in [["distinct"], ["skip", "0"], ["take", "100"], ["filter", ".*"]] {
      let result = try PaceExecutable.run(stages, input: input)
      #expect(result.status == 0)
      #expect(Array(result.standardOutput.utf8) == Array(String(decoding: input, as: UTF8.self).utf8))
      let raw = try PaceExecutable.runRaw(stages, input: input)
      #expect(raw == input, "\(stages)")
    }
  }

  @Test func distinct_comparesWholeLines_shortOrLong_andAcrossReads() throws {
    // A line of up to 24 bytes is kept in the value itself, a longer one in
    // the read it came from: lines on both sides of that size, equal but for
    // their last byte, and equal lines that straddle two reads (the pipe
    // gets the input in two writes).
    let short = String(repeating: "s", count: 23)
    let edge = String(repeating: "e", count: 24)
    let long = String(repeating: "l", count: 25)
    let lines = [
      short + "1", short + "1", short + "2", edge, edge, edge + "x", long, long, long + "x", long + "x", long,
    ]
    let expected = [short + "1", short + "2", edge, edge + "x", long, long + "x", long]
    let input = Array(lines.map { $0 + "\n" }.joined().utf8)
    let split = input.count / 2 + 3
    let (status, output) = try PaceExecutable.runTimed(["distinct"]) { handle in
      handle.write(Data(input[..<split]))
      Thread.sleep(forTimeInterval: 0.2)
      handle.write(Data(input[split...]))
    }
    #expect(status == 0)
    #expect(output.map(\.text) == expected)
  }

  @Test func aOneMegabyteLine_survives() throws {
    let line = (0..<(1 << 20)).map { UInt8(0x61 + $0 % 26) }
    let input = line + [0x0A] + Array("next\n".utf8)
    let raw = try PaceExecutable.runRaw(["distinct"], input: input)
    #expect(raw == input)
  }

  @Test func oneHundredMegabytes_comeOutIdentical_inFlatMemory() throws {
    // 100 MB of lines of every byte but the newline, each line different.
    var generator = SplitMix(seed: 11)
    var input = [UInt8]()
    input.reserveCapacity(100 << 20)
    var number = 0
    while input.count < 100 << 20 {
      input.append(contentsOf: Array("\(number) ".utf8))
      for _ in 0..<(200 + Int(generator.next() % 800)) {
        var byte = UInt8(truncatingIfNeeded: generator.next())
        if byte == 0x0A { byte = 0x0B }
        input.append(byte)
      }
      input.append(0x0A)
      number += 1
    }
    let (raw, peakKilobytes) = try PaceExecutable.runRawMeasuringMemory(["distinct"], input: input)
    #expect(raw.count == input.count)
    #expect(raw == input)
    #expect(peakKilobytes > 0 && peakKilobytes < 32 * 1024, "peak RSS \(peakKilobytes) KB")
  }

  @Test func aClosedOutput_endsPaceQuietly() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("pace-closed-output-\(UUID()).txt")
    try Data((1...200_000).map { "\($0)\n" }.joined().utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let script = "set -o pipefail; '\(PaceExecutable.url.path)' skip 0 < '\(file.path)' | head -1"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script]
    let error = Pipe()
    process.standardError = error
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let message = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(message.isEmpty)
  }

  @Test func stats_countEachStage() throws {
    let result = try PaceExecutable.run(["--stats", "distinct", "skip", "1"], input: lines("a\na\nb\nc\n"))
    #expect(result.standardOutput == "b\nc\n")
    #expect(
      result.standardError
        == "pace: 4 lines in, 2 lines out\n"
        + "pace:   stage 1 (distinct): 4 in, 3 out\npace:   stage 2 (skip): 3 in, 2 out\n"
    )
  }
}

/// A small seeded generator, so that the large input is the same every run.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
