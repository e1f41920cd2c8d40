import Testing
import ZWaveEmulator

/// The mesh of the description: its neighbour table, the `large` preset, and `neighbors` in TOML.
@Suite struct MeshDescriptionTests {
    @Test func neighbourLinksCountBothWaysAndDefaultToTheStick() throws {
        let network = try NetworkDescription(
            toml: """
                [[node]]
                id = 2
                kind = "fgd212"
                neighbors = [1, 3]
                [[node]]
                id = 3
                kind = "binary_switch"
                neighbors = [4]
                [[node]]
                id = 4
                kind = "binary_switch"
                [[node]]
                id = 5
                kind = "binary_switch"
                neighbors = []
                """)
        let table = network.neighborTable
        #expect(table[2] == [1, 3])
        #expect(table[3] == [2, 4])
        #expect(table[4] == [1, 3])
        #expect(table[5] == [])
        #expect(table[1] == [2, 4])
    }

    @Test func aNeighbourOutsideTheNetworkIdsIsRefused() {
        #expect(throws: NetworkDescriptionError.self) {
            try NetworkDescription(toml: "[[node]]\nid = 2\nkind = \"fgd212\"\nneighbors = [233]\n")
        }
        #expect(throws: NetworkDescriptionError.self) {
            try NetworkDescription(toml: "[[node]]\nid = 2\nkind = \"fgd212\"\nneighbors = [2]\n")
        }
    }

    @Test func theLargePresetIsZWavesLimitInAMeshOfAtMostFourHops() throws {
        let network = try #require(NetworkDescription.preset(named: "large"))
        #expect(network.nodes.map(\.id) == Array(2...232).map(UInt8.init))
        #expect(Set(network.nodes.map(\.kind)) == [.fgd212, .powernode6, .binarySwitch])
        let table = network.neighborTable
        var hops: [UInt8: Int] = [1: 0]
        var frontier: [UInt8] = [1]
        while !frontier.isEmpty {
            var next: [UInt8] = []
            for node in frontier {
                for other in table[node] ?? [] where hops[other] == nil {
                    hops[other] = (hops[node] ?? 0) + 1
                    next.append(other)
                }
            }
            frontier = next
        }
        #expect(hops.count == 232)
        #expect(hops.values.max() == 4)
        #expect((table[1] ?? []).count == 40)
    }
}

extension EmulatorSerialSuite {
    /// GET_ROUTING_INFO answers the stick's routing table; `move` changes the radio, and only the node's
    /// neighbour update brings that into the routing table.
    @Suite struct RoutingInfoTests {
        /// GET_ROUTING_INFO for `node`: the neighbours in its 29-byte bitmap.
        static func routingInfo(_ host: HostPort, _ node: UInt8) throws -> [UInt8] {
            let answer = host.transact(SerialFrame(.request, 0x80, [node, 0, 0, 3]))
            let frame = try #require(answer.frames.first { $0.function == 0x80 })
            #expect(frame.payload.count == 29)
            return (1...232).map { UInt8($0) }.filter {
                frame.payload[Int($0 - 1) / 8] & (UInt8(1) << UInt8(($0 - 1) % 8)) != 0
            }
        }

        @Test func routingInfoIsTheDescriptionsNeighbourTable() throws {
            let f = try EmulatorFixture(network: .house)
            #expect(try Self.routingInfo(f.host, 8) == [9])
            #expect(try Self.routingInfo(f.host, 9) == [1, 4, 5, 8])
            #expect(try Self.routingInfo(f.host, 1) == [2, 3, 4, 5, 6, 7, 9])
        }

        @Test func aMovedNodeIsInTheRoutingTableAfterItsNeighbourUpdate() throws {
            let f = try EmulatorFixture(network: .house)
            #expect(f.emulator.execute("move 8 1 2") == "ok")
            #expect(try Self.routingInfo(f.host, 8) == [9])  // the stick has not learnt it yet
            f.host.send(SerialFrame(.request, 0x48, [8, 0x31]))
            var statuses: [UInt8] = []
            while statuses.last != 0x22, let frame = f.host.nextFrame(timeout: 5) {
                if frame.function == 0x48, frame.payload.first == 0x31 { statuses.append(frame.payload[1]) }
            }
            #expect(statuses == [0x21, 0x22])
            #expect(try Self.routingInfo(f.host, 8) == [1, 2])
            #expect(try Self.routingInfo(f.host, 9) == [1, 4, 5])
            #expect(f.emulator.routingNeighbors(of: 2) == [1, 6, 7, 8])
        }

        @Test func moveRefusesUnknownNodes() throws {
            let f = try EmulatorFixture(network: .house)
            #expect(f.emulator.execute("move 40 1").hasPrefix("error"))
            #expect(f.emulator.execute("move 8 8").hasPrefix("error"))
            #expect(f.emulator.execute("move 8 77").hasPrefix("error"))
            #expect(f.emulator.execute("move 8 x").hasPrefix("error"))
            #expect(f.emulator.routingNeighbors(of: 8) == [9])
        }
    }
}
