import BridgeCore
import Foundation
import IntegrationSupport
import LabSupport
import TestSupport
import Testing
import ZWaveEmulator

/// The node page's associations section in headless Chromium against the real bridge and the emulated house: the
/// FGD212's groups with their labels, maximums and members, a member added through the page reaching the emulated
/// node, and removed again. The time limit counts the wait for an end-to-end slot too: 15 minutes like the other
/// browser suites (at 10, a full run on a loaded machine ran out while LargeNetworkTests held the machine).
@Suite(
    .endToEnd, .timeLimit(.minutes(TestTime.scaled(minutes: 15))),
    .enabled(if: BrowserInstall.isInstalled || BrowserInstall.isRequired, Comment(rawValue: BrowserInstall.missing)))
struct DashboardAssociationsBrowserTests {
    /// Reads the drawn table: one entry per group row with its cells, its members and which have a remove button.
    static let readGroups = """
        const done = arguments[arguments.length - 1];
        done([...document.querySelectorAll("#associations tr[data-group]")].map((row) => {
          const cells = [...row.querySelectorAll("td")].map((cell) => cell.textContent);
          const members = [...row.querySelectorAll(".member")];
          return { group: row.dataset.group, label: cells[1], max: cells[2],
            members: members.map((m) => m.dataset.member),
            removable: members.filter((m) => m.querySelector("button")).map((m) => m.dataset.member) };
        }));
        """

    static func strings(_ value: JSONValue?) -> [String] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }

    @Test func theNodePageListsAddsAndRemovesAssociations() async throws {
        guard BrowserInstall.isInstalled else { throw TestSupportError(BrowserInstall.missing) }
        try await BrowserHouse.with(network: .house) { house, browser, _ in
            try await NeighborsRequestTests.waitUntilInterviewed(house.watcher, bridge: "web")
            try await browser.run("open", [("url", .string(house.url + "node/2?token=\(DashboardBrowserTests.token)"))])
            try await browser.run(
                "wait_text", [("selector", "#associations"), ("contains", "Dimmer(S2)")], timeout: 60)

            guard case .array(let groups) = try await browser.run("script", [("source", .string(Self.readGroups))])
            else { throw TestSupportError("no association rows") }
            #expect(
                groups.map { $0["label"] ?? .null }
                    == ["Lifeline", "On/Off(S1)", "Dimmer(S1)", "On/Off(S2)", "Dimmer(S2)"].map { .string($0) })
            #expect(groups.map { $0["max"] ?? .null } == ["1", "8", "8", "8", "8"].map { .string($0) })
            // The Lifeline holds the controller's endpoint 1, without a remove button: the bridge never removes it.
            let lifeline = groups.first ?? .null
            let members = Self.strings(lifeline["members"])
            let removable = Self.strings(lifeline["removable"])
            #expect(members == ["1:1"], "\(groups)")
            #expect(removable.isEmpty, "\(groups)")
            #expect(house.stick.associations(node: 2, group: 2)?.nodes == [])

            // Add node 8 (the garden pump) to group 2 through the page: the emulated node holds it.
            let row = "#associations tr[data-group=\"2\"]"
            try await browser.run("keys", [("selector", .string("\(row) input")), ("keys", ["8"])])
            try await browser.run("click", [("selector", .string("\(row) td.actions button"))])
            try await browser.run(
                "wait_text", [("selector", "#associations-status"), ("contains", "group 2: 8")], timeout: 60)
            try await browser.run("wait_text", [("selector", .string("\(row) td.members")), ("contains", "8")])
            #expect(house.stick.associations(node: 2, group: 2)?.nodes == [8])

            // Remove it with its button: the node no longer holds it, the page shows the group empty.
            try await browser.run("click", [("selector", .string("\(row) [data-member=\"8\"] button"))])
            try await browser.run(
                "wait_text", [("selector", "#associations-status"), ("contains", "group 2: no members")], timeout: 60)
            try await browser.run("wait_text", [("selector", .string("\(row) td.members")), ("contains", "—")])
            #expect(house.stick.associations(node: 2, group: 2)?.nodes == [])

            // A target the node cannot take is refused on the page with the bridge's reason, nothing changes.
            try await browser.run("keys", [("selector", .string("\(row) input")), ("keys", ["8:1"])])
            try await browser.run("click", [("selector", .string("\(row) td.actions button"))])
            try await browser.run(
                "wait_text",
                [("selector", "#associations-status"), ("contains", "node 8 is not a Multi Channel node")],
                timeout: 60)
            #expect(house.stick.associations(node: 2, group: 2)?.nodes == [])
            #expect(house.stick.associations(node: 2, group: 2)?.endpoints == [])
        }
    }
}
