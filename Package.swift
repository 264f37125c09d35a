// swift-tools-version: 6.2
//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import PackageDescription

// A package that depends on Pace fetches nothing else: the command-line tool
// (`CLI/`), the consumer examples (`Examples/`) and the benchmarks
// (`Benchmarks/`) are packages of their own, with their own dependencies.
let package = Package(
  name: "Pace",
  // Typed-throws asynchronous sequences (`next(isolation:)`, which keeps a
  // base's `Failure`) and `Synchronization.Atomic` need these releases;
  // `Clock` and `Duration` need two releases earlier. The Linux toolchain has them.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Pace", targets: ["Pace"]),
    .library(name: "PaceTesting", targets: ["PaceTesting"]),
    // The marble engine without Swift Testing, for tools (the `pace` command line).
    .library(name: "PaceMarbles", targets: ["PaceMarbles"]),
    // Stages written as text (a command line, a configuration file): operator
    // names, help text, the word parser and its errors, duration formats.
    .library(name: "PaceStageText", targets: ["PaceStageText"]),
  ],
  targets: [
    // The timing contract (policies) and the drivers that run it. Toolchain only.
    .target(name: "Pace", dependencies: ["CPaceLinux"]),
    // On Linux: the timerfd calls Swift's Glibc module leaves out, for Pace's timer thread,
    // and the futex lock behind LockedState and the pacers. Everywhere: a cache prefetch.
    .target(name: "CPaceLinux"),
    // Stages as text, beside Pace rather than in it: a user who writes stages
    // in code never sees help strings or a word parser. Uses Pace's `package`
    // API. Toolchain only.
    .target(name: "PaceStageText", dependencies: ["Pace"]),
    // Marble diagrams: parse, render, run policies, pacers and sequences in
    // virtual frames. No test framework, so a command-line tool can link it.
    .target(name: "PaceMarbles", dependencies: ["Pace", "PaceStageText"]),
    // What users import in their tests: PaceMarbles plus Swift Testing assertions.
    .target(name: "PaceTesting", dependencies: ["Pace", "PaceMarbles"]),
    // Also the tests of PaceStageText, which share PaceTests' seeded generator and marble cases.
    // The timer structures measured against the keyed pacers' own (a lazy
    // heap) and not chosen: an eager heap and a 1 ms wheel. Not a product;
    // built on Pace's `package` API for the comparison and the tests.
    .target(name: "KeyedTimerCandidates", dependencies: ["Pace"]),
    // The measurement that chose the keyed pacers' timer structure (README,
    // "Pacing per key"): `swift run -c release KeyedTimerComparison`. Uses
    // Pace's `package` API, so it lives here, not in Benchmarks/.
    .executableTarget(name: "KeyedTimerComparison", dependencies: ["Pace", "KeyedTimerCandidates"]),
    .testTarget(
      name: "PaceTests", dependencies: ["Pace", "PaceMarbles", "PaceStageText", "PaceTesting", "KeyedTimerCandidates"]),
    .testTarget(name: "PaceMarblesTests", dependencies: ["Pace", "PaceMarbles"]),
    .testTarget(name: "PaceTestingTests", dependencies: ["Pace", "PaceTesting"]),
  ]
)

for target in package.targets {
  var settings = target.swiftSettings ?? []
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  settings.append(.enableUpcomingFeature("MemberImportVisibility"))
  target.swiftSettings = settings
}
