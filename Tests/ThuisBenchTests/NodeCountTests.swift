import ArgumentParser
import Testing

@testable import thuis_bench

/// A network Z-Wave cannot hold is refused at once, before any scenario starts.
@Suite struct NodeCountTests {
    @Test(arguments: [232, 233, 300, 0])
    func anImpossibleSizeExitsWithStatus2(nodes: Int) async throws {
        let command = try RunCommand.parse(["--nodes", "\(nodes)", "--only", "4"])
        await #expect(throws: ExitCode(2)) { try await command.run() }
    }

    @Test func theLimitIsTheControllerAnd231Nodes() throws {
        #expect(RunCommand.maximumNodes == 231)
        #expect(try RunCommand.parse(["--nodes", "231"]).nodes == 231)
    }
}
