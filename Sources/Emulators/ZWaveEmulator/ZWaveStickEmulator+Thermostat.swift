internal import Dispatch

/// Control API of the radiator thermostat: what it was set to.
extension ZWaveStickEmulator {
    /// A radiator thermostat's heating setpoint (°C) and Thermostat Mode (0 off, 1 heat, 11 energy save heat, 15
    /// full power, 31 manufacturer specific); nil without such a node.
    public func thermostat(node: UInt8) -> (setpoint: Double, mode: UInt8)? {
        queue.sync {
            guard let thermostat = nodes[node] as? RadiatorThermostatNode, let heating = thermostat.setpoints[0x01]
            else { return nil }
            return (heating, thermostat.mode)
        }
    }
}
