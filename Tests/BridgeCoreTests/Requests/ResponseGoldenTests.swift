import BridgeCore
import Logging
import TestSupport
import Testing

/// The MQTT contract's response of every request verb, byte for byte: each kind of answer a driver returns
/// (``RequestResult``) encoded by the one encoder, and the whole response (`transaction`, `status`, `data` or
/// `error`) as the bridge publishes it. The golden texts are what the drivers wrote before they returned typed
/// results; a change to any of them is a change to the contract.
@Suite struct ResponseGoldenTests {
    /// One verb's answer: the request's arguments, the typed result and its golden `data`.
    struct Golden: Sendable, CustomTestStringConvertible {
        let verb: BridgeRequest.Verb
        let arguments: String
        let result: RequestResult
        let data: String

        var testDescription: String { "\(verb): \(data.prefix(40))" }
    }

    static let fgd212 = InclusionOutcome(
        node: 10, manufacturer: "FIBARO System", product: "FGD212 Dimmer 2", manufacturerID: "0x010f",
        productType: "0x0102", productID: "0x1000", interviewCompleted: true, stage: "Complete", switchInstances: [1])
    static let unknownSocket = InclusionOutcome(
        node: 12, manufacturer: "", product: "", manufacturerID: "", productType: "", productID: "",
        interviewCompleted: false, stage: "ManufacturerSpecific1", switchInstances: [1, 2])

    static let quietNode = NodeStatistics(
        node: 2, sent: 14, sentFailed: 1, retries: 2, received: .init(total: 12, duplicates: 0, unsolicited: 3),
        averageRequestRTT: 35, averageResponseRTT: 60, quality: 0, lastSent: "2026-11-29 12:00:01:123",
        lastReceived: "", route: nil)
    static let routedNode = NodeStatistics(
        node: 3, sent: 5, sentFailed: 0, retries: 0, received: .init(total: 4, duplicates: 1, unsolicited: 0),
        averageRequestRTT: 48, averageResponseRTT: 71, quality: 0, lastSent: "2026-11-29 12:00:02:005",
        lastReceived: "2026-11-29 12:00:02:050",
        route: .init(hops: 1, rssi: ["-60", "N/A"], repeaters: [2], lastFailedLink: .init(from: 2, to: 3)))
    static let directNode = NodeStatistics(
        node: 4, sent: 1, sentFailed: 0, retries: 0, received: .init(total: 1, duplicates: 0, unsolicited: 0),
        averageRequestRTT: 20, averageResponseRTT: 0, quality: 0, lastSent: "x", lastReceived: "y",
        route: .init(hops: 0, rssi: [], repeaters: [], lastFailedLink: nil))

    static let quietNodeJSON =
        #"{"node":2,"sent":14,"sent_failed":1,"retries":2,"received":12,"received_duplicates":0,"#
        + #""received_unsolicited":3,"average_request_rtt_ms":35,"average_response_rtt_ms":60,"quality":0,"#
        + #""last_sent":"2026-11-29 12:00:01:123","last_received":"","hops":null,"rssi":null,"route":null,"#
        + #""last_failed_link":null}"#
    static let routedNodeFields =
        #""sent":5,"sent_failed":0,"retries":0,"received":4,"received_duplicates":1,"received_unsolicited":0,"#
        + #""average_request_rtt_ms":48,"average_response_rtt_ms":71,"quality":0,"#
        + #""last_sent":"2026-11-29 12:00:02:005","last_received":"2026-11-29 12:00:02:050","hops":1,"#
        + #""rssi":["-60","N/A"],"route":[2],"last_failed_link":{"from":2,"to":3}}"#

    static let dimmerGroup = AssociationGroup(
        group: 2, label: "On/Off (S1)", maxMembers: 8,
        members: [AssociationTarget(node: 4), AssociationTarget(node: 5, endpoint: 1)])
    static let dimmerGroupJSON = #""group":2,"label":"On/Off (S1)","max":8,"members":["4","5:1"]}"#

