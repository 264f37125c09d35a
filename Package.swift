// swift-tools-version: 6.2
//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import PackageDescription

let package = Package(
  name: "Pace",
  // `Synchronization.Mutex` (used by the drivers) needs these releases; `Clock`
  // and `Duration` need one release earlier. The Linux toolchain has both.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Pace", targets: ["Pace"]),
    .library(name: "PaceTesting", targets: ["PaceTesting"]),
    .executable(name: "pace", targets: ["pace"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // Tests only: checks that Pace's operators and AsyncAlgorithms' coexist in one file.
    .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
  ],
  targets: [
    // The timing contract (policies) and the drivers that run it. Toolchain only.
    .target(name: "Pace", dependencies: ["CPaceLinux"]),
    // On Linux: the timerfd calls Swift's Glibc module leaves out, for Pace's timer thread,
    // and the futex lock behind LockedState and the pacers.
    .target(name: "CPaceLinux"),
    // Marble diagrams: parse, render, run policies in virtual frames. No test
    // framework, so the command-line tool can link it.
    .target(name: "PaceMarbles", dependencies: ["Pace"]),
    // What users import in their tests: PaceMarbles plus Swift Testing assertions.
    .target(name: "PaceTesting", dependencies: ["Pace", "PaceMarbles"]),
    .executableTarget(
      name: "pace",
      dependencies: [
        "Pace", "PaceMarbles",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(
      name: "PaceTests",
      dependencies: [
        "Pace", "PaceTesting",
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ]
    ),
    .testTarget(name: "PaceMarblesTests", dependencies: ["Pace", "PaceMarbles"]),
    .testTarget(name: "PaceTestingTests", dependencies: ["Pace", "PaceTesting"]),
    .testTarget(name: "paceTests", dependencies: ["pace", "Pace", "PaceMarbles"]),
  ]
)

for target in package.targets {
  var settings = target.swiftSettings ?? []
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  settings.append(.enableUpcomingFeature("MemberImportVisibility"))
  target.swiftSettings = settings
}
