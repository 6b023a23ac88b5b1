import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Change notifications for a set of folders from the platform's file events (inotify on
/// Linux, kqueue vnode events elsewhere), never polling. Each batch of changes that arrives
/// within `settle` seconds of the first becomes one element of `changes`.
final class FileEvents: Sendable {
    let changes: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let settle: Double
    #if os(Linux)
    private let descriptor: Int32
    #else
    private let sources = Mutex<[any DispatchSourceFileSystemObject]>([])
    #endif

    init(folders: [String], settle: Double = 0.15) throws {
        (changes, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.settle = settle
        #if os(Linux)
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw CocoaError(.fileReadUnknown) }
        watch(folders)
        let descriptor = self.descriptor, continuation = self.continuation, settle = self.settle
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                guard count > 0 else { return }
                // Editors save in bursts (write a temporary file, rename it over): wait for the
                // burst to settle, then report once.
                Thread.sleep(forTimeInterval: settle)
                var pending = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                while poll(&pending, 1, 0) > 0 { _ = read(descriptor, &buffer, buffer.count) }
                continuation.yield()
            }
        }
        #else
        let queue = DispatchQueue(label: "coachlab.watch")
        let last = Mutex(DispatchTime(uptimeNanoseconds: 0))
        for folder in folders {
            let handle = open(folder, O_EVTONLY)
            guard handle >= 0 else { continue }
            let source = DispatchSource.makeFileSystemObjectSource(fileDescriptor: handle, eventMask: [.write, .rename, .delete], queue: queue)
            source.setEventHandler { [continuation, settle] in
                let now = DispatchTime.now()
                let burst = last.withLock { last in
                    guard now.uptimeNanoseconds - last.uptimeNanoseconds > UInt64(settle * 1e9) else { return false }
                    last = now
                    return true
                }
                guard burst else { return }
                queue.asyncAfter(deadline: now + settle) { continuation.yield() }
            }
            source.setCancelHandler { close(handle) }
            source.resume()
            sources.withLock { $0.append(source) }
        }
        #endif
    }

    #if os(Linux)
    /// Watches `folders`, as well as those watched already: a folder already watched keeps its
    /// watch, and one that was replaced (deleted and made again, so a new inode) gets a new one.
    /// A watched folder that is deleted or moved away ends its watch with an event, which
    /// brings a rebuild, after which the caller watches the folders as they are then.
    func watch(_ folders: [String]) {
        let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_CREATE) | UInt32(IN_DELETE)
            | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)
        for folder in folders { _ = inotify_add_watch(descriptor, folder, mask) }
    }
    #else
    /// Watches `folders` besides those watched already.
    func watch(_ folders: [String]) {}
    #endif

    deinit {
        continuation.finish()
        #if os(Linux)
        close(descriptor)
        #else
        sources.withLock { for source in $0 { source.cancel() } }
        #endif
    }
}
