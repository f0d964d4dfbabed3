/// How a name a user types finds a listed one (a preset, a plugin's control): case, spaces and
/// punctuation do not count, so `"Bass Booster"`, `bassbooster` and `bass-booster` are one name.
public enum NameMatching {
    /// `name` reduced for matching: lower case, letters and digits only.
    public static func key(_ name: String) -> String {
        String(name.lowercased().filter { $0.isLetter || $0.isNumber })
    }
}
