extension String {
    /// Decodes a NUL-terminated UTF-8 C array imported as a tuple (`char label[96]`).
    init<Tuple>(cTuple: Tuple) {
        self = withUnsafeBytes(of: cTuple) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
