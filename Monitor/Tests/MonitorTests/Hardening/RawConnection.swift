import NIOCore
import NIOExtras
import NIOPosix

/// A raw TCP connection to one of the monitor's ports, read line by line:
/// what a hostile client (or a hand-written handshake) sends, byte for byte.
enum RawConnection {
  static func open(_ port: Int) async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
    try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port) {
      channel in
      channel.eventLoop.makeCompletedFuture {
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineBasedFrameDecoder()))
        return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
      }
    }
  }
}
