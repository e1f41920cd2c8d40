/// The Z-Wave command-class ids the driver reads, sets or sends frames of, the command ids it sends and the
/// OpenZWave value indexes it reads, defined once.
enum CommandClass {
    static let basic: UInt8 = 0x20
    static let switchBinary: UInt8 = 0x25
    static let switchMultilevel: UInt8 = 0x26
    static let meter: UInt8 = 0x32
    static let centralScene: UInt8 = 0x5B
    static let doorLock: UInt8 = 0x62
    static let multiChannel: UInt8 = 0x60
    static let configuration: UInt8 = 0x70

    /// Basic Set.
    static let basicSet: UInt8 = 0x01
    /// Switch Multilevel Stop Level Change: a moving cover stops where it is.
    static let switchMultilevelStopLevelChange: UInt8 = 0x05
    /// Multi Channel Command Encapsulation (a command sent to one endpoint).
    static let multiChannelEncapsulation: UInt8 = 0x0D
    /// Meter Get.
    static let meterGet: UInt8 = 0x01

    /// OpenZWave's index of the Meter value in kWh (scale 0).
    static let meterKWhIndex: UInt16 = 0
    /// OpenZWave's index of the Meter value in W (scale 2).
    static let meterWattsIndex: UInt16 = 2
}
