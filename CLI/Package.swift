// swift-tools-version: 6.2
//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

// The `pace` command line, a package of its own, so that a package that
// depends on Pace never fetches swift-argument-parser, swift-subprocess or,
// for `pace --postgres`, PacePostgres and postgres-nio.
//
//   swift run --package-path CLI pace --help

import PackageDescription

let package = Package(
  name: "pace",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "pace", targets: ["pace"])
  ],
  dependencies: [
    .package(name: "Pace", path: ".."),
    .package(name: "PacePostgres", path: "../PacePostgres"),
    // Already dependencies of PacePostgres: the client, its TLS settings, its logs.
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
    // Already a dependency of swift-subprocess: its FilePath names a command by path.
    .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
  ],
  targets: [
    .executableTarget(
      name: "pace",
      dependencies: [
        .product(name: "Pace", package: "Pace"),
        .product(name: "PaceMarbles", package: "Pace"),
        .product(name: "PaceStageText", package: "Pace"),
        .product(name: "PacePostgres", package: "PacePostgres"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Subprocess", package: "swift-subprocess"),
        .product(name: "SystemPackage", package: "swift-system"),
      ]
    ),
    .testTarget(
      name: "paceTests",
      dependencies: [
        "pace",
        .product(name: "Pace", package: "Pace"),
        .product(name: "PaceMarbles", package: "Pace"),
        .product(name: "PacePostgres", package: "PacePostgres"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
  ]
)

for target in package.targets {
  var settings = target.swiftSettings ?? []
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  settings.append(.enableUpcomingFeature("MemberImportVisibility"))
  target.swiftSettings = settings
}
