/// Where a value report belongs, as a `DeviceQuirk` decides (`DeviceQuirk.attribute`).
enum ReportAttribution: Sendable, Equatable {
    /// Its own endpoint: the generic mapping applies.
    case asReported
    /// The endpoint (OpenZWave instance) given: counted and published there.
    case instance(UInt8)
    /// Counted for its own value (a wait for that value sees it), not published.
    case withheld
    /// Neither counted nor published.
    case ignored
}
