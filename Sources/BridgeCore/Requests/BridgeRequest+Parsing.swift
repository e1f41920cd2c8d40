extension BridgeRequest {
    /// Builds the request for `verb` from its JSON arguments (the request object), checking that every key is
    /// known and every argument has the right type and range.
    /// - Throws: ``RequestFailure`` naming the first wrong argument.
    public static func parse(verb: Verb, arguments: JSONValue) throws(RequestFailure) -> BridgeRequest {
        let arguments = try RequestArguments(arguments, verb: verb)
        let timeouts = 1...maximumTimeout
        switch verb {
        case .devices:
            return .devices
        case .include:
            return .include(
                timeoutSeconds: try arguments.integer("timeout_s", default: defaultTimeout, in: timeouts),
                secure: try arguments.bool("secure", default: false),
                interviewTimeoutSeconds: try arguments.integer(
                    "interview_timeout_s", default: defaultTimeout, in: timeouts))
        case .exclude:
            return .exclude(timeoutSeconds: try arguments.integer("timeout_s", default: defaultTimeout, in: timeouts))
        case .cancel:
            return .cancel
        case .refresh:
            return .refresh(
                node: try arguments.node(),
                interviewTimeoutSeconds: try arguments.integer(
                    "interview_timeout_s", default: defaultTimeout, in: timeouts))
        case .heal:
            return .heal(node: arguments.has("node") ? try arguments.node() : nil)
        case .removeFailed:
            return .removeFailed(node: try arguments.node())
        case .getConfig:
            return .getConfig(node: try arguments.node(), parameter: try arguments.integer("parameter", in: 1...255))
        case .setConfig:
            let node = try arguments.node()
            let parameter = try arguments.integer("parameter", in: 1...255)
            let value = try arguments.integer("value", in: Int(Int32.min)...Int(Int32.max))
            let size = try arguments.integer("size", default: 0, in: 0...4)
            guard [0, 1, 2, 4].contains(size) else {
                throw RequestFailure("size must be 1, 2 or 4 (bytes), not \(size)")
            }
            return .setConfig(node: node, parameter: parameter, value: Int32(value), size: size)
        case .cecTransmit:
            return .cecTransmit(bytes: try cecFrame(arguments.string("frame", example: "10:04")))
        case .nodeStatistics:
            return .nodeStatistics(node: arguments.has("node") ? try arguments.node() : nil)
        case .configList:
            return .configList(node: try arguments.node())
        case .values:
            return .nodeValues(node: try arguments.node())
        case .network:
            return .network
        case .associations:
            return .associations(node: try arguments.node())
        case .associate:
            let (node, group, target) = try associationArguments(arguments)
            return .associate(node: node, group: group, target: target)
        case .dissociate:
            let (node, group, target) = try associationArguments(arguments)
            return .dissociate(node: node, group: group, target: target)
        case .neighbors:
            return .neighbors(
                node: arguments.has("node") ? try arguments.node() : nil,
                refresh: try arguments.bool("refresh", default: false))
        case .networkStats:
            return .networkStats
        case .healthCheck:
            return .healthCheck(
                node: arguments.has("node") ? try arguments.node() : nil,
                frames: try arguments.integer("frames", default: defaultHealthFrames, in: healthFrames))
        }
    }

    /// Parses libcec's frame notation `10:44:41`: one to sixteen hex bytes separated by `:`, header first.
    static func cecFrame(_ text: String) throws(RequestFailure) -> [UInt8] {
        var bytes: [UInt8] = []
        for part in text.split(separator: ":", omittingEmptySubsequences: false) {
            guard (1...2).contains(part.count), let byte = UInt8(part, radix: 16) else {
                throw RequestFailure(
                    "argument \"frame\": \"\(text.prefix(64))\" is not hex bytes separated by ':'"
                        + " (like 10:44:41)")
            }
            bytes.append(byte)
        }
        guard bytes.count <= 16 else { throw RequestFailure("argument \"frame\" is longer than 16 bytes") }
        return bytes
    }
}