    /// A node's health after `sent` frames.
    static func health(
        _ node: Int, _ status: NodeHealth.Status, sent: Int = 0, roundTrips: [Int] = [], queueWaits: [Int] = [],
        reason: String? = nil
    ) -> NodeHealth {
        var health = NodeHealth(node: node, status: status)
        health.sent = sent
        health.roundTrips = roundTrips
        health.queueWaits = queueWaits
        health.reason = reason
        return health
    }

    static let healthy = health(2, .tested, sent: 3, roundTrips: [20, 25, 31], queueWaits: [0, 5, 3])
    static let healthyJSON =
        #"{"node":2,"status":"tested","sent":3,"acknowledged":3,"failed":0,"rtt_min_ms":20,"rtt_mean_ms":25.3,"#
        + #""rtt_max_ms":31,"rating":10,"queued_max_ms":5}"#
    static let lossy = health(5, .tested, sent: 2, roundTrips: [150], queueWaits: [0, 12])
    static let blocked = health(
        6, .queueBlocked, sent: 1, roundTrips: [40], queueWaits: [0, 120_000],
        reason: "a frame waited 120 s in OpenZWave's send queue and was never sent; nothing was counted for it")
    static let unreachable = health(4, .unreachable, reason: "the library refused: node 4 is not known")

