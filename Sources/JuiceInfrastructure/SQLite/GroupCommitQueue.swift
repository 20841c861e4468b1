import Synchronization

/// The transactions waiting for a ``SQLiteStore``'s next group commit, and whether a committer is
/// draining them.
///
/// A caller's transaction joins the queue; the first caller to find no committer running starts one.
/// The committer takes up to ``maximumGroup`` members at a time, oldest first, and stops when the queue
/// is empty (the next caller starts a new one).
final class GroupCommitQueue: Sendable {
    /// The most members that share one commit: a bound on how long a member waits for the others.
    let maximumGroup: Int
    private let state = Mutex(State())

    private struct State {
        var members: [GroupCommitMember] = []
        var committing = false
    }

    init(maximumGroup: Int) {
        self.maximumGroup = max(1, maximumGroup)
    }

    /// Adds `member`; true when the caller must start the committer (none is running).
    func enqueue(_ member: GroupCommitMember) -> Bool {
        state.withLock { state in
            state.members.append(member)
            guard !state.committing else { return false }
            state.committing = true
            return true
        }
    }

    /// Puts members that never ran back at the front, in their order.
    func requeue(_ members: some Collection<GroupCommitMember>) {
        state.withLock { $0.members.insert(contentsOf: members, at: 0) }
    }

    /// The next group, oldest first; nil when the queue is empty, and then the committer has stopped.
    func nextGroup() -> [GroupCommitMember]? {
        state.withLock { state in
            guard !state.members.isEmpty else {
                state.committing = false
                return nil
            }
            let group = Array(state.members.prefix(maximumGroup))
            state.members.removeFirst(group.count)
            return group
        }
    }

    /// How many transactions wait for a group (not counting the one being committed).
    var waiting: Int { state.withLock { $0.members.count } }
}
