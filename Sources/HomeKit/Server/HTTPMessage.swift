/// One HTTP/1.1 request as HAP controllers send it: a request line, headers and a `Content-Length` body (HAP uses
/// no chunked requests).
struct HTTPRequest: Sendable, Equatable {
    let method: String
    /// The path without its query, e.g. `/characteristics`.
    let path: String
    /// The query's `name=value` pairs in order.
    let query: [(String, String)]
    /// Header names in lower case.
    let headers: [String: String]
    let body: [UInt8]

    static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.method == rhs.method && lhs.path == rhs.path && lhs.headers == rhs.headers && lhs.body == rhs.body
            && lhs.query.map { "\($0.0)=\($0.1)" } == rhs.query.map { "\($0.0)=\($0.1)" }
    }

    func queryValue(_ name: String) -> String? { query.first { $0.0 == name }?.1 }
}

/// Cuts requests out of the received byte stream. A request that breaks the limits (headers over 8 KiB, a body
/// over 64 KiB) or is not HTTP/1.1 is an error; the connection answers it and closes.
struct HTTPRequestParser: Sendable {
    static let maximumHeader = 8192
    static let maximumBody = 65536

    enum Failure: Error, Sendable, Equatable {
        /// 400: a malformed request line or header, or headers over 8 KiB.
        case badRequest(String)
        /// 413: a body over 64 KiB.
        case bodyTooLarge(Int)
    }

    private var buffer: [UInt8] = []

    mutating func append(_ bytes: [UInt8]) { buffer += bytes }

    /// How many received bytes are held that no request returned by ``next()`` took yet.
    var bufferedCount: Int { buffer.count }

    /// The next complete request, or nil until more bytes arrive.
    mutating func next() throws(Failure) -> HTTPRequest? {
        guard let end = headerEnd() else {
            if buffer.count > Self.maximumHeader { throw .badRequest("the headers exceed 8 KiB") }
            return nil
        }
        guard end <= Self.maximumHeader else { throw .badRequest("the headers exceed 8 KiB") }
        let lines = String(decoding: buffer[0..<end], as: UTF8.self).split(
            separator: "\r\n", omittingEmptySubsequences: false)
        let requestLine = lines.first.map { $0.split(separator: " ", omittingEmptySubsequences: false) } ?? []
        guard requestLine.count == 3, requestLine[2] == "HTTP/1.1", !requestLine[0].isEmpty,
            requestLine[1].hasPrefix("/")
        else { throw .badRequest("the request line is not `METHOD /path HTTP/1.1`") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw .badRequest("a header line has no name")
            }
            let name = line[..<colon].lowercased()
            headers[name] = String(line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
        }
        guard headers["transfer-encoding"] == nil else { throw .badRequest("chunked requests are not supported") }
        var length = 0
        if let text = headers["content-length"] {
            guard let value = Int(text), value >= 0 else { throw .badRequest("Content-Length is not a number") }
            length = value
        }
        guard length <= Self.maximumBody else { throw .bodyTooLarge(length) }
        let bodyStart = end + 4
        guard buffer.count >= bodyStart + length else { return nil }
        let body = Array(buffer[bodyStart..<bodyStart + length])
        buffer.removeFirst(bodyStart + length)
        let target = requestLine[1]
        let pathPart = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let query: [(String, String)] =
            pathPart.count == 2
            ? pathPart[1].split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (String(parts[0]), parts.count == 2 ? String(parts[1]) : "")
            } : []
        return HTTPRequest(
            method: String(requestLine[0]), path: String(pathPart[0]), query: query, headers: headers, body: body)
    }

    /// The offset of the blank line (`\r\n\r\n`) that ends the headers.
    private func headerEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }
}

/// A response (`HTTP/1.1`) or an event (`EVENT/1.0`), as bytes.
struct HTTPResponse: Sendable, Equatable {
    let status: Int
    let contentType: String?
    let body: [UInt8]

    static let tlv8 = "application/pairing+tlv8"
    static let json = "application/hap+json"

    init(status: Int, contentType: String? = nil, body: [UInt8] = []) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    func encoded(protocol version: String = "HTTP/1.1") -> [UInt8] {
        var head = "\(version) \(status) \(Self.reason(status))\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        return Array(head.utf8) + body
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 207: "Multi-Status"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 413: "Payload Too Large"
        case 422: "Unprocessable Entity"
        case 470: "Connection Authorization Required"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
