// swift-tools-version: 6.2
//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

// PacePostgres: keyed pacers shared by a fleet of processes through
// PostgreSQL. A package of its own, so that a package that depends on Pace
// never fetches postgres-nio, SwiftNIO or swift-service-lifecycle.
//
//   swift test --package-path PacePostgres
//
// The tests start a throwaway PostgreSQL 15 server of their own (`initdb` and
// `pg_ctl` in a temporary folder); see `Tests/PacePostgresTests/Support`.

import PackageDescription

let package = Package(
  name: "PacePostgres",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "PacePostgres", targets: ["PacePostgres"])
  ],
  dependencies: [
    .package(name: "Pace", path: ".."),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
  ],
  targets: [
    .target(
      name: "PacePostgres",
      dependencies: [
        .product(name: "Pace", package: "Pace"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // The fleet tests' scenarios (policies, seeds, the replay oracle), shared
    // by the probe and the tests; not a product.
    .target(
      name: "FleetScenario",
      dependencies: [.product(name: "Pace", package: "Pace")]
    ),
    // One process of a fleet under test: sends, runs the worker, prints what
    // its handlers received. The tests start several; not a product.
    .executableTarget(
      name: "FleetProbe",
      dependencies: [
        "PacePostgres", "FleetScenario",
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .testTarget(
      name: "PacePostgresTests",
      dependencies: [
        "PacePostgres", "FleetScenario", "FleetProbe",
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
        // The README's example runs its worker in a service group.
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      // Compiled by the clock skew test itself, into a library it preloads.
      exclude: ["Support/skew_clock.c"]
    ),
  ]
)

for target in package.targets {
  var settings = target.swiftSettings ?? []
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  settings.append(.enableUpcomingFeature("MemberImportVisibility"))
  target.swiftSettings = settings
}
