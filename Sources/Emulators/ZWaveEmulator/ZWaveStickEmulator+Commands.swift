extension ZWaveStickEmulator {
    /// Executes one control line (the CLI's control channel) and returns a one-line result:
    /// `press <node> s1|s2 single|double|triple|hold|release`, `load <node> <endpoint> <watts>`,
    /// `toggle <node> [endpoint]`, `dead <node> on|off`, `loss <node> <percent> [seed]`, `join <node>` (network button),
    /// `nak`, `can`, `unplug`, `replug`, `latency <ms>`, `raw <hex bytes>`, `report <node> <hex bytes>`,
    /// `state <node> [endpoint]`, `move <node> <neighbour>...` (what the node hears on the radio from now on);
    /// for the battery and sensor kinds: `motion <node> on|off`, `door <node> open|close`, `tamper <node>`,
    /// `button <node> <1-4> 1x…5x|held|released` (`button <node> again`: the last one again, a retransmission),
    /// `battery <node> <0-100>`, `temperature <node> <°C>`, `sensor <node> temperature|humidity|luminance|uv <value>`,
    /// `wake <node>`, `lock <node> lock|unlock|jam`.
    public func execute(_ line: String) -> String {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let verb = words.first?.lowercased() else { return "error: empty command" }
        let args = Array(words.dropFirst())
        func node(_ i: Int) -> UInt8? { i < args.count ? UInt8(args[i]) : nil }
        func bytes(from i: Int) -> [UInt8]? {
            let values = args.dropFirst(i).map { UInt8($0.hasPrefix("0x") ? String($0.dropFirst(2)) : $0, radix: 16) }
            guard !values.isEmpty, values.allSatisfy({ $0 != nil }) else { return nil }
            return values.compactMap { $0 }
        }
        switch verb {
        case "press":
            guard let n = node(0), args.count >= 3, let button = DimmerButton(rawValue: args[1].lowercased()),
                let kind = PressKind(rawValue: args[2].lowercased())
            else { return "error: press <node> s1|s2 <kind>" }
            return pressButton(node: n, button: button, kind) ? "ok" : "error: node \(n) is not an included FGD212"
        case "load":
            guard let n = node(0), let ep = node(1), args.count >= 3, let w = Double(args[2]) else {
                return "error: load <node> <endpoint> <watts>"
            }
            return setLoad(node: n, endpoint: ep, watts: w) ? "ok" : "error: no node \(n)"
        case "toggle":
            guard let n = node(0) else { return "error: toggle <node> [endpoint]" }
            return toggleSwitch(node: n, endpoint: node(1) ?? 1) ? "ok" : "error: no switch there"
        case "dead":
            guard let n = node(0), args.count >= 2, ["on", "off"].contains(args[1]) else {
                return "error: dead <node> on|off"
            }
            setDead(node: n, args[1] == "on")
            return "ok"
        case "loss":
            guard let n = node(0), args.count >= 2, let percent = Int(args[1]), (0...100).contains(percent),
                args.count < 3 || UInt64(args[2]) != nil
            else { return "error: loss <node> <percent 0-100> [seed]" }
            setLoss(node: n, percent: percent, seed: args.count >= 3 ? UInt64(args[2]) : nil)
            return "ok"
        case "join", "leave":
            guard let n = node(0) else { return "error: \(verb) <node>" }
            return pressNetworkButton(node: n)
                ? "ok" : "error: controller not in inclusion/exclusion mode for node \(n)"
        case "nak":
            nakNextFrame()
            return "ok"
        case "can":
            canNextFrame()
            return "ok"
        case "unplug":
            unplug()
            return "ok"
        case "replug":
            do {
                try replug()
                return "ok"
            } catch {
                return "error: \(error)"
            }
        case "move":
            guard let n = node(0) else { return "error: move <node> <neighbour>... (1 = the stick)" }
            let heard = args.dropFirst().map { UInt8($0) }
            guard heard.allSatisfy({ $0 != nil }) else { return "error: move <node> <neighbour>... (node ids)" }
            return move(node: n, neighbors: heard.compactMap { $0 }).map { "error: \($0)" } ?? "ok"
        case "latency":
            guard args.count >= 1, let ms = Int(args[0]), ms >= 0 else { return "error: latency <ms>" }
            setRadioLatency(.milliseconds(ms))
            return "ok"
        case "raw":
            guard let b = bytes(from: 0) else { return "error: raw <hex bytes>" }
            injectRawBytes(b)
            return "ok"
        case "report":
            guard let n = node(0), let b = bytes(from: 1) else { return "error: report <node> <hex bytes>" }
            injectReport(from: n, b)
            return "ok"
        case "state":
            guard let n = node(0), let value = level(node: n, endpoint: node(1) ?? 0) else { return "error: no node" }
            return "level \(value)"
        default:
            return executeSensorLine(verb, args) ?? "error: unknown command \(verb)"
        }
    }
}
