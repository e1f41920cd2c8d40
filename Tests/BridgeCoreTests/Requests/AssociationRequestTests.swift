import BridgeCore
import Testing

/// `associations`, `associate` and `dissociate` are parsed and validated in the core: a malformed target or a
/// node associated with itself never reaches the Z-Wave backend.
@Suite struct AssociationRequestTests: RequestParsing {
    @Test func targetsAreNodesOrNodeEndpoints() throws {
        #expect(try parse(.associations, #"{"node":2}"#) == .associations(node: 2))
        #expect(
            try parse(.associate, #"{"node":2,"group":2,"target":4}"#)
                == .associate(node: 2, group: 2, target: AssociationTarget(node: 4)))
        #expect(
            try parse(.associate, #"{"node":2,"group":3,"target":"5:1"}"#)
                == .associate(node: 2, group: 3, target: AssociationTarget(node: 5, endpoint: 1)))
        #expect(
            try parse(.dissociate, #"{"node":"2","group":"2","target":"4"}"#)
                == .dissociate(node: 2, group: 2, target: AssociationTarget(node: 4)))
        #expect(BridgeRequest.Verb.associate.changesNetwork && BridgeRequest.Verb.dissociate.changesNetwork)
        #expect(!BridgeRequest.Verb.associations.changesNetwork)
    }

    @Test(
        arguments: [
            (BridgeRequest.Verb.associate, #"{"node":2,"group":2,"target":2}"#, "cannot be associated with itself"),
            (.dissociate, #"{"node":2,"group":2,"target":"2:1"}"#, "cannot be associated with itself"),
            (.associate, #"{"node":2,"group":2,"target":"4:x"}"#, "is not a node or node:endpoint"),
            (.associate, #"{"node":2,"group":2,"target":"four"}"#, "is not a node or node:endpoint"),
            (.associate, #"{"node":2,"group":2,"target":"4:0"}"#, "endpoint 0, outside 1...127"),
            (.associate, #"{"node":2,"group":2,"target":300}"#, "outside the Z-Wave node ids"),
            (.associate, #"{"node":2,"group":2,"target":[4]}"#, "argument \"target\" must be a node"),
            (.associate, #"{"node":2,"group":2}"#, "missing argument \"target\""),
            (.associate, #"{"node":2,"group":0,"target":4}"#, "argument \"group\" must be within 1...255"),
            (.dissociate, #"{"node":2,"target":4}"#, "missing argument \"group\""),
            (.associations, #"{"node":0}"#, "argument \"node\" must be within 1...232"),
            (.associate, #"{"node":2,"group":2,"target":4,"endpoint":1}"#, "unknown argument \"endpoint\""),
        ])
    func badArgumentsAreRefusedWithTheReason(verb: BridgeRequest.Verb, json: String, reason: String) throws {
        let refusal = try failure(verb, json)
        #expect(refusal?.contains(reason) == true, "\(refusal ?? "accepted")")
    }
}
