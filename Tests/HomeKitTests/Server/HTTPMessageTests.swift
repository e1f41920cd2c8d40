import Crypto
import Foundation
import HomeKitClient
import Testing

@testable import HomeKit

/// The request parser's framing and limits, the over-limit answer on a real connection, and the TXT records.
@Suite struct HTTPMessageTests {
    @Test func parsesPipelinedRequestsDeliveredInPieces() throws {
        var parser = HTTPRequestParser()
        let wire = Array(
            "PUT /characteristics?id=1.2&ev=1 HTTP/1.1\r\nContent-Length: 2\r\nHost: x\r\n\r\n{}GET /accessories HTTP/1.1\r\n\r\n"
                .utf8)
        var requests: [HTTPRequest] = []
        for byte in wire {
            parser.append([byte])
            while let request = try parser.next() { requests.append(request) }
        }
        #expect(requests.map(\.path) == ["/characteristics", "/accessories"])
        #expect(requests[0].body == Array("{}".utf8) && requests[0].queryValue("id") == "1.2")
        #expect(requests[0].headers["host"] == "x")
    }

    @Test func limits() {
        var header = HTTPRequestParser()
        header.append(Array("GET / HTTP/1.1\r\nX: ".utf8) + [UInt8](repeating: 0x61, count: 9000))
        #expect(throws: HTTPRequestParser.Failure.badRequest("the headers exceed 8 KiB")) { try header.next() }
        var body = HTTPRequestParser()
        body.append(Array("PUT /characteristics HTTP/1.1\r\nContent-Length: 70000\r\n\r\n".utf8))
        #expect(throws: HTTPRequestParser.Failure.bodyTooLarge(70000)) { try body.next() }
        var version = HTTPRequestParser()
        version.append(Array("GET / HTTP/1.0\r\n\r\n".utf8))
        #expect(throws: HTTPRequestParser.Failure.self) { try version.next() }
    }

    @Test func oversizedBodyIsAnswered413AndClosed() async throws {
        try await ServerFixture.run { server in
            try await server.connect { client in
                try await client.send(Array("PUT /characteristics HTTP/1.1\r\nContent-Length: 65537\r\n\r\n".utf8))
                let response = try #require(try await client.receive())
                #expect(response.status == 413)
                #expect(try await client.closes())
            }
        }
    }

    @Test func txtRecords() {
        let txt = HAPAdvertisement.txt(
            name: "Thuis", deviceID: "1A:2B:3C:4D:5E:6F", configurationNumber: 7, isPaired: false, category: 2,
            setupID: "7OSX")
        let expectedHash = Data(Array(SHA512.hash(data: Array("7OSX1A:2B:3C:4D:5E:6F".utf8)).prefix(4)))
            .base64EncodedString()
        #expect(
            txt.map { "\($0.0)=\($0.1)" } == [
                "c#=7", "ff=0", "id=1A:2B:3C:4D:5E:6F", "md=Thuis", "pv=1.1", "s#=1", "sf=1", "ci=2",
                "sh=\(expectedHash)",
            ])
        for length in 0..<7 {
            let bytes = (0..<length).map { UInt8($0 * 37 + 5) }
            #expect(HAPAdvertisement.base64(bytes) == Data(bytes).base64EncodedString())
        }
    }
}
