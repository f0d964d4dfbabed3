// The harnesses' entry: SwiftPM links an executable target's `<Target>_main` as `main`, so each
// harness defines that symbol and hands its arguments to libFuzzer's driver here.

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// Runs libFuzzer (its usual flags and corpus folders in `argv`) over `testOneInput`.
public func runLibFuzzer(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                         _ testOneInput: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, testOneInput)
}
