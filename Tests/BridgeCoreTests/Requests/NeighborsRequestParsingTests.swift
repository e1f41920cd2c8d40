import BridgeCore
import Testing

/// The `neighbors` request's arguments: an optional node, an optional `refresh` flag, nothing else.
@Suite struct NeighborsRequestParsingTests {
    func parse(_ json: String) throws -> BridgeRequest {
        try BridgeRequest.parse(verb: .neighbors, arguments: try JSONValue.parse(Array(json.utf8)))
    }

    func failure(_ json: String) -> String? {
        do {
            _ = try parse(json)
            return nil
        } catch let error as RequestFailure {
            return error.reason
        } catch {
            return "not JSON: \(error)"
        }
    }

    @Test func nodeAndRefreshAreOptional() throws {
        #expect(try parse("{}") == .neighbors(node: nil, refresh: false))
        #expect(try parse(#"{"node":8}"#) == .neighbors(node: 8, refresh: false))
        #expect(try parse(#"{"node":"8","refresh":true}"#) == .neighbors(node: 8, refresh: true))
        #expect(try parse(#"{"refresh":true,"transaction":"t"}"#) == .neighbors(node: nil, refresh: true))
        #expect(BridgeRequest.Verb(rawValue: "neighbors") == .neighbors)
        #expect(!BridgeRequest.Verb.neighbors.changesNetwork)
    }

    @Test func badArgumentsAreNamed() {
        #expect(failure(#"{"refresh":"yes"}"#)?.contains(#""refresh" must be true or false"#) == true)
        #expect(failure(#"{"node":0}"#)?.contains("within 1...232") == true)
        #expect(failure(#"{"node":"eight"}"#)?.contains("must be an integer") == true)
        #expect(failure(#"{"hops":2}"#)?.contains(#"unknown argument "hops" for neighbors"#) == true)
        #expect(failure("[8]")?.contains("must be a JSON object") == true)
    }
}
