import BridgeCore
import TestSupport
import Testing

/// `[[zwave.button]]`: node, button 1-255, one of the action words, a topic a scene could take, a payload.
@Suite struct ButtonConfigurationTests {
    static let stick = ConfigFixture(zwave: .init(port: "/dev/zwave"))

    func parse(_ table: String) throws(ConfigurationError) -> ZWaveSection? {
        try ConfigurationLoader.parse(text: Self.stick.text + "\n" + table).zwave
    }

    /// Button 1's double press on node 6 starts the movie scene.
    static let movie = """
        [[zwave.button]]
        node = 6
        button = 1
        action = "pressed_2x"
        topic = "Thuis/scene/movie"
        payload = "on"
        """

    @Test func aMappingIsRead() throws {
        let section = try #require(
            try parse(
                Self.movie + """


                    [[zwave.button]]
                    node = 6
                    instance = 1
                    button = 4
                    action = "held"
                    topic = "Thuis/scene/dim"
                    payload = ""
                    """))
        #expect(
            section.buttons == [
                ZWaveButtonConfig(node: 6, button: 1, action: .pressed2x, topic: "Thuis/scene/movie", payload: "on"),
                ZWaveButtonConfig(
                    node: 6, instance: 1, button: 4, action: .held, topic: "Thuis/scene/dim", payload: ""),
            ])
    }

    @Test func theTopicTableListsAMapping() throws {
        let text = Self.stick.text + "\n" + Self.movie
        let table = TopicTable(try ConfigurationLoader.parse(text: text)).description
        #expect(table.contains("zwave node 6 button 1 pressed_2x"), "\(table)")
        #expect(table.contains("Thuis/scene/movie"), "\(table)")
    }

    @Test func aBadMappingIsRefusedWithItsKeyPath() {
        let good = ["node = 6", "button = 1", "action = \"pressed\"", "topic = \"Thuis/scene/a\"", "payload = \"on\""]
        let cases: [(replace: Int?, line: String, key: String)] = [
            (1, "button = 0", "zwave.button[0].button"),
            (1, "button = 256", "zwave.button[0].button"),
            (2, "action = \"pressed_6x\"", "zwave.button[0].action"),
            (2, "action = \"hold\"", "zwave.button[0].action"),
            (2, "action = 1", "zwave.button[0].action"),
            (3, "topic = \"Thuis/scene/#\"", "zwave.button[0].topic"),
            (3, "topic = \"Thuis/bridge/hall/request/restart\"", "zwave.button[0].topic"),
            (0, "node = 300", "zwave.button[0].node"),
            (nil, "colour = \"red\"", "zwave.button[0].colour"),
        ]
        for entry in cases {
            var lines = good
            if let index = entry.replace { lines[index] = entry.line } else { lines.append(entry.line) }
            do {
                _ = try parse("[[zwave.button]]\n" + lines.joined(separator: "\n"))
                Issue.record("\(entry.line) was accepted")
            } catch {
                #expect(error.problems.map(\.keyPath) == [entry.key], "\(entry.line)")
            }
        }
        for missing in 1...4 {
            var lines = good
            let key = String(lines.remove(at: missing).prefix { $0 != " " })
            do {
                _ = try parse("[[zwave.button]]\n" + lines.joined(separator: "\n"))
                Issue.record("a mapping without \(key) was accepted")
            } catch {
                #expect(error.problems.map(\.keyPath) == ["zwave.button[0].\(key)"])
            }
        }
    }

    @Test func aRepeatedMappingIsADuplicate() {
        let table = """
            [[zwave.button]]
            node = 6
            button = 1
            action = "pressed"
            topic = "Thuis/scene/a"
            payload = "on"
            """
        do {
            _ = try parse(
                table + "\n\n" + table.split(separator: "\n").dropLast().joined(separator: "\n") + "\npayload = \"off\""
            )
            Issue.record("the duplicate was accepted")
        } catch {
            #expect(error.problems.map(\.keyPath) == ["zwave.button[1].topic"])
        }
    }
}
