// swift-tools-version: 6.2
//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

// A consumer of Pace, as users write one: the README's examples in a class, a
// main-actor model and an actor, on the real clock, and Pace beside
// swift-async-algorithms in one file. A package of its own, so that it meets
// Pace only through its public API.
//
//   swift test --package-path Examples

import PackageDescription

let package = Package(
  name: "PaceExamples",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Pace", path: ".."),
    .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
  ],
  targets: [
    .testTarget(
      name: "ExamplesTests",
      dependencies: [
        .product(name: "Pace", package: "Pace"),
        .product(name: "PaceTesting", package: "Pace"),
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ]
    )
  ]
)

for target in package.targets {
  var settings = target.swiftSettings ?? []
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  settings.append(.enableUpcomingFeature("MemberImportVisibility"))
  target.swiftSettings = settings
}
