import BridgeCore
import Foundation
import IntegrationSupport
import LabSupport
import TestSupport
import Testing
import ZWaveEmulator

/// The Map page in headless Chromium against the real bridge and the emulated house (the garden pump, node 8, two
/// hops out through node 9): every node drawn on the ring of its hops, room filter and focus, click → node page; the
/// layout module's geometry; and the map of the `large` network (232 node ids) drawn in the browser, its time printed.
@Suite(
    .endToEnd, .timeLimit(.minutes(TestTime.scaled(minutes: 15))),
    .enabled(if: BrowserInstall.isInstalled || BrowserInstall.isRequired, Comment(rawValue: BrowserInstall.missing)))
struct DashboardMapBrowserTests {
    /// Reads the drawn map: `{node: hops}` of every node, and the faded, focused and neighbour nodes.
    static let readMap = """
        const done = arguments[arguments.length - 1];
        const nodes = [...document.querySelectorAll("#mesh-map .map-node")];
        const pick = (cls) => nodes.filter((n) => n.classList.contains(cls)).map((n) => Number(n.dataset.node));
        done({ hops: Object.fromEntries(nodes.map((n) => [n.dataset.node, n.dataset.hops])),
          faded: pick("faded"), focus: pick("focus"), neighbor: pick("neighbor"), dead: pick("dead"),
          hot: document.querySelector("#mesh-map .map-links.hot").getAttribute("d").split("M").length - 1,
          labels: nodes.map((n) => n.querySelector("text.label")?.textContent || "") });
        """

    /// Chooses `value` in the select `selector`, as a user does.
    static let choose = """
        const [selector, value, done] = arguments;
        const select = document.querySelector(selector);
        select.value = value;
        select.dispatchEvent(new Event("change"));
        done(select.value);
        """

    /// The layout module's geometry for a given mesh: the controller in the middle, every node at its ring's radius,
    /// no two at one place, each link once.
    static let checkLayout = """
        const [nodes, done] = arguments;
        import("/assets/map-layout.js").then(({ layoutMap, mapLinks }) => {
          const { center, radius, positions } = layoutMap(nodes, 1, 1000);
          const off = [];
          for (const entry of nodes) {
            const at = positions.get(entry.node);
            const ring = entry.hops > 0 ? entry.hops : 5;
            const distance = Math.hypot(at.x - center.x, at.y - center.y);
            if (Math.abs(distance - radius(ring)) > 0.01) off.push(entry.node);
          }
          const places = new Set([...positions.values()].map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`));
          const hub = positions.get(1);
          done({ off, distinct: places.size, placed: positions.size, links: mapLinks(nodes).length,
            centered: hub.x === center.x && hub.y === center.y });
        }, (error) => done({ error: String(error) }));
        """

    /// Draws the map of `data` into a fresh SVG and waits for the next painted frame; the time in ms.
    static let renderLarge = """
        const [data, done] = arguments;
        import("/assets/map.js").then(({ drawMap }) => {
          const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
          svg.setAttribute("class", "map");
          document.querySelector("#view").append(svg);
          const started = performance.now();
          drawMap(svg, data);
          requestAnimationFrame(() => requestAnimationFrame(() => {
            done({ ms: performance.now() - started, nodes: svg.querySelectorAll(".map-node").length,
              links: svg.querySelector(".map-links").getAttribute("d").split("M").length - 1 });
          }));
        }, (error) => done({ error: String(error) }));
        """

    /// The `large` network as the `neighbors` request answers it: neighbours from the description, hops by BFS.
    static func largeNeighbors() -> (data: JSONValue, links: Int) {
        let table = NetworkDescription.large.neighborTable
        var hops: [UInt8: Int] = [1: 0]
        var frontier: [UInt8] = [1]
        while !frontier.isEmpty {
            var next: [UInt8] = []
            for node in frontier {
                for other in (table[node] ?? []).sorted() where hops[other] == nil {
                    hops[other] = (hops[node] ?? 0) + 1
                    next.append(other)
                }
            }
            frontier = next
        }
        let nodes: [JSONValue] = table.keys.filter { $0 != 1 }.sorted().map { node in
            .object([
                ("node", .int(Int(node))), ("neighbors", .array((table[node] ?? []).sorted().map { .int(Int($0)) })),
                ("hops", hops[node].map { .int($0) } ?? .null), ("read_at", "2026-11-27T20:00:00Z"), ("dead", false),
            ])
        }
        let links = Set(table.flatMap { node, heard in heard.map { [min(node, $0), max(node, $0)] } }).count
        return (.object([("controller", 1), ("nodes", .array(nodes))]), links)
    }

