import ZWaveDriver

extension ZWaveEvent {
    var emulatorTestAllNodesQueried: Bool { if case .allNodesQueried = self { true } else { false } }
}

extension Duration {
    var emulatorTestSeconds: Double {
        let c = components
        return Double(c.seconds) + Double(c.attoseconds) / 1e18
    }
}
