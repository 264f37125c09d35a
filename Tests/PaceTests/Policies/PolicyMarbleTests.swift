//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

/// The marble tables, run through the policies alone.
@Suite struct PolicyMarbleTests {
  @Test(arguments: MarbleTables.workedExamples)
  func workedExampleOfMarblesDocument(_ marbles: MarbleCase) throws {
    expectMarbles(marbles.input, through: try marbles.makePipeline(), produce: marbles.output)
  }

  @Test(arguments: MarbleTables.debounce)
  func debounce(_ marbles: MarbleCase) throws {
    expectMarbles(marbles.input, through: try marbles.makePipeline(), produce: marbles.output)
  }

  @Test(arguments: MarbleTables.throttle)
  func throttle(_ marbles: MarbleCase) throws {
    expectMarbles(marbles.input, through: try marbles.makePipeline(), produce: marbles.output)
  }

  @Test(arguments: MarbleTables.filtering + MarbleTables.chains)
  func filteringAndChains(_ marbles: MarbleCase) throws {
    expectMarbles(marbles.input, through: try marbles.makePipeline(), produce: marbles.output)
  }

  @Test func tablesHoldAtLeastSixtyCases() {
    #expect(MarbleTables.all.count >= 60)
  }
}