    static func dictionary(_ value: JSONValue) -> [String: JSONValue] {
        guard case .object(let members) = value else { return [:] }
        return Dictionary(members, uniquingKeysWith: { first, _ in first })
    }

    static func ints(_ value: JSONValue?) -> [Int] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap { if case .int(let number) = $0 { number } else { nil } }.sorted()
    }

    @Test func theMapDrawsTheMeshAndFiltersAndFocuses() async throws {
        guard BrowserInstall.isInstalled else { throw TestSupportError(BrowserInstall.missing) }
        try await BrowserHouse.with(network: .house) { house, browser, _ in
            try await NeighborsRequestTests.waitUntilInterviewed(house.watcher, bridge: "web")
            try await browser.run(
                "open", [("url", .string(house.url + "network/map?token=\(DashboardBrowserTests.token)"))])
            // The house's nodes 2-9 (node 10 has not joined), once OpenZWave read each one's table.
            try await browser.run(
                "wait_text", [("selector", "#map-status"), ("contains", "8 nodes, up to 2 hops")], timeout: 120)
            var map = Self.dictionary(try await browser.run("script", [("source", .string(Self.readMap))]))
            let hops = Self.dictionary(map["hops"] ?? .null)
            #expect(hops["8"] == "2" && hops["9"] == "1" && hops["2"] == "1" && hops["1"] == "0", "\(hops)")
            #expect(hops.count == 9, "the controller and 8 nodes: \(hops)")
            guard case .array(let labels)? = map["labels"] else { throw TestSupportError("no labels") }
            #expect(labels.contains("bedroom/light"), "\(labels)")

            _ = try await browser.run(
                "script", [("source", .string(Self.choose)), ("args", ["#map-room", "bedroom"])])
            map = Self.dictionary(try await browser.run("script", [("source", .string(Self.readMap))]))
            #expect(
                Self.ints(map["faded"]) == [3, 4, 5, 6, 7, 8, 9], "room bedroom: \(map["faded"]?.serialized ?? "")")

            _ = try await browser.run("script", [("source", .string(Self.choose)), ("args", ["#map-room", ""])])
            _ = try await browser.run("script", [("source", .string(Self.choose)), ("args", ["#map-focus", "9"])])
            map = Self.dictionary(try await browser.run("script", [("source", .string(Self.readMap))]))
            #expect(Self.ints(map["focus"]) == [9])
            #expect(Self.ints(map["neighbor"]) == [4, 5, 8], "\(map["neighbor"]?.serialized ?? "")")
            #expect(Self.ints(map["faded"]) == [2, 3, 6, 7], "\(map["faded"]?.serialized ?? "")")
            #expect(map["hot"] == .int(4), "links of node 9 lit: \(map["hot"]?.serialized ?? "")")
            try await browser.run(
                "wait_text", [("selector", "#map-detail"), ("contains", "neighbours 1, 4, 5, 8")])
            try await browser.run("wait_text", [("selector", "#map-detail"), ("contains", "table read")])

            try await browser.run("click", [("selector", "#mesh-map a[href=\"/node/8\"]")])
            try await browser.run("wait_text", [("selector", "#view h2"), ("contains", "Node 8")])

            let layout = Self.dictionary(
                try await browser.run(
                    "script",
                    [
                        ("source", .string(Self.checkLayout)),
                        ("args", [Self.largeNeighbors().data["nodes"] ?? .null]),
                    ]))
            #expect(layout["off"] == .array([]), "nodes off their ring: \(layout)")
            #expect(layout["distinct"] == .int(232) && layout["placed"] == .int(232), "\(layout)")
            #expect(layout["centered"] == true)
            #expect(layout["links"] == .int(Self.largeNeighbors().links))

            let (large, links) = Self.largeNeighbors()
            let drawn = Self.dictionary(
                try await browser.run("script", [("source", .string(Self.renderLarge)), ("args", [large])]))
            #expect(drawn["nodes"] == .int(232), "\(drawn)")
            #expect(drawn["links"] == .int(links), "\(drawn)")
            print(
                "map of the large network (232 node ids, \(links) links) drawn and painted in \(drawn["ms"]?.serialized ?? "?") ms"
            )
        }
    }
}
