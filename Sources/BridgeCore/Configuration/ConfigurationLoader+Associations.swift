import TOMLKit

extension ConfigurationLoader {
    /// `associations = { 2 = [4], 3 = ["5:1"] }`: groups 1-255, each an array of targets, a node (`4` or `"4"`) or a
    /// node's endpoint (`"5:1"`), never the device's own node.
    static func readAssociations(_ table: TableReader, node: Int?) -> [Int: [AssociationTarget]]? {
        var associations: [Int: [AssociationTarget]] = [:]
        var valid = true
        for key in table.keys {
            guard let group = Int(key), String(group) == key, AssociationTarget.groupRange.contains(group) else {
                table.report(key, "group must be a number between 1 and 255 (got \(TableReader.quoted(key)))")
                valid = false
                continue
            }
            guard let array = table.table[key]?.array else {
                let got = table.table[key].map { TableReader.describe($0) } ?? "nothing"
                table.report(key, "must be an array of targets like [4, \"5:1\"] (got \(got))")
                valid = false
                continue
            }
            var targets: [AssociationTarget] = []
            for index in 0..<array.count {
                let path = ConfigurationKeyPath.element(index, of: table.keyPath(key))
                let element = array[index]
                let parsed: Result<AssociationTarget, AssociationTargetError>
                if let number = element.int {
                    parsed = AssociationTarget.parse(node: number)
                } else if let text = element.string {
                    parsed = AssociationTarget.parse(text)
                } else {
                    table.diagnostics.report(
                        path,
                        "must be a node like 4 or node:endpoint like \"5:1\" (got \(TableReader.describe(element)))")
                    valid = false
                    continue
                }
                switch parsed {
                case .success(let target) where target.node == node:
                    table.diagnostics.report(path, "node \(target.node) cannot be associated with itself")
                    valid = false
                case .success(let target):
                    if !targets.contains(target) { targets.append(target) }
                case .failure(let error):
                    table.diagnostics.report(path, "\(error)")
                    valid = false
                }
            }
            associations[group] = targets
        }
        return valid ? associations : nil
    }
}
