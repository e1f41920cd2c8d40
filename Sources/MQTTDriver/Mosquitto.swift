internal import CMosquitto

/// Process-wide libmosquitto facts.
enum Mosquitto {
    static let success = Int32(MOSQ_ERR_SUCCESS.rawValue)
    static let noConnection = Int32(MOSQ_ERR_NO_CONN.rawValue)

    /// `mosquitto_lib_init` runs exactly once per process: Swift initialises a global `static let`
    /// lazily and thread-safely (swift_once). Never cleaned up (the process owns it until exit).
    static let libraryInitialised: Int32 = mosquitto_lib_init()

    /// Ensures the library is initialised; returns the `mosquitto_lib_init` result code.
    @discardableResult
    static func initialise() -> Int32 { libraryInitialised }
}
