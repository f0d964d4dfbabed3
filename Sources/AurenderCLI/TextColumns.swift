extension String {
    /// The text filled out with `fill` to `width` characters (kept whole when longer), after it
    /// for a left-aligned column, before it for a right-aligned one: how every listing the
    /// command prints lines its columns up.
    func padded(to width: Int, fill: Character = " ", alignedRight: Bool = false) -> String {
        let filling = String(repeating: fill, count: Swift.max(0, width - count))
        return alignedRight ? filling + self : self + filling
    }
}
