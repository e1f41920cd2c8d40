internal import BridgeCore

/// `GET` and `PUT /characteristics`: reads with optional metadata, writes, write-responses and subscriptions.
extension HAPServer {
    /// `?id=1.10,2.10&meta=1&perms=1&type=1&ev=1`: 200 when every read succeeded, else 207 with each item's
    /// `status`; 400 for a missing or malformed `id`.
    func readCharacteristics(_ request: HTTPRequest, connection id: Int) async -> Reply {
        guard let text = request.queryValue("id"), let ids = Self.characteristicIDs(text) else {
            return Reply(response: Self.json(400, .object([("status", .int(HAPStatus.invalidValue.rawValue))])))
        }
        let flag = { (name: String) in request.queryValue(name) == "1" }
        let results = await model.read(ids)
        let described =
            flag("meta") || flag("perms") || flag("type") ? Self.characteristics(await model.database()) : [:]
        let subscriptions = connections[id]?.subscriptions ?? []
        let statuses = ids.map { id in
            switch results[id] {
            case .success?: HAPStatus.success
            case .failure(let status)?: status
            case nil: HAPStatus.resourceDoesNotExist
            }
        }
        let allSucceeded = statuses.allSatisfy { $0 == .success }
        let items = zip(ids, statuses).map { id, status in
            var members: [(String, JSONValue)] = [("aid", .int(id.aid)), ("iid", .int(id.iid))]
            if case .success(let value)? = results[id] { members.append(("value", value)) }
            if !allSucceeded { members.append(("status", .int(status.rawValue))) }
            let description = described[id]
            if flag("type"), let type = description?["type"] { members.append(("type", type)) }
            if flag("perms"), let perms = description?["perms"] { members.append(("perms", perms)) }
            if flag("meta"), case .object(let fields)? = description {
                members += fields.filter { Self.metadataKeys.contains($0.0) }
            }
            if flag("ev") { members.append(("ev", .bool(subscriptions.contains(id)))) }
            return JSONValue.object(members)
        }
        return Reply(response: Self.json(allSucceeded ? 200 : 207, .object([("characteristics", .array(items))])))
    }

    /// `{"characteristics":[{"aid","iid","value"?,"ev"?,"r"?}]}`: 204 when every item succeeded and none asked
    /// for a write-response, else 207 with each item's `status` (and `value` when `r`); 400 for a body that is
    /// not JSON, 422 for an item without `aid` and `iid` or with neither `value` nor `ev`.
    /// One write of a `PUT /characteristics` body: the characteristic, the value (nil: none), whether events go
    /// on or off (nil: unchanged), and whether the value is answered (`r`).
    struct Write: Sendable, Equatable {
        var id: CharacteristicID
        var value: JSONValue?
        var events: Bool?
        var respond: Bool
    }

    /// The writes of a `PUT /characteristics` body, in order, or the HTTP status that refuses it: 400 for a body
    /// that is not `{"characteristics": [...]}`, 422 for an item without `aid` and `iid` or with neither a value
    /// nor `ev`.
    static func writes(_ body: [UInt8]) -> Result<[Write], HTTPStatusRefusal> {
        guard let parsed = try? JSONValue.parse(body), case .array(let items)? = parsed["characteristics"] else {
            return .failure(HTTPStatusRefusal(status: 400))
        }
        var writes: [Write] = []
        for item in items {
            guard case .int(let aid)? = item["aid"], case .int(let iid)? = item["iid"] else {
                return .failure(HTTPStatusRefusal(status: 422))
            }
            var events: Bool?
            if case .bool(let flag)? = item["ev"] { events = flag }
            let value = item["value"]
            guard value != nil || events != nil else { return .failure(HTTPStatusRefusal(status: 422)) }
            var respond = false
            if case .bool(true)? = item["r"] { respond = true }
            writes.append(
                Write(
                    id: CharacteristicID(aid: aid, iid: iid), value: value, events: events,
                    respond: respond && value != nil))
        }
        return .success(writes)
    }

    func writeCharacteristics(_ request: HTTPRequest, connection id: Int) async -> Reply {
        let writes: [Write]
        switch Self.writes(request.body) {
        case .success(let parsed): writes = parsed
        case .failure(let refusal):
            return Reply(
                response: Self.json(refusal.status, .object([("status", .int(HAPStatus.invalidValue.rawValue))])))
        }
        let values = writes.compactMap { write in write.value.map { (write.id, $0) } }
        for (characteristic, value) in values { connections[id]?.echoes[characteristic] = value }
        let written = values.isEmpty ? [:] : await model.write(values)
        var statuses: [HAPStatus] = []
        for write in writes {
            var status = write.value == nil ? HAPStatus.success : written[write.id] ?? .resourceDoesNotExist
            if status != .success { connections[id]?.echoes[write.id] = nil }
            if let events = write.events, status == .success {
                status = await model.eventStatus(write.id)
                if status == .success {
                    if events {
                        connections[id]?.subscriptions.insert(write.id)
                    } else {
                        connections[id]?.subscriptions.remove(write.id)
                    }
                }
            }
            statuses.append(status)
        }
        let responded = writes.filter { $0.respond }.map { $0.id }
        let readBack = responded.isEmpty ? [:] : await model.read(responded)
        if statuses.allSatisfy({ $0 == .success }) && responded.isEmpty {
            return Reply(response: HTTPResponse(status: 204))
        }
        let answers = zip(writes, statuses).map { write, status in
            var members: [(String, JSONValue)] = [
                ("aid", .int(write.id.aid)), ("iid", .int(write.id.iid)), ("status", .int(status.rawValue)),
            ]
            if write.respond, status == .success, case .success(let value)? = readBack[write.id] {
                members.append(("value", value))
            }
            return JSONValue.object(members)
        }
        return Reply(response: Self.json(207, .object([("characteristics", .array(answers))])))
    }

    static let metadataKeys: Set<String> = [
        "format", "unit", "minValue", "maxValue", "minStep", "maxLen", "maxDataLen", "valid-values",
        "valid-values-range",
    ]

    /// `1.10,2.10` as ids; nil when any part is not `aid.iid`.
    static func characteristicIDs(_ text: String) -> [CharacteristicID]? {
        var ids: [CharacteristicID] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let numbers = part.split(separator: ".", omittingEmptySubsequences: false)
            guard numbers.count == 2, let aid = Int(numbers[0]), let iid = Int(numbers[1]) else { return nil }
            ids.append(CharacteristicID(aid: aid, iid: iid))
        }
        return ids.isEmpty ? nil : ids
    }

    /// Every characteristic of the attribute database by id.
    static func characteristics(_ database: JSONValue) -> [CharacteristicID: JSONValue] {
        var found: [CharacteristicID: JSONValue] = [:]
        guard case .array(let accessories)? = database["accessories"] else { return found }
        for accessory in accessories {
            guard case .int(let aid)? = accessory["aid"], case .array(let services)? = accessory["services"] else {
                continue
            }
            for service in services {
                guard case .array(let characteristics)? = service["characteristics"] else { continue }
                for characteristic in characteristics {
                    if case .int(let iid)? = characteristic["iid"] {
                        found[CharacteristicID(aid: aid, iid: iid)] = characteristic
                    }
                }
            }
        }
        return found
    }
}

/// The HTTP status a request body is refused with.
struct HTTPStatusRefusal: Error, Sendable, Equatable {
    let status: Int
}
