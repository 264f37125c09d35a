// swift-tools-version: 6.1
//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

// The benchmarks are a package of their own, so that Pace's users never fetch
// benchmark dependencies. Run them with `./compare` (see README, Performance).

import PackageDescription

let package = Package(
  name: "PaceBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Pace", path: ".."),
    .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
  ],
  targets: [
    // The peers, written the way their users write them (Swift 5 era code).
    .target(
      name: "Peers",
      dependencies: [
        .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "OpenCombineDispatch", package: "OpenCombine"),
      ],
      swiftSettings: [.swiftLanguageMode(.v5)]
    ),
    // Resident size and heap bytes in use, for the keyed benchmarks at scale.
    .target(name: "MemoryStats"),
    // A bare timerfd's wake-up from one sleep: the fire latency benchmark's reference.
    .target(name: "BareTimer"),
    .executableTarget(
      name: "PaceBenchmarks",
      dependencies: [
        .product(name: "Pace", package: "Pace"),
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
        "Peers",
        "MemoryStats",
        "BareTimer",
      ],
      path: "Benchmarks/PaceBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
  ]
)
