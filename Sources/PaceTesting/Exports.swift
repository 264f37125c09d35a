//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

// `import PaceTesting` brings the marble diagrams, their runner and the virtual
// instant with it: a test needs them all together.
@_exported import PaceMarbles
