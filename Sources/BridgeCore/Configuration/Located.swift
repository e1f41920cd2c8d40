/// A value read from devices.toml together with the key path it was read at (for cross-entry checks).
struct Located<Value> {
    let path: String
    let value: Value
}
