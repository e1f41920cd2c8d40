/// A command a node sends: from which of its endpoints (0 = root) and the command bytes (CC first).
struct NodeReport: Equatable {
    var endpoint: UInt8
    var command: [UInt8]

    init(_ endpoint: UInt8, _ command: [UInt8]) {
        self.endpoint = endpoint
        self.command = command
    }
}
