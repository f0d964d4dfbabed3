import ArgumentParser
import Aurender

/// The values shells offer after the options that take names.
enum CompletionValues {
    /// Every built-in preset's name and alias, as `--eq` takes them ("Bass Booster", "Increase Bass").
    static var presets: CompletionKind { .list(presetNames) }

    /// The built-in presets' names and aliases, read once: the command's options are made several
    /// times while parsing, and reading the preset table each time was a tenth of a short render's start-up.
    static let presetNames: [String] = ((try? PresetLookup(environment: [:]).available()) ?? []).flatMap { [$0.name] + $0.aliases }

    /// The decoders this build has, as `--decoder` takes them.
    static var decoders: CompletionKind { .list(ConversionOptions.decoderNames.split(separator: ", ").map(String.init)) }

    /// The resampler engines, as `--resampler` takes them.
    static var resamplers: CompletionKind { .list(ResamplerRegistry.engines.map(\.name)) }
}

/// The completion scripts `aurender --generate-completion-script SHELL` prints.
///
/// The argument parser completes a default subcommand's options only after its name
/// (`aurender render --eq`), while users type `aurender --eq`. Each script is the parser's own,
/// changed so that words that do not start with a subcommand's name are completed as the
/// default subcommand's (by completing as though `render` had been typed), and so that the
/// first word offers files beside the subcommands. Fish's script gets the preset names quoted:
/// the parser joins a list with spaces, which fish would split "Bass Booster" at.
enum CompletionScripts {
    /// The script for `shell`.
    static func script(for shell: CompletionShell) -> String {
        let script = AurenderCommand.completionScript(for: shell)
        let names = subcommandNames
        switch shell {
        case .bash:
            let pattern = names.joined(separator: "|")
            return script.replacingFirst("""
                    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

                """, with: """
                    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")
                    # No subcommand named: the words are the default subcommand's.
                    if [[ ! "${unparsed_words[0]}" = @(\(pattern)) ]] && [[ "${COMP_CWORD}" -gt 1 || "${cur}" = -* ]]; then
                        unparsed_words=(\(defaultName) "${unparsed_words[@]}")
                    fi

                """).replacingFirst("""
                        COMPREPLY+=($(compgen -W '\(names.joined(separator: " "))' -- "${cur}"))

                """, with: """
                        COMPREPLY+=($(compgen -W '\(names.joined(separator: " "))' -- "${cur}"))
                        __aurender_add_completions -f

                """)
        case .zsh:
            let pattern = names.joined(separator: "|")
            return script.replacingFirst("""
                    local -r command_name="${words[1]}"

                """, with: """
                    # No subcommand named: the words are the default subcommand's.
                    if [[ "${words[2]}" != (\(pattern)) ]] && [[ "${CURRENT}" -gt 2 || "${words[2]}" = -* ]]; then
                        words=("${words[1]}" \(defaultName) "${(@)words[2,-1]}")
                        (( CURRENT++ ))
                    fi
                    local -r command_name="${words[1]}"

                """).replacingFirst("""
                        _describe -V subcommand subcommands && ret=0

                """, with: """
                        _describe -V subcommand subcommands && ret=0
                        _files && ret=0

                """)
        case .fish:
            let presets = CompletionValues.presetNames
            return script.replacing("'\(presets.joined(separator: " "))'",
                                    with: "'\(presets.map { "\"\($0)\"" }.joined(separator: " "))'").replacingFirst("""
                    case 'aurender'

                """, with: """
                    case 'aurender'
                        # No subcommand named: the words are the default subcommand's.
                        if not contains -- "$unparsed_tokens[2]" \(names.joined(separator: " "))
                            if test (count $unparsed_tokens) -gt 1; or string match -q -- '-*' (__aurender_tokens -t)
                                set unparsed_tokens $unparsed_tokens[1] \(defaultName) $unparsed_tokens[2..]
                            end
                        end

                """) + """
                complete -c 'aurender' -n '__aurender_should_offer_completions_for_positional "aurender" -eq 1' -F

                """
        default:
            return script
        }
    }

    /// The subcommands' names, `help` included, as the scripts list them.
    private static var subcommandNames: [String] {
        AurenderCommand.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
    }

    /// The default subcommand's name: `render`.
    private static var defaultName: String { AurenderCommand.configuration.defaultSubcommand?.configuration.commandName ?? "render" }
}

private extension String {
    /// This text with the first `anchor` replaced (unchanged if a new parser version no longer
    /// writes it: the tests, which run the scripts, then fail).
    func replacingFirst(_ anchor: String, with replacement: String) -> String {
        replacing(anchor, with: replacement, maxReplacements: 1)
    }
}