    static let goldens: [Golden] = [
        Golden(
            verb: .include, arguments: #"{"timeout_s":30}"#, result: .inclusion(fgd212),
            data: #"{"node":10,"manufacturer":"FIBARO System","product":"FGD212 Dimmer 2","manufacturer_id":"0x010f","#
                + #""product_type":"0x0102","product_id":"0x1000","interview":"completed","stage":"Complete","#
                + ##""stanza":"# node 10: FIBARO System FGD212 Dimmer 2; choose the room and name\n[[zwave.device]]\n"##
                + #"node = 10\nroom = \"room\"\nname = \"fgd212_dimmer_2\"\n"}"#),
        Golden(
            verb: .refresh, arguments: #"{"node":12}"#, result: .inclusion(unknownSocket),
            data: #"{"node":12,"manufacturer":"","product":"","manufacturer_id":"","product_type":"","product_id":"","#
                + #""interview":"failed","stage":"ManufacturerSpecific1","#
                + ##""stanza":"# node 12; choose the room and name\n[[zwave.device]]\nnode = 12\ninstance = 1\n"##
                + #"room = \"room\"\nname = \"node12_1\"\n\n[[zwave.device]]\nnode = 12\ninstance = 2\n"#
                + #"room = \"room\"\nname = \"node12_2\"\n"}"#),
        Golden(verb: .exclude, arguments: "{}", result: .excluded(node: 5), data: #"{"node":5}"#),
        Golden(
            verb: .cancel, arguments: "{}", result: .cancelled(operation: "include"), data: #"{"cancelled":"include"}"#),
        Golden(verb: .cancel, arguments: "{}", result: .cancelled(operation: nil), data: #"{"cancelled":null}"#),
        Golden(
            verb: .heal, arguments: #"{"node":3}"#, result: .healStarted(node: 3), data: #"{"node":3,"started":true}"#),
        Golden(verb: .heal, arguments: "{}", result: .healStarted(node: nil), data: #"{"node":null,"started":true}"#),
        Golden(
            verb: .removeFailed, arguments: #"{"node":7}"#, result: .failedNodeRemoved(node: 7), data: #"{"node":7}"#),
        Golden(
            verb: .getConfig, arguments: #"{"node":2,"parameter":28}"#,
            result: .configParameter(ConfigParameterValue(node: 2, parameter: 28, value: -1, size: 2)),
            data: #"{"node":2,"parameter":28,"value":-1,"size":2}"#),
        Golden(
            verb: .setConfig, arguments: #"{"node":2,"parameter":1,"value":5}"#,
            result: .configParameter(ConfigParameterValue(node: 2, parameter: 1, value: 5, size: 1)),
            data: #"{"node":2,"parameter":1,"value":5,"size":1}"#),
        Golden(
            verb: .configList, arguments: #"{"node":2}"#,
            result: .configParameters(
                ConfigParameterList(
                    node: 2,
                    parameters: [
                        ConfigParameter(
                            parameter: 1, label: "Minimum brightness level", value: 1, choice: nil, size: 1,
                            units: "%", readOnly: false),
                        ConfigParameter(
                            parameter: 9, label: "State after power failure", value: 1, choice: "previous state",
                            size: 1, units: "", readOnly: false),
                        ConfigParameter(
                            parameter: 50, label: "Firmware", value: nil, choice: nil, size: 0, units: "",
                            readOnly: true),
                    ])),
            data: #"{"node":2,"parameters":[{"parameter":1,"label":"Minimum brightness level","value":1,"size":1,"#
                + #""units":"%","read_only":false},{"parameter":9,"label":"State after power failure","value":1,"#
                + #""choice":"previous state","size":1,"read_only":false},{"parameter":50,"label":"Firmware","#
                + #""value":null,"read_only":true}]}"#),
        Golden(
            verb: .configList, arguments: #"{"node":3}"#,
            result: .configParameters(ConfigParameterList(node: 3, parameters: [])),
            data: #"{"node":3,"parameters":[]}"#),
        Golden(
            verb: .values, arguments: #"{"node":3}"#,
            result: .nodeValues(
                NodeValues(
                    node: 3,
                    values: [
                        NodeValue(
                            commandClass: 49, instance: 1, index: 1, genre: "user", label: "Air Temperature",
                            reading: .decimal(19.5), units: "C", readOnly: true),
                        NodeValue(
                            commandClass: 113, instance: 1, index: 6, genre: "user", label: "Access Control",
                            reading: .text("Door/Window Open"), units: "", readOnly: true),
                        NodeValue(
                            commandClass: 132, instance: 1, index: 0, genre: "system", label: "Wake-up Interval",
                            reading: .integer(3600), units: "Seconds", readOnly: false),
                        NodeValue(
                            commandClass: 37, instance: 1, index: 0, genre: "user", label: "Switch",
                            reading: .bool(false), units: "", readOnly: false),
                        NodeValue(
                            commandClass: 91, instance: 1, index: 256, genre: "user", label: "Scene Count",
                            reading: .none, units: "", readOnly: true),
                    ],
                    pending: [PendingParameter(node: 3, parameter: 1, value: 12, size: 1, since: 1_764_400_000)])),
            data: #"{"node":3,"values":[{"command_class":49,"instance":1,"index":1,"genre":"user","#
                + #""label":"Air Temperature","value":19.5,"units":"C","read_only":true},{"command_class":113,"#
                + #""instance":1,"index":6,"genre":"user","label":"Access Control","value":"Door/Window Open","#
                + #""read_only":true},{"command_class":132,"instance":1,"index":0,"genre":"system","#
                + #""label":"Wake-up Interval","value":3600,"units":"Seconds","read_only":false},{"#
                + #""command_class":37,"instance":1,"index":0,"genre":"user","label":"Switch","value":false,"#
                + #""read_only":false},{"command_class":91,"instance":1,"index":256,"genre":"user","#
                + #""label":"Scene Count","value":null,"read_only":true}],"pending":[{"node":3,"command":"set_config","#
                + #""parameter":1,"value":12,"size":1,"since":1764400000}]}"#),
        Golden(
            verb: .setConfig, arguments: #"{"node":2,"parameter":3,"value":30}"#,
            result: .configParameter(ConfigParameterValue(node: 2, parameter: 3, value: 30, size: 2, pending: true)),
            data: #"{"node":2,"parameter":3,"value":30,"size":2,"pending":true}"#),
        Golden(
            verb: .cecTransmit, arguments: #"{"frame":"10:04"}"#,
            result: .cecTransmitted(CECTransmitResult(frame: "10:04")),
            data: #"{"frame":"10:04"}"#),
        Golden(
            verb: .nodeStatistics, arguments: "{}", result: .nodeStatistics([quietNode, routedNode, directNode]),
            data: #"{"nodes":["# + quietNodeJSON + #",{"node":3,"# + routedNodeFields
                + #",{"node":4,"sent":1,"sent_failed":0,"retries":0,"received":1,"received_duplicates":0,"#
                + #""received_unsolicited":0,"average_request_rtt_ms":20,"average_response_rtt_ms":0,"quality":0,"#
                + #""last_sent":"x","last_received":"y","hops":0,"rssi":[],"route":[],"last_failed_link":null}]}"#),
        Golden(verb: .nodeStatistics, arguments: #"{"node":9}"#, result: .nodeStatistics([]), data: #"{"nodes":[]}"#),
        Golden(
            verb: .networkStats, arguments: "{}",
            result: .networkStatistics(
                NetworkStatistics(
                    nodes: [(quietNode, .alive), (routedNode, .dead)],
                    driver: [DriverCounter(name: "sof", value: 120), DriverCounter(name: "ack_waiting", value: 0)])),
            data: #"{"alive":1,"dead":1,"asleep":0,"nodes":[{"node":2,"status":"alive","sent":14,"sent_failed":1,"#
                + #""retries":2,"received":12,"received_duplicates":0,"received_unsolicited":3,"#
                + #""average_request_rtt_ms":35,"average_response_rtt_ms":60,"quality":0,"#
                + #""last_sent":"2026-11-29 12:00:01:123","last_received":"","hops":null,"rssi":null,"route":null,"#
                + #""last_failed_link":null},{"node":3,"status":"dead","# + routedNodeFields
                + #"],"driver":{"sof":120,"ack_waiting":0}}"#),
        Golden(
            verb: .networkStats, arguments: "{}",
            result: .networkStatistics(NetworkStatistics(nodes: [(quietNode, .asleep)], driver: [])),
            data: #"{"alive":0,"dead":0,"asleep":1,"nodes":[{"node":2,"status":"asleep","# + quietNodeJSON.dropFirst(10)
                + #"],"driver":{}}"#),
        Golden(
            verb: .network, arguments: "{}",
            result: .network(
                NetworkInfo(
                    homeID: "c0ffee01", controller: 1, openZWave: "1.6.1061", patchesWrittenFor: "1.6.1061",
                    patches: ["queue_timeout", "multi_channel_association"], patchesRefused: nil)),
            data: #"{"home_id":"c0ffee01","controller":1,"openzwave":"1.6.1061","patches_written_for":"1.6.1061","#
                + #""patches":["queue_timeout","multi_channel_association"],"patches_refused":null}"#),
        Golden(
            verb: .network, arguments: "{}",
            result: .network(
                NetworkInfo(
                    homeID: nil, controller: nil, openZWave: "1.6.900", patchesWrittenFor: "1.6.1061", patches: [],
                    patchesRefused: "OpenZWave 1.6.900 is not the version they were written for")),
            data: #"{"home_id":null,"controller":null,"openzwave":"1.6.900","patches_written_for":"1.6.1061","#
                + #""patches":[],"patches_refused":"OpenZWave 1.6.900 is not the version they were written for"}"#),
        Golden(
            verb: .associations, arguments: #"{"node":2}"#,
            result: .associations(
                AssociationGroups(
                    node: 2, controller: 1,
                    groups: [
                        AssociationGroup(
                            group: 1, label: "Lifeline", maxMembers: 1, members: [AssociationTarget(node: 1)]),
                        dimmerGroup,
                        AssociationGroup(group: 3, label: "", maxMembers: 0, members: []),
                    ])),
            data: #"{"node":2,"controller":1,"groups":[{"group":1,"label":"Lifeline","max":1,"members":["1"]},{"#
                + dimmerGroupJSON + #",{"group":3,"label":"","max":0,"members":[]}]}"#),
        Golden(
            verb: .associations, arguments: #"{"node":8}"#,
            result: .associations(AssociationGroups(node: 8, controller: nil, groups: [])),
            data: #"{"node":8,"controller":null,"groups":[]}"#),
        Golden(
            verb: .associate, arguments: #"{"node":2,"group":2,"target":"5:1"}"#,
            result: .associationGroup(node: 2, dimmerGroup), data: #"{"node":2,"# + dimmerGroupJSON),
        Golden(
            verb: .dissociate, arguments: #"{"node":2,"group":2,"target":3}"#,
            result: .associationGroup(node: 2, dimmerGroup), data: #"{"node":2,"# + dimmerGroupJSON),
        Golden(
            verb: .neighbors, arguments: #"{"refresh":true}"#,
            result: .neighbors(
                NeighborMap(
                    controller: 1,
                    nodes: [
                        NodeNeighbors(
                            node: 2, neighbors: [1, 3], hops: 1, readAt: nil, dead: false, refreshError: nil),
                        NodeNeighbors(
                            node: 5, neighbors: [], hops: nil, readAt: 1_795_322_282.999, dead: true,
                            refreshError: "the neighbour update of node 5 failed: the controller reported failed"),
                    ])),
            data: #"{"controller":1,"nodes":[{"node":2,"neighbors":[1,3],"hops":1,"read_at":null,"dead":false},"#
                + #"{"node":5,"neighbors":[],"hops":null,"read_at":"2026-11-22T04:38:02Z","dead":true,"#
                + #""refresh_error":"the neighbour update of node 5 failed: the controller reported failed"}]}"#),
        Golden(
            verb: .neighbors, arguments: "{}", result: .neighbors(NeighborMap(controller: nil, nodes: [])),
            data: #"{"controller":null,"nodes":[]}"#),
        Golden(
            verb: .healthCheck, arguments: #"{"frames":3}"#,
            result: .healthCheck(
                HealthReport(
                    frames: 3,
                    nodes: [healthy, NodeHealth(node: 3, status: .asleep), unreachable, lossy, blocked])),
            data: #"{"frames":3,"nodes":["# + healthyJSON
                + #",{"node":3,"status":"asleep","sent":0,"acknowledged":0,"failed":0,"rtt_min_ms":null,"#
                + #""rtt_mean_ms":null,"rtt_max_ms":null,"rating":null,"queued_max_ms":null},"#
                + #"{"node":4,"status":"unreachable","sent":0,"acknowledged":0,"failed":0,"rtt_min_ms":null,"#
                + #""rtt_mean_ms":null,"rtt_max_ms":null,"rating":null,"queued_max_ms":null,"#
                + #""reason":"the library refused: node 4 is not known"},"#
                + #"{"node":5,"status":"tested","sent":2,"acknowledged":1,"failed":1,"rtt_min_ms":150,"#
                + #""rtt_mean_ms":150.0,"rtt_max_ms":150,"rating":0,"queued_max_ms":12},"#
                + #"{"node":6,"status":"queue_blocked","sent":1,"acknowledged":1,"failed":0,"rtt_min_ms":40,"#
                + #""rtt_mean_ms":40.0,"rtt_max_ms":40,"rating":10,"queued_max_ms":120000,"#
                + #""reason":"a frame waited 120 s in OpenZWave's send queue and was never sent; "#
                + #"nothing was counted for it"}]}"#),
        Golden(
            verb: .healthCheck, arguments: #"{"node":9}"#, result: .healthCheck(HealthReport(frames: 10, nodes: [])),
            data: #"{"frames":10,"nodes":[]}"#),
    ]

    // MARK: - The encoder

    @Test(arguments: ResponseGoldenTests.goldens) func eachAnswerEncodesToItsGoldenData(_ golden: Golden) {
        #expect(golden.result.json.serialized == golden.data)
    }

    @Test func everyVerbHasAGoldenAnswer() {
        let covered = Set(Self.goldens.map(\.verb)).union([.devices])
        #expect(covered == Set(BridgeRequest.Verb.allCases))
    }

    @Test func theStanzaNamesTheProductOrTheNode() {
        let plug = InclusionOutcome(
            node: 7, manufacturer: "", product: "  Wall--Plug (EU)  ", manufacturerID: "", productType: "",
            productID: "", interviewCompleted: true, stage: "Complete", switchInstances: [])
        #expect(
            plug.stanza
                == "# node 7:   Wall--Plug (EU)  ; choose the room and name\n[[zwave.device]]\nnode = 7\nroom = \"room\"\n"
                + "name = \"wall_plug_eu\"\n")
        let symbols = InclusionOutcome(
            node: 8, manufacturer: "ACME", product: "***", manufacturerID: "", productType: "", productID: "",
            interviewCompleted: true, stage: "Complete", switchInstances: [3])
        #expect(symbols.stanza.hasSuffix("node = 8\nroom = \"room\"\nname = \"device\"\n"))
        #expect(symbols.stanza.hasPrefix("# node 8: ACME ***; choose"))
    }

    // MARK: - Events the drivers report as values

    @Test func healthCheckStepsEncodeToTheirGoldenEvents() {
        let events: [(HealthCheckStep, String)] = [
            (.started(nodes: [2, 3], frames: 3), #"{"type":"health_check_started","nodes":[2,3],"frames":3}"#),
            (
                .frame(HealthFrame(node: 2, frame: 1, of: 3, roundTrip: 20, queued: 0)),
                #"{"type":"health_check_frame","node":2,"frame":1,"of":3,"acknowledged":true,"rtt_ms":20,"#
                    + #""queued_ms":0}"#
            ),
            (
                .frame(HealthFrame(node: 5, frame: 2, of: 3, roundTrip: nil, queued: 7)),
                #"{"type":"health_check_frame","node":5,"frame":2,"of":3,"acknowledged":false,"rtt_ms":null,"#
                    + #""queued_ms":7}"#
            ),
            (
                .frame(HealthFrame(node: 5, frame: 3, of: 3, roundTrip: nil, queued: nil)),
                #"{"type":"health_check_frame","node":5,"frame":3,"of":3,"acknowledged":false,"rtt_ms":null,"#
                    + #""queued_ms":null}"#
            ),
            (.node(Self.healthy), #"{"type":"health_check_node","# + Self.healthyJSON.dropFirst()),
            (.completed(nodes: 2), #"{"type":"health_check_completed","nodes":2}"#),
        ]
        for (step, golden) in events {
            #expect(BridgeEvent.healthCheck(step).json.serialized == golden)
        }
    }

    @Test func aNodesDetailsEncodeToTheInventoryFields() {
        let source = DeviceSource.zwave(node: 2, instance: nil)
        let seen = NodeDetails(
            manufacturer: "FIBARO System", product: "FGD212 Dimmer 2", manufacturerID: "0x010f", productType: "0x0102",
            productID: "0x1000", interviewStage: "Complete", lastSeen: 1_795_322_282.999)
        let unseen = NodeDetails(
            manufacturer: "", product: "", manufacturerID: "", productType: "", productID: "",
            interviewStage: "ProtocolInfo", lastSeen: nil)
        let goldens: [(NodeDetails, String)] = [
            (
                seen,
                #"{"manufacturer":"FIBARO System","product":"FGD212 Dimmer 2","manufacturer_id":"0x010f","#
                    + #""product_type":"0x0102","product_id":"0x1000","interview_stage":"Complete","#
                    + #""last_seen":"2026-11-22T04:38:02Z"}"#
            ),
            (
                unseen,
                #"{"manufacturer":"","product":"","manufacturer_id":"","product_type":"","product_id":"","#
                    + #""interview_stage":"ProtocolInfo"}"#
            ),
        ]
        for (details, golden) in goldens {
            guard case .details(let event, let fields) = HardwareEvent.details(source, details) else {
                Issue.record("not a details event")
                continue
            }
            #expect(event == source)
            #expect(JSONValue.object(fields).serialized == golden)
        }
    }

    // MARK: - The whole response

    @Test func everyVerbsResponseIsItsTransactionStatusAndGoldenData() async throws {
        let handler = GoldenHandler()
        let (bridge, mqtt) = Self.bridge(handler)
        for (index, golden) in Self.goldens.enumerated() {
            await handler.answer(.success(golden.result))
            let arguments = golden.arguments.dropFirst().dropLast()
            let transaction = #""transaction":"g\#(index)""#
            await Self.request(
                bridge, golden.verb, "{" + transaction + (arguments.isEmpty ? "" : ",") + arguments + "}")
            let response = await mqtt.messages(on: "Thuis/bridge/living/response/\(golden.verb)").last
            #expect(response?.payload == #"{"transaction":"g\#(index)","status":"ok","data":"# + golden.data + "}")
            #expect(response?.retain == false)
        }
    }

    @Test func devicesAnswersWithTheInventory() async throws {
        let (bridge, mqtt) = Self.bridge(GoldenHandler())
        await Self.request(bridge, .devices, #"{"transaction":"d1"}"#)
        #expect(
            await mqtt.messages(on: "Thuis/bridge/living/response/devices").last?.payload
                == #"{"transaction":"d1","status":"ok","data":[{"topic":"Thuis/device/bedroom/light","room":"bedroom","#
                + #""name":"light","kind":"dimmer","adapter":"zwave","node":2,"configured":true,"alive":false}]}"#)
    }

    @Test func aFailedRequestAnswersWithItsReasonAndNoData() async throws {
        let handler = GoldenHandler()
        let (bridge, mqtt) = Self.bridge(handler)
        await handler.answer(.failure(RequestFailure("node 9 is not in the Z-Wave network")))
        await Self.request(bridge, .removeFailed, #"{"transaction":"e1","node":9}"#)
        #expect(
            await mqtt.messages(on: "Thuis/bridge/living/response/remove_failed").last?.payload
                == #"{"transaction":"e1","status":"error","error":"node 9 is not in the Z-Wave network"}"#)
        // A numeric transaction is echoed as it came; without one it is null.
        await Self.request(bridge, .getConfig, #"{"transaction":7,"node":2}"#)
        #expect(
            await mqtt.messages(on: "Thuis/bridge/living/response/get_config").last?.payload
                == #"{"transaction":7,"status":"error","error":"missing argument \"parameter\" (an integer 1...255)"}"#)
        await handler.answer(.success(.healStarted(node: nil)))
        await Self.request(bridge, .heal, "{}")
        #expect(
            await mqtt.messages(on: "Thuis/bridge/living/response/heal").last?.payload
                == #"{"transaction":null,"status":"ok","data":{"node":null,"started":true}}"#)
    }

    static func bridge(_ handler: GoldenHandler) -> (Bridge, FakeMQTTPort) {
        let mqtt = FakeMQTTPort()
        let light = DeviceDescriptor(
            address: DeviceAddress(room: "bedroom", name: "light"), kind: .dimmer,
            source: .zwave(node: 2, instance: nil))
        let bridge = Bridge(
            identity: BridgeIdentity(name: "living"), devices: [light], backends: [], requestHandlers: [handler],
            mqtt: mqtt, logger: Logger(label: "test"))
        return (bridge, mqtt)
    }

    static func request(_ bridge: Bridge, _ verb: BridgeRequest.Verb, _ payload: String) async {
        await bridge.receive(
            InboundMessage(
                topic: "Thuis/bridge/living/request/\(verb)", payload: Array(payload.utf8), retained: false))
    }
}

/// Serves every verb but `devices` with the answer the test sets.
actor GoldenHandler: BridgeRequestHandler {
    nonisolated let verbs = Set(BridgeRequest.Verb.allCases).subtracting([.devices])
    private var next: Result<RequestResult, RequestFailure> = .success(.cancelled(operation: nil))

    func answer(_ result: Result<RequestResult, RequestFailure>) { next = result }

    func handle(_ request: BridgeRequest, progress: RequestProgress) async throws(RequestFailure) -> RequestResult {
        try next.get()
    }
}
