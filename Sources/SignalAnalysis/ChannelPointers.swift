/// One pointer per channel to a block's first frame, as the C kernels take them.
typealias ChannelPointers = UnsafePointer<UnsafePointer<Float>?>
