import BridgeCore
import Testing

/// Every event type has one encoder: `type` first, then its fields in a fixed order (what scripts parse).
@Suite struct BridgeEventTests {
    @Test func eachEventEncodesAsTheContractSays() {
        let light = DeviceAddress(room: "bedroom", name: "light")
        let cases: [(BridgeEvent, String)] = [
            (
                .commandRejected(topic: "Thuis/device/x/y/set", payload: Array("on".utf8), reason: "unknown device"),
                #"{"type":"command_rejected","topic":"Thuis/device/x/y/set","payload":"on","payload_bytes":2,"reason":"unknown device"}"#
            ),
            (
                .commandFailed(device: light, command: "level 40", reason: "dead"),
                #"{"type":"command_failed","device":"bedroom/light","command":"level 40","reason":"dead"}"#
            ),
            (.adapterLost(.zwave, reason: "gone"), #"{"type":"adapter_lost","adapter":"zwave","reason":"gone"}"#),
            (.adapterRecovered(.cec), #"{"type":"adapter_recovered","adapter":"cec"}"#),
            (
                .nodeAvailability(.zwave(node: 2, instance: nil), online: false, devices: [light]),
                #"{"type":"node_dead","node":2,"device":"bedroom/light","devices":["bedroom/light"]}"#
            ),
            (
                .nodeAvailability(.cec(logicalAddress: 0), online: true, devices: []),
                #"{"type":"node_alive","logical_address":0,"device":null,"devices":[]}"#
            ),
            (.controller(.inclusion, .waiting), #"{"type":"inclusion_waiting"}"#),
            (.controller(.exclusion, .nodeFound), #"{"type":"exclusion_node_found"}"#),
            (.controller(.inclusion, .node(10)), #"{"type":"inclusion_adding","node":10}"#),
            (.controller(.exclusion, .node(10)), #"{"type":"exclusion_removing","node":10}"#),
            (.controller(.inclusion, .protocolDone(node: nil)), #"{"type":"inclusion_protocol_done"}"#),
            (.controller(.removeFailed, .protocolDone(node: 4)), #"{"type":"remove_failed_protocol_done","node":4}"#),
            (.controllerFailed(.inclusion, reason: "timeout"), #"{"type":"inclusion_failed","reason":"timeout"}"#),
            (.nodeAdded(node: 10), #"{"type":"node_added","node":10}"#),
            (.nodeRemoved(node: 10), #"{"type":"node_removed","node":10}"#),
            (.interviewProgress(node: 10, stage: "Probe"), #"{"type":"interview_progress","node":10,"stage":"Probe"}"#),
            (
                .interviewCompleted(node: 10, manufacturer: "FIBARO", product: "FGD212"),
                #"{"type":"interview_completed","node":10,"manufacturer":"FIBARO","product":"FGD212"}"#
            ),
            (
                .interviewFailed(node: 10, stage: "Probe", reason: "slow"),
                #"{"type":"interview_failed","node":10,"stage":"Probe","reason":"slow"}"#
            ),
            (
                .configurationApplied(
                    node: 2, changed: [.init(parameter: 28, from: 0, to: 1)],
                    failed: [.init(parameter: 9, reason: "no")]),
                #"{"type":"configuration_applied","node":2,"changed":[{"parameter":28,"from":0,"to":1}],"failed":[{"parameter":9,"reason":"no"}]}"#
            ),
            (
                .associations(
                    .init(
                        node: 2, added: [.init(group: 3, target: .init(node: 5, endpoint: 1))], present: 1, failed: [])),
                #"{"type":"associations_applied","node":2,"added":[{"group":3,"target":"5:1"}],"already_present":1,"failed":[]}"#
            ),
            (
                .associations(
                    .init(
                        node: 2, added: [], present: 0,
                        failed: [.init(group: 9, target: .init(node: 4), reason: "no group 9")])),
                #"{"type":"associations_failed","node":2,"added":[],"already_present":0,"failed":[{"group":9,"target":"4","reason":"no group 9"}]}"#
            ),
            (.cecReceived(frame: "0f:36"), #"{"type":"cec_rx","frame":"0f:36"}"#),
        ]
        for (event, json) in cases {
            #expect(event.description == json)
        }
    }
}
