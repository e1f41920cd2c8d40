internal import CZWaveShim

extension OpenZWave {
    /// Starts inclusion (`zw_add_node`, Manager::AddNode); progress arrives as `controllerCommand` events.
    /// While it runs OpenZWave sends nothing else.
    public func include(secure: Bool = false) throws(ZWaveError) {
        let (manager, home) = try requireReady("zw_add_node", node: nil)
        try ZWaveError.check(zw_add_node(manager, home.rawValue, secure), call: "zw_add_node")
    }

    /// Starts exclusion (`zw_remove_node`, Manager::RemoveNode).
    public func exclude() throws(ZWaveError) {
        let (manager, home) = try requireReady("zw_remove_node", node: nil)
        try ZWaveError.check(zw_remove_node(manager, home.rawValue), call: "zw_remove_node")
    }

    /// Stops a running inclusion/exclusion (`zw_cancel_controller_command`).
    public func cancelControllerCommand() throws(ZWaveError) {
        let (manager, home) = try requireReady("zw_cancel_controller_command", node: nil)
        try ZWaveError.check(zw_cancel_controller_command(manager, home.rawValue), call: "zw_cancel_controller_command")
    }

    /// Heals one node's routes (`zw_heal_network_node`) or the whole network (`zw_heal_network`).
    public func heal(node: NodeID? = nil, returnRoutes: Bool = false) throws(ZWaveError) {
        if let node {
            let (manager, home) = try requireReady("zw_heal_network_node", node: node)
            try ZWaveError.check(
                zw_heal_network_node(manager, home.rawValue, node.rawValue, returnRoutes),
                call: "zw_heal_network_node", node: node)
        } else {
            let (manager, home) = try requireReady("zw_heal_network", node: nil)
            try ZWaveError.check(zw_heal_network(manager, home.rawValue, returnRoutes), call: "zw_heal_network")
        }
    }

    /// Removes a node the controller considers failed (`zw_remove_failed_node`).
    public func removeFailed(node: NodeID) throws(ZWaveError) {
        let (manager, home) = try requireReady("zw_remove_failed_node", node: node)
        try ZWaveError.check(
            zw_remove_failed_node(manager, home.rawValue, node.rawValue),
            call: "zw_remove_failed_node", node: node)
    }

    /// Re-interviews a node from scratch (`zw_refresh_node_info`).
    public func refreshNodeInfo(node: NodeID) throws(ZWaveError) {
        let (manager, home) = try requireReady("zw_refresh_node_info", node: node)
        try ZWaveError.check(
            zw_refresh_node_info(manager, home.rawValue, node.rawValue),
            call: "zw_refresh_node_info", node: node)
    }

    /// Sends raw command-class bytes to a node (`zw_send_raw`, OpenZWave's `SendRawData`), e.g. a Meter Get
    /// to one endpoint whose values the library files elsewhere. The answer arrives as a normal report.
    /// `userCommand`: a user's command (a Basic Set), queued before OpenZWave's background queries.
    public func sendRaw(node: NodeID, command: [UInt8], userCommand: Bool = false) throws(ZWaveError) {
        let (manager, home) = try requireReady("zw_send_raw", node: node)
        // SendRawData sends its content as the SEND_DATA payload as is: node id, length, command bytes.
        let framed = [node.rawValue, UInt8(clamping: command.count)] + command
        try ZWaveError.check(
            framed.withUnsafeBufferPointer {
                zw_send_raw(
                    manager, home.rawValue, node.rawValue, $0.baseAddress, UInt8(clamping: $0.count), userCommand)
            },
            call: "zw_send_raw", node: node)
    }

    /// Writes the network cache `ozwcache_<home>.xml` into the user path now (`zw_write_config`).
    public func writeConfig() throws(ZWaveError) {
        let (manager, home) = try requireReady("zw_write_config", node: nil)
        try ZWaveError.check(zw_write_config(manager, home.rawValue), call: "zw_write_config")
        cacheCopy.keepComplete()
    }

    /// Messages waiting in OpenZWave's send queues (`zw_send_queue_count`).
    public func sendQueueCount() throws(ZWaveError) -> Int {
        let (manager, home) = try requireReady("zw_send_queue_count", node: nil)
        var count: Int32 = 0
        try ZWaveError.check(zw_send_queue_count(manager, home.rawValue, &count), call: "zw_send_queue_count")
        return Int(count)
    }

    /// What OpenZWave knows about a node (`zw_node_get_text`, `zw_node_get_flags`).
    public func nodeInfo(_ node: NodeID) throws(ZWaveError) -> ZWaveNodeInfo {
        let (manager, home) = try requireReady("zw_node_get_text", node: node)
        func text(_ which: zw_node_text) throws(ZWaveError) -> String {
            var buffer = [CChar](repeating: 0, count: 256)
            let status = zw_node_get_text(manager, home.rawValue, node.rawValue, which, &buffer, buffer.count)
            try ZWaveError.check(status, call: "zw_node_get_text", node: node)
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        var flags = zw_node_flags()
        try ZWaveError.check(
            zw_node_get_flags(manager, home.rawValue, node.rawValue, &flags),
            call: "zw_node_get_flags", node: node)
        return ZWaveNodeInfo(
            node: node, manufacturerName: try text(ZW_NODE_MANUFACTURER_NAME),
            productName: try text(ZW_NODE_PRODUCT_NAME), manufacturerID: try text(ZW_NODE_MANUFACTURER_ID),
            productType: try text(ZW_NODE_PRODUCT_TYPE), productID: try text(ZW_NODE_PRODUCT_ID),
            type: try text(ZW_NODE_TYPE), queryStage: try text(ZW_NODE_QUERY_STAGE), name: try text(ZW_NODE_NAME),
            location: try text(ZW_NODE_LOCATION), isFailed: flags.is_failed, isListening: flags.is_listening,
            isAwake: flags.is_awake, isFrequentListening: flags.is_frequent_listening,
            isZWavePlus: flags.is_zwave_plus, infoReceived: flags.info_received, generic: flags.generic,
            specific: flags.specific)
    }
}
